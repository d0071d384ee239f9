//===--- LaneEvaluator.cpp - integer values lane by lane ------------------===//

#include "LaneEvaluator.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/FoldingSet.h"

namespace clang::warp {

/// How deep an expression is followed (through read-only locals' and
/// inlined helpers' expressions too).
static constexpr unsigned MaxDepth = 24;
/// The blocks sampled in a known block shape: the first few (a bound on a
/// global index up to a couple of thousand falls in one) and a far one.
static constexpr uint64_t SampleBlocks[] = {0, 1, 2, 3, 4, 5, 6, 7, 1000};
/// Warps per block sampled at most (a block of 1024 threads has 32).
static constexpr unsigned MaxSampledWarps = 32;

LaneEvaluator::LaneEvaluator(const FunctionUniformity &FU, ASTContext &Ctx)
    : FU(FU), Ctx(Ctx) {}

IntFormat LaneEvaluator::intFormat(QualType T) {
  if (T.isNull())
    return {};
  auto [It, New] = IntFormats.try_emplace(T.getCanonicalType().getTypePtr());
  if (!New)
    return It->second;
  IntFormat &F = It->second;
  if (!T->isIntegralOrEnumerationType())
    return F;
  if (T->isBooleanType()) {
    F.Bool = true;
    return F;
  }
  unsigned Bits = Ctx.getIntWidth(T);
  if (Bits == 0 || Bits >= 64)
    return F;
  F.Bits = Bits;
  F.Signed = T->isSignedIntegerOrEnumerationType();
  return F;
}

llvm::ArrayRef<uint64_t> LaneEvaluator::warpSamples(bool ThreadIndex) {
  static const std::vector<uint64_t> One{0};
  static const std::vector<uint64_t> Many = [] {
    std::vector<uint64_t> W;
    for (uint64_t I = 0; I < 64; ++I)
      W.push_back(I);
    W.push_back(uint64_t(1) << 20);
    return W;
  }();
  return ThreadIndex ? Many : One;
}

llvm::ArrayRef<uint64_t> LaneEvaluator::warps(bool ThreadIndex) const {
  if (!Block)
    return warpSamples(ThreadIndex);
  return ThreadIndex ? llvm::ArrayRef<uint64_t>(BlockWarps)
                     : llvm::ArrayRef<uint64_t>(FirstBlockEnds);
}

LaneSet LaneEvaluator::liveLanes(uint64_t Warp) const {
  if (!Block)
    return AllLanes;
  int64_t First = 32 * int64_t(Warp % Block->warps());
  int64_t Left = Block->threads() - First;
  return Left >= 32 ? AllLanes : Left <= 0 ? 0 : (1u << Left) - 1;
}

void LaneEvaluator::setBlock(std::optional<BlockExtents> B) {
  if (B == Block)
    return;
  Block = B;
  BlockWarps.clear();
  FirstBlockEnds.clear();
  if (Block) {
    unsigned PerBlock = Block->warps();
    unsigned Sampled = std::min(PerBlock, MaxSampledWarps);
    for (uint64_t B : SampleBlocks)
      for (unsigned W = 0; W < Sampled; ++W)
        BlockWarps.push_back(B * PerBlock + W);
    // Nothing reads a thread index: the warps differ only in which lanes
    // exist, and the first and last warp of a block show both.
    FirstBlockEnds.push_back(0);
    if (PerBlock > 1)
      FirstBlockEnds.push_back(PerBlock - 1);
  }
  ++BlockGeneration;
  invalidate();
}

std::string LaneEvaluator::describeWarp(uint64_t Warp) const {
  if (Block)
    return "warp " + std::to_string(Warp % Block->warps()) + " of block " +
           std::to_string(Warp / Block->warps());
  return "the warp of threads " + std::to_string(32 * Warp) + ".." +
         std::to_string(32 * Warp + 31);
}

namespace {
/// Collects the locals a function writes after their declaration.
class WrittenLocals : public RecursiveASTVisitor<WrittenLocals> {
public:
  llvm::DenseSet<const VarDecl *> Written;

