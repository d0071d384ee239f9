//===--- LaneEvaluator.h - integer values lane by lane ----------*- C++ -*-===//
//
// The one evaluator of integer expressions in each lane of a warp: lane
// sets, masks, shuffle sources, loop counters and the witnesses of findings
// all ask it (IntegerOps says what each operator computes). Lane L of warp
// W lives in one of two kinds of block:
//  - an unknown one (the default): threadIdx.x, and any value the analysis
//    finds to be the lane index plus a uniform multiple of 32, is 32 * W + L
//    (W may then be the warp's index in the grid);
//  - a block of X x Y x Z threads (setBlock, from a launch the unit shows):
//    warp W is warp W % warpsPerBlock() of block W / warpsPerBlock(), lanes
//    past the block's last thread do not exist, and threadIdx, blockDim and
//    blockIdx.x follow from that.
// What it cannot compute it names, so that a finding can say why lanes
// differ: uniform runtime values it read (a parameter, blockDim.x, a load at
// a uniform address), which bindRuntimeValue can give a value, and values
// each lane loads from its own address (data).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LANEEVALUATOR_H
#define WARP_LINT_ANALYSIS_LANEEVALUATOR_H

#include "FunctionUniformity.h"
#include "IntegerOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace clang::warp {

using LaneSet = uint32_t;
inline constexpr LaneSet AllLanes = 0xffffffffu;

/// The extents of a block of threads.
struct BlockExtents {
  int64_t X = 1, Y = 1, Z = 1;

  int64_t threads() const { return X * Y * Z; }
  /// How many warps a block holds (the last one partial when threads() is
  /// not a multiple of 32).
  unsigned warps() const { return unsigned((threads() + 31) / 32); }
  bool operator==(const BlockExtents &O) const {
    return X == O.X && Y == O.Y && Z == O.Z;
  }
};

/// A value the same in every lane that the evaluator read and did not know.
struct RuntimeValue {
  uint64_t Key = 0;           ///< the same for every read of one value
  const Expr *Read = nullptr; ///< one read of it, for messages
  /// A built-in register (blockDim.x): its value comes with the block.
  bool BlockShape = false;
};

/// What evaluations could not compute, and why.
struct EvaluationGaps {
  llvm::SmallVector<RuntimeValue, 2> Runtime;
  /// Loads whose address differs per lane (the value is the lane's data).
  llvm::SmallVector<const Expr *, 2> Data;
  /// threadIdx.y/z (or a value built on them) read in an unknown block.
  bool LaunchShape = false;
  /// Anything else (a value the analysis lost track of).
  bool Other = false;

  bool empty() const {
    return Runtime.empty() && Data.empty() && !LaunchShape && !Other;
  }
};

class LaneEvaluator {
public:
  LaneEvaluator(const FunctionUniformity &FU, ASTContext &Ctx);

