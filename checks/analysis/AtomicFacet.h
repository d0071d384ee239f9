//===--- AtomicFacet.h - atomics whose callers decide the address -*- C++
//-*-===//
//
// The facet of the uniform-address atomic check: the atomics a function
// runs whose address is the same in every lane when its callers' arguments
// are uniform, so that the check reports them at the call that decides.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_ATOMICFACET_H
#define WARP_LINT_ANALYSIS_ATOMICFACET_H

#include "FunctionSummary.h"

namespace clang::warp {

/// An atomic read-modify-write, run by several lanes, whose address is the
/// same in every lane and which every lane that enters runs, when the
/// parameters in AddressParams are uniform (they feed the address or a
/// guard on the way to it).
struct UniformAtomic {
  const CallExpr *Atomic = nullptr;
  const FunctionDecl *Owner = nullptr;
  ParamSet AddressParams;
  /// The calls that lead from the summarised function to Owner, outermost
  /// first.
  llvm::SmallVector<const CallExpr *, 2> Path;
  /// Whether a branch inside the summarised function or the calls on the
  /// way decides which lanes reach it: not every lane that makes the call
  /// performs the atomic.
  bool Diverged = false;
};

/// Whether \p Info sets or clears constant bits (`atomicOr(flag, 1)`,
/// `atomicAnd(lock, ~1u)`): idempotent flag and lock-word updates, which
/// the compiler aggregates and whose order does not matter, not the sums
/// and counters whose serialization costs.
bool isFlagUpdate(const AtomicInfo &Info, ASTContext &Ctx);

class AtomicFacet : public SummaryFacet {
public:
  static constexpr FacetKind Kind = FacetKind::Atomics;

  /// Atomics whose address uniformity the callers decide.
  llvm::SmallVector<UniformAtomic, 1> Atomics;

  void atomic(const CallExpr *Call, const AtomicInfo &Info, const Divergence &D,
              const SummaryWalk &W) override;
  void call(const CallExpr *Call, const FunctionSummary &Callee,
            const Divergence &D, const SummaryWalk &W) override;
  bool dependsOn(ParamSet Params) const override;
};

} // namespace clang::warp

#endif
