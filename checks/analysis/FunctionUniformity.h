//===--- FunctionUniformity.h - warp uniformity of one function -*- C++ -*-===//
//
// The warp-uniformity analysis of one device function over Clang's CFG,
// modelled on LLVM's UniformityAnalysis at source level:
//  - values are uniform or varying (ValueEvaluator has the sources);
//  - a branch on a varying condition diverges the blocks control-dependent on
//    it, up to its immediate post-dominator; a varying return, break,
//    continue or goto thereby leaves a partial warp for the rest of the
//    region, since what follows is control-dependent on the exit's branch;
//  - a variable assigned under divergence and declared outside the divergent
//    region is varying after the join (sync and temporal divergence);
//  - values and divergence are iterated together to a fixpoint.
// Parameters of a device function are uniform "if the argument is": values
// and branches record which parameters they depend on, so that callers can
// decide with their own arguments.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_FUNCTIONUNIFORMITY_H
#define WARP_LINT_ANALYSIS_FUNCTIONUNIFORMITY_H

#include "ButterflyLoops.h"
#include "ElementPositions.h"
#include "ValueEvaluator.h"
#include "WarpCollectives.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace clang::warp {

/// A branch whose outcome may differ between the lanes of a warp.
struct DivergentBranch {
  const Stmt *Terminator = nullptr; ///< if, loop, ?:, &&, ||, switch
  const Expr *Condition = nullptr;
  unsigned Edge = 0; ///< successor taken toward the point
  WarpValue Value;   ///< the condition's value
  /// The return/break/continue/goto by which the other lanes left, if the
  /// point is reached by lanes that stayed after an early exit.
  const Stmt *Exit = nullptr;
};

/// How the lanes that reach one program point may have diverged.
struct Divergence {
  /// Varying branches controlling the point, innermost first.
  llvm::SmallVector<DivergentBranch, 2> Branches;
  /// Parameters whose variance would diverge the point.
  ParamSet ParamConditions;

  bool isDiverged() const { return !Branches.empty(); }
  /// Lane when some branch depends on the lane index by construction.
  Variance strongest() const;
  /// Whether some branch depends on data: how many lanes pass it is unknown
  /// (a rare path, perhaps one lane).
  bool hasDataBranch() const;
  /// Whether every branch varies only by the launch shape (threadIdx.y/z
  /// with blockDim.x not known to be a multiple of 32).
  bool onlyByLaunchShape() const;
  /// What divergence here does to a value written at \p Site: varying as
  /// the branches are.
  WarpValue asValue(const Stmt *Site) const;
};

class FunctionUniformity : private LocalValues {
public:
  /// Analyses \p FD. \p Entry, when given, holds the values the parameters
  /// have on entry (one call site's arguments); otherwise each parameter is
  /// uniform if its argument is (WarpValue::param).
  FunctionUniformity(const FunctionDecl *FD, ASTContext &Ctx,
                     const UniformityOptions &Opts, ValueOracle &Oracle,
                     std::vector<WarpValue> Entry = {});
  ~FunctionUniformity();

  /// False when Clang could not build a CFG for the body.
  bool isValid() const { return Cfg != nullptr; }
  /// Whether the parameters have one call site's values (see the
  /// constructor) rather than the generic ones.
  bool isSpecialized() const { return !Entry.empty(); }
  const FunctionDecl *decl() const { return FD; }
  const CFG &cfg() const { return *Cfg; }
  /// Where cfg() evaluates each of its elements.
  const ElementPositions &elements() const { return *Elements; }

  /// The value of \p E (a sub-expression of this function's body).
  WarpValue valueOf(const Expr *E) const;
  /// Frees the expression values valueOf has memoised; they are computed
  /// again on demand. An analysis may live as long as its unit, and most
  /// are asked only for their summary.
  void forgetExpressionValues() const {
    if (Eval)
      Eval->release();
  }
  /// The value a local variable holds anywhere (joined over all its
  /// assignments); valueOf(Expr) gives the value at one read.
  WarpValue valueOf(const VarDecl *VD) const;
  /// The value inline asm \p Asm writes to its outputs.
  WarpValue asmValue(const GCCAsmStmt *Asm) const;
  /// The address the atomic \p A operates on.
  WarpValue atomicAddress(const AtomicInfo &A) const;
  /// How the warp may be diverged when it executes \p S.
  Divergence divergenceAt(const Stmt *S) const;
  /// Whether at most one lane of a warp executes \p S (`if (lane == 0)`).
  bool isSingleLane(const Stmt *S) const;
  /// The parent of \p S in the body.
  const Stmt *parentOf(const Stmt *S) const {
    return Cfg ? parents().getParent(S) : nullptr;
  }
  /// The CFG block that evaluates \p S, if any.
  const CFGBlock *blockOf(const Stmt *S) const;
  /// The for-loops of the body that hold \p S, outermost first (found
  /// once per statement: the witness search and the exchange tables ask
  /// for the same statements' loops again and again).
  llvm::SmallVector<const ForStmt *, 4> forLoopsAround(const Stmt *S) const;