  void mark(const Expr *E) {
    if (!E)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Written.insert(VD);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      mark(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      mark(UO->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      // An argument bound to a non-const reference may be written.
      bool ByRef = true;
      if (FD && I < FD->getNumParams()) {
        QualType P = FD->getParamDecl(I)->getType();
        ByRef = P->isReferenceType() && !P->getPointeeType().isConstQualified();
      }
      if (ByRef)
        mark(Call->getArg(I));
    }
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
      mark(Asm->getOutputExpr(I));
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          Written.insert(VD);
    return true;
  }
};
} // namespace

void LaneEvaluator::invalidate() {
  // Values computed once for every warp, or once for all lanes, may have
  // read what changed.
  WarpFreeValues.clear();
  Invariant.clear();
  ++Generation;
}

void LaneEvaluator::bind(const VarDecl *VD, std::optional<int64_t> Value) {
  if (Value)
    Bound[VD] = *Value;
  else
    Bound.erase(VD);
  invalidate();
}

void LaneEvaluator::bindPerLane(const VarDecl *VD,
                                std::optional<LaneValues> Values) {
  if (Values)
    PerLaneBound[VD] = std::make_shared<const LaneValues>(*Values);
  else
    PerLaneBound.erase(VD);
  invalidate();
}

void LaneEvaluator::bindRuntimeValue(uint64_t Key,
                                     std::optional<int64_t> Value) {
  if (Value)
    RuntimeBound[Key] = *Value;
  else
    RuntimeBound.erase(Key);
  invalidate();
}

std::optional<int64_t> LaneEvaluator::bindingOf(const VarDecl *VD) const {
  auto It = Bound.find(VD);
  return It == Bound.end() ? std::nullopt : std::optional<int64_t>(It->second);
}

LaneEvaluator::BindingKey LaneEvaluator::bindingKeyOf(const VarDecl *VD) const {
  auto It = PerLaneBound.find(VD);
  return {bindingOf(VD), It == PerLaneBound.end() ? nullptr : It->second};
}

EvaluationGaps LaneEvaluator::gapsOf(const Expr *E, unsigned Lane,
                                     uint64_t Warp) {
  // The caches hold values, not why a value was unknown: evaluate afresh.
  Gaps = {};
  bool Was = std::exchange(Explaining, true);
  auto SavedInvariant = std::move(Invariant);
  Invariant.clear();
  eval(E, Lane, Warp, 0);
  Invariant = std::move(SavedInvariant);
  Explaining = Was;
  return std::move(Gaps);
}

uint64_t LaneEvaluator::keyOf(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return uint64_t(reinterpret_cast<uintptr_t>(DRE->getDecl()));
  if (std::optional<BuiltinRegister> R = matchBuiltinRegister(E))
    return 1 + 3 * uint64_t(R->Var) + R->Dim;
  // Other reads (`p.n`, `len[blockIdx.x]`) by their structure: two reads
  // written alike read one value. The top bit keeps them apart from
  // pointers.
  llvm::FoldingSetNodeID ID;
  E->Profile(ID, Ctx, /*Canonical=*/true);
  return uint64_t(ID.ComputeHash()) | (uint64_t(1) << 63);
}

bool LaneEvaluator::isReadOnlyLocal(const VarDecl *VD) {
  auto [It, New] = ReadOnlyLocals.try_emplace(VD, false);
  if (!New)
    return It->second;
  // A capture belongs to the enclosing function, whose writes are not seen.
  if (!VD->isLocalVarDecl() || !VD->getInit() ||
      VD->getParentFunctionOrMethod() != FU.decl() ||
      !VD->getType()->isIntegralOrEnumerationType() ||
      VD->getType()->isReferenceType())
    return false;
  if (!Written) {
    WrittenLocals W;
    if (const Stmt *Body = FU.decl()->getBody())
      W.TraverseStmt(const_cast<Stmt *>(Body));
    Written = std::move(W.Written);
  }
  return It->second = !Written->contains(VD);
}

const Expr *LaneEvaluator::followedInitializer(const Expr *E) {
  const auto *Read = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  if (!Read || Read->getCastKind() != CK_LValueToRValue || Inlining ||
      Explaining || Read->isValueDependent())
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Read->getSubExpr()->IgnoreParens());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // As evalLeaf: a binding of the local, or a lane or thread index shape,
  // answers before its initializer does.
  if (!VD || !isReadOnlyLocal(VD) || Bound.count(VD) ||
      PerLaneBound.count(VD) || RuntimeBound.count(keyOf(Ref, Ctx)))
    return nullptr;
  if (answeredByShape(FU.valueOf(Ref)))
    return nullptr;
  return VD->getInit();
}

std::optional<int64_t> LaneEvaluator::valueIn(const Expr *E, unsigned Lane,
                                              uint64_t Warp) {
  return eval(E, Lane, Warp, 0);
}

std::optional<int64_t> LaneEvaluator::valueIn(const Expr *E, unsigned Lane,
                                              uint64_t Warp, bool &ReadWarp) {
  bool Before = SawThreadIndex;
  SawThreadIndex = false;
  std::optional<int64_t> V = eval(E, Lane, Warp, 0);
  ReadWarp |= SawThreadIndex;
  SawThreadIndex |= Before;
  return V;
}

LaneValues LaneEvaluator::laneValues(const Expr *E, uint64_t Warp,
                                     bool &ReadWarp) {
  auto Known = WarpFreeValues.find(E);
  if (Known != WarpFreeValues.end())
    return Known->second;
  // A value the analysis finds uniform is the same (or unknown) in every
  // lane alike: lane 0 stands for the warp.
  bool Uniform = FU.valueOf(E).isUniform();
  bool Read = false;
  LaneValues Values;
  for (unsigned L = 0; L < (Uniform ? 1 : 32); ++L)
    Values[L] = valueIn(E, L, Warp, Read);
  if (Uniform)
    Values.fill(Values[0]);
  ReadWarp |= Read;
  if (!Read)
    WarpFreeValues.try_emplace(E, Values);
  return Values;
}

std::optional<std::vector<int64_t>> LaneEvaluator::valuesIn(const Expr *E,
                                                            uint64_t Warp) {
  std::vector<int64_t> Values;
  for (unsigned L = 0; L < 32; ++L) {
    std::optional<int64_t> V = eval(E, L, Warp, 0);
    if (!V)
      return std::nullopt;
    Values.push_back(*V);
  }
  return Values;
}

bool LaneEvaluator::dependsOnWarp(const Expr *E) {
  bool Before = SawThreadIndex;
  SawThreadIndex = false;
  for (unsigned L = 0; L < 32; ++L)
    eval(E, L, 0, 0);
  bool Depends = SawThreadIndex;
  SawThreadIndex = Before || Depends;
  return Depends;
}

/// Whether \p E reads threadIdx, blockIdx, blockDim or gridDim, directly
/// or through the locals its operands name.
static bool readsBuiltinRegister(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (matchBuiltinRegister(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
           readsBuiltinRegister(VD->getInit(), Depth + 1);
  }
  for (const Stmt *Child : E->children())
    if (readsBuiltinRegister(dyn_cast_or_null<Expr>(Child), Depth + 1))
      return true;
  return false;
}

std::optional<int64_t> LaneEvaluator::eval(const Expr *E, unsigned Lane,
                                           uint64_t Warp, unsigned Depth) {
  if (!E || Depth > MaxDepth) {
    Cut = true;
    if (Explaining)
      Gaps.Other = true;
    return std::nullopt;
  }
  E = E->IgnoreParens();
  if (auto It = Invariant.find(E); It != Invariant.end())
    return It->second;
  if (!RuntimeBound.empty() && !Inlining)
    if (std::optional<int64_t> V = boundRuntimeValue(E))
      return V;
  // An implicit conversion is its operand's value converted: the operand
  // is memoized, the conversion need not be (the lane loops spend most of
  // their time in look-ups).
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E); Cast && !Explaining)
    if (std::optional<int64_t> V = evalCast(Cast, Lane, Warp, Depth))
      return V;
  // Within one lane, locals' initializers are shared by many expressions
  // (a chain of index computations): each is evaluated once per lane.
  bool Memoize = !Inlining && !Explaining;
  // A kept value, with what its evaluation read.
  auto Replay = [&](const Memoized &M) {
    ReadVarying |= M.ReadVarying;
    SawThreadIndex |= M.SawThreadIndex;
    return M.Value;
  };
  if (Memoize) {
    if (MemoLane != Lane || MemoWarp != Warp || MemoGeneration != Generation) {
      LaneMemo.clear();
      MemoLane = Lane;
      MemoWarp = Warp;
      MemoGeneration = Generation;
    }
    if (auto It = LaneMemo.find(E); It != LaneMemo.end())
      return Replay(It->second);
    // A part the analysis finds uniform (`bid * token_size` in `bid *
    // token_size + tid`) is what another lane of the warp computed.
    if (WarpMemoWarp == Warp && WarpMemoGeneration == Generation)
      if (auto It = WarpMemo.find(E); It != WarpMemo.end())
        return Replay(It->second);
  }
  // A value computed from nothing that differs between lanes, warps or
  // loop iterations is the same in all of them: the lane loops (32 lanes
  // of up to 65 warps) then evaluate the expression once. Evaluation is
  // deterministic, so this holds even where a short circuit skipped a
  // varying operand.
  bool OuterVarying = std::exchange(ReadVarying, false);
  bool OuterCut = std::exchange(Cut, false);
  bool OuterSaw = std::exchange(SawThreadIndex, false);
  EvaluationGaps Before = Explaining ? Gaps : EvaluationGaps();
  std::optional<int64_t> V = evalUncached(E, Lane, Warp, Depth);
  // The largest expression the same in every lane that is not known is
  // the runtime value a witness binds (`rows * cols`, not its operands);
  // not one that reads the block's registers (`blockIdx.x * blockDim.x` is
  // a multiple of the block, never 17).
  if (Explaining && !V && !Inlining && !isa<DeclRefExpr>(E) &&
      E->getType()->isIntegralOrEnumerationType() &&
      isa<BinaryOperator, UnaryOperator, CastExpr, ConditionalOperator>(E) &&
      FU.valueOf(E).isUniform() && !readsBuiltinRegister(E)) {
    Gaps = std::move(Before);
    WarpValue Uniform = WarpValue::uniform();
    unknown(E, &Uniform);
  }
  if (!ReadVarying && !Cut) {
    Invariant.try_emplace(E, V);
  } else if (Memoize && !Cut) {
    Memoized M{V, ReadVarying, SawThreadIndex};
    // A ballot evaluates its predicate in other lanes: the memo may now
    // be theirs.
    if (MemoLane == Lane && MemoWarp == Warp)
      LaneMemo.try_emplace(E, M);
    if (isUniformOperator(E)) {
      if (WarpMemoWarp != Warp || WarpMemoGeneration != Generation) {
        WarpMemo.clear();
        WarpMemoWarp = Warp;
        WarpMemoGeneration = Generation;
      }
      WarpMemo.try_emplace(E, M);
    }
  }
  SawThreadIndex |= OuterSaw;
  ReadVarying |= OuterVarying;
  Cut |= OuterCut;
  return V;
}

