//===--- LaneSets.cpp - which lanes of a warp do what ---------------------===//

#include "LaneSets.h"
#include "MovedLanes.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::warp {

namespace {
/// Whether a statement writes a variable (assigns, increments, takes its
/// address or binds it to a reference).
class WritesVar : public RecursiveASTVisitor<WritesVar> {
public:
  explicit WritesVar(const VarDecl *VD) : VD(VD) {}
  bool Found = false;

  bool names(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    Found |= BO->isAssignmentOp() && names(BO->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    Found |= (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
             names(UO->getSubExpr());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      Found |= Arg->isGLValue() && names(Arg) &&
               !isa<ImplicitCastExpr>(Arg); // bound to a reference
    return !Found;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      Found |= C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
               C.getCapturedVar() == VD;
    return !Found;
  }

private:
  const VarDecl *VD;
};
} // namespace

bool writesVariable(const Stmt *S, const VarDecl *VD) {
  WritesVar Writes(VD);
  Writes.TraverseStmt(const_cast<Stmt *>(S));
  return Writes.Found;
}

/// The values the counter of \p For takes, in order, when they are the same
/// in every lane: a constant start, a condition and a step that read only
/// the counter and constants, a body that does not write the counter, and
/// at most 64 iterations.
static std::optional<std::pair<const VarDecl *, std::vector<int64_t>>>
counterValues(const ForStmt *For, LaneEvaluator &Eval) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *VD = Init && Init->isSingleDecl()
                       ? dyn_cast<VarDecl>(Init->getSingleDecl())
                       : nullptr;
  const Expr *Cond = For->getCond();
  const Expr *Inc = For->getInc();
  if (!VD || !VD->getInit() || !Cond || !Inc || !VD->getType()->isIntegerType())
    return std::nullopt;
  WritesVar Writes(VD);
  Writes.TraverseStmt(const_cast<Stmt *>(For->getBody()));
  if (Writes.Found)
    return std::nullopt;
  // Lane 0 stands for every lane only where no lane or warp is read.
  auto Uniform = [&](const Expr *E) -> std::optional<int64_t> {
    bool ReadWarp = false;
    std::optional<int64_t> A = Eval.valueIn(E, 0, 0, ReadWarp);
    std::optional<int64_t> B = Eval.valueIn(E, 31, 1, ReadWarp);
    if (!A || A != B || ReadWarp)
      return std::nullopt;
    return A;
  };
  auto Step = [&](int64_t V) -> std::optional<int64_t> {
    const Expr *E = Inc->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->isIncrementDecrementOp())
      return UO->isIncrementOp() ? V + 1 : V - 1;
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || !BO->isAssignmentOp())
      return std::nullopt;
    Eval.bind(VD, V);
    std::optional<int64_t> R = Uniform(BO->getRHS());
    if (!R)
      return std::nullopt;
    if (BO->getOpcode() == BO_Assign)
      return R;
    return applyBinary(underlyingOperator(BO->getOpcode()), V, *R, 32);
  };
  std::vector<int64_t> Values;
  Eval.bind(VD, std::nullopt);
  std::optional<int64_t> V = Uniform(VD->getInit());
  while (V) {
    Eval.bind(VD, *V);
    std::optional<int64_t> Go = Uniform(Cond);
    if (!Go)
      break;
    if (!*Go) {
      Eval.bind(VD, std::nullopt);
      return std::make_pair(VD, std::move(Values));
    }
    if (Values.size() == 64)
      break;
    Values.push_back(*V);
    V = Step(*V);
  }
  Eval.bind(VD, std::nullopt);
  return std::nullopt;
}