  /// Calls \p F on every statement of the body that can run, in reverse
  /// post-order: code a constant condition makes dead for this
  /// instantiation (`if (ALGO == 1)`) is left out.
  template <typename Fn> void forEachStmt(Fn F) const {
    for (const CFGBlock *B : Order)
      for (const CFGElement &E : *B)
        if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
          F(S->getStmt());
  }
  /// Calls \p F on each warp collective among those statements, in the
  /// same order: they are found once, for all the checks that look at them.
  template <typename Fn> void forEachCollective(Fn F) const {
    for (const CollectiveUse &Use : collectives())
      F(Use);
  }
  /// What some checks look for in the body as written (sub-statements in
  /// pre-order, unreachable ones included), found in one walk on first use.
  struct BodyOutline {
    /// The loops (for, while, do) and calls, in the order they are written.
    std::vector<const Stmt *> LoopsAndCalls;
    /// For each of LoopsAndCalls, the index of the innermost loop around it
    /// (its init, condition and increment included); -1 when none.
    std::vector<int> EnclosingLoop;
    /// Whether an array element of volatile type is read or written.
    bool HasVolatileElement = false;
  };
  const BodyOutline &outline() const;
  /// Calls \p F(S, Use) on each call and each warp collective among those
  /// statements, in the same order; Use is the collective S is, or null.
  template <typename Fn> void forEachCallSite(Fn F) const {
    llvm::ArrayRef<CollectiveUse> Uses = collectives();
    for (const CallSite &Site : *CallSites)
      F(Site.S, Site.Collective < 0 ? nullptr : &Uses[Site.Collective]);
  }

private:
  struct Controller {
    const CFGBlock *Branch;
    unsigned Edge;
  };

  void computeControlDependence();
  /// Whether another of \p All (the controllers of one point) already
  /// decides which way \p C goes for every lane that reaches the point.
  bool impliedByAnother(const Controller &C,
                        llvm::ArrayRef<Controller> All) const;
  /// Whether \p E has the same value wherever the body tests it.
  bool stableOperand(const Expr *E) const;
  /// One pass over the reachable blocks in reverse post-order, updating
  /// the definitions and branches whose reads changed since they were last
  /// evaluated. Returns whether any value changed.
  bool sweep();
  bool updateBranchValue(const CFGBlock *B);
  WarpValue branchValue(const CFGBlock *B);
  /// Joins \p V, written at \p At, into \p VD's flow-insensitive value;
  /// returns whether that changed.
  bool assign(const VarDecl *VD, const WarpValue &V, const CFGBlock *At);
  bool transfer(const Stmt *S, const CFGBlock *B);

  /// The fixpoint is incremental: each definition and each branch is an
  /// item that notes what it reads (definitions' values, branch values)
  /// while evaluated, and is evaluated again only when one of those
  /// changed since. Items are numbered: definitions by their index in
  /// Defs->all(), then branches by block id.
  struct ItemState {
    unsigned EvaluatedAt = 0; ///< Stamp of the last evaluation; 0: never
    bool Volatile = false;    ///< reads what is not noted: always again
    llvm::SmallVector<unsigned, 4> Reads;
  };
  unsigned branchItem(unsigned BlockID) const {
    return DefValues.size() + BlockID;
  }
  bool needsUpdate(unsigned Item) const;
  /// Runs \p Compute as item \p Item's evaluation, noting its reads.
  template <typename Fn> auto evaluate(unsigned Item, Fn Compute);
  /// Notes that the item being evaluated reads item \p Item's value.
  void noteRead(unsigned Item);
  void changed(unsigned Item) { ChangedAt[Item] = ++Stamp; }
  /// The value definition \p D writes, evaluated where it is made.
  /// Nullopt when it writes nothing (a callee that never writes there, a
  /// declaration without initializer).
  std::optional<WarpValue> definedValue(const LocalDefinitions::Definition &D);
  std::optional<WarpValue> read(const LocalSlot &Slot,
                                const Expr *Use) override;
  /// The value the parameter \p VD has on entry.
  WarpValue entryValue(const VarDecl *VD) const;
  /// \p V, written at \p Site, as lanes see it at \p Use: varying when the
  /// lanes at \p Use may not all have run \p Site in the same pass
  /// (written under a varying branch that \p Use is not inside, or reached
  /// from an earlier pass through the branch's region).
  WarpValue seenAt(WarpValue V, const Stmt *Site, const CFGBlock *Use,
                   const Stmt *UseStmt);
  /// The (branch block, edge) pairs controlling \p B directly or through
  /// their own controllers, sorted.
  llvm::ArrayRef<std::pair<unsigned, unsigned>>
  controllersOf(const CFGBlock *B);
  bool controls(const CFGBlock *Branch, const CFGBlock *B) const;
  void collectControllers(const CFGBlock *B,
                          llvm::SmallVectorImpl<Controller> &Out) const;

