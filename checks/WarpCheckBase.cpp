//===--- WarpCheckBase.cpp - shared plumbing of the warp- checks ----------===//

#include "WarpCheckBase.h"
#include "analysis/LaunchLedger.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::warp {

WarpCheckBase::WarpCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), TidyContext(Context) {
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
  if (!FD || !FD->getBody())
    return;
  if (!isAnalysedDefinition(FD))
    return;
  Context = Result.Context;
  WarpAnalysis &WA = WarpAnalysis::get(*Result.Context, AnalysisOptions);
  if (const FunctionUniformity *FU = WA.function(FD)) {
    CurrentFunction = FD;
    CurrentAnalysis = &WA;
    checkFunction(FD, *FU, WA);
    CurrentFunction = nullptr;
    CurrentAnalysis = nullptr;
  }
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

unsigned WarpCheckBase::hiddenSoFar() const {
  return TidyContext->getStats().ErrorsIgnoredNOLINT;
}

bool WarpCheckBase::passesLineFilter(SourceLocation Loc) const {
  // clang-tidy's own rule (ClangTidyDiagnosticConsumer::passesLineFilter),
  // known here before the warning it drops is finalized.
  const std::vector<FileFilter> &Filters =
      TidyContext->getGlobalOptions().LineFilter;
  if (Filters.empty() || !Context)
    return true;
  const SourceManager &SM = Context->getSourceManager();
  OptionalFileEntryRef File =
      SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
  if (!File)
    return true;
  unsigned Line = SM.getExpansionLineNumber(Loc);
  for (const FileFilter &F : Filters)
    if (File->getName().ends_with(F.Name))
      return F.LineRanges.empty() ||
             llvm::any_of(F.LineRanges, [&](const FileFilter::LineRange &R) {
               return R.first <= Line && Line <= R.second;
             });
  return false;
}

void WarpCheckBase::declarationEmitted(SharedName &N, unsigned HiddenBefore,
                                       SourceLocation Loc) {
  if (hiddenSoFar() == HiddenBefore && passesLineFilter(Loc))
    N.Declared = true;
}

StringRef WarpCheckBase::certainty(const Divergence &D) {
  return D.strongest() == Variance::Lane ? "" : "potentially ";
}

void WarpCheckBase::noteDivergence(const Divergence &D) {
  for (const DivergentBranch &B : D.Branches) {
    bool Lane = B.Value.V == Variance::Lane;
    if (B.Exit) {
      diag(B.Exit->getBeginLoc(),
           Lane ? "lanes exit here" : "lanes may exit here",
           DiagnosticIDs::Note);
      continue;
    }
    SourceLocation Loc =
        B.Condition ? B.Condition->getExprLoc() : B.Terminator->getBeginLoc();
    diag(Loc,
         Lane ? "lanes diverge here"
              : "lanes may diverge here on a data-dependent condition",
         DiagnosticIDs::Note);
  }
  if (D.onlyByLaunchShape())
    noteLaunchShape(D.Branches.front());
}

void WarpCheckBase::notePath(const DivergencePath &Path) {
  for (const CallExpr *Call : Path.Calls)
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      diag(Call->getBeginLoc(), "%0 is called here", DiagnosticIDs::Note)
          << Callee;
  for (const DivergentBranch &B : Path.At.Branches) {
    bool Lane = B.Value.V == Variance::Lane;
    SourceLocation Loc = B.Exit        ? B.Exit->getBeginLoc()
                         : B.Condition ? B.Condition->getExprLoc()
                                       : B.Terminator->getBeginLoc();
    diag(Loc,
         B.Exit ? (Lane ? "with these arguments, lanes exit here in %0"
                        : "with these arguments, lanes may exit here in %0")
                : (Lane ? "with these arguments, lanes diverge here in %0"
                        : "with these arguments, lanes may diverge here in "
                          "%0 on a data-dependent condition"),
         DiagnosticIDs::Note)
        << Path.In;
  }
}

void WarpCheckBase::noteLaunchShape(const DivergentBranch &B) {
  SourceLocation Loc = B.Exit        ? B.Exit->getBeginLoc()
                       : B.Condition ? B.Condition->getExprLoc()
                                     : B.Terminator->getBeginLoc();
  const FunctionDecl *FD = CurrentFunction;
  std::vector<KernelLaunch> Launches;
  if (FD && CurrentAnalysis && FD->hasAttr<CUDAGlobalAttr>())
    Launches = CurrentAnalysis->launchesOf(FD);
  StringRef Why =
      !FD || !FD->hasAttr<CUDAGlobalAttr>()
          ? "the block's shape is not known inside a device function"
      : Launches.empty() ? "no launch of this kernel is seen"
                         : "a launch of this kernel does not show it";
  diag(Loc,
       "the lanes split here only if threadIdx.y or threadIdx.z differ "
       "inside a warp, that is if blockDim.x is not a multiple of 32; %0: if "
       "blockDim.x always is a multiple of 32, set the option "
       "WarpAlignedBlockDimX to true",
       DiagnosticIDs::Note)
      << Why;
  // The CLI may still find the kernel's launches in another unit.
  if (FD && FD->hasAttr<CUDAGlobalAttr>() && Launches.empty())
    if (LaunchLedger *Ledger = launchLedger()) {
      const SourceManager &SM = Context->getSourceManager();
      Ledger->launchDependent(realFileOf(Loc, SM),
                              SM.getFileOffset(SM.getFileLoc(Loc)), usrOf(FD));
    }
  for (const KernelLaunch &L : Launches)
    if (!L.Block.warpAligned()) {
      diag(L.Site->getBeginLoc(),
           "launched here with a block whose x extent is not known to be a "
           "multiple of 32",
           DiagnosticIDs::Note);
      break;
    }
}

} // namespace clang::tidy::warp
