//===--- AddressEvidence.h - why an address is the same in every lane -*- C++
//-*-===//
//
// The uniformity analysis calls an address uniform when it finds no reason
// for it to differ between lanes. A finding that says "every lane performs
// an atomic on the same address" needs a reason for the opposite: that the
// address is built only from what is the same in every lane by construction.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_ADDRESSEVIDENCE_H
#define WARP_LINT_ANALYSIS_ADDRESSEVIDENCE_H

#include "LaneEvaluator.h"

namespace clang::warp {

/// Whether \p E is the same in every lane by construction: built from
/// constants, block registers (blockIdx, blockDim, gridDim), lane
/// arithmetic that gives one value in every lane, globals and `__shared__`
/// variables, parameters, scalar locals and structured bindings whose every
/// value is such a value, and calls of such values, through arithmetic,
/// casts, members, subscripts and `&`/`*`. A local array,
/// struct or union, or a local whose address escapes, can be written per
/// lane in ways the analysis does not follow (a union member, a store
/// through a cast pointer, a reference a helper returns): nothing read
/// through one counts.
/// \p Lanes, when given, shows lane arithmetic to give one value in every
/// lane (`threadIdx.x / 32`).
bool isUniformByConstruction(const Expr *E, const FunctionUniformity &FU,
                             LaneEvaluator *Lanes = nullptr);

/// Whether some value in \p FU's function differs between lanes by lane
/// index (threadIdx, the lane id, a group rank, or what a callee computes
/// from them). A kernel with none does the same work in every lane, which
/// code means only when it runs one thread per block.
bool readsLaneIndex(const FunctionUniformity &FU);

} // namespace clang::warp

#endif
