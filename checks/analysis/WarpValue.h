//===--- WarpValue.h - the uniformity lattice -------------------*- C++ -*-===//
//
// What the analysis knows about one value across the 32 lanes of a warp.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_WARPVALUE_H
#define WARP_LINT_ANALYSIS_WARPVALUE_H

#include "ParamSet.h"
#include "clang/AST/Stmt.h"
#include <cstdint>
#include <optional>

namespace clang::warp {

/// Why a value may differ between lanes, ordered from "same everywhere" to
/// "certainly differs".
enum class Variance : uint8_t {
  Uniform, ///< the same in every lane (given uniform parameters, see Params)
  Data,    ///< differs when the data it was loaded from differs per lane
  Lane     ///< derived from the lane's own index: differs by construction
};

/// The arithmetic shape of a value, kept only where it buys precision.
enum class Shape : uint8_t {
  Other,
  ThreadIndex,  ///< threadIdx.x plus a uniform offset: distinct in every lane
  LaneId,       ///< the lane index 0..31 (threadIdx.x % 32, %laneid, rank)
  WarpMultiple, ///< uniform multiple of 32 (warpSize, 64)
  /// blockDim.x: taken as a multiple of 32 (a warp-aligned block, as CUDA
  /// code assumes), and the stride of threadIdx.y in the linear thread index
  BlockDimX,
  /// threadIdx.y, which differs inside a warp only when blockDim.x is not a
  /// multiple of 32
  RowIndex,
  /// threadIdx.y * blockDim.x: the linear thread index minus threadIdx.x.
  /// Warps are cut from the linear index, so this plus threadIdx.x is a
  /// ThreadIndex in every block shape, and its quotient by a multiple of 32
  /// is the warp's index whenever blockDim.x divides 32 or is a multiple of it
  RowStart,
  /// %lanemask_lt and the like, possibly ANDed with a uniform mask: the
  /// population count of it is the lane's rank among the mask's lanes
  LaneMask,
  ActiveMask,  ///< __activemask(): the lanes that run this point together
  ActiveCount, ///< how many lanes run this point together (their count)
  /// The address of this lane's own storage (a local, a kernel parameter):
  /// distinct per lane and never null
  LocalAddress,
  /// ... whose contents are the same in every lane: loads through it are
  /// uniform (`&params.args` of a kernel parameter)
  UniformLocalAddress
};

/// For a boolean: whether at most one lane of a warp can see it as true (or
/// false), as for `lane == 0` (or `lane != 0`).
enum class OneLane : uint8_t { None, WhenTrue, WhenFalse };

struct WarpValue {
  Variance V = Variance::Uniform;
  Shape S = Shape::Other;
  int8_t OffsetMod32 = -1; ///< ThreadIndex: offset mod 32, -1 unknown
  OneLane Single = OneLane::None;
  /// For a boolean: whether all 32 lanes run together where it is true (or
  /// false), as for `coalesced_threads().size() == 32`.
  OneLane Whole = OneLane::None;
  ParamSet Params; ///< uniform only if these parameters are
  std::optional<int64_t> Constant;
  const Stmt *Origin = nullptr; ///< where the variance was introduced
  /// Varying only because threadIdx.y/z may differ inside a warp, which
  /// happens only when blockDim.x is not a multiple of 32.
  bool LaunchShape = false;
  /// Exactly a uniform value plus the lane index (threadIdx.x, the lane id,
  /// `base + threadIdx.x` stepped by uniform amounts): two such values
  /// differ by the same amount in every lane, so their difference and their
  /// comparison are uniform.
  bool LaneAffine = false;
  /// For a LaneAffine value: its base varies, but only by the launch shape
  /// (`threadIdx.y * n + threadIdx.x`), so two such values differ by an
  /// amount that is the same in a warp whenever blockDim.x is a multiple
  /// of 32.
  bool AffineBaseByShape = false;

  bool isUniform() const { return V == Variance::Uniform; }
  bool isVarying() const { return !isUniform(); }
  /// Distinct in every lane of a warp: threadIdx.x + u or the lane id.
  bool isLaneIndexed() const {
    return S == Shape::ThreadIndex || S == Shape::LaneId;
  }
  /// A uniform multiple of 32: a constant one (0 included), warpSize or
  /// blockDim.x.
  bool isWarpMultiple() const {
    return S == Shape::WarpMultiple || S == Shape::BlockDimX || Constant == 0;
  }
  bool isLocalAddress() const {
    return S == Shape::LocalAddress || S == Shape::UniformLocalAddress;
  }
  /// The offset from the lane id modulo 32, -1 when unknown.
  int8_t laneOffset() const { return S == Shape::LaneId ? 0 : OffsetMod32; }

  static WarpValue uniform() { return {}; }
  static WarpValue constant(int64_t C);
  static WarpValue varying(Variance V, const Stmt *Origin);
  /// Varying by \p V because \p From varies (keeping its launch-shape
  /// cause), from \p Origin on: a load through a varying address, a
  /// variable written under a varying branch.
  static WarpValue derived(Variance V, const WarpValue &From,
                           const Stmt *Origin);
  static WarpValue param(unsigned Index);
  /// \p V as left by lanes that may have split on a branch whose condition
  /// is \p Cond (varying), at \p Site.
  static WarpValue splitBy(const WarpValue &V, const WarpValue &Cond,
                           const Stmt *Site);

  /// The least upper bound of two values (a variable assigned both).
  static WarpValue join(const WarpValue &A, const WarpValue &B);
  /// The value of an operation that mixes both operands with no shape rule.
  static WarpValue combine(const WarpValue &A, const WarpValue &B);

  bool operator==(const WarpValue &O) const {
    return V == O.V && S == O.S && OffsetMod32 == O.OffsetMod32 &&
           Single == O.Single && Whole == O.Whole && Params == O.Params &&
           Constant == O.Constant && LaunchShape == O.LaunchShape &&
           LaneAffine == O.LaneAffine &&
           AffineBaseByShape == O.AffineBaseByShape;
  }
  bool operator!=(const WarpValue &O) const { return !(*this == O); }
};

} // namespace clang::warp

#endif