std::optional<int64_t> counterAtLeast(const Stmt *S, const VarDecl *Counter,
                                      const FunctionUniformity &FU,
                                      ASTContext &Ctx) {
  llvm::SmallVector<const ForStmt *, 4> Loops = FU.forLoopsAround(S);
  for (const ForStmt *For : Loops) {
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Cond || !Cond->isRelationalOp())
      continue;
    const Expr *L = Cond->getLHS()->IgnoreParenImpCasts();
    const Expr *R = Cond->getRHS()->IgnoreParenImpCasts();
    BinaryOperatorKind Op = Cond->getOpcode();
    auto Names = [&](const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && DRE->getDecl() == Counter;
    };
    if (Names(R)) { // `32 <= s`: as `s >= 32`
      std::swap(L, R);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    if (!Names(L) || R->isValueDependent())
      continue;
    std::optional<llvm::APSInt> Bound = R->getIntegerConstantExpr(Ctx);
    if (!Bound || (Op != BO_GE && Op != BO_GT))
      continue;
    WritesVar Writes(Counter);
    Writes.TraverseStmt(const_cast<Stmt *>(For->getBody()));
    if (Writes.Found)
      continue;
    return Bound->getExtValue() + (Op == BO_GT ? 1 : 0);
  }
  return std::nullopt;
}

size_t counterIterations(const ForStmt *For, LaneEvaluator &Eval) {
  auto C = counterValues(For, Eval);
  return C ? C->second.size() : 0;
}

bool forEachCounterValue(const Stmt *S, const FunctionUniformity &FU,
                         LaneEvaluator &Eval,
                         llvm::function_ref<bool()> Visit) {
  llvm::SmallVector<const ForStmt *, 4> Loops = FU.forLoopsAround(S);
  std::vector<std::pair<const VarDecl *, std::vector<int64_t>>> Counters;
  size_t Combinations = 1;
  for (const ForStmt *For : Loops)
    if (auto C = counterValues(For, Eval); C && !C->second.empty()) {
      Combinations *= C->second.size();
      Counters.push_back(std::move(*C));
    }
  if (Combinations > MaxCounterCombinations)
    Counters.clear();
  // Odometer over the counters' values.
  std::vector<size_t> At(Counters.size(), 0);
  bool Continue = true;
  while (Continue) {
    for (size_t I = 0; I < Counters.size(); ++I)
      Eval.bind(Counters[I].first, Counters[I].second[At[I]]);
    Continue = Visit();
    size_t I = 0;
    for (; I < Counters.size(); ++I) {
      if (++At[I] < Counters[I].second.size())
        break;
      At[I] = 0;
    }
    if (I == Counters.size())
      break;
  }
  for (const auto &C : Counters)
    Eval.bind(C.first, std::nullopt);
  return Continue;
}

LaneReach::LaneReach(const FunctionUniformity &FU, ASTContext &Ctx)
    : FU(FU), Eval(FU, Ctx) {}

