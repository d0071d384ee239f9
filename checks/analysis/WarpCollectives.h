//===--- WarpCollectives.h - the one table of warp intrinsics ---*- C++ -*-===//
//
// Every warp collective, atomic and lock primitive that the checks reason
// about is described here and nowhere else.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_WARPCOLLECTIVES_H
#define WARP_LINT_ANALYSIS_WARPCOLLECTIVES_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::warp {

enum class CollectiveKind { Shuffle, Vote, Match, Reduce, SyncWarp };

/// How the value a collective returns varies across the participating lanes.
enum class CollectiveResult {
  Uniform,      ///< same in every participating lane (ballot, any, reduce)
  UniformIfSrc, ///< uniform when the source-lane argument is uniform
  Varying,      ///< differs per lane (shfl_up/down/xor, match_any)
  None          ///< no result (__syncwarp)
};

/// Which lane a shuffle reads, from its lane operand (argument 2).
enum class ShuffleLane {
  None,     ///< not a shuffle
  Absolute, ///< srcLane (`__shfl_sync`)
  Up,       ///< lane - delta
  Down,     ///< lane + delta
  Xor       ///< lane ^ laneMask
};

struct CollectiveInfo {
  llvm::StringLiteral Name;
  CollectiveKind Kind;
  CollectiveResult Result;
  int SrcLaneArg; ///< argument holding the source lane, or -1
  ShuffleLane Lane = ShuffleLane::None;

  /// Shuffles: the operands after the mask.
  static constexpr unsigned ValueArg = 1, LaneArg = 2, WidthArg = 3;
};

/// Returns the table entry for the collective named \p Name, if any.
const CollectiveInfo *lookupCollective(llvm::StringRef Name);

/// Whether a collective of \p Info's kind combines values of particular
/// lanes, so that which lanes its mask names changes its result (shuffles
/// and reductions; not votes, matches or __syncwarp, which describe the
/// lanes that take part).
bool expectsParticularLanes(const CollectiveInfo &Info);

/// Whether \p Width is a valid shuffle width: a power of two in 1..32.
inline bool isValidShuffleWidth(int64_t Width) {
  return Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0;
}

/// The lane that lane \p Lane reads in a shuffle of kind \p Kind with lane
/// operand \p Operand (srcLane, delta or laneMask) and a valid \p Width,
/// as PTX shfl.sync defines it: the segment of \p Width lanes bounds
/// up/down, a butterfly may read an earlier segment but not a later one,
/// and a lane whose source is out of bounds gets its own value (returns
/// \p Lane).
unsigned shuffleSourceLane(ShuffleLane Kind, unsigned Lane, int64_t Operand,
                           unsigned Width);

/// The lanes of the segments of \p Width lanes (a power of two up to 32)
/// that hold a lane of \p Lanes: the tiles those lanes belong to.
uint32_t segmentsOf(uint32_t Lanes, unsigned Width);

/// A pre-CUDA 9 warp intrinsic without a mask (`__shfl`, `__ballot`, …),
/// implicitly synchronous over the lanes that happen to run it.
struct LegacyIntrinsic {
  llvm::StringLiteral Name;
  llvm::StringLiteral SyncName; ///< its `_sync` replacement
  /// The `_sync` form takes the mask first, then the same operands.
  const CollectiveInfo *sync() const { return lookupCollective(SyncName); }
};

/// Returns the legacy intrinsic named \p Name, if it is one.
const LegacyIntrinsic *lookupLegacyIntrinsic(llvm::StringRef Name);

/// A call of a warp collective found in the source: a CUDA intrinsic or an
/// inline PTX shfl.sync / vote.sync / bar.warp.sync.
struct CollectiveUse {
  const CollectiveInfo *Info = nullptr;
  const Stmt *Site = nullptr; ///< the CallExpr or GCCAsmStmt
  const Expr *Mask = nullptr; ///< the member-mask operand, when an expression
  std::optional<uint64_t> ImmediateMask; ///< a PTX immediate mask operand
  bool MaskIsDefaultArg = false;
  /// A cooperative-groups spelling (`tile.shfl_down(v, 1)`): the width of
  /// its group, which the call has no operand for (0: an intrinsic, or a
  /// coalesced group, whose lanes are those that formed it).
  unsigned GroupWidth = 0;
};

/// The argument of \p Use's call that holds the intrinsic's operand
/// \p Index (CollectiveInfo::ValueArg, LaneArg, WidthArg), or null where the
/// spelling has none (a tile's mask and width; the lane operand of
/// `cooperative_groups::reduce`) or leaves it to its default.
const Expr *collectiveOperand(const CollectiveUse &Use, unsigned Index);

/// Recognises \p S as a warp collective.
std::optional<CollectiveUse> matchCollective(const Stmt *S);