bool LaneEvaluator::isUniformOperator(const Expr *E) {
  if (!isa<BinaryOperator, ConditionalOperator>(E))
    return false;
  auto [It, New] = UniformOperators.try_emplace(E, false);
  if (New)
    It->second = FU.valueOf(E).isUniform();
  return It->second;
}

std::optional<int64_t> LaneEvaluator::evalUncached(const Expr *E, unsigned Lane,
                                                   uint64_t Warp,
                                                   unsigned Depth) {
  if (E->isValueDependent() || E->isTypeDependent()) {
    // A template pattern: what the analysis says of the expression as a
    // whole is all there is (a per-lane load is still data).
    if (Inlining)
      return unknown(E, nullptr);
    WarpValue V = FU.valueOf(E);
    return unknown(E, &V);
  }
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr>(E) ||
      isa<SubstNonTypeTemplateParmExpr, SizeOfPackExpr,
          UnaryExprOrTypeTraitExpr>(E))
    return folded(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    if (std::optional<int64_t> V = evalCast(Cast, Lane, Warp, Depth))
      return V;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO, Lane, Warp, Depth);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return evalUnary(UO, Lane, Warp, Depth);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<int64_t> C = eval(CO->getCond(), Lane, Warp, Depth + 1);
    if (!C) {
      // Why the value is unknown is also in its arms (`i < n ? in[i] : 0`
      // reads per-lane data as well as the run-time `n`).
      if (Explaining) {
        eval(CO->getTrueExpr(), Lane, Warp, Depth + 1);
        eval(CO->getFalseExpr(), Lane, Warp, Depth + 1);
      }
      return std::nullopt;
    }
    return eval(*C ? CO->getTrueExpr() : CO->getFalseExpr(), Lane, Warp,
                Depth + 1);
  }
  return evalLeaf(E, Lane, Warp, Depth);
}

