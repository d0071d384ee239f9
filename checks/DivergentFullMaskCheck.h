//===--- DivergentFullMaskCheck.h - warp-divergent-full-mask ----*- C++ -*-===//

#ifndef WARP_LINT_DIVERGENTFULLMASKCHECK_H
#define WARP_LINT_DIVERGENTFULLMASKCHECK_H

#include "FixItText.h"
#include "WarpCheckBase.h"
#include "analysis/CollectiveFacet.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::warp {

/// Flags a mask naming all 32 lanes given to a warp collective where the warp
/// may be diverged, directly or through a helper called from divergent code.
///
/// For the user-facing documentation see:
/// docs/checks/warp-divergent-full-mask.md
class DivergentFullMaskCheck : public WarpCheckBase {
public:
  DivergentFullMaskCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {
    declareFacet(FacetKind::Collectives);
    declareUnknownCallerOption(/*DefaultVarying=*/true);
  }

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
  void onEndOfTranslationUnit() override;

private:
  /// A full-mask collective with live lanes absent, waiting to be reported
  /// with the others of its cause.
  struct FullMaskSite {
    CollectiveUse Use;
    Divergence D;
    Judged J;
  };
  void checkCollective(const CollectiveUse &Use, const FunctionUniformity &FU,
                       WarpAnalysis &WA);
  /// Reports the pending sites, one finding per cause.
  void reportCollectives(const FunctionUniformity &FU, ASTContext &Ctx);
  /// Reports \p F, with the other sites of its cause as notes.
  void report(const FullMaskSite &F,
              llvm::ArrayRef<const FullMaskSite *> Others,
              const FunctionUniformity &FU, ASTContext &Ctx);
  void checkCall(const CallExpr *Call, const FunctionUniformity &FU,
                 WarpAnalysis &WA);
  /// Reports a collective on a tile (`tile.shfl_down`, `cg::reduce(tile,
  /// ...)`) that lanes of the tile do not reach. A coalesced group is made
  /// of the lanes that formed it: warp-stale-mask's question.
  void checkTileCollective(const GroupCollective &T,
                           const FunctionUniformity &FU, WarpAnalysis &WA);
  /// Reports a call whose callee needs the whole warp where lanes may have
  /// left; returns whether it did.
  bool reportFullWarpNeed(const CallExpr *Call, const FunctionDecl *Callee,
                          const CollectiveFacet &Needs,
                          const FunctionUniformity &FU, WarpAnalysis &WA);
  /// Reports a full mask passed to a helper that uses it for a collective
  /// where lanes may have left.
  void reportFullMaskArgument(const CallExpr *Call, const FunctionDecl *Callee,
                              const CollectiveFacet &Needs,
                              const FunctionUniformity &FU, WarpAnalysis &WA);
  /// Adds the ballot-mask rewrite; returns false when it does not apply.
  /// Sets \p Declared to the mask name whose declaration the fix carries.
  bool addBallotFix(DiagnosticBuilder &Diag, const CollectiveUse &Use,
                    const DivergentBranch &Branch, const FunctionUniformity &FU,
                    ASTContext &Ctx, SharedName *&Declared);
  /// Says what to do where no fix is attached: pass a ballot mask, or for a
  /// shuffle that would read lanes outside it (\p ReadsWithin false) keep
  /// the lanes together with a neutral value.
  void noteSuggestion(const CollectiveUse &Use, const DivergentBranch &Branch,
                      bool ReadsWithin);

  /// The mask variable of an `if` (and side) that fixes share.
  llvm::DenseMap<std::pair<const Stmt *, unsigned>, SharedName> BallotNames;
  FreshNames Names;
  std::vector<FullMaskSite> Pending;
};

} // namespace clang::tidy::warp

#endif
