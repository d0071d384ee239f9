//===--- WarpCheckBase.cpp - shared plumbing of the warp- checks ----------===//

#include "WarpCheckBase.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::warp {

WarpCheckBase::WarpCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {
  AnalysisOptions.ThreadIdxYZUniform =
      Options.getLocalOrGlobal("WarpAlignedBlockDimX", false);
}

void WarpCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "WarpAlignedBlockDimX",
                AnalysisOptions.ThreadIdxYZUniform);
}

void WarpCheckBase::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDADevice), hasAttr(attr::CUDAGlobal)),
                   unless(isExpansionInSystemHeader()))
          .bind("fn"),
      this);
}

void WarpCheckBase::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || FD->isDependentContext() || !FD->getBody())
    return;
  Context = Result.Context;
  WarpAnalysis &WA = WarpAnalysis::get(*Result.Context, AnalysisOptions);
  if (const FunctionUniformity *FU = WA.function(FD))
    checkFunction(FD, *FU, WA);
}

void WarpCheckBase::onEndOfTranslationUnit() {
  Reported.clear();
  // Every check has matched by now: the shared analysis can go.
  if (Context)
    WarpAnalysis::release(*Context);
  Context = nullptr;
}

bool WarpCheckBase::firstReportAt(SourceLocation Loc) {
  return Reported.insert(Loc.getRawEncoding()).second;
}

StringRef WarpCheckBase::certainty(const Divergence &D) {
  return D.strongest() == Variance::Lane ? "" : "potentially ";
}

void WarpCheckBase::noteDivergence(const Divergence &D) {
  for (const DivergentBranch &B : D.Branches) {
    bool Lane = B.Value.V == Variance::Lane;
    if (B.Exit) {
      diag(B.Exit->getBeginLoc(), Lane ? "lanes exit here"
                                       : "lanes may exit here",
           DiagnosticIDs::Note);
      continue;
    }
    SourceLocation Loc = B.Condition ? B.Condition->getExprLoc()
                                     : B.Terminator->getBeginLoc();
    diag(Loc, Lane ? "lanes diverge here"
                   : "lanes may diverge here on a data-dependent condition",
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::warp
