//===--- Witness.cpp - why lanes of a warp differ at a point --------------===//

#include "Witness.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::warp {

llvm::StringRef tierName(Tier T) {
  switch (T) {
  case Tier::Proven:
    return "proven";
  case Tier::Conditional:
    return "conditional";
  case Tier::Data:
    return "data";
  case Tier::Potential:
    return "potential";
  }
  return "potential";
}

std::optional<Tier> parseTier(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Tier>>(Name.trim())
      .Case("proven", Tier::Proven)
      .Case("conditional", Tier::Conditional)
      .Case("data", Tier::Data)
      .Case("potential", Tier::Potential)
      .Default(std::nullopt);
}

std::string describeBlock(const std::optional<BlockExtents> &Block) {
  if (!Block)
    return "a 1-D block of whole warps";
  return "a " + std::to_string(Block->X) + "x" + std::to_string(Block->Y) +
         "x" + std::to_string(Block->Z) + " block";
}

/// The values a runtime value is given in turn: around and on multiples of
/// 32, small and large.
static constexpr int64_t Candidates[] = {17,   1,  31, 33, 48,  100,  1000,
                                         1025, 32, 64, 96, 128, 1024, 4096};
/// Block extents tried for blockDim.x in an unknown block (1-D).
static constexpr int64_t BlockCandidates[] = {48, 96, 100, 16, 8, 64, 128, 256};
/// The values a split is tested for to say for which it happens.
static constexpr int64_t Probes[] = {1,   7,   16,   17,   31,  32,  33,
                                     48,  63,  64,   65,   96,  100, 127,
                                     128, 129, 1000, 1024, 1025};

/// Block shapes that put two rows of threads in one warp, for threadIdx.y
/// and threadIdx.z read in an unknown block.
static constexpr BlockExtents RowSplittingShapes[] = {
    {16, 2, 1}, {8, 4, 1}, {16, 4, 1}, {4, 8, 1}};

LaneWitness WitnessSearch::at(const Stmt *S, uint64_t Warp) {
  LaneEvaluator &Eval = Reach.evaluator();
  if (Budget)
    --Budget;
  LaneWitness W;
  W.Block = Eval.block();
  W.Warp = Warp;
  W.Live = Eval.liveLanes(Warp);
  W.Arrive = Reach.mayReach(S, Warp) & W.Live;
  return W;
}

std::optional<LaneWitness>
WitnessSearch::inEveryWarp(const Stmt *S, Tier T,
                           llvm::function_ref<bool(const LaneWitness &)> Accept,
                           LaneWitness Template) {
  LaneEvaluator &Eval = Reach.evaluator();
  // Whether the branches are known does not depend on the warp.
  bool Exact = Reach.isExact(S);
  if (!Exact && ExactLanesOnly) {
    // No warp's lanes would be accepted; the budget still counts them, so
    // that what the search finds later does not depend on this shortcut.
    unsigned Warps = Eval.warps(/*ThreadIndex=*/true).size();
    Budget -= std::min(Budget, Warps);
    if (!Budget)
      return std::nullopt;
    return inLoopIterations(S, T, Accept, Template);
  }
  // The live lanes of a warp where no branch splits them by conditions that
  // read no threadIdx.x: a warp with the same lanes is not split either.
  std::optional<LaneSet> Unsplit;
  for (uint64_t Warp : Eval.warps(/*ThreadIndex=*/true)) {
    if (!Budget)
      return std::nullopt;
    if (!WholeWarps) {
      LaneSet Live = Eval.liveLanes(Warp);
      if (Unsplit == Live)
        continue;
      bool ReadWarp = false;
      if (!Eval.readingWarp(ReadWarp, [&] { return mightSplit(Warp); })) {
        if (!ReadWarp)
          Unsplit = Live;
        continue;
      }
    }
    LaneWitness W = at(S, Warp);
    if (!W.Arrive || (W.Arrive == W.Live && !WholeWarps))
      continue;
    W.T = T;
    W.Runtime = Template.Runtime;
    W.RuntimeValue = Template.RuntimeValue;
    W.Runtime2 = Template.Runtime2;
    W.RuntimeValue2 = Template.RuntimeValue2;
    W.ByLaunchShape = Template.ByLaunchShape;
    W.Exact = Exact;
    if (Accept(W))
      return W;
  }
  return inLoopIterations(S, T, Accept, Template);
}

