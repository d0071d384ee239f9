//===--- MovedLanes.h - one warp's lanes as another's moved -----*- C++ -*-===//
//
// The exchange tables (WarpExchanges.h) need every term of an element index
// in each lane of up to 17 sample warps, in each iteration of the loops
// around the access. Most terms are the thread index put through a few
// operators: `2 * tid - (tid & (stride - 1))` in warp 3 is its value in warp
// 0 plus 192 in every lane while `stride` is at most 32. A warp's lanes of a
// value are the first warp's *moved by* D when each lane holds the first
// warp's value plus D, wrapped in the value's type, and is unknown exactly
// where the first warp's is. These rules say what an operator or a
// conversion moves by, from what its operands move by and their lanes in
// the first warp; each is exact (or gives up), so the lanes it stands for
// are the ones the evaluator would compute.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_MOVEDLANES_H
#define WARP_LINT_ANALYSIS_MOVEDLANES_H

#include "IntegerOps.h"

namespace clang::warp {

/// What \p To is \p From moved by in format \p F, if it is.
std::optional<int64_t> movedBetween(const LaneValues &From,
                                    const LaneValues &To, IntFormat F);

/// What `l op r` moves by where `l` moves by \p DL and `r` by \p DR, given
/// their lanes \p L and \p R in the first warp; \p Result is the format of
/// the operator's integer type (\p Integral false for any other type) and
/// \p LeftBits the width of `l`'s type, as LaneEvaluator::combine computes.
std::optional<int64_t> movedByOperator(BinaryOperatorKind Op,
                                       std::optional<int64_t> DL,
                                       std::optional<int64_t> DR,
                                       const LaneValues &L, const LaneValues &R,
                                       IntFormat Result, bool Integral,
                                       unsigned LeftBits);

/// What a value moving by \p D, of lanes \p V in the first warp, moves by
/// once converted from format \p From to format \p To (\p Integral false
/// where either type is not an integer).
std::optional<int64_t> movedByConversion(std::optional<int64_t> D,
                                         const LaneValues &V, IntFormat From,
                                         IntFormat To, bool Integral);

/// \p First moved by \p D in format \p F.
LaneValues moved(LaneValues First, int64_t D, IntFormat F);

} // namespace clang::warp

#endif