std::optional<int64_t> LaneEvaluator::evalCast(const CastExpr *Cast,
                                               unsigned Lane, uint64_t Warp,
                                               unsigned Depth) {
  switch (Cast->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_BooleanToSignedIntegral:
  case CK_UserDefinedConversion:
  case CK_ConstructorConversion:
    break;
  default:
    return std::nullopt;
  }
  std::optional<int64_t> V = eval(Cast->getSubExpr(), Lane, Warp, Depth + 1);
  if (!V)
    return std::nullopt;
  return asType(Cast->getCastKind() == CK_BooleanToSignedIntegral ? -*V : *V,
                Cast->getType());
}

std::optional<int64_t> LaneEvaluator::evalBinary(const BinaryOperator *BO,
                                                 unsigned Lane, uint64_t Warp,
                                                 unsigned Depth) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (BO->isAssignmentOp() || Op == BO_Comma)
    return unknown(BO, nullptr);
  // `&&` and `||` are known from one side alone when it decides them.
  std::optional<int64_t> L = eval(BO->getLHS(), Lane, Warp, Depth + 1);
  if (Op == BO_LAnd && L && !*L)
    return 0;
  if (Op == BO_LOr && L && *L)
    return 1;
  std::optional<int64_t> R = eval(BO->getRHS(), Lane, Warp, Depth + 1);
  if (Op == BO_LAnd && R && !*R)
    return 0;
  if (Op == BO_LOr && R && *R)
    return 1;
  return combine(BO, L, R);
}