static bool isLoop(const Stmt *S) {
  return isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// The condition of \p B's two-way branch, when lane sets follow it: loop
/// conditions change between iterations; switches are not followed.
static const Expr *followedCondition(const CFGBlock &B) {
  const Stmt *T = B.getTerminatorStmt();
  if (B.succ_size() != 2 || !T || isLoop(T) || isa<SwitchStmt>(T))
    return nullptr;
  return dyn_cast_or_null<Expr>(B.getTerminatorCondition());
}

/// The case value range \p Label matches, if it is a case with constants.
static std::optional<std::pair<int64_t, int64_t>> caseRange(const Stmt *Label,
                                                            ASTContext &Ctx) {
  const auto *Case = dyn_cast_or_null<CaseStmt>(Label);
  if (!Case || Case->getLHS()->isValueDependent())
    return std::nullopt;
  Expr::EvalResult L, R;
  if (!Case->getLHS()->EvaluateAsInt(L, Ctx))
    return std::nullopt;
  int64_t Low = L.Val.getInt().getExtValue(), High = Low;
  if (const Expr *RHS = Case->getRHS()) {
    if (RHS->isValueDependent() || !RHS->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    High = R.Val.getInt().getExtValue();
  }
  return std::make_pair(Low, High);
}

llvm::SmallVector<LaneSet, 2> LaneReach::switchLanes(const CFGBlock &B,
                                                     const SwitchStmt &Switch,
                                                     uint64_t Warp) {
  // Each case gets the lanes whose value it names; the default (or the way
  // past the switch) those no case names. A lane whose value is not known
  // may go anywhere.
  llvm::SmallVector<LaneSet, 2> Out(B.succ_size(), AllLanes);
  ASTContext &Ctx = FU.decl()->getASTContext();
  bool ReadWarp = false;
  LaneValues Values = Eval.laneValues(Switch.getCond(), Warp, ReadWarp);
  EdgesReadWarp |= ReadWarp;
  llvm::SmallVector<std::optional<std::pair<int64_t, int64_t>>, 8> Ranges;
  for (const CFGBlock::AdjacentBlock &S : B.succs()) {
    const CFGBlock *Target = S.getReachableBlock();
    Ranges.push_back(Target ? caseRange(Target->getLabel(), Ctx)
                            : std::nullopt);
    if (Target && isa_and_nonnull<CaseStmt>(Target->getLabel()) &&
        !Ranges.back())
      return Out; // a case the evaluator cannot read
  }
  LaneSet Matched = 0;
  for (unsigned I = 0; I < Ranges.size(); ++I) {
    if (!Ranges[I])
      continue;
    LaneSet Lanes = 0;
    for (unsigned L = 0; L < 32; ++L)
      if (!Values[L] ||
          (*Values[L] >= Ranges[I]->first && *Values[L] <= Ranges[I]->second))
        Lanes |= 1u << L;
    Out[I] = Lanes;
    Matched |= Lanes;
  }
  LaneSet Unknown = 0;
  for (unsigned L = 0; L < 32; ++L)
    if (!Values[L])
      Unknown |= 1u << L;
  for (unsigned I = 0; I < Ranges.size(); ++I)
    if (!Ranges[I])
      Out[I] = ~Matched | Unknown;
  return Out;
}

llvm::SmallVector<LaneSet, 2> LaneReach::edgeLanes(const CFGBlock &B,
                                                   uint64_t Warp) {
  llvm::SmallVector<LaneSet, 2> Out(B.succ_size(), AllLanes);
  if (const auto *Switch = dyn_cast_or_null<SwitchStmt>(B.getTerminatorStmt()))
    return switchLanes(B, *Switch, Warp);
  const Expr *Cond = followedCondition(B);
  if (!Cond)
    return Out;
  // Kept by what the condition reads (a loop counter bound for one check's
  // question leaves the edges of the conditions that do not read it as
  // they were): the lanes that may take each edge.
  bool ReadWarp = false;
  Outcomes O =
      Eval.readingWarp(ReadWarp, [&] { return outcomesOf(Cond, Warp); });
  EdgesReadWarp |= ReadWarp;
  Out[0] = ~O.False;
  Out[1] = ~O.True;
  return Out;
}

namespace {
/// What an expression's value can depend on among what the lane evaluator
/// binds: the variables it reads, and those their initializers read (the
/// evaluator follows a read-only local into its initializer), and the keys
/// of the runtime values among its parts. A load (`list[pos]`, `*p`) is a
/// value of its own to the evaluator, whatever its address reads: what is
/// under it is not an input (`swap` in `swap ? kb : ka`, with `kb` loaded
/// at an index built from loop counters, reads none of them).
class ReadInputs : public RecursiveASTVisitor<ReadInputs> {
public:
  ReadInputs(const FunctionUniformity &FU, ASTContext &Ctx)
      : FU(FU), Ctx(Ctx) {}
  llvm::SetVector<const VarDecl *> Vars, ShapedVars;
  llvm::DenseSet<uint64_t> RuntimeKeys, ShapedKeys;
  bool TraverseArraySubscriptExpr(ArraySubscriptExpr *E,
                                  DataRecursionQueue * = nullptr) {
    return WalkUpFromArraySubscriptExpr(E);
  }
  bool TraverseUnaryOperator(UnaryOperator *E,
                             DataRecursionQueue *Q = nullptr) {
    if (E->getOpcode() == UO_Deref)
      return WalkUpFromUnaryOperator(E);
    return RecursiveASTVisitor::TraverseUnaryOperator(E, Q);
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return true;
    bool Shape = !Shaped && LaneEvaluator::answeredByShape(FU.valueOf(DRE));
    if ((Shaped || Shape ? ShapedVars : Vars).insert(VD) && VD->getInit()) {
      bool Was = Shaped;
      Shaped |= Shape;
      TraverseStmt(const_cast<Expr *>(VD->getInit()));
      Shaped = Was;
    }
    return true;
  }
  bool VisitExpr(Expr *E) {
    if (E->getType()->isIntegralOrEnumerationType())
      (Shaped ? ShapedKeys : RuntimeKeys).insert(LaneEvaluator::keyOf(E, Ctx));
    return true;
  }

private:
  const FunctionUniformity &FU;
  ASTContext &Ctx;
  bool Shaped = false; ///< under a read the shapes answer
};
} // namespace

LaneReach::Inputs LaneReach::inputsOf(llvm::ArrayRef<const Expr *> Exprs) {
  ReadInputs R(FU, FU.decl()->getASTContext());
  for (const Expr *E : Exprs)
    R.TraverseStmt(const_cast<Expr *>(E));
  return {
      std::vector<const VarDecl *>(R.Vars.begin(), R.Vars.end()),
      std::move(R.RuntimeKeys),
      std::vector<const VarDecl *>(R.ShapedVars.begin(), R.ShapedVars.end()),
      std::move(R.ShapedKeys)};
}

LaneReach::Bindings LaneReach::bindingsNow(const Inputs &In) const {
  bool Shaped = !Eval.shapesExact();
  Bindings B;
  B.Vars.reserve(In.Vars.size() + (Shaped ? In.ShapedVars.size() : 0));
  for (const VarDecl *VD : In.Vars)
    B.Vars.push_back(Eval.bindingKeyOf(VD));
  if (Shaped)
    for (const VarDecl *VD : In.ShapedVars)
      B.Vars.push_back(Eval.bindingKeyOf(VD));
  for (const auto &KV : Eval.runtimeBindings())
    if (In.RuntimeKeys.contains(KV.first) ||
        (Shaped && In.ShapedKeys.contains(KV.first)))
      B.Runtime.push_back(KV);
  llvm::sort(B.Runtime);
  return B;
}

const LaneReach::ExprBindings &LaneReach::bindingsOfExpr(const Expr *E) {
  std::unique_ptr<ExprBindings> &Entry = ExprReads[E];
  if (!Entry) {
    Entry = std::make_unique<ExprBindings>();
    Entry->In = inputsOf(E);
  }
  if (Entry->Generation != Eval.generation()) {
    Entry->Generation = Eval.generation();
    Entry->Now = bindingsNow(Entry->In);
    Entry->Hash = hashOf(Entry->Now);
  }
  return *Entry;
}

unsigned LaneReach::hashOf(const Bindings &Now) const {
  // Asked once per question the witness search asks: a multiply-and-shift
  // mix costs a fraction of llvm::hash_combine.
  uint64_t H = Now.Vars.size();
  auto Mix = [&H](uint64_t V) {
    H = (H ^ V) * 0x9e3779b97f4a7c15ull;
    H ^= H >> 29;
  };
  if (const std::optional<BlockExtents> &B = Eval.block()) {
    Mix(uint64_t(B->X));
    Mix(uint64_t(B->Y));
    Mix(uint64_t(B->Z));
  }
  // A per-lane binding by whether there is one: equal ones are often
  // distinct copies.
  for (const LaneEvaluator::BindingKey &K : Now.Vars)
    Mix(K.Value ? uint64_t(*K.Value) * 2 + 1 : K.PerLane ? 2 : 0);
  for (auto [Key, Value] : Now.Runtime) {
    Mix(Key);
    Mix(uint64_t(Value));
  }
  return unsigned(H ^ H >> 32);
}

template <typename T>
const T *LaneReach::kept(KeptByWarp<T> &Cache, const Expr *E, uint64_t Warp,
                         const Bindings &Now, unsigned Hash) {
  for (uint64_t Key : {AnyWarp, Warp})
    if (auto It = Cache.find({E, Key, Hash}); It != Cache.end())
      for (const Kept<T> &K : It->second)
        if (K.Block == Eval.block() && K.Bound == Now) {
          // As the evaluation it stands for would have.
          if (Key != AnyWarp)
            Eval.noteThreadIndexRead();
          return &K.Value;
        }
  return nullptr;
}

const BinaryOperator *LaneReach::splitOperator(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParens());
  if (!BO || BO->isLogicalOp() || BO->isAssignmentOp() || BO->isCommaOp() ||
      BO->isValueDependent() || FU.valueOf(E).isUniform() ||
      Eval.runtimeBindings().count(
          LaneEvaluator::keyOf(BO, FU.decl()->getASTContext())))
    return nullptr;
  return BO;
}

const Expr *LaneReach::splitConversion(const Expr *E) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  if (!Cast ||
      (Cast->getCastKind() != CK_IntegralCast &&
       Cast->getCastKind() != CK_NoOp) ||
      !splitOperator(Cast->getSubExpr()) ||
      Eval.runtimeBindings().count(
          LaneEvaluator::keyOf(Cast, FU.decl()->getASTContext())))
    return nullptr;
  return Cast->getSubExpr();
}

