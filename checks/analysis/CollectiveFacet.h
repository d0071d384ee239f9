//===--- CollectiveFacet.h - collectives callers must enter whole -*- C++
//-*-===//
//
// The facet of the checks about who runs a warp collective (full masks in
// divergent code, stale masks, partial-warp launches): the full-mask
// collectives a function runs with its lanes still together, and the
// collectives whose member mask is one of its parameters.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_COLLECTIVEFACET_H
#define WARP_LINT_ANALYSIS_COLLECTIVEFACET_H

#include "FunctionSummary.h"

namespace clang::warp {

/// A collective with a full mask that a function runs while the lanes that
/// entered it are still together: callers must enter with the whole warp.
struct FullWarpNeed {
  const Stmt *Collective = nullptr;    ///< the innermost collective
  const FunctionDecl *Owner = nullptr; ///< the function that contains it
  /// Parameters whose variance would diverge the warp before it (0: any call
  /// from divergent code is a bug).
  ParamSet ParamConditions;
  /// The statement of the summarised function that leads to it: the
  /// collective, or the call whose callee runs it. One helper run twice
  /// (whole, then under a branch) is two needs.
  const Stmt *Via = nullptr;
};

/// A parameter that ends up as the member mask of a collective.
struct MaskParam {
  unsigned Index = 0;
  const Stmt *Collective = nullptr;
  const FunctionDecl *Owner = nullptr;
  bool DivergedInside = false; ///< the collective runs under divergence
  /// Parameters whose variance would diverge the lanes before the collective
  /// (`if (lane < 16) __shfl_sync(m, ...)` with `lane` a parameter): a caller
  /// passing a varying argument there narrows the lanes that reach it.
  ParamSet ParamConditions;
  const Stmt *Via = nullptr; ///< as FullWarpNeed::Via
};

class CollectiveFacet : public SummaryFacet {
public:
  static constexpr FacetKind Kind = FacetKind::Collectives;

  llvm::SmallVector<FullWarpNeed, 2> FullWarp;
  llvm::SmallVector<MaskParam, 2> MaskParams;

  void collective(const Stmt *St, const CollectiveUse &Use, const Divergence &D,
                  const SummaryWalk &W) override;
  void call(const CallExpr *Call, const FunctionSummary &Callee,
            const Divergence &D, const SummaryWalk &W) override;
  bool dependsOn(ParamSet Params) const override;
};

} // namespace clang::warp

#endif