std::optional<int64_t> LaneEvaluator::combine(const BinaryOperator *BO,
                                              std::optional<int64_t> L,
                                              std::optional<int64_t> R) {
  if (!L || !R)
    return std::nullopt;
  unsigned Bits = leftOperandBits(BO);
  std::optional<int64_t> V = applyBinary(BO->getOpcode(), *L, *R, Bits);
  if (!V)
    return std::nullopt;
  return asType(*V, BO->getType());
}

unsigned LaneEvaluator::leftOperandBits(const BinaryOperator *BO) const {
  QualType LT = BO->getLHS()->getType();
  return LT->isIntegralOrEnumerationType() ? Ctx.getIntWidth(LT) : 64;
}

LaneValues LaneEvaluator::combine(const BinaryOperator *BO, const LaneValues &L,
                                  const LaneValues &R) {
  unsigned Bits = leftOperandBits(BO);
  IntFormat Result = intFormat(BO->getType());
  LaneValues Values;
  for (unsigned I = 0; I < 32; ++I)
    if (L[I] && R[I])
      if (std::optional<int64_t> V =
              applyBinary(BO->getOpcode(), *L[I], *R[I], Bits))
        Values[I] = Result.wrap(*V);
  return Values;
}

std::optional<int64_t> LaneEvaluator::evalUnary(const UnaryOperator *UO,
                                                unsigned Lane, uint64_t Warp,
                                                unsigned Depth) {
  UnaryOperatorKind Op = UO->getOpcode();
  if (Op != UO_Minus && Op != UO_Not && Op != UO_LNot && Op != UO_Plus)
    return evalLeaf(UO, Lane, Warp, Depth);
  std::optional<int64_t> V = eval(UO->getSubExpr(), Lane, Warp, Depth + 1);
  if (!V)
    return std::nullopt;
  std::optional<int64_t> R = applyUnary(Op, *V);
  if (!R)
    return std::nullopt;
  return Op == UO_LNot ? *R : asType(*R, UO->getType());
}

