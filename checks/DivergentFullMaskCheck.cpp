//===--- DivergentFullMaskCheck.cpp - warp-divergent-full-mask ------------===//

#include "DivergentFullMaskCheck.h"
#include "analysis/WarpCollectives.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::warp {

DivergentFullMaskCheck::DivergentFullMaskCheck(StringRef Name,
                                               ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {}

void DivergentFullMaskCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {}

void DivergentFullMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(hasAncestor(ifStmt()), unless(isExpansionInSystemHeader()))
          .bind("call"),
      this);
}

void DivergentFullMaskCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  std::optional<CollectiveUse> Use = matchCollective(Call);
  if (!Use || !Use->Mask)
    return;
  Expr::EvalResult R;
  if (!Use->Mask->EvaluateAsInt(R, *Result.Context) ||
      !isFullMask(R.Val.getInt().getZExtValue()))
    return;
  diag(Call->getBeginLoc(), "full mask passed to %0 in divergent code")
      << Use->Info->Name;
}

} // namespace clang::tidy::warp