/// A cooperative-groups collective (`tile.shfl_down(v, 1)`, `tile.sync()`,
/// `tile.ballot(p)`, `cg::reduce(tile, v, op)`, `active.shfl(v, 0)` on a
/// coalesced group): the intrinsic it runs, with the group's lanes as its
/// mask (which it has no operand for), the group it runs on and how the
/// call is spelled, for messages. A tile of 32 threads runs with the full
/// mask; a smaller one with the mask of its own segment of the warp.
struct GroupCollective {
  CollectiveUse Use;
  const Expr *Group = nullptr; ///< the tile or coalesced group operand
  /// The tile's threads (1 .. 32); 0 for a coalesced group.
  unsigned TileWidth = 0;
  std::string Spelling;
};
std::optional<GroupCollective> matchGroupCollective(const CallExpr *Call);

/// The collective \p S is, spelled as an intrinsic (matchCollective) or
/// through a cooperative group (matchGroupCollective's Use).
std::optional<CollectiveUse> collectiveAt(const Stmt *S);

/// When \p E is `g.thread_rank()` of a cooperative group of at most a warp:
/// the group's width (a tile's threads, whose rank is the lane's modulo
/// it; 0 for a coalesced group, whose rank counts the lanes that formed it).
std::optional<unsigned> groupRankWidth(const Expr *E);

/// Returns the callee name of \p Call when it names a free function, also for
/// dependent calls in templates (UnresolvedLookupExpr).
llvm::StringRef calleeName(const CallExpr *Call);

/// The intrinsic \p Call names: calleeName, or empty when the callee is a
/// function of the user's own that only shares an intrinsic's name (its
/// body says what it does). Lookups of intrinsics by name go through this.
llvm::StringRef intrinsicName(const CallExpr *Call);

enum class AtomicOp {
  Add,
  Sub,
  Inc,
  Dec,
  Min,
  Max,
  And,
  Or,
  Xor,
  CAS,
  Exch,
  Store
};

/// One atomic operation, in either spelling: the CUDA intrinsics
/// (`atomicAdd(p, v)`) or libcu++'s `cuda::atomic`, `cuda::atomic_ref` and
/// `cuda::atomic_flag` members (`ref.fetch_add(v)`, `flag.test_and_set()`).
struct AtomicInfo {
  AtomicOp Op;
  /// The pointer operated on, or for a member the atomic object (or the
  /// pointer to it, for `p->fetch_add(v)`).
  const Expr *Address = nullptr;
  /// The value added, exchanged or stored, or the value a CAS writes; null
  /// where implied (test_and_set writes 1, clear 0, ++ adds 1).
  const Expr *Value = nullptr;
  /// The value a CAS compares with (compare_exchange's `expected`).
  const Expr *Compare = nullptr;
  int64_t ImpliedValue = 0; ///< the value when Value is null
  bool Member = false;      ///< a libcu++ member function or operator

  /// False for CAS, exchange and store (the lock primitives).
  bool isReadModifyWrite() const {
    return Op != AtomicOp::CAS && Op != AtomicOp::Exch && Op != AtomicOp::Store;
  }
};

/// Recognises atomicAdd/…/atomicCAS and their _block/_system variants,
/// nvcc's `__nv_atomic_fetch_add`/… (memory order and scope), and the
/// read-modify-write, exchange and store members of libcu++'s atomics.
std::optional<AtomicInfo> matchAtomic(const CallExpr *Call);

/// Returns the arguments of \p Call that bind to the callee's parameters
/// (dropping the object of a member operator, e.g. a lambda's closure).
/// Returns whether \p A and \p B spell the same expression, structurally
/// and ignoring parentheses and implicit casts.
bool sameExpr(const Expr *A, const Expr *B, ASTContext &Ctx);

llvm::ArrayRef<const Expr *> callArguments(const CallExpr *Call);
/// The object a method call is made on, which the callee sees as `this`,
/// or for a lambda as the closure its captures are read from
/// (ParamSet::ObjectIndex); null for other calls.
const Expr *callObject(const CallExpr *Call);

/// How the atomic \p Call is spelled in messages: `atomicAdd`, `fetch_add`,
/// `operator+=`.
std::string atomicName(const CallExpr *Call);

/// Returns whether \p T is (or points to) libcu++'s cuda::atomic_ref, whose
/// value is the address it was bound to.
bool isAtomicRef(QualType T);

/// What an intrinsic or builtin returns, for those whose value the analysis
/// knows without a body to look into.
enum class IntrinsicValue {
  BlockUniform,  ///< the same in every thread of the block (__syncthreads_or)
  Uniform,       ///< the same in the lanes that run it together (activemask)
  ThreadIndexX,  ///< threadIdx.x
  ThreadIndexY,  ///< threadIdx.y: uniform in a warp-aligned block
  ThreadIndexZ,  ///< threadIdx.z: uniform in a warp-aligned block
  LaneId,        ///< %laneid
  LaneMask,      ///< %lanemask_lt and friends: bits relative to this lane
  PopCount,      ///< set bits: a lane's rank when counting a lane mask
  Clock,         ///< clocks, timers, SM id: differ between lanes by data
  ActiveMask,    ///< __activemask(): the lanes running it together
  ActiveCount,   ///< how many lanes run it together (coalesced_group::size)
  TileRank,      ///< a tile's or coalesced group's thread_rank: the lane
  BlockRank,     ///< thread_block::thread_rank: the linear thread index
  GridRank,      ///< grid/cluster thread_rank: distinct, offset by the block
  ShuffleResult, ///< a group's shfl: uniform when the source lane is
  BlockDimX      ///< blockDim.x: a multiple of 32 in a warp-aligned block
};