std::optional<int64_t> LaneEvaluator::evalRegister(const BuiltinRegister &R,
                                                   const Expr *E, unsigned Lane,
                                                   uint64_t Warp) {
  const BlockExtents &B = *Block;
  int64_t Extents[] = {B.X, B.Y, B.Z};
  uint64_t BlockIndex = Warp / B.warps();
  int64_t Thread = 32 * int64_t(Warp % B.warps()) + Lane;
  switch (R.Var) {
  case BuiltinRegister::BlockDim:
    return asType(Extents[R.Dim], E->getType());
  case BuiltinRegister::ThreadIdx: {
    ReadVarying = true;
    SawThreadIndex = true;
    int64_t Index[] = {Thread % B.X, Thread / B.X % B.Y, Thread / (B.X * B.Y)};
    return asType(Index[R.Dim], E->getType());
  }
  case BuiltinRegister::BlockIdx:
    if (R.Dim != 0)
      break;
    ReadVarying = true;
    SawThreadIndex = true;
    return asType(int64_t(BlockIndex), E->getType());
  case BuiltinRegister::GridDim:
    break;
  }
  return std::nullopt;
}

std::optional<int64_t> LaneEvaluator::byShape(const Expr *E, const WarpValue &V,
                                              unsigned Lane, uint64_t Warp) {
  if (!shapesExact())
    return std::nullopt;
  if (V.S == Shape::LaneId) {
    ReadVarying = true;
    return Lane;
  }
  if (V.S == Shape::ThreadIndex && V.OffsetMod32 == 0) {
    SawThreadIndex = true;
    ReadVarying = true;
    return asType(int64_t(32 * Warp + Lane), E->getType());
  }
  return std::nullopt;
}

std::optional<int64_t> LaneEvaluator::unknown(const Expr *E,
                                              const WarpValue *V) {
  if (!Explaining)
    return std::nullopt;
  if (!V) {
    Gaps.Other = true;
  } else if (V->isUniform()) {
    uint64_t Key = keyOf(E, Ctx);
    if (llvm::none_of(Gaps.Runtime,
                      [&](const RuntimeValue &R) { return R.Key == Key; })) {
      std::optional<BuiltinRegister> R = matchBuiltinRegister(E);
      Gaps.Runtime.push_back(
          {Key, E, R && R->Var == BuiltinRegister::BlockDim});
    }
  } else if (V->LaunchShape) {
    Gaps.LaunchShape = true;
  } else if (V->V == Variance::Data && V->Origin &&
             isa<ArraySubscriptExpr, MemberExpr, UnaryOperator, CallExpr>(
                 V->Origin)) {
    const auto *Origin = cast<Expr>(V->Origin);
    if (!llvm::is_contained(Gaps.Data, Origin))
      Gaps.Data.push_back(Origin);
  } else {
    Gaps.Other = true;
  }
  return std::nullopt;
}