namespace {
/// A for-loop whose counter every lane steps by the same amount from its
/// own start: `for (int k = lane; k < n; k += 32)`, `for (k = 0; k < lane;
/// ++k)`.
struct SteppedLoop {
  const VarDecl *Counter = nullptr;
  const Expr *Cond = nullptr;
  const Expr *StepExpr = nullptr; ///< null: Step
  int64_t Step = 1;
};
} // namespace

/// \p For as a stepped loop, if it is one: one counter declared in its
/// init, stepped by ++, --, += or -= and written nowhere in the body.
static std::optional<SteppedLoop> steppedLoop(const ForStmt *For,
                                              LaneReach &Reach) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *VD = Init && Init->isSingleDecl()
                       ? dyn_cast<VarDecl>(Init->getSingleDecl())
                       : nullptr;
  if (!VD || !VD->getInit() || !VD->getType()->isIntegerType() ||
      !For->getCond() || !For->getInc() || Reach.writes(For->getBody(), VD))
    return std::nullopt;
  SteppedLoop L;
  L.Counter = VD;
  L.Cond = For->getCond();
  auto Names = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc);
      UO && UO->isIncrementDecrementOp() && Names(UO->getSubExpr())) {
    L.Step = UO->isIncrementOp() ? 1 : -1;
    return L;
  }
  const auto *BO = dyn_cast<BinaryOperator>(Inc);
  if (!BO || !Names(BO->getLHS()) ||
      (BO->getOpcode() != BO_AddAssign && BO->getOpcode() != BO_SubAssign))
    return std::nullopt;
  L.StepExpr = BO->getRHS();
  L.Step = BO->getOpcode() == BO_AddAssign ? 1 : -1;
  return L;
}

/// How many iterations a loop is followed for at most.
static constexpr unsigned MaxIterations = 64;

/// The counter's value in each lane in iteration \p J of a loop that
/// starts at \p Begin and steps by \p Step.
static LaneValues counterAt(const LaneValues &Begin, int64_t Step, unsigned J) {
  LaneValues V;
  for (unsigned L = 0; L < 32; ++L)
    if (Begin[L])
      V[L] = *Begin[L] + Step * int64_t(J);
  return V;
}

