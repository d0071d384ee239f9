//===--- AtomicFacet.cpp - atomics whose callers decide the address -------===//

#include "AtomicFacet.h"
#include "WarpAnalysis.h"

namespace clang::warp {

/// Whether the check of \p FD's own body reports the atomic \p Atomic (its
/// address is uniform there whatever the arguments).
static bool reportedInPlace(const CallExpr *Atomic, const FunctionDecl *FD,
                            WarpAnalysis &WA) {
  const FunctionUniformity *Generic = WA.function(FD);
  std::optional<AtomicInfo> Info = matchAtomic(Atomic);
  if (!Generic || !Info)
    return false;
  WarpValue Address = Generic->atomicAddress(*Info);
  Divergence D = Generic->divergenceAt(Atomic);
  return Address.isUniform() && !Address.Params && !D.ParamConditions &&
         !D.hasDataBranch() && !Generic->isSingleLane(Atomic);
}

/// Whether the generic analysis of \p FD hands \p A concrete (uniform,
/// parameter-free) arguments at \p Call: FD's own check then reports it at
/// that call.
static bool concreteInGeneric(const UniformAtomic &A, const CallExpr *Call,
                              const FunctionDecl *FD, WarpAnalysis &WA) {
  const FunctionUniformity *Generic = WA.function(FD);
  if (!Generic)
    return false;
  bool Varying = false;
  return !mapParams(A.AddressParams, Call, *Generic, Varying,
                    /*WithObject=*/true) &&
         !Varying;
}

bool isFlagUpdate(const AtomicInfo &Info, ASTContext &Ctx) {
  return (Info.Op == AtomicOp::And || Info.Op == AtomicOp::Or) && Info.Value &&
         !Info.Value->isValueDependent() && Info.Value->isEvaluatable(Ctx);
}

void AtomicFacet::atomic(const CallExpr *Call, const AtomicInfo &Info,
                         const Divergence &D, const SummaryWalk &W) {
  if (isFlagUpdate(Info, W.WA.context()))
    return;
  WarpValue Address = W.FU.atomicAddress(Info);
  // The callers' to report when their arguments decide, through our
  // parameters (the address, or a guard such as `if (tid == 0)`) or, in a
  // call-site analysis, through their values.
  ParamSet Decided = Address.Params | D.ParamConditions;
  if (Info.isReadModifyWrite() && Address.isUniform() &&
      !W.FU.isSingleLane(Call) && !D.hasDataBranch() &&
      (Decided || (W.FU.isSpecialized() && !reportedInPlace(Call, W.FD, W.WA))))
    Atomics.push_back({Call, W.FD, Decided, {}, D.isDiverged()});
}

void AtomicFacet::call(const CallExpr *Call, const FunctionSummary &Callee,
                       const Divergence &D, const SummaryWalk &W) {
  const AtomicFacet *C = Callee.facet<AtomicFacet>();
  if (!C || W.FU.isSingleLane(Call) || D.hasDataBranch())
    return;
  for (const UniformAtomic &A : C->Atomics) {
    bool Varying = false;
    ParamSet Mapped = mapParams(A.AddressParams, Call, W.FU, Varying,
                                /*WithObject=*/true) |
                      D.ParamConditions;
    if (!Varying && (Mapped || (W.FU.isSpecialized() &&
                                !concreteInGeneric(A, Call, W.FD, W.WA)))) {
      UniformAtomic Through = A;
      Through.AddressParams = Mapped;
      Through.Path.insert(Through.Path.begin(), Call);
      Through.Diverged |= D.isDiverged();
      Atomics.push_back(std::move(Through));
    }
  }
}

bool AtomicFacet::dependsOn(ParamSet Params) const {
  return llvm::any_of(Atomics, [&](const UniformAtomic &A) {
    return bool(A.AddressParams & Params);
  });
}

} // namespace clang::warp