std::optional<int64_t> LaneEvaluator::boundRuntimeValue(const Expr *E) {
  auto [Key, New] = Keys.try_emplace(E, 0);
  if (New)
    Key->second = keyOf(E, Ctx);
  auto It = RuntimeBound.find(Key->second);
  if (It == RuntimeBound.end() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  ReadVarying = true;
  return asType(It->second, E->getType());
}

std::optional<int64_t> LaneEvaluator::evalLeaf(const Expr *E, unsigned Lane,
                                               uint64_t Warp, unsigned Depth) {
  QualType T = E->getType();
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (Ref && Inlining)
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()))
      if (auto It = Arguments.find(VD); It != Arguments.end()) {
        ReadVarying = true;
        return asType(It->second, T);
      }
  if (std::optional<BuiltinRegister> R = matchBuiltinRegister(E); R && Block)
    if (std::optional<int64_t> V = evalRegister(*R, E, Lane, Warp))
      return V;
  // Inside an inlined helper the analysis of FU does not apply: what is
  // not a constant, a register or an argument is not known there.
  if (Inlining) {
    if (!E->isValueDependent() && T->isIntegralOrEnumerationType() &&
        !E->HasSideEffects(Ctx))
      if (std::optional<int64_t> C = folded(E))
        return C;
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return evalInlined(Call, Lane, Warp, Depth);
    return unknown(E, nullptr);
  }
  // What the analysis knows of the value. A variable's constant is taken
  // from its initializer only when nothing writes it afterwards: the
  // analysis' constant of a loop variable read through a lambda capture is
  // its first value, not one that holds in every iteration.
  WarpValue V = FU.valueOf(E);
  bool Variable = Ref && isa<VarDecl>(Ref->getDecl());
  if (V.Constant && V.isUniform() && !Variable)
    return asType(*V.Constant, T);
  // A smaller tile's rank counts lanes within the tile; a coalesced
  // group's counts the lanes that formed it, which the lane does not tell.
  if (isa<CallExpr>(E))
    if (std::optional<unsigned> Width = groupRankWidth(E);
        Width && *Width < 32) {
      if (!*Width)
        return unknown(E, &V);
      ReadVarying = true;
      return asType(int64_t(Lane % *Width), T);
    }
  if (std::optional<int64_t> S = byShape(E, V, Lane, Warp))
    return S;
  if (const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr) {
    if (auto It = Bound.find(VD); It != Bound.end()) {
      ReadVarying = true; // the counter's value in this iteration
      return asType(It->second, T);
    }
    if (auto It = PerLaneBound.find(VD); It != PerLaneBound.end()) {
      ReadVarying = true;
      if (!(*It->second)[Lane])
        return std::nullopt;
      return asType(*(*It->second)[Lane], T);
    }
    if (isReadOnlyLocal(VD))
      if (std::optional<int64_t> I = eval(VD->getInit(), Lane, Warp, Depth + 1))
        return asType(*I, T);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (maskSourceKind(Call) == MaskSourceKind::Ballot)
      return ballotIn(Call, Lane, Warp, Depth);
    // A helper the evaluator follows; where it cannot, a call the analysis
    // finds uniform is a runtime value of its own (what it failed on
    // inside is then not the reason).
    EvaluationGaps Before = Explaining ? Gaps : EvaluationGaps();
    if (std::optional<int64_t> I = evalInlined(Call, Lane, Warp, Depth))
      return I;
    if (Explaining && V.isUniform())
      Gaps = std::move(Before);
  }
  if (!E->isValueDependent() && T->isIntegralOrEnumerationType() &&
      !E->HasSideEffects(Ctx))
    if (std::optional<int64_t> C = folded(E))
      return C;
  return unknown(E, &V);
}

/// The return statement \p S is, or the only statement of a block that
/// is one.
static const ReturnStmt *asReturn(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  return dyn_cast_or_null<ReturnStmt>(S);
}

/// Whether the body of \p FD is a chain the evaluator can follow: scalar
/// locals declared with an initializer, `if (c) return a; [else return b;]`
/// and a final `return e;`.
static bool isReturnChain(const FunctionDecl *FD) {
  const auto *Body =
      dyn_cast_or_null<CompoundStmt>(FD ? FD->getBody() : nullptr);
  if (!Body || Body->body_empty() || Body->size() > 8 ||
      !isa<ReturnStmt>(Body->body_back()))
    return false;
  for (const Stmt *S : Body->body()) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      const auto *VD =
          DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
      if (!VD || !VD->getInit() ||
          !VD->getType()->isIntegralOrEnumerationType())
        return false;
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable() ||
          !asReturn(If->getThen()) ||
          (If->getElse() && !asReturn(If->getElse())))
        return false;
    } else if (!isa<ReturnStmt>(S)) {
      return false;
    }
  }
  return true;
}

