//===--- LaneSets.h - which lanes of a warp do what -------------*- C++ -*-===//
//
// Lane-exact reasoning for the checks that ask *which* lanes run a call or
// are named by a mask, not only whether the warp is diverged:
//  - LaneReach walks the CFG once per warp with a set of lanes per block,
//    following for each lane only the edge its branch condition takes where
//    the evaluator (LaneEvaluator.h) knows it.
// Lane sets are 32-bit masks (bit L is lane L), as member masks are.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LANESETS_H
#define WARP_LINT_ANALYSIS_LANESETS_H

#include "FunctionUniformity.h"
#include "LaneEvaluator.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clang::warp {

/// Whether \p S writes \p VD (assigns, increments, takes its address or
/// binds it to a reference).
bool writesVariable(const Stmt *S, const VarDecl *VD);

/// Calls \p Visit once for each iteration of the loops around \p S whose
/// counters take the same constant values in every lane (`for (int o = 16;
/// o > 0; o /= 2)`), with those values bound in \p Eval; once with nothing
/// bound when there are none. Stops when \p Visit returns false; returns
/// false when it did.
bool forEachCounterValue(const Stmt *S, const FunctionUniformity &FU,
                         LaneEvaluator &Eval, llvm::function_ref<bool()> Visit);
/// forEachCounterValue binds nothing where the loops around a statement
/// have more iterations together than this.
inline constexpr size_t MaxCounterCombinations = 256;
/// The number of values forEachCounterValue gives the counter of \p For
/// (0: it binds none).
size_t counterIterations(const ForStmt *For, LaneEvaluator &Eval);

/// The lanes that may reach each statement, per warp.
class LaneReach {
public:
  LaneReach(const FunctionUniformity &FU, ASTContext &Ctx);

  /// The lanes of warp \p Warp that may reach \p S (every lane enters the
  /// function).
  LaneSet mayReach(const Stmt *S, uint64_t Warp);
  /// The lanes of warp \p Warp that may reach block \p B.
  LaneSet mayReachBlock(const CFGBlock &B, uint64_t Warp) {
    return blockLanes(Warp)[B.getBlockID()];
  }
  /// Whether mayReach(S) is exact: every branch that splits the lanes
  /// before \p S has a condition known in every lane (no data-dependent
  /// branch, no loop condition), but the loop \p Bound whose iteration is
  /// fixed.
  bool isExact(const Stmt *S, const Stmt *Bound = nullptr);
  /// Whether some branch condition read threadIdx.x, so warps differ.
  bool dependsOnWarp();
  /// writesVariable(S, VD), answered once (the witness search asks it of a
  /// loop's body and counter for every point under the loop).
  bool writes(const Stmt *S, const VarDecl *VD) {
    auto [It, New] = Writes.try_emplace({S, VD}, false);
    if (New)
      It->second = writesVariable(S, VD);
    return It->second;
  }
  LaneEvaluator &evaluator() { return Eval; }
  const FunctionUniformity &function() const { return FU; }
  /// What expressions read that the evaluator may bind: variables (through
  /// the initializers of the locals they read) and runtime values (by key).
  struct Inputs {
    std::vector<const VarDecl *> Vars;
    llvm::DenseSet<uint64_t> RuntimeKeys;
    /// What is read only through a lane or thread index the evaluator
    /// answers by its shape (`tid` in `int tid = loop * 128 +
    /// threadIdx.x`): inputs only where the shapes are not exact.
    std::vector<const VarDecl *> ShapedVars;
    llvm::DenseSet<uint64_t> ShapedKeys;
  };
  Inputs inputsOf(llvm::ArrayRef<const Expr *> Exprs);
  /// How the inputs of some expressions were bound when their values were
  /// found.
  struct Bindings {
    std::vector<LaneEvaluator::BindingKey> Vars;
    std::vector<std::pair<uint64_t, int64_t>> Runtime;
    bool operator==(const Bindings &O) const {
      return Vars == O.Vars && Runtime == O.Runtime;
    }
  };
  /// How each of \p In is bound now.
  Bindings bindingsNow(const Inputs &In) const;