  /// The value of \p E in lane \p Lane of warp \p Warp, if known.
  std::optional<int64_t> valueIn(const Expr *E, unsigned Lane, uint64_t Warp);
  /// The same, and sets \p ReadWarp when the value depends on the warp (it
  /// read threadIdx.x).
  std::optional<int64_t> valueIn(const Expr *E, unsigned Lane, uint64_t Warp,
                                 bool &ReadWarp);
  /// The value of \p E in each lane of warp \p Warp (nullopt where it is not
  /// known); sets \p ReadWarp when it depends on the warp. Values that do
  /// not are computed once for every warp.
  LaneValues laneValues(const Expr *E, uint64_t Warp, bool &ReadWarp);
  /// What \p BO, an operator that is neither `&&`, `||`, an assignment nor a
  /// comma, gives for operands of values \p L and \p R (as evaluating it in
  /// a lane where they have those values would).
  std::optional<int64_t> combine(const BinaryOperator *BO,
                                 std::optional<int64_t> L,
                                 std::optional<int64_t> R);
  /// The same for each lane's operands (the types looked up once).
  LaneValues combine(const BinaryOperator *BO, const LaneValues &L,
                     const LaneValues &R);
  /// The width of \p BO's left operand's type (64 for a non-integer): what
  /// a shift by it may not reach.
  unsigned leftOperandBits(const BinaryOperator *BO) const;
  /// Whether a leaf of value \p V (a lane index, or a thread index moved
  /// by whole warps) is answered by that shape where shapesExact(), before
  /// any binding of it or of what its initializer reads.
  static bool answeredByShape(const WarpValue &V) {
    return V.S == Shape::LaneId ||
           (V.S == Shape::ThreadIndex && V.OffsetMod32 == 0);
  }
  /// Whether the shapes are exact in the block set: in a known block only a
  /// 1-D block of whole warps makes them so (there the warp index is the
  /// thread index's).
  bool shapesExact() const {
    return !Block || (Block->Y == 1 && Block->Z == 1 && Block->X % 32 == 0);
  }
  /// How the values of type \p T wrap: each canonical type is asked once
  /// (ASTContext::getIntWidth costs a few hundred instructions).
  IntFormat intFormat(QualType T);
  /// \p V converted to type \p T in each lane, as an implicit conversion
  /// to it would.
  LaneValues converted(LaneValues V, QualType T) {
    IntFormat F = intFormat(T);
    for (std::optional<int64_t> &Lane : V)
      if (Lane)
        Lane = F.wrap(*Lane);
    return V;
  }
  /// The initializer of the read-only local that \p E, an lvalue read of
  /// it, is evaluated through (its value converted to E's type), where no
  /// binding, shape or constant answers for the local first; null
  /// otherwise.
  const Expr *followedInitializer(const Expr *E);
  /// The value of \p E in each lane of warp \p Warp; nullopt when some lane
  /// is not known.
  std::optional<std::vector<int64_t>> valuesIn(const Expr *E, uint64_t Warp);
  /// Whether \p E's value depends on the warp (it reads threadIdx.x), so
  /// that warp 0 does not stand for all.
  bool dependsOnWarp(const Expr *E);
  /// Whether an evaluation so far read threadIdx.x (not reduced mod 32):
  /// then warps differ and callers sample several.
  bool sawThreadIndex() const { return SawThreadIndex; }
  /// Starts sawThreadIndex over, as for an evaluator of its own.
  void forgetThreadIndexSeen() { SawThreadIndex = false; }
  /// Records that an evaluation read threadIdx.x, for a caller that reuses
  /// a value it kept instead of evaluating again.
  void noteThreadIndexRead() { SawThreadIndex = true; }
  /// Runs \p Find and sets \p ReadWarp when what it evaluated (or found
  /// kept) read threadIdx.x; sawThreadIndex() as it was, or set.
  template <typename FindFn> auto readingWarp(bool &ReadWarp, FindFn Find) {
    bool Before = SawThreadIndex;
    SawThreadIndex = false;
    auto Found = Find();
    ReadWarp = SawThreadIndex;
    SawThreadIndex |= Before;
    return Found;
  }

  /// The warps callers sample in an unknown block when threadIdx.x matters:
  /// the first 64 and a far one (a global index past any constant compared
  /// with); warp 0 alone otherwise.
  static llvm::ArrayRef<uint64_t> warpSamples(bool ThreadIndex);
  /// The warps to sample in the block set now: warpSamples in an unknown
  /// block; every warp of a few blocks (0, 1, 2 and a far one) in a known
  /// one.
  llvm::ArrayRef<uint64_t> warps(bool ThreadIndex) const;
  /// The lanes of warp \p Warp that exist: all of them in an unknown block.
  LaneSet liveLanes(uint64_t Warp) const;
  /// Evaluates in a block of the given extents from now on (nullopt: an
  /// unknown block).
  void setBlock(std::optional<BlockExtents> Block);
  const std::optional<BlockExtents> &block() const { return Block; }
  /// "warp 1 of block 0" (known block) or "the warp of threads 32..63".
  std::string describeWarp(uint64_t Warp) const;

