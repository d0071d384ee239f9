//===--- LaneSets.h - which lanes of a warp do what -------------*- C++ -*-===//
//
// Lane-exact reasoning for the checks that ask *which* lanes run a call or
// are named by a mask, not only whether the warp is diverged:
//  - LaneEvaluator computes an integer expression in one lane of one warp,
//    from the analysis' shapes (a lane id is the lane, threadIdx.x is
//    32 * warp + lane) and constants, through arithmetic and locals that are
//    never written after their initializer;
//  - LaneReach walks the CFG once per warp with a set of lanes per block,
//    following for each lane only the edge its branch condition takes where
//    the evaluator knows it.
// Lane sets are 32-bit masks (bit L is lane L), as member masks are.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LANESETS_H
#define WARP_LINT_ANALYSIS_LANESETS_H

#include "FunctionUniformity.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang::warp {

using LaneSet = uint32_t;
inline constexpr LaneSet AllLanes = 0xffffffffu;

/// Evaluates integer expressions per lane.
/// One value per lane of a warp; nullopt where it is not known.
using LaneValues = std::array<std::optional<int64_t>, 32>;

class LaneEvaluator {
public:
  LaneEvaluator(const FunctionUniformity &FU, ASTContext &Ctx);

  /// The value of \p E in lane \p Lane of the warp whose threads are
  /// 32 * \p Warp + lane, if known.
  std::optional<int64_t> valueIn(const Expr *E, unsigned Lane, uint64_t Warp);
  /// The same, and sets \p ReadWarp when the value depends on the warp (it
  /// read threadIdx.x).
  std::optional<int64_t> valueIn(const Expr *E, unsigned Lane, uint64_t Warp,
                                 bool &ReadWarp);
  /// The value of \p E in each lane of warp \p Warp (nullopt where it is not
  /// known); sets \p ReadWarp when it depends on the warp. Values that do
  /// not are computed once for every warp.
  LaneValues laneValues(const Expr *E, uint64_t Warp, bool &ReadWarp);
  /// The value of \p E in each lane of warp \p Warp; nullopt when some lane
  /// is not known.
  std::optional<std::vector<int64_t>> valuesIn(const Expr *E, uint64_t Warp);
  /// Whether \p E's value is known in every lane without depending on the
  /// warp (no threadIdx.x-based operand), so warp 0 stands for all.
  bool dependsOnWarp(const Expr *E);
  /// Whether an evaluation so far read threadIdx.x (not reduced mod 32):
  /// then warps differ and callers sample several.
  bool sawThreadIndex() const { return SawThreadIndex; }
  /// Starts sawThreadIndex over, as for an evaluator of its own: a check
  /// that takes the evaluator another check used (WarpAnalysis::laneReach)
  /// asks only about its own evaluations. (No cached value read threadIdx.x,
  /// so every read is seen again.)
  void forgetThreadIndexSeen() { SawThreadIndex = false; }

  /// The warps callers sample when threadIdx.x matters: the first 64 and a
  /// far one (a global index past any constant compared with).
  static llvm::ArrayRef<uint64_t> warpSamples(bool ThreadIndex);

  /// Takes \p VD to hold \p Value in every lane (a loop counter in one of
  /// its iterations, see forEachCounterValue); nullopt forgets it.
  void bind(const VarDecl *VD, std::optional<int64_t> Value);
  /// Changes whenever a binding does: values cached before are stale.
  unsigned generation() const { return Generation; }
  /// The value bound to \p VD, if any.
  std::optional<int64_t> bindingOf(const VarDecl *VD) const;

private:
  /// eval through the cache of values that are the same in every lane.
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
  /// `__ballot_sync(m, p)` as lane \p Lane sees it: the lanes of its mask
  /// where p holds.
  std::optional<int64_t> ballotIn(const CallExpr *Ballot, unsigned Lane,
                                  uint64_t Warp, unsigned Depth);
  /// \p E folded to an integer constant by clang, if it folds; each
  /// expression is folded once (the lane loops ask again and again).
  std::optional<int64_t> folded(const Expr *E);
  /// Whether \p VD is a local scalar read only (never assigned, incremented
  /// or bound to a reference after its initializer).
  bool isReadOnlyLocal(const VarDecl *VD);
  /// \p V wrapped to the width and signedness of integer type \p T (a bool
  /// is 0 or 1); a value of another type is left as it is.
  int64_t asType(int64_t V, QualType T);

  /// How the values of an integer type wrap: nearly every value the lane
  /// loops compute is wrapped, and ASTContext::getIntWidth costs a few
  /// hundred instructions, so each canonical type is asked once.
  struct IntFormat {
    uint8_t Bits = 0; ///< 0: not wrapped (not an integer, or 64 bits)
    bool Signed = false;
    bool Bool = false;
  };
  IntFormat intFormat(QualType T);