std::optional<LaneWitness> WitnessSearch::inLoopIterations(
    const Stmt *S, Tier T, llvm::function_ref<bool(const LaneWitness &)> Accept,
    LaneWitness Template) {
  // The innermost stepped loop whose body holds the point: lanes leave it
  // after different numbers of iterations (a lane-dependent bound), or at
  // a branch that reads the counter.
  const FunctionUniformity &FU = Reach.function();
  std::optional<SteppedLoop> Loop;
  const ForStmt *LoopStmt = nullptr;
  for (const ForStmt *For : llvm::reverse(FU.forLoopsAround(S)))
    if ((Loop = steppedLoop(For, Reach))) {
      LoopStmt = For;
      break;
    }
  if (!Loop || !Budget || !loopMatters(S, *LoopStmt, Loop->Counter))
    return std::nullopt;
  LaneEvaluator &Eval = Reach.evaluator();
  const Expr *Start = Loop->Counter->getInit();
  // Each lane's start, step and trip count, while the condition is known.
  // They are the same in every warp unless something read threadIdx.x.
  struct Trips {
    LaneSet Live = 0;
    LaneValues Begin;
    int64_t Step = 0;
    unsigned Iterations = 0;
    std::array<unsigned, 32> Count;
    bool Known = false;
    bool ReadWarp = false;
  };
  std::optional<Trips> Last;
  auto TripsIn = [&](uint64_t Warp, LaneSet Live) {
    Trips T;
    T.Live = Live;
    // Without the step only the first iteration is known.
    std::optional<int64_t> Step =
        Loop->StepExpr ? Eval.valueIn(Loop->StepExpr, 0, Warp, T.ReadWarp) : 1;
    T.Iterations = Step ? MaxIterations : 1;
    T.Step = Step.value_or(0);
    for (unsigned L = 0; L < 32; ++L)
      if (Live >> L & 1)
        T.Begin[L] = Eval.valueIn(Start, L, Warp, T.ReadWarp);
    T.Count.fill(T.Iterations);
    LaneSet In = 0;
    for (unsigned L = 0; L < 32; ++L)
      if (T.Begin[L])
        In |= 1u << L;
    T.Known = In == Live;
    for (unsigned J = 0; J < T.Iterations && In && T.Known; ++J) {
      Eval.bindPerLane(Loop->Counter,
                       counterAt(T.Begin, Loop->Step * T.Step, J));
      for (unsigned L = 0; L < 32; ++L) {
        if (!(In >> L & 1))
          continue;
        std::optional<int64_t> Go =
            Eval.valueIn(Loop->Cond, L, Warp, T.ReadWarp);
        if (!Go) {
          T.Known = false;
          break;
        }
        if (!*Go) {
          T.Count[L] = J;
          In &= ~(1u << L);
        }
      }
    }
    Eval.bindPerLane(Loop->Counter, std::nullopt);
    return T;
  };
  std::optional<LaneWitness> Found;
  for (uint64_t Warp : Eval.warps(/*ThreadIndex=*/true)) {
    if (!Budget)
      return std::nullopt;
    LaneSet Live = Eval.liveLanes(Warp);
    if (!Last || Last->ReadWarp || Last->Live != Live)
      Last = TripsIn(Warp, Live);
    if (!Last->Known)
      continue;
    const unsigned Iterations = Last->Iterations;
    const std::array<unsigned, 32> &Trips = Last->Count;
    auto CounterAt = [&](unsigned J) {
      return counterAt(Last->Begin, Loop->Step * Last->Step, J);
    };
    unsigned First = Iterations;
    for (unsigned L = 0; L < 32; ++L)
      if (Live >> L & 1)
        First = std::min(First, Trips[L]);
    for (unsigned J : {0u, First, 1u}) {
      if (J >= Iterations)
        continue;
      LaneSet InLoop = 0;
      for (unsigned L = 0; L < 32; ++L)
        if ((Live >> L & 1) && Trips[L] > J)
          InLoop |= 1u << L;
      if (!InLoop)
        continue;
      Eval.bindPerLane(Loop->Counter, CounterAt(J));
      LaneWitness W = at(S, Warp);
      W.Arrive &= InLoop;
      bool Accepted = false;
      if (W.Arrive && (W.Arrive != W.Live || WholeWarps)) {
        W.T = T;
        W.Runtime = Template.Runtime;
        W.RuntimeValue = Template.RuntimeValue;
        W.Runtime2 = Template.Runtime2;
        W.RuntimeValue2 = Template.RuntimeValue2;
        W.ByLaunchShape = Template.ByLaunchShape;
        W.Iteration = J;
        W.Exact = Reach.isExact(S, LoopStmt);
        Accepted = Accept(W);
        if (Accepted)
          Found = W;
      }
      Eval.bindPerLane(Loop->Counter, std::nullopt);
      if (Accepted)
        return Found;
    }
  }
  return std::nullopt;
}

/// Merges the gaps of \p From into \p Into (each runtime value once).
static void mergeGaps(EvaluationGaps &Into, EvaluationGaps From) {
  for (const RuntimeValue &R : From.Runtime)
    if (llvm::none_of(Into.Runtime,
                      [&](const RuntimeValue &O) { return O.Key == R.Key; }))
      Into.Runtime.push_back(R);
  for (const Expr *D : From.Data)
    if (!llvm::is_contained(Into.Data, D))
      Into.Data.push_back(D);
  Into.LaunchShape |= From.LaunchShape;
  Into.Other |= From.Other;
}

