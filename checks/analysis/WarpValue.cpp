//===--- WarpValue.cpp - the uniformity lattice ---------------------------===//

#include "WarpValue.h"
#include <algorithm>

namespace clang::warp {

WarpValue WarpValue::constant(int64_t C) {
  WarpValue R;
  R.Constant = C;
  if (C != 0 && C % 32 == 0)
    R.S = Shape::WarpMultiple;
  return R;
}

WarpValue WarpValue::varying(Variance V, const Stmt *Origin) {
  WarpValue R;
  R.V = V;
  R.Origin = Origin;
  return R;
}

WarpValue WarpValue::derived(Variance V, const WarpValue &From,
                             const Stmt *Origin) {
  WarpValue R = varying(V, Origin);
  R.LaunchShape = From.LaunchShape;
  return R;
}

WarpValue WarpValue::splitBy(const WarpValue &V, const WarpValue &Cond,
                             const Stmt *Site) {
  WarpValue R = combine(V, derived(Cond.V, Cond, Site));
  // Lanes split only where rows do: with whole rows in a warp the value is
  // still a uniform base plus the lane index (`i += 32` in a loop whose
  // bound is read from the row).
  if (V.LaneAffine && Cond.LaunchShape) {
    R.LaneAffine = true;
    R.AffineBaseByShape = true;
  }
  return R;
}

WarpValue WarpValue::param(unsigned Index) {
  WarpValue R;
  R.Params = ParamSet::of(Index);
  return R;
}

WarpValue WarpValue::join(const WarpValue &A, const WarpValue &B) {
  WarpValue R = combine(A, B);
  if (A.S == B.S) {
    R.S = A.S;
    R.OffsetMod32 = A.OffsetMod32 == B.OffsetMod32 ? A.OffsetMod32 : -1;
  } else if (A.isUniform() && B.isUniform() && A.isWarpMultiple() &&
             B.isWarpMultiple()) {
    R.S = Shape::WarpMultiple; // `extra ? 32 : 0`
  } else if (A.isLaneIndexed() && B.isLaneIndexed()) {
    // A lane id is threadIdx.x + 0 within one warp.
    R.S = Shape::ThreadIndex;
    R.OffsetMod32 = A.laneOffset() == B.laneOffset() ? A.laneOffset() : -1;
  }
  R.Single = A.Single == B.Single ? A.Single : OneLane::None;
  R.Whole = A.Whole == B.Whole ? A.Whole : OneLane::None;
  R.LaneAffine = A.LaneAffine && B.LaneAffine;
  R.AffineBaseByShape =
      R.LaneAffine && (A.AffineBaseByShape || B.AffineBaseByShape);
  if (A.Constant == B.Constant)
    R.Constant = A.Constant;
  return R;
}

WarpValue WarpValue::combine(const WarpValue &A, const WarpValue &B) {
  WarpValue R;
  R.V = std::max(A.V, B.V);
  R.Params = A.Params | B.Params;
  R.Origin = A.V >= B.V ? (A.Origin ? A.Origin : B.Origin)
                        : (B.Origin ? B.Origin : A.Origin);
  // Varying only by the launch shape if every varying input is.
  R.LaunchShape = R.isVarying() && (A.isUniform() || A.LaunchShape) &&
                  (B.isUniform() || B.LaunchShape);
  return R;
}

} // namespace clang::warp