LaneValues LaneReach::combined(const BinaryOperator *BO, uint64_t Warp,
                               bool &ReadWarp) {
  return Eval.readingWarp(ReadWarp, [&] {
    LaneValues L = valuesOf(BO->getLHS(), Warp);
    return Eval.combine(BO, L, valuesOf(BO->getRHS(), Warp));
  });
}

LaneValues LaneReach::valuesOf(const Expr *E, uint64_t Warp) {
  const ExprBindings &Reads = bindingsOfExpr(E);
  const Bindings &Now = Reads.Now;
  unsigned Hash = Reads.Hash;
  if (const LaneValues *V = kept(KeptValues, E, Warp, Now, Hash))
    return *V;
  // An operator (or an integral conversion of one) is its operands' values
  // combined lane by lane, and a read-only local its initializer's: the
  // part that reads no runtime value being given values (`tid` in `bid *
  // token_size + tid`) is found kept, the part that does is mostly uniform (one
  // lane).
  bool ReadWarp = false;
  LaneValues Values;
  const Expr *Init = nullptr;
  if (const BinaryOperator *BO = splitOperator(E)) {
    Values = combined(BO, Warp, ReadWarp);
  } else if (const Expr *Operator = splitConversion(E)) {
    Values = Eval.readingWarp(ReadWarp, [&] {
      return Eval.converted(valuesOf(Operator, Warp), E->getType());
    });
  } else if (!FU.valueOf(E).isUniform() &&
             (Init = Eval.followedInitializer(E))) {
    Values = Eval.readingWarp(ReadWarp, [&] {
      return Eval.converted(valuesOf(Init, Warp), E->getType());
    });
  } else {
    Values = Eval.laneValues(E, Warp, ReadWarp);
  }
  KeptValues[{E, ReadWarp ? Warp : AnyWarp, Hash}].push_back(
      {Eval.block(), Now, Values});
  return Values;
}