/// Whether \p E reads \p VD.
static bool reads(const Stmt *E, const VarDecl *VD) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == VD;
  for (const Stmt *Child : E->children())
    if (reads(Child, VD))
      return true;
  return false;
}

bool WitnessSearch::loopMatters(const Stmt *S, const ForStmt &Loop,
                                const VarDecl *Counter) {
  // Its iterations say more than the plain lane sets only where its own
  // condition splits the lanes or another branch on the way reads its
  // counter.
  for (const DivergentBranch &B : Reach.function().divergenceAt(S).Branches)
    if (B.Terminator == &Loop || reads(B.Condition, Counter))
      return true;
  return false;
}

bool WitnessSearch::mightSplit(uint64_t Warp) {
  // Lanes certainly miss the point only where a branch on the way gives
  // two of them known, different outcomes: evaluating those few conditions
  // is much cheaper than the lane sets of the whole function.
  if (!Current)
    return true;
  LaneEvaluator &Eval = Reach.evaluator();
  LaneSet Live = Eval.liveLanes(Warp);
  for (const DivergentBranch &B : Current->Branches) {
    if (!B.Condition ||
        isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(
            B.Terminator))
      continue;
    if (!isa<SwitchStmt>(B.Terminator)) {
      LaneReach::Outcomes O = Reach.outcomesOf(B.Condition, Warp);
      if ((O.True & Live) && (O.False & Live))
        return true;
      continue;
    }
    bool ReadWarp = false;
    LaneValues V = Eval.laneValues(B.Condition, Warp, ReadWarp);
    std::optional<int64_t> First;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(Live >> L & 1) || !V[L])
        continue;
      if (!First)
        First = *V[L];
      else if (*V[L] != *First)
        return true;
    }
  }
  return false;
}

std::string WitnessSearch::conditionOn(const Stmt *S, const RuntimeValue &R) {
  LaneEvaluator &Eval = Reach.evaluator();
  auto Splits = [&](int64_t V) {
    if (R.BlockShape)
      Eval.setBlock(BlockExtents{V, 1, 1});
    else
      Eval.bindRuntimeValue(R.Key, V);
    for (uint64_t Warp : Eval.warps(true)) {
      LaneWitness W = at(S, Warp);
      if (W.Arrive && W.Arrive != W.Live)
        return true;
    }
    return false;
  };
  llvm::SmallVector<std::pair<int64_t, bool>, 20> Seen;
  for (int64_t V : Probes)
    Seen.push_back({V, Splits(V)});
  if (!R.BlockShape)
    Eval.bindRuntimeValue(R.Key, std::nullopt);
  auto Matches = [&](auto Pattern) {
    return llvm::all_of(Seen,
                        [&](auto P) { return P.second == Pattern(P.first); });
  };
  for (int64_t M : {32, 64, 128, 256})
    if (Matches([&](int64_t V) { return V % M != 0; }))
      return "is not a multiple of " + std::to_string(M);
  if (Matches([](int64_t V) { return V < 32; }))
    return "is less than 32";
  return "takes some values";
}