std::optional<int64_t> LaneEvaluator::evalInlined(const CallExpr *Call,
                                                  unsigned Lane, uint64_t Warp,
                                                  unsigned Depth) {
  // A small helper (`int tid() { return threadIdx.x + ...; }`, a predicate
  // that returns early): the lane's value is the return it takes, with this
  // lane's arguments.
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee)
    Callee = Callee->getDefinition();
  if (!Callee || !isReturnChain(Callee) || isa<CXXMethodDecl>(Callee) ||
      !Call->getType()->isIntegralOrEnumerationType() ||
      Call->getNumArgs() != Callee->getNumParams() || Inlining >= 3)
    return unknown(Call, nullptr);
  llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 4> Values;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (!P->getType()->isIntegralOrEnumerationType())
      return unknown(Call, nullptr);
    std::optional<int64_t> A = eval(Call->getArg(I), Lane, Warp, Depth + 1);
    if (!A)
      return std::nullopt;
    Values.push_back({P, *A});
  }
  // The callee's expressions are evaluated for this call's arguments: none
  // of them may be taken as the same in every lane from a cache.
  llvm::SmallVector<std::pair<const VarDecl *, std::optional<int64_t>>, 4>
      Saved;
  auto Bind = [&](const VarDecl *VD, int64_t V) {
    auto It = Arguments.find(VD);
    Saved.push_back(
        {VD, It == Arguments.end() ? std::nullopt : std::optional(It->second)});
    Arguments[VD] = V;
  };
  for (auto [P, A] : Values)
    Bind(P, A);
  auto SavedInvariant = std::move(Invariant);
  Invariant.clear();
  ++Inlining;
  std::optional<int64_t> Result;
  for (const Stmt *S : cast<CompoundStmt>(Callee->getBody())->body()) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      const auto *VD = cast<VarDecl>(DS->getSingleDecl());
      std::optional<int64_t> V = eval(VD->getInit(), Lane, Warp, Depth + 1);
      if (!V)
        break;
      Bind(VD, asType(*V, VD->getType()));
      continue;
    }
    const ReturnStmt *Taken = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      std::optional<int64_t> C = eval(If->getCond(), Lane, Warp, Depth + 1);
      if (!C)
        break;
      Taken = *C ? asReturn(If->getThen()) : asReturn(If->getElse());
      if (!Taken)
        continue;
    } else {
      Taken = cast<ReturnStmt>(S);
    }
    if (Taken->getRetValue())
      Result = eval(Taken->getRetValue(), Lane, Warp, Depth + 1);
    break;
  }
  --Inlining;
  Invariant = std::move(SavedInvariant);
  ReadVarying = true;
  for (auto It = Saved.rbegin(); It != Saved.rend(); ++It)
    if (It->second)
      Arguments[It->first] = *It->second;
    else
      Arguments.erase(It->first);
  if (!Result)
    return std::nullopt;
  return asType(*Result, Call->getType());
}

std::optional<int64_t> LaneEvaluator::ballotIn(const CallExpr *Ballot,
                                               unsigned Lane, uint64_t Warp,
                                               unsigned Depth) {
  // The lanes of the mask where the predicate holds; every lane of the
  // mask is taken to vote (a lane that left would only make it narrower).
  std::optional<int64_t> Mask = eval(Ballot->getArg(0), Lane, Warp, Depth + 1);
  if (!Mask)
    return std::nullopt;
  uint64_t Votes = 0;
  LaneSet Live = liveLanes(Warp);
  for (unsigned L = 0; L < 32; ++L) {
    if (!(uint64_t(*Mask) >> L & 1) || !(Live >> L & 1))
      continue;
    std::optional<int64_t> P = eval(Ballot->getArg(1), L, Warp, Depth + 1);
    if (!P)
      return std::nullopt;
    if (*P)
      Votes |= uint64_t(1) << L;
  }
  return asType(int64_t(Votes), Ballot->getType());
}

std::optional<int64_t> LaneEvaluator::folded(const Expr *E) {
  auto [It, New] = Folded.try_emplace(E);
  if (New) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      It->second = R.Val.getInt().getExtValue();
  }
  return It->second;
}

} // namespace clang::warp