LaneValues LaneReach::valuesOf(const Expr *E, uint64_t Warp, bool &ReadWarp) {
  return Eval.readingWarp(ReadWarp, [&] { return valuesOf(E, Warp); });
}

LaneReach::WarpShifts LaneReach::shiftsOf(const Expr *E,
                                          llvm::ArrayRef<uint64_t> Warps) {
  const ExprBindings &Reads = bindingsOfExpr(E);
  const Bindings &Now = Reads.Now;
  unsigned Hash = Reads.Hash ^ unsigned(llvm::hash_combine_range(Warps.begin(),
                                                                 Warps.end()));
  if (const WarpShifts *S = kept(KeptShifts, E, AnyWarp, Now, Hash))
    return *S;
  // The same split as valuesOf's: each part moves as its operands do.
  uint64_t First = Warps.front();
  WarpShifts Shifts(Warps.size());
  auto Converted = [&](const Expr *From) {
    WarpShifts Inner = shiftsOf(From, Warps);
    QualType FT = From->getType(), TT = E->getType();
    bool Integral =
        FT->isIntegralOrEnumerationType() && TT->isIntegralOrEnumerationType();
    LaneValues V = valuesOf(From, First);
    for (size_t K = 0; K < Warps.size(); ++K)
      Shifts[K] = movedByConversion(Inner[K], V, Eval.intFormat(FT),
                                    Eval.intFormat(TT), Integral);
  };
  const Expr *Init = nullptr;
  if (const BinaryOperator *BO = splitOperator(E)) {
    WarpShifts L = shiftsOf(BO->getLHS(), Warps);
    WarpShifts R = shiftsOf(BO->getRHS(), Warps);
    LaneValues LV = valuesOf(BO->getLHS(), First);
    LaneValues RV = valuesOf(BO->getRHS(), First);
    QualType T = BO->getType();
    for (size_t K = 0; K < Warps.size(); ++K)
      Shifts[K] = movedByOperator(
          BO->getOpcode(), L[K], R[K], LV, RV, Eval.intFormat(T),
          T->isIntegralOrEnumerationType(), Eval.leftOperandBits(BO));
  } else if (const Expr *Operator = splitConversion(E)) {
    Converted(Operator);
  } else if (!FU.valueOf(E).isUniform() &&
             (Init = Eval.followedInitializer(E))) {
    Converted(Init);
  } else {
    bool ReadWarp = false;
    LaneValues V = valuesOf(E, First, ReadWarp);
    for (size_t K = 0; K < Warps.size(); ++K)
      Shifts[K] = !ReadWarp || Warps[K] == First
                      ? 0
                      : movedBetween(V, valuesOf(E, Warps[K]),
                                     Eval.intFormat(E->getType()));
  }
  KeptShifts[{E, AnyWarp, Hash}].push_back({Eval.block(), Now, Shifts});
  return Shifts;
}