std::optional<LaneWitness>
WitnessSearch::find(const Stmt *S, const Divergence &D,
                    llvm::function_ref<bool(const LaneWitness &)> Accept) {
  LaneEvaluator &Eval = Reach.evaluator();
  std::optional<BlockExtents> Before = Eval.block();
  Current = &D;
  auto Done = [&](std::optional<LaneWitness> W) {
    Eval.setBlock(Before);
    Current = nullptr;
    return W;
  };
  std::vector<std::optional<BlockExtents>> Blocks;
  for (const BlockExtents &B : Shapes)
    Blocks.push_back(B);
  if (Blocks.empty())
    Blocks.push_back(std::nullopt);

  // Lane arithmetic and constants alone.
  for (const std::optional<BlockExtents> &B : Blocks) {
    Eval.setBlock(B);
    if (auto W = inEveryWarp(S, Tier::Proven, Accept, {}))
      return Done(W);
  }

  // What the branches' conditions read and the evaluator did not know.
  EvaluationGaps Gaps;
  Eval.setBlock(Blocks.front());
  for (const DivergentBranch &B : D.Branches)
    if (B.Condition)
      for (unsigned Lane : {0u, 31u})
        mergeGaps(Gaps, Eval.gapsOf(B.Condition, Lane, 0));

  // One runtime value given a value.
  for (const RuntimeValue &R : Gaps.Runtime) {
    LaneWitness Template;
    Template.Runtime = R.Read;
    std::optional<LaneWitness> Found;
    if (R.BlockShape) {
      for (int64_t X : BlockCandidates) {
        Eval.setBlock(BlockExtents{X, 1, 1});
        Template.RuntimeValue = X;
        if ((Found = inEveryWarp(S, Tier::Conditional, Accept, Template)))
          break;
      }
    } else {
      for (const std::optional<BlockExtents> &B : Blocks) {
        Eval.setBlock(B);
        for (int64_t V : Candidates) {
          Eval.bindRuntimeValue(R.Key, V);
          Template.RuntimeValue = V;
          if ((Found = inEveryWarp(S, Tier::Conditional, Accept, Template)))
            break;
        }
        Eval.bindRuntimeValue(R.Key, std::nullopt);
        if (Found)
          break;
      }
    }
    if (Found) {
      Found->Condition = conditionOn(S, R);
      if (Found->Condition == "takes some values")
        Found->Condition =
            "is, for example, " + std::to_string(Found->RuntimeValue);
      return Done(Found);
    }
  }

  // Two runtime values together (`base + lane < n` with both unknown).
  std::vector<const RuntimeValue *> Plain;
  for (const RuntimeValue &R : Gaps.Runtime)
    if (!R.BlockShape && Plain.size() < 3)
      Plain.push_back(&R);
  static constexpr int64_t PairValues[] = {17, 1000, 0, 100};
  for (unsigned I = 0; I < Plain.size(); ++I)
    for (unsigned J = I + 1; J < Plain.size(); ++J) {
      Eval.setBlock(Blocks.front());
      for (int64_t A : PairValues)
        for (int64_t B : PairValues) {
          if (A == B)
            continue;
          Eval.bindRuntimeValue(Plain[I]->Key, A);
          Eval.bindRuntimeValue(Plain[J]->Key, B);
          LaneWitness Template;
          Template.Runtime = Plain[I]->Read;
          Template.RuntimeValue = A;
          Template.Runtime2 = Plain[J]->Read;
          Template.RuntimeValue2 = B;
          std::optional<LaneWitness> Found =
              inEveryWarp(S, Tier::Conditional, Accept, Template);
          Eval.bindRuntimeValue(Plain[I]->Key, std::nullopt);
          Eval.bindRuntimeValue(Plain[J]->Key, std::nullopt);
          if (Found)
            return Done(Found);
        }
    }

  // Rows of the block in one warp: only a block whose x extent is not a
  // multiple of 32 has them.
  if (Gaps.LaunchShape && Shapes.empty()) {
    LaneWitness Template;
    Template.ByLaunchShape = true;
    for (const BlockExtents &B : RowSplittingShapes) {
      Eval.setBlock(B);
      if (auto W = inEveryWarp(S, Tier::Conditional, Accept, Template)) {
        W->Condition = "is not a multiple of 32";
        return Done(W);
      }
    }
  }
  Eval.setBlock(Before);

  if (!Gaps.Data.empty()) {
    LaneWitness W;
    W.T = Tier::Data;
    W.DataLoad = Gaps.Data.front();
    if (Accept(W))
      return Done(W);
  }
  LaneWitness W;
  W.T = Tier::Potential;
  if (Accept(W))
    return Done(W);
  return Done(std::nullopt);
}

} // namespace clang::warp