  const FunctionDecl *FD;
  ASTContext &Ctx;
  ValueOracle &Oracle;
  std::vector<WarpValue> Entry;
  std::unique_ptr<CFG> Cfg;
  /// The body's parent map, built when first needed: most lookups find
  /// their statement in BlockOfStmt.
  mutable std::unique_ptr<ParentMap> PM;
  const ParentMap &parents() const;
  /// Where the CFG evaluates each of its elements.
  std::unique_ptr<ElementPositions> Elements;
  /// Labels and terminators -> their block, and the statements looked up
  /// through their parents as found; with Elements, CFGStmtMap's rule.
  mutable llvm::DenseMap<const Stmt *, const CFGBlock *> BlockOfStmt;
  mutable llvm::DenseMap<const Stmt *, llvm::SmallVector<const ForStmt *, 4>>
      LoopsAround;
  void indexBlocks();
  /// Flow-insensitive values of locals (joined over their definitions), for
  /// valueOf(VarDecl) and lambdas reading captures.
  ValueEvaluator::VarState Vars;
  std::unique_ptr<LocalDefinitions> Defs;
  /// Butterfly all-reduce loops, by their update statement.
  llvm::DenseMap<const Stmt *, ButterflyLoop> Butterflies;
  /// By definition (index in Defs->all()): its value so far, nullopt until
  /// first evaluated.
  std::vector<std::optional<WarpValue>> DefValues;
  std::unique_ptr<ValueEvaluator> Eval;
  /// Position of each block in Order, and each block by id.
  std::vector<unsigned> OrderIndex;
  /// (block id, statement) -> the statement's first position in the block,
  /// for a statement whose first place (Elements) is in another block: a
  /// use and a write in one long block are ordered without a scan. Filled
  /// per block on first use (Indexed, by block id).
  llvm::DenseMap<std::pair<unsigned, const Stmt *>, unsigned> ElementIndex;
  std::vector<bool> Indexed;
  /// The position of \p S in \p B, or ~0u.
  unsigned elementIndex(const CFGBlock *B, const Stmt *S);
  std::vector<const CFGBlock *> Blocks;
  /// By block id: its strongly connected component (blocks on one cycle).
  std::vector<unsigned> Cycles;
  std::vector<
      std::optional<llvm::SmallVector<std::pair<unsigned, unsigned>, 4>>>
      ControllerCache;
  /// Direct control dependences: block id -> (branch, edge) pairs.
  std::vector<llvm::SmallVector<Controller, 2>> Deps;
  /// Value of each block's terminator condition, by block id.
  std::vector<WarpValue> BranchValues;
  std::vector<bool> BranchSeen;
  std::vector<ItemState> Items;
  /// By item: the Stamp when its value last changed.
  std::vector<unsigned> ChangedAt;
  unsigned Stamp = 0;
  /// The item being evaluated, if any.
  ItemState *Reader = nullptr;
  /// Blocks in reverse post-order.
  std::vector<const CFGBlock *> Order;
  /// What a sweep visits, in order: each statement that defines locals
  /// (with its block), and after a block's statements, the block itself
  /// (null statement) when lanes can split at its branch.
  std::vector<std::pair<const CFGBlock *, const Stmt *>> Steps;
  /// The warp collectives forEachCollective visits, found on first use
  /// together with the call sites.
  llvm::ArrayRef<CollectiveUse> collectives() const;
  mutable std::optional<std::vector<CollectiveUse>> Collectives;
  struct CallSite {
    const Stmt *S;
    int Collective; ///< its index in Collectives, or -1
  };
  mutable std::optional<std::vector<CallSite>> CallSites;
  mutable std::optional<BodyOutline> Outline;
  llvm::DenseMap<const VarDecl *, const CFGBlock *> DeclBlock;
  /// The whole-record sources read reads a field of, under way.
  llvm::SmallPtrSet<const Expr *, 4> FieldSources;
};

} // namespace clang::warp

#endif