LaneReach::Outcomes LaneReach::outcomesOf(const Expr *Cond, uint64_t Warp) {
  const ExprBindings &Reads = bindingsOfExpr(Cond);
  const Bindings &Now = Reads.Now;
  unsigned Hash = Reads.Hash;
  if (const Outcomes *O = kept(KeptOutcomes, Cond, Warp, Now, Hash))
    return *O;
  // A comparison is its operands' values compared lane by lane: the side
  // that reads no runtime value being given values is found once.
  bool ReadWarp = false;
  LaneValues Values;
  if (const BinaryOperator *Compare = splitOperator(Cond);
      Compare && Compare->isComparisonOp())
    Values = combined(Compare, Warp, ReadWarp);
  else
    Values = Eval.laneValues(Cond, Warp, ReadWarp);
  Outcomes Out;
  for (unsigned L = 0; L < 32; ++L)
    if (Values[L])
      (*Values[L] ? Out.True : Out.False) |= 1u << L;
  KeptOutcomes[{Cond, ReadWarp ? Warp : AnyWarp, Hash}].push_back(
      {Eval.block(), Now, Out});
  return Out;
}

LaneReach::Bindings LaneReach::conditionBindings() {
  if (!ConditionInputs) {
    std::vector<const Expr *> Conditions;
    for (const CFGBlock *B : FU.cfg()) {
      if (const Expr *C = followedCondition(*B))
        Conditions.push_back(C);
      else if (const auto *Switch =
                   dyn_cast_or_null<SwitchStmt>(B->getTerminatorStmt()))
        Conditions.push_back(Switch->getCond());
    }
    ConditionInputs = inputsOf(Conditions);
  }
  return bindingsNow(*ConditionInputs);
}