  /// The lanes of warp \p Warp in which the branch condition \p Cond is
  /// known to hold, and those in which it is known not to.
  struct Outcomes {
    LaneSet True = 0, False = 0;
  };
  Outcomes outcomesOf(const Expr *Cond, uint64_t Warp);
  /// The value of \p E in each lane of warp \p Warp, as
  /// LaneEvaluator::laneValues, kept by the block and the bindings of what
  /// it reads (the operands of a comparison with a runtime value the
  /// witness search gives value after value are mostly not that value).
  LaneValues valuesOf(const Expr *E, uint64_t Warp);
  /// The same, and sets \p ReadWarp when the values depend on the warp.
  LaneValues valuesOf(const Expr *E, uint64_t Warp, bool &ReadWarp);
  /// For each warp of \p Warps, what valuesOf(E, warp) is valuesOf(E,
  /// Warps[0]) moved by (MovedLanes.h), where the operators valuesOf splits
  /// show it; nullopt where they do not. Found from the operands' moves and
  /// first-warp lanes, and kept like valuesOf's answers.
  using WarpShifts = llvm::SmallVector<std::optional<int64_t>, 17>;
  WarpShifts shiftsOf(const Expr *E, llvm::ArrayRef<uint64_t> Warps);

private:
  /// \p E as an operator whose lanes valuesOf finds from its operands'
  /// (neither `&&`, `||`, an assignment nor a comma; not uniform, not a
  /// runtime value bound as a whole); null otherwise.
  const BinaryOperator *splitOperator(const Expr *E);
  /// The operator \p E converts, when \p E is an integral conversion of one
  /// that splitOperator splits (`int i = bid * size + tid` with `tid`
  /// unsigned) and no runtime value is bound to \p E as a whole.
  const Expr *splitConversion(const Expr *E);
  /// \p BO's operands' lanes, combined lane by lane.
  LaneValues combined(const BinaryOperator *BO, uint64_t Warp, bool &ReadWarp);
  /// The lanes of one warp reaching each CFG block, by block id.
  const std::vector<LaneSet> &blockLanes(uint64_t Warp);
  /// The lanes of \p Warp that take each successor of \p B, a switch.
  llvm::SmallVector<LaneSet, 2>
  switchLanes(const CFGBlock &B, const SwitchStmt &Switch, uint64_t Warp);
  /// The lanes of \p Warp that take each successor of \p B.
  llvm::SmallVector<LaneSet, 2> edgeLanes(const CFGBlock &B, uint64_t Warp);

  const FunctionUniformity &FU;
  LaneEvaluator Eval;
  std::map<uint64_t, std::vector<LaneSet>> ByWarp;
  /// The lanes of a warp whose computation read no threadIdx.x, and the
  /// lanes of it that exist: every other warp's follow from them.
  std::optional<std::pair<LaneSet, std::vector<LaneSet>>> WarpFree;
  /// Whether an edge computed (or found) since blockLanes began read
  /// threadIdx.x.
  bool EdgesReadWarp = false;
  /// The warp an answer that read no threadIdx.x is kept under: it holds
  /// in every warp.
  static constexpr uint64_t AnyWarp = ~uint64_t(0);
  /// outcomesOf's and valuesOf's answers, by expression and warp (AnyWarp
  /// as above), with the block and the bindings of what the expression
  /// reads. The witness search asks the same few conditions in warp after
  /// warp, for every value it gives each runtime value and for each
  /// collective under them; most of those values leave a given condition's
  /// inputs as they were.
  template <typename T> struct Kept {
    std::optional<BlockExtents> Block;
    Bindings Bound;
    T Value;
  };
  /// By expression, warp and a hash of the block and the bindings: the
  /// search gives a runtime value dozens of values, so an expression holds
  /// as many entries.
  template <typename T>
  using KeptByWarp =
      llvm::DenseMap<std::tuple<const Expr *, uint64_t, unsigned>,
                     llvm::SmallVector<Kept<T>, 1>>;
  KeptByWarp<Outcomes> KeptOutcomes;
  KeptByWarp<LaneValues> KeptValues;
  KeptByWarp<WarpShifts> KeptShifts; ///< by AnyWarp and the warps' hash
  /// The entry kept for \p E in \p Warp's lanes under the block and the
  /// bindings \p Now, if any.
  template <typename T>
  const T *kept(KeptByWarp<T> &Cache, const Expr *E, uint64_t Warp,
                const Bindings &Now, unsigned Hash);
  /// The hash of the block set now and the bindings \p Now.
  unsigned hashOf(const Bindings &Now) const;
  /// What an expression reads, and how that was bound (with its hash) at
  /// evaluator generation Generation.
  struct ExprBindings {
    Inputs In;
    unsigned Generation = ~0u;
    Bindings Now;
    unsigned Hash = 0;
  };
  /// How what \p E reads is bound now: what it reads found once, its
  /// bindings once per evaluator generation (the witness search asks the
  /// same conditions in hundreds of warps under one binding). The entry
  /// stays where it is while the evaluator binds nothing.
  const ExprBindings &bindingsOfExpr(const Expr *E);
  llvm::DenseMap<const Expr *, std::unique_ptr<ExprBindings>> ExprReads;
  std::optional<bool> WarpDependent;
  llvm::DenseMap<std::pair<const Stmt *, const VarDecl *>, bool> Writes;
  /// How what every branch condition (switches too) reads is bound now.
  Bindings conditionBindings();

  /// The evaluator's generations the lane sets above were last checked in,
  /// and the bindings of what the conditions read they were computed with.
  unsigned CachedGeneration = 0, CachedBlock = 0;
  Bindings CachedBindings;
  std::optional<Inputs> ConditionInputs;
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