/// Returns what the intrinsic or builtin \p Name returns, if the table
/// knows it.
std::optional<IntrinsicValue> lookupIntrinsicValue(llvm::StringRef Name);

/// Returns what the cooperative-groups member \p Method of the group class
/// \p Group returns, if the table knows it.
std::optional<IntrinsicValue> lookupGroupMethod(llvm::StringRef Group,
                                                llvm::StringRef Method);

/// Returns what the CUDA built-in variable \p Var's member \p Field holds
/// (`threadIdx.x`, `blockDim.x`, …), or Uniform for the others.
IntrinsicValue lookupBuiltinVariable(llvm::StringRef Var,
                                     llvm::StringRef Field);

/// One CUDA built-in variable read: `threadIdx.y` is {ThreadIdx, 1}.
struct BuiltinRegister {
  enum Variable { ThreadIdx, BlockIdx, BlockDim, GridDim } Var;
  unsigned Dim = 0; ///< 0 for x, 1 for y, 2 for z
};

/// Recognises \p E as a read of a CUDA built-in variable (`threadIdx.x`,
/// `blockDim.y`, and the `__nvvm_read_ptx_sreg_*` builtins).
std::optional<BuiltinRegister> matchBuiltinRegister(const Expr *E);

/// Whether \p D is declared in namespace cooperative_groups (or one nested
/// in it), whose members lookupGroupMethod and matchGroupCollective describe.
bool inCooperativeGroups(const Decl *D);

/// Returns the field of cudaLaunchConfig_t that holds the block shape.
llvm::StringRef launchConfigBlockField();

/// Returns what reading the PTX special register named in inline asm text
/// \p Asm gives, if the table knows it (`%laneid`, `%lanemask_lt`, …).
std::optional<IntrinsicValue> lookupSpecialRegister(llvm::StringRef Asm);

/// A runtime call that launches a kernel: which arguments hold the kernel
/// and the block (directly, or in a cudaLaunchConfig_t whose address is
/// passed).
struct LaunchApi {
  unsigned KernelArg;
  int BlockArg;  ///< -1 when the block is in the config
  int ConfigArg; ///< -1 when the block is an argument
};

/// Returns how \p Name launches a kernel (cudaLaunchKernel,
/// cudaLaunchKernelEx, cudaLaunchCooperativeKernel), if it does.
std::optional<LaunchApi> lookupLaunchApi(llvm::StringRef Name);

/// Returns whether \p Name is a block- or grid-level barrier.
bool isBarrierName(llvm::StringRef Name);

/// Returns whether \p Name is `__threadfence()`, the device-scope fence that
/// makes a critical section's writes visible before a lock is released.
bool isDeviceFence(llvm::StringRef Name);

/// The intrinsics that make a lane mask, and what the mask names.
enum class MaskSourceKind {
  ActiveLanes, ///< __activemask(): the lanes running it together
  Ballot,      ///< __ballot_sync(m, p): the lanes of m where p holds
  PeerGroup,   ///< __match_any_sync(m, key): the lanes of m with this key
  /// cooperative_groups::coalesced_threads(): the group of the lanes
  /// running it together, as __activemask() names them
  CoalescedGroup
};

/// Returns which lane mask \p Call makes, if it calls one of the mask
/// sources. Ballot and PeerGroup calls have their two operands.
std::optional<MaskSourceKind> maskSourceKind(const CallExpr *Call);

/// Returns whether calling \p Name again gives the same value and changes
/// nothing: index and special-register reads, bit intrinsics, min/max and
/// the cooperative-groups rank and size methods.
bool isRepeatableIntrinsic(llvm::StringRef Name);

/// Returns the `__reduce_*_sync` intrinsic that combines the operands of
/// atomic \p Op across a warp, if there is one (32-bit integers only).
std::optional<llvm::StringRef> warpReductionFor(AtomicOp Op);

/// Returns whether the record type named \p Name holds floating-point
/// values: CUDA's half, bfloat16 and fp8 types and the float/double vectors
/// (float2, double4, …).
bool isFloatingRecordName(llvm::StringRef Name);

/// Returns whether \p Mask names all 32 lanes.
inline bool isFullMask(uint64_t Mask) {
  return (Mask & 0xffffffffu) == 0xffffffffu;
}

} // namespace clang::warp

#endif