  const FunctionUniformity &FU;
  ASTContext &Ctx;
  std::optional<llvm::DenseSet<const VarDecl *>> Written;
  llvm::DenseMap<const Expr *, LaneValues> WarpFreeValues;
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Folded;
  llvm::DenseMap<const Type *, IntFormat> IntFormats;
  llvm::DenseMap<const VarDecl *, int64_t> Bound;
  /// Values that read no lane, thread index or bound counter (and were not
  /// cut short by the depth limit).
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Invariant;
  /// Whether the evaluation under way read a lane, thread index or bound
  /// counter, or hit the depth limit.
  bool ReadVarying = false, Cut = false;
  unsigned Generation = 0;
  bool SawThreadIndex = false;
};

/// Calls \p Visit once for each iteration of the loops around \p S whose
/// counters take the same constant values in every lane (`for (int o = 16;
/// o > 0; o /= 2)`), with those values bound in \p Eval; once with nothing
/// bound when there are none. Stops when \p Visit returns false; returns
/// false when it did.
bool forEachCounterValue(const Stmt *S, const FunctionUniformity &FU,
                         LaneEvaluator &Eval, llvm::function_ref<bool()> Visit);

/// The lanes that may reach each statement, per warp.
class LaneReach {
public:
  LaneReach(const FunctionUniformity &FU, ASTContext &Ctx);

  /// The lanes of warp \p Warp that may reach \p S (every lane enters the
  /// function).
  LaneSet mayReach(const Stmt *S, uint64_t Warp);
  /// Whether mayReach(S) is exact: every branch that splits the lanes
  /// before \p S has a condition known in every lane (no data-dependent
  /// branch, no loop condition).
  bool isExact(const Stmt *S);
  /// Whether some branch condition read threadIdx.x, so warps differ.
  bool dependsOnWarp();
  LaneEvaluator &evaluator() { return Eval; }
  const FunctionUniformity &function() const { return FU; }

private:
  /// The lanes of one warp reaching each CFG block, by block id.
  const std::vector<LaneSet> &blockLanes(uint64_t Warp);
  /// The lanes of \p Warp that take each successor of \p B.
  llvm::SmallVector<LaneSet, 2> edgeLanes(const CFGBlock &B, uint64_t Warp);
  /// The bindings of the variables that \p Cond, the condition of block
  /// \p B, reads (see conditionBindings).
  std::vector<std::optional<int64_t>> bindingsOf(const CFGBlock &B,
                                                 const Expr *Cond);

  const FunctionUniformity &FU;
  LaneEvaluator Eval;
  std::map<uint64_t, std::vector<LaneSet>> ByWarp;
  /// The edges of each two-way branch, by block id and warp (AnyWarp for a
  /// condition that reads no threadIdx.x: the same for every warp), with
  /// the bindings of the variables its condition reads when they were
  /// computed. A loop counter bound for one check's question leaves the
  /// edges of the conditions that do not read it as they were, so the
  /// block lanes another check asks for next are found again cheaply.
  static constexpr uint64_t AnyWarp = ~uint64_t(0);
  struct Edges {
    std::vector<std::optional<int64_t>> Bindings;
    llvm::SmallVector<LaneSet, 2> Lanes;
  };
  llvm::DenseMap<std::pair<unsigned, uint64_t>, Edges> EdgeCache;
  /// The variables each branch condition reads, by block id.
  llvm::DenseMap<unsigned, std::vector<const VarDecl *>> ConditionVarsOf;
  std::optional<bool> WarpDependent;
  /// The bindings of the variables the branch conditions read (see
  /// conditionBindings), in order.
  std::vector<std::optional<int64_t>> conditionBindings();

  /// The evaluator's generation the lane sets above were last checked in,
  /// and the bindings of the conditions' variables they were computed with.
  unsigned CachedGeneration = 0;
  std::vector<std::optional<int64_t>> CachedBindings;
  std::optional<std::vector<const VarDecl *>> ConditionVars;
};

/// The member mask of \p Use as each lane of warp \p Warp computes it
/// (nullopt in the lanes where it is not known).
std::array<std::optional<LaneSet>, 32>
maskInLanes(const CollectiveUse &Use, LaneEvaluator &Eval, uint64_t Warp);

/// The least value \p Counter takes inside the for-loop around \p S that
/// counts with it, from the loop's condition (`for (; s >= 32; s /= 2)`
/// gives 32), when the body does not write it.
std::optional<int64_t> counterAtLeast(const Stmt *S, const VarDecl *Counter,
                                      const FunctionUniformity &FU,
                                      ASTContext &Ctx);

/// Whether, in shuffle \p Use, every lane that passes \p Branches the way
/// the shuffle is reached reads from a lane that passes them too, in every
/// warp and every iteration of the counted loops around the shuffle: then
/// the ballot of those conditions is a mask that names every lane read.
/// False where a condition or a source lane is not known in every lane.
bool shuffleReadsWithin(const CollectiveUse &Use,
                        llvm::ArrayRef<DivergentBranch> Branches,
                        const FunctionUniformity &FU, ASTContext &Ctx);

/// Whether \p Use's mask is a constant (the same in every lane).
std::optional<LaneSet> constantMask(const CollectiveUse &Use, ASTContext &Ctx);

/// "lanes 16..31", "lane 3", "lanes 0..4, 8": \p Lanes in words.
std::string describeLanes(LaneSet Lanes);

} // namespace clang::warp

#endif