const std::vector<LaneSet> &LaneReach::blockLanes(uint64_t Warp) {
  // A branch may test a loop counter or a runtime value the evaluator has
  // bound since; the lanes stay while everything the conditions read is
  // bound as before (most shuffles' offset loops are tested by no branch).
  // Another block changes every edge.
  if (CachedBlock != Eval.blockGeneration()) {
    ByWarp.clear();
    WarpFree.reset();
    CachedBlock = Eval.blockGeneration();
  }
  if (CachedGeneration != Eval.generation()) {
    Bindings Now = conditionBindings();
    if (!(Now == CachedBindings)) {
      ByWarp.clear();
      WarpFree.reset();
      CachedBindings = std::move(Now);
    }
    CachedGeneration = Eval.generation();
  }
  auto It = ByWarp.find(Warp);
  if (It != ByWarp.end())
    return It->second;
  // Where no edge read threadIdx.x, a block's lanes are the lanes of the
  // warp that exist and the edges allow: those of a warp with no fewer
  // lanes, cut to these.
  LaneSet Live = Eval.liveLanes(Warp);
  if (WarpFree && !(Live & ~WarpFree->first)) {
    std::vector<LaneSet> In = WarpFree->second;
    for (LaneSet &L : In)
      L &= Live;
    return ByWarp.emplace(Warp, std::move(In)).first->second;
  }
  EdgesReadWarp = false;
  const CFG &G = FU.cfg();
  std::vector<LaneSet> In(G.getNumBlockIDs(), 0);
  std::vector<std::optional<llvm::SmallVector<LaneSet, 2>>> Edges(
      G.getNumBlockIDs());
  In[G.getEntry().getBlockID()] = Live;
  llvm::SmallVector<const CFGBlock *, 32> Work{&G.getEntry()};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    unsigned Id = B->getBlockID();
    if (!Edges[Id])
      Edges[Id] = edgeLanes(*B, Warp);
    unsigned I = 0;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      LaneSet Taken = In[Id] & (*Edges[Id])[I++];
      const CFGBlock *S = Succ.getReachableBlock();
      if (!S || !Taken)
        continue;
      LaneSet &Dst = In[S->getBlockID()];
      if ((Dst | Taken) != Dst) {
        Dst |= Taken;
        Work.push_back(S);
      }
    }
  }
  if (!EdgesReadWarp)
    WarpFree.emplace(Live, In);
  return ByWarp.emplace(Warp, std::move(In)).first->second;
}

LaneSet LaneReach::mayReach(const Stmt *S, uint64_t Warp) {
  const CFGBlock *B = FU.blockOf(S);
  if (!B)
    return AllLanes;
  return blockLanes(Warp)[B->getBlockID()];
}

bool LaneReach::isExact(const Stmt *S, const Stmt *Bound) {
  for (const DivergentBranch &B : FU.divergenceAt(S).Branches) {
    if (B.Terminator == Bound)
      continue;
    if (isLoop(B.Terminator) || !B.Condition)
      return false;
    Outcomes O = outcomesOf(B.Condition, 0);
    if ((O.True | O.False) != AllLanes)
      return false;
  }
  return true;
}

bool LaneReach::dependsOnWarp() {
  if (!WarpDependent) {
    bool Any = false;
    for (const CFGBlock *B : FU.cfg())
      if (B->succ_size() == 2 && !isLoop(B->getTerminatorStmt()))
        if (const auto *C = dyn_cast_or_null<Expr>(B->getTerminatorCondition()))
          Any |= Eval.dependsOnWarp(C);
    WarpDependent = Any;
  }
  return *WarpDependent;
}

