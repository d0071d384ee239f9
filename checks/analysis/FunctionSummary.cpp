//===--- FunctionSummary.cpp - what callers learn of a function -----------===//

#include "FunctionSummary.h"
#include "AtomicFacet.h"
#include "CollectiveFacet.h"

namespace clang::warp {

SummaryFacet::~SummaryFacet() = default;

std::unique_ptr<SummaryFacet> makeFacet(FacetKind K) {
  switch (K) {
  case FacetKind::Collectives:
    return std::make_unique<CollectiveFacet>();
  case FacetKind::Atomics:
    return std::make_unique<AtomicFacet>();
  }
  llvm_unreachable("unknown facet kind");
}

bool FunctionSummary::dependsOn(ParamSet Params) const {
  if (Result.Params & Params)
    return true;
  for (const ParamWrite &W : ParamWrites)
    if (W.Written && (W.Value.Params & Params))
      return true;
  return llvm::any_of(Facets, [&](const std::unique_ptr<SummaryFacet> &F) {
    return F && F->dependsOn(Params);
  });
}

} // namespace clang::warp