  /// Takes \p VD to hold \p Value in every lane (a loop counter in one of
  /// its iterations, see forEachCounterValue); nullopt forgets it.
  void bind(const VarDecl *VD, std::optional<int64_t> Value);
  /// Takes \p VD to hold \p Values, one per lane (a loop counter each
  /// lane steps from its own start); nullopt forgets it.
  void bindPerLane(const VarDecl *VD, std::optional<LaneValues> Values);
  /// Takes the runtime value \p Key (RuntimeValue::Key) to be \p Value in
  /// every lane; nullopt forgets it.
  void bindRuntimeValue(uint64_t Key, std::optional<int64_t> Value);
  /// Changes whenever a binding or the block does: values cached before
  /// are stale.
  unsigned generation() const { return Generation; }
  /// Changes whenever the block does.
  unsigned blockGeneration() const { return BlockGeneration; }
  /// The value bound to \p VD, if any.
  std::optional<int64_t> bindingOf(const VarDecl *VD) const;
  /// How \p VD is bound, as callers caching values compare bindings: the
  /// value of a binding in every lane, or the values of a per-lane one.
  struct BindingKey {
    std::optional<int64_t> Value;
    std::shared_ptr<const LaneValues> PerLane;
    bool operator==(const BindingKey &O) const {
      return Value == O.Value &&
             (PerLane == O.PerLane ||
              (PerLane && O.PerLane && *PerLane == *O.PerLane));
    }
  };
  BindingKey bindingKeyOf(const VarDecl *VD) const;
  /// The runtime values bound now, by RuntimeValue::Key.
  const llvm::DenseMap<uint64_t, int64_t> &runtimeBindings() const {
    return RuntimeBound;
  }

  /// Why \p E is not known in lane \p Lane of warp \p Warp: the runtime
  /// values, per-lane loads and other values its evaluation could not
  /// compute (evaluated afresh, past the caches).
  EvaluationGaps gapsOf(const Expr *E, unsigned Lane, uint64_t Warp);
  /// The key of the runtime value \p E reads (the variable, the built-in
  /// register, or the expression's structure).
  static uint64_t keyOf(const Expr *E, ASTContext &Ctx);
  /// Whether \p VD is a local scalar of this function read only (never
  /// assigned, incremented or bound to a reference after its initializer).
  bool isReadOnlyLocal(const VarDecl *VD);

private:
  std::optional<int64_t> eval(const Expr *E, unsigned Lane, uint64_t Warp,
                              unsigned Depth);
  std::optional<int64_t> evalUncached(const Expr *E, unsigned Lane,
                                      uint64_t Warp, unsigned Depth);
  /// The value-preserving integer casts; nullopt for the others.
  std::optional<int64_t> evalCast(const CastExpr *Cast, unsigned Lane,
                                  uint64_t Warp, unsigned Depth);
  std::optional<int64_t> evalBinary(const BinaryOperator *BO, unsigned Lane,
                                    uint64_t Warp, unsigned Depth);
  std::optional<int64_t> evalUnary(const UnaryOperator *UO, unsigned Lane,
                                   uint64_t Warp, unsigned Depth);
  /// A variable, call or other leaf: what the analysis knows of it.
  std::optional<int64_t> evalLeaf(const Expr *E, unsigned Lane, uint64_t Warp,
                                  unsigned Depth);
  /// The value bound to the runtime value \p E is, if any.
  std::optional<int64_t> boundRuntimeValue(const Expr *E);
  /// threadIdx, blockIdx and blockDim in a known block.
  std::optional<int64_t> evalRegister(const BuiltinRegister &R, const Expr *E,
                                      unsigned Lane, uint64_t Warp);
  /// What the analysis' shapes say of \p E in an unknown block (a lane id
  /// is the lane, a zero-offset thread index 32 * W + L).
  std::optional<int64_t> byShape(const Expr *E, const WarpValue &V,
                                 unsigned Lane, uint64_t Warp);
  /// The value of a call of a small helper (scalar locals, `if (c) return
  /// a;`, a final return) with its parameters bound to the arguments'
  /// values in this lane.
  std::optional<int64_t> evalInlined(const CallExpr *Call, unsigned Lane,
                                     uint64_t Warp, unsigned Depth);
  /// A leaf that is not computed: noted in the gaps, by why.
  std::optional<int64_t> unknown(const Expr *E, const WarpValue *V);
  /// `__ballot_sync(m, p)` as lane \p Lane sees it: the lanes of its mask
  /// where p holds.
  std::optional<int64_t> ballotIn(const CallExpr *Ballot, unsigned Lane,
                                  uint64_t Warp, unsigned Depth);
  /// \p E folded to an integer constant by clang, if it folds; each
  /// expression is folded once (the lane loops ask again and again).
  std::optional<int64_t> folded(const Expr *E);
  /// \p V as a value of type \p T.
  int64_t asType(int64_t V, QualType T) { return intFormat(T).wrap(V); }
  /// Forgets every cached value (a binding or the block changed).
  void invalidate();
  /// Whether \p E is a binary or conditional operator the analysis finds
  /// uniform (asked once per expression).
  bool isUniformOperator(const Expr *E);