std::array<std::optional<LaneSet>, 32>
maskInLanes(const CollectiveUse &Use, LaneEvaluator &Eval, uint64_t Warp) {
  std::array<std::optional<LaneSet>, 32> Masks;
  if (Use.ImmediateMask) {
    Masks.fill(LaneSet(*Use.ImmediateMask));
    return Masks;
  }
  if (!Use.Mask)
    return Masks;
  bool ReadWarp = false;
  LaneValues Values = Eval.laneValues(Use.Mask, Warp, ReadWarp);
  for (unsigned L = 0; L < 32; ++L)
    if (Values[L])
      Masks[L] = LaneSet(uint64_t(*Values[L]));
  return Masks;
}

bool shuffleReadsWithin(const CollectiveUse &Use,
                        llvm::ArrayRef<DivergentBranch> Branches,
                        const FunctionUniformity &FU, ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(Use.Site);
  if (!Call || Use.Info->Kind != CollectiveKind::Shuffle ||
      Use.Info->Lane == ShuffleLane::None ||
      Call->getNumArgs() <= CollectiveInfo::LaneArg)
    return false;
  // A loop's or a switch's condition does not say alone who is past it.
  for (const DivergentBranch &B : Branches)
    if (!B.Condition || isLoop(B.Terminator) ||
        isa_and_nonnull<SwitchStmt>(B.Terminator))
      return false;
  LaneEvaluator Eval(FU, Ctx);
  const Expr *LaneOperand = Call->getArg(CollectiveInfo::LaneArg);
  const Expr *WidthOperand =
      Call->getNumArgs() > CollectiveInfo::WidthArg &&
              !isa<CXXDefaultArgExpr>(Call->getArg(CollectiveInfo::WidthArg))
          ? Call->getArg(CollectiveInfo::WidthArg)
          : nullptr;
  return forEachCounterValue(Use.Site, FU, Eval, [&] {
    bool ReadWarp = false;
    for (uint64_t W : LaneEvaluator::warpSamples(true)) {
      // The lanes past every branch on the side toward the shuffle (the
      // lanes that stay, for an exit).
      LaneSet In = AllLanes;
      for (const DivergentBranch &B : Branches)
        for (unsigned L = 0; L < 32; ++L) {
          std::optional<int64_t> C = Eval.valueIn(B.Condition, L, W, ReadWarp);
          if (!C)
            return false;
          if (bool(*C) != (B.Edge == 0 && !B.Exit))
            In &= ~(1u << L);
        }
      for (unsigned L = 0; L < 32; ++L) {
        if (!(In >> L & 1))
          continue;
        std::optional<int64_t> Operand =
            Eval.valueIn(LaneOperand, L, W, ReadWarp);
        std::optional<int64_t> Width =
            WidthOperand ? Eval.valueIn(WidthOperand, L, W, ReadWarp) : 32;
        if (!Operand || !Width || !isValidShuffleWidth(*Width))
          return false;
        if (!(In >> shuffleSourceLane(Use.Info->Lane, L, *Operand,
                                      unsigned(*Width)) &
              1))
          return false;
      }
      // Nothing read threadIdx.x: every warp is the same as this one.
      if (!ReadWarp)
        break;
    }
    return true;
  });
}

std::optional<LaneSet> constantMask(const CollectiveUse &Use, ASTContext &Ctx) {
  if (Use.ImmediateMask)
    return LaneSet(*Use.ImmediateMask);
  if (!Use.Mask || Use.Mask->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (Use.Mask->EvaluateAsInt(R, Ctx))
    return LaneSet(R.Val.getInt().getZExtValue());
  return std::nullopt;
}

std::string describeLanes(LaneSet Lanes) {
  std::string Out;
  unsigned Count = llvm::popcount(Lanes);
  for (unsigned L = 0; L < 32;) {
    if (!(Lanes >> L & 1)) {
      ++L;
      continue;
    }
    unsigned End = L;
    while (End + 1 < 32 && (Lanes >> (End + 1) & 1))
      ++End;
    if (!Out.empty())
      Out += ", ";
    Out += std::to_string(L);
    if (End > L)
      Out += (End == L + 1 ? ", " : "..") + std::to_string(End);
    L = End + 1;
  }
  return (Count == 1 ? "lane " : "lanes ") + Out;
}

} // namespace clang::warp
