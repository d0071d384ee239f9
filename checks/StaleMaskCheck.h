//===--- StaleMaskCheck.h - warp-stale-mask ---------------------*- C++ -*-===//

#ifndef WARP_LINT_STALEMASKCHECK_H
#define WARP_LINT_STALEMASKCHECK_H

#include "FixItText.h"
#include "WarpCheckBase.h"
#include "analysis/MaskProvenance.h"
#include <map>
#include <optional>
#include <tuple>

namespace clang::tidy::warp {

/// A helper that uses a mask parameter may branch on another of its
/// arguments first; when that argument differs between lanes, fewer lanes
/// reach the helper's collective than reach the call.
struct HelperDivergence {
  const Expr *Argument = nullptr; ///< the lane-varying argument, if any
  const FunctionDecl *Callee = nullptr;
  const Stmt *Collective = nullptr; ///< where the helper uses the mask
  const CallExpr *Call = nullptr;   ///< the call of the helper
};

/// Flags masks computed (by __activemask(), __ballot_sync, a parameter) before
/// lanes diverged further and used after that divergence, where they may name
/// lanes that no longer reach the collective.
///
/// For the user-facing documentation see: docs/checks/warp-stale-mask.md
class StaleMaskCheck : public WarpCheckBase {
public:
  StaleMaskCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {
    declareFacet(FacetKind::Collectives);
    declareUnknownCallerOption(/*DefaultVarying=*/true);
  }
  void onEndOfTranslationUnit() override;

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;

private:
  /// Reports \p Mask (or, with \p Group, a coalesced group) used by
  /// \p Use after the lanes that made it diverged further.
  void checkUse(const Stmt *Use, const Expr *Mask, StringRef What,
                const FunctionUniformity &FU, ASTContext &Ctx,
                const HelperDivergence &Helper = {}, bool Group = false);
  /// Adds the recomputed-ballot rewrite; returns the mask name whose
  /// declaration the fix carries, if any.
  SharedName *addRecomputeFix(DiagnosticBuilder &Diag, const DivergentBranch &B,
                              const CallExpr *Source, const Expr *Mask,
                              const FunctionUniformity &FU, ASTContext &Ctx);
  void noteHelperDivergence(const HelperDivergence &Helper,
                            const FunctionUniformity &FU);
  /// The witness, lanes and consequence of \p J at \p Use.
  void noteStaleLanes(const Stmt *Use, const Judged &J, StringRef Absent,
                      ASTContext &Ctx);
  void checkParameterUse(const Stmt *Use, const ParmVarDecl *P, StringRef What,
                         const FunctionUniformity &FU);
  /// Reports a shuffle whose source lane and mask come from two different
  /// `__activemask()` calls.
  void checkLeaderAgreement(const CollectiveUse &Use);
  FreshNames Names;
  /// The recomputed mask of an `if` (side, lanes it is taken over) that
  /// fixes share.
  std::map<std::tuple<const Stmt *, bool, std::string>, SharedName> BranchMasks;
  /// Where the masks of the function being checked were made.
  std::optional<MaskProvenance> Provenance;
};

} // namespace clang::tidy::warp

#endif