  const FunctionUniformity &FU;
  ASTContext &Ctx;
  std::optional<BlockExtents> Block;
  std::optional<llvm::DenseSet<const VarDecl *>> Written;
  /// isReadOnlyLocal's answers.
  llvm::DenseMap<const VarDecl *, bool> ReadOnlyLocals;
  llvm::DenseMap<const Expr *, LaneValues> WarpFreeValues;
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Folded;
  llvm::DenseMap<const Type *, IntFormat> IntFormats;
  llvm::DenseMap<const VarDecl *, int64_t> Bound;
  llvm::DenseMap<uint64_t, int64_t> RuntimeBound;
  /// Shared with the BindingKeys handed out: a cache keeps the values its
  /// entry was computed with.
  llvm::DenseMap<const VarDecl *, std::shared_ptr<const LaneValues>>
      PerLaneBound;
  /// keyOf's answers, by expression.
  llvm::DenseMap<const Expr *, uint64_t> Keys;
  /// The parameters and locals of the helpers being inlined, bound to this
  /// lane's values; while any is, the analysis of FU does not describe the
  /// expressions evaluated.
  llvm::DenseMap<const VarDecl *, int64_t> Arguments;
  unsigned Inlining = 0;
  /// Values that read no lane, thread index or binding (and were not cut
  /// short by the depth limit).
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Invariant;
  /// Values already computed in lane MemoLane of warp MemoWarp under the
  /// bindings of MemoGeneration, and whether each read anything varying.
  struct Memoized {
    std::optional<int64_t> Value;
    bool ReadVarying, SawThreadIndex;
  };
  llvm::DenseMap<const Expr *, Memoized> LaneMemo;
  unsigned MemoLane = ~0u;
  uint64_t MemoWarp = 0;
  unsigned MemoGeneration = 0;
  /// The operators the analysis finds uniform, as a lane of warp
  /// WarpMemoWarp computed them under the bindings of WarpMemoGeneration:
  /// the other lanes of the warp take them from here.
  llvm::DenseMap<const Expr *, Memoized> WarpMemo;
  llvm::DenseMap<const Expr *, bool> UniformOperators;
  uint64_t WarpMemoWarp = ~uint64_t(0);
  unsigned WarpMemoGeneration = ~0u;
  /// Whether the evaluation under way read a lane, thread index or
  /// binding, or hit the depth limit.
  bool ReadVarying = false, Cut = false;
  unsigned Generation = 0, BlockGeneration = 0;
  bool SawThreadIndex = false;
  /// The warps warps() samples in the block set now: every warp of a few
  /// blocks, and the first and last warp of one.
  std::vector<uint64_t> BlockWarps, FirstBlockEnds;
  /// Whether gapsOf is evaluating: unknown leaves are then noted in Gaps.
  bool Explaining = false;
  EvaluationGaps Gaps;
};

} // namespace clang::warp

#endif
