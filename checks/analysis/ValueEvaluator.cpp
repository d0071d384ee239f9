//===--- ValueEvaluator.cpp - transfer functions for expressions ----------===//

#include "ValueEvaluator.h"
#include "WarpCollectives.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::warp {

static int8_t mod32(int64_t V) { return int8_t(((V % 32) + 32) % 32); }

bool ValueEvaluator::yzUniform() {
  if (Opts.ThreadIdxYZUniform)
    return true;
  if (!YZKnown) {
    YZUniform = FD->hasAttr<CUDAGlobalAttr>() && Oracle.launchedWarpAligned(FD);
    YZKnown = true;
  }
  return YZUniform;
}

WarpValue ValueEvaluator::addressOf(const Expr *LValue) {
  // Each lane owns its locals: their addresses differ per lane. A local
  // reference names what it was bound to (`int &c = s->count; &c`).
  if (std::optional<LocalSlot> Slot = localSlot(LValue, /*ForWrite=*/false)) {
    if (Slot->Var->getType()->isReferenceType() && Slot->Var->getInit() &&
        AddressDepth < 4) {
      ++AddressDepth;
      WarpValue V = addressOf(Slot->Var->getInit());
      --AddressDepth;
      return V;
    }
    WarpValue V = WarpValue::varying(Variance::Lane, LValue);
    V.S = evalLocal(*Slot, LValue).isUniform() ? Shape::UniformLocalAddress
                                               : Shape::LocalAddress;
    return V;
  }
  const Expr *E = LValue->IgnoreParenImpCasts();
  // &a[lane-distinct index] is a lane-distinct address, not a load.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    WarpValue Base = eval(ASE->getBase());
    WarpValue Index = eval(ASE->getIdx());
    WarpValue Address = WarpValue::combine(Base, Index);
    if (Base.isUniform() && Index.isLaneIndexed()) {
      Address.S = Shape::ThreadIndex;
      Address.OffsetMod32 = -1;
    }
    return Address;
  }
  WarpValue V = eval(LValue);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? eval(ME->getBase()) : V;
  return V.isUniform() ? V : WarpValue::derived(V.V, V, V.Origin);
}

std::optional<WarpValue> ValueEvaluator::writtenThrough(const CallExpr *Call,
                                                        unsigned Param) {
  llvm::SmallVector<WarpValue, 4> Args;
  for (const Expr *Arg : callArguments(Call))
    Args.push_back(eval(Arg));
  if (std::optional<ParamWrite> W = Oracle.paramWrite(Call, Param, Args)) {
    if (!W->Written)
      return std::nullopt;
    return W->Value;
  }
  return WarpValue::varying(Variance::Data, Call);
}

WarpValue ValueEvaluator::eval(const Expr *E) {
  if (!E)
    return WarpValue::uniform();
  auto It = Memo.find(E);
  if (It != Memo.end())
    return It->second;
  WarpValue V = evalUncached(E);
  Memo[E] = V;
  return V;
}

WarpValue ValueEvaluator::load(const WarpValue &Address, const Expr *E) {
  if (Address.S == Shape::UniformLocalAddress)
    return WarpValue::uniform(); // each lane's copy of the same value
  if (Address.isUniform())
    return Address.Params ? WarpValue::combine(Address, WarpValue::uniform())
                          : WarpValue::uniform();
  return WarpValue::derived(Variance::Data, Address, E);
}

namespace {
/// The locals of a one-line helper evaluated in place: only its parameters,
/// bound to the call's argument values.
struct ParameterBindings : LocalValues {
  llvm::DenseMap<const VarDecl *, WarpValue> Values;
  std::optional<WarpValue> read(const LocalSlot &Slot, const Expr *) override {
    auto It = Values.find(Slot.Var);
    if (It == Values.end())
      return std::nullopt;
    return It->second;
  }
};
} // namespace

/// Returns the expression a free function consists of, `return <expr>;`,
/// and sets \p Def to the definition it is in.
static const Expr *oneLineBody(const FunctionDecl *Callee,
                               const FunctionDecl *&Def) {
  if (!Callee->hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && !MD->isStatic())
    return nullptr; // its `this` is the caller's object
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

std::optional<WarpValue>
ValueEvaluator::evalInlined(const FunctionDecl *Callee,
                            llvm::ArrayRef<WarpValue> Args) {
  // A one-line helper (`return divDown(a, b) * b;`) is evaluated with this
  // call's argument values in place of its parameters, so that their shapes
  // and constants survive it: roundDown(n, 32) is a multiple of 32, which a
  // summary over unknown parameters cannot say.
  const FunctionDecl *Def = nullptr;
  const Expr *Result = oneLineBody(Callee, Def);
  if (!Result || InlineDepth >= 3 || Args.size() != Def->getNumParams())
    return std::nullopt;
  ParameterBindings Bindings;
  for (unsigned I = 0; I < Args.size(); ++I)
    Bindings.Values[Def->getParamDecl(I)] = Args[I];
  ValueEvaluator Inner(Ctx, Def, Opts, Bindings, Oracle);
  Inner.InlineDepth = InlineDepth + 1;
  return Inner.eval(Result);
}

/// Returns whether \p S reads or writes a member of `this` (a constructor's
/// initializer reading another field, or its body writing one).
static bool usesThis(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CXXThisExpr>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (usesThis(Child))
      return true;
  return false;
}

std::optional<WarpValue> ValueEvaluator::fieldValue(const Expr *Source,
                                                    const FieldDecl *Field) {
  if (!Source || !Field || InlineDepth >= 3)
    return std::nullopt;
  Source = Source->IgnoreImplicit();
  if (const auto *ILE = dyn_cast<InitListExpr>(Source)) {
    const RecordDecl *RD = Field->getParent();
    if (RD->isUnion() || ILE->getType().isNull() ||
        ILE->getType()->getAsRecordDecl() != RD)
      return std::nullopt;
    unsigned Index = Field->getFieldIndex();
    if (Index >= ILE->getNumInits())
      return std::nullopt;
    return eval(ILE->getInit(Index));
  }
  const auto *Construct = dyn_cast<CXXConstructExpr>(Source);
  if (!Construct)
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!Construct->getConstructor()->hasBody(Def) || !Def ||
      Def->isDependentContext() || usesThis(Def->getBody()))
    return std::nullopt;
  const auto *Ctor = cast<CXXConstructorDecl>(Def);
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (Init->getMember() != Field)
      continue;
    if (usesThis(Init->getInit()) ||
        Construct->getNumArgs() != Ctor->getNumParams())
      return std::nullopt;
    // `Ctx() : tid(threadIdx.x)`, `Ctx(int t) : tid(t)`: evaluated with the
    // constructor's parameters bound to this construction's arguments.
    ParameterBindings Bindings;
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I)
      Bindings.Values[Ctor->getParamDecl(I)] = eval(Construct->getArg(I));
    ValueEvaluator Inner(Ctx, Ctor, Opts, Bindings, Oracle);
    Inner.InlineDepth = InlineDepth + 1;
    return Inner.eval(Init->getInit());
  }
  return std::nullopt;
}

WarpValue ValueEvaluator::evalDeclRef(const DeclRefExpr *DRE) {
  // `auto [layout, offset] = slice(...)`: a binding is a member of the
  // decomposed local, or (tuple-like) a variable set from get<N>() of it.
  if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl())) {
    if (const VarDecl *Holding = BD->getHoldingVar();
        Holding && Holding->getInit())
      return eval(Holding->getInit());
    if (const Expr *Binding = BD->getBinding())
      return eval(Binding);
    return WarpValue::uniform();
  }
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage())
    return WarpValue::uniform(); // __shared__, __constant__, globals, enums
  // A lambda reads the variables it captures from its enclosing function.
  if (InlineDepth == 0 && VD->getDeclContext() != FD)
    return Oracle.capturedValue(VD);
  if (std::optional<LocalSlot> Slot = localSlot(DRE, /*ForWrite=*/false))
    if (std::optional<WarpValue> V = Locals.read(*Slot, DRE))
      return *V;
  return InlineDepth > 0 ? WarpValue::varying(Variance::Data, DRE)
                         : WarpValue::uniform();
}

WarpValue ValueEvaluator::evalLocal(const LocalSlot &Slot, const Expr *LValue) {
  if (InlineDepth == 0 && Slot.Var->getDeclContext() != FD)
    return Oracle.capturedValue(Slot.Var);
  std::optional<WarpValue> Read = Locals.read(Slot, Slot.Root);
  WarpValue V =
      Read ? *Read
           : (InlineDepth > 0 ? WarpValue::varying(Variance::Data, Slot.Root)
                              : WarpValue::uniform());
  // An element read at a per-lane index differs per lane.
  for (const Expr *E = LValue->IgnoreParenImpCasts(); E != Slot.Root;) {
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      V = WarpValue::combine(V, eval(ASE->getIdx()));
      E = ASE->getBase()->IgnoreParenImpCasts();
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase()->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  return V;
}

WarpValue ValueEvaluator::intrinsic(IntrinsicValue K, const Stmt *Site,
                                    llvm::ArrayRef<WarpValue> Args) {
  switch (K) {
  case IntrinsicValue::BlockUniform:
  case IntrinsicValue::Uniform:
    return WarpValue::uniform();
  case IntrinsicValue::ActiveMask:
  case IntrinsicValue::ActiveCount: {
    WarpValue V;
    V.S = K == IntrinsicValue::ActiveMask ? Shape::ActiveMask
                                          : Shape::ActiveCount;
    return V;
  }
  case IntrinsicValue::TileRank:
  case IntrinsicValue::BlockRank:
  case IntrinsicValue::GridRank: {
    WarpValue V = WarpValue::varying(Variance::Lane, Site);
    V.S = K == IntrinsicValue::TileRank ? Shape::LaneId : Shape::ThreadIndex;
    V.OffsetMod32 = K == IntrinsicValue::BlockRank ? 0 : -1;
    V.LaneAffine = K == IntrinsicValue::BlockRank; // the linear thread index
    return V;
  }
  case IntrinsicValue::BlockDimX: {
    WarpValue V;
    V.S = Shape::BlockDimX;
    return V;
  }
  case IntrinsicValue::ShuffleResult:
    // g.shfl(value, src): Args are (value, src) after the object.
    if (Args.size() >= 2 && Args[1].isUniform())
      return WarpValue::uniform();
    return WarpValue::varying(Variance::Data, Site);
  case IntrinsicValue::ThreadIndexX: {
    WarpValue V = WarpValue::varying(Variance::Lane, Site);
    V.S = Shape::ThreadIndex;
    V.OffsetMod32 = 0;
    V.LaneAffine = true;
    return V;
  }
  case IntrinsicValue::ThreadIndexY:
  case IntrinsicValue::ThreadIndexZ: {
    // Varies inside a warp only when blockDim.x is not a multiple of 32.
    if (yzUniform())
      return WarpValue::uniform();
    WarpValue V = WarpValue::varying(Variance::Data, Site);
    V.LaunchShape = true;
    if (K == IntrinsicValue::ThreadIndexY)
      V.S = Shape::RowIndex;
    return V;
  }
  case IntrinsicValue::LaneId: {
    WarpValue V = WarpValue::varying(Variance::Lane, Site);
    V.S = Shape::LaneId;
    V.LaneAffine = true;
    return V;
  }
  case IntrinsicValue::LaneMask: {
    WarpValue V = WarpValue::varying(Variance::Lane, Site);
    V.S = Shape::LaneMask;
    return V;
  }
  case IntrinsicValue::PopCount: {
    // popc(m & lanemask_lt) numbers the lanes of m: distinct among them, so
    // `rank == 0` elects one lane as `lane == 0` does.
    if (Args.size() == 1 && Args[0].S == Shape::LaneMask) {
      WarpValue V = WarpValue::varying(Variance::Lane, Site);
      V.S = Shape::LaneId;
      return V;
    }
    if (Args.size() == 1 && Args[0].S == Shape::ActiveMask) {
      WarpValue V; // __popc(__activemask()): how many lanes are here
      V.S = Shape::ActiveCount;
      return V;
    }
    WarpValue V;
    for (const WarpValue &A : Args)
      V = WarpValue::combine(V, A);
    if (V.V == Variance::Lane)
      V.V = Variance::Data;
    return V;
  }
  case IntrinsicValue::Clock:
    return WarpValue::varying(Variance::Data, Site);
  }
  return WarpValue::uniform();
}

/// threadIdx/blockIdx/blockDim/gridDim members, and the PTX special-register
/// builtins behind them.
WarpValue ValueEvaluator::evalBuiltinRegister(const Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E);
  if (!POE)
    return WarpValue::uniform();
  const auto *Prop =
      dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!Prop)
    return eval(POE->getResultExpr());
  const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  if (!DRE)
    return eval(POE->getResultExpr());
  return intrinsic(lookupBuiltinVariable(DRE->getDecl()->getName(),
                                         Prop->getPropertyDecl()->getName()),
                   E, {});
}

/// The difference (or comparison) of two LaneAffine values \p L and \p R
/// (\p C: their combination): the lane index cancels, so it is uniform,
/// or varies only by the launch shape where a base does.
static WarpValue affineDifference(const WarpValue &L, const WarpValue &R,
                                  const WarpValue &C) {
  if (!L.AffineBaseByShape && !R.AffineBaseByShape) {
    WarpValue U;
    U.Params = C.Params;
    return U;
  }
  WarpValue V = WarpValue::varying(Variance::Data, C.Origin);
  V.LaunchShape = true;
  V.Params = C.Params;
  return V;
}

/// \p L op \p R, both varying: a LaneAffine value plus (or minus) one that
/// varies only by the launch shape stays LaneAffine over that base
/// (`threadIdx.y * n + threadIdx.x`, `ind_start + (num - 1) * 32` with
/// `num` read from the row), so that two such indices still compare alike
/// in a warp whose rows are whole.
static WarpValue affineOverShape(BinaryOperatorKind Op, const WarpValue &L,
                                 const WarpValue &R, WarpValue C) {
  auto ShapeOnly = [](const WarpValue &V) {
    return V.LaunchShape && !V.LaneAffine;
  };
  bool Left = L.LaneAffine && ShapeOnly(R) && (Op == BO_Add || Op == BO_Sub);
  bool Right = R.LaneAffine && ShapeOnly(L) && Op == BO_Add;
  if (!Left && !Right)
    return C;
  C.LaneAffine = true;
  C.AffineBaseByShape = true;
  return C;
}

WarpValue ValueEvaluator::evalCompare(BinaryOperatorKind Op, const WarpValue &L,
                                      const WarpValue &R, const Expr *E) {
  WarpValue C = WarpValue::combine(L, R);
  // `g.size() == 32`, `__activemask() == 0xffffffff`: true only where the
  // whole warp runs together.
  if (Op == BO_EQ || Op == BO_NE)
    for (auto [A, B] : {std::pair(&L, &R), std::pair(&R, &L)})
      if (B->Constant &&
          ((A->S == Shape::ActiveCount && *B->Constant == 32) ||
           (A->S == Shape::ActiveMask && isFullMask(uint64_t(*B->Constant)))))
        C.Whole = Op == BO_EQ ? OneLane::WhenTrue : OneLane::WhenFalse;
  if (C.isUniform())
    return C;
  // Each a uniform value plus the lane index: the same test in every lane
  // (`ind < ind_end`, both stepped from `base + threadIdx.x`).
  if (L.LaneAffine && R.LaneAffine)
    return affineDifference(L, R, C);
  // Make the lane-indexed side the left one.
  bool Swapped = !(L.isVarying() && R.isUniform());
  const WarpValue &Idx = Swapped ? R : L;
  const WarpValue &Other = Swapped ? L : R;
  if (Idx.isUniform() || Other.isVarying())
    return C;
  bool Distinct = Idx.S == Shape::ThreadIndex || Idx.S == Shape::LaneId;
  // A lane id behaves like threadIdx.x with offset 0 inside one warp.
  int8_t Offset = Idx.S == Shape::LaneId ? 0 : Idx.OffsetMod32;
  if (Distinct && (Op == BO_EQ || Op == BO_NE)) {
    C.Single = Op == BO_EQ ? OneLane::WhenTrue : OneLane::WhenFalse;
    return C;
  }
  if (!BinaryOperator::isRelationalOp(Op))
    return C;
  // threadIdx.x + c < K splits warps along warp boundaries when K - c is a
  // multiple of 32: the comparison is then the same in every lane of a warp.
  if (Distinct && Offset >= 0) {
    bool Aligned = false;
    if (Other.Constant) {
      int64_t K = *Other.Constant;
      if (Swapped ? (Op == BO_GT || Op == BO_LE) : (Op == BO_LE || Op == BO_GT))
        K += 1;
      Aligned = mod32(K - Offset) == 0;
    } else if (Other.isWarpMultiple()) {
      Aligned = Offset == 0 && (Swapped ? (Op == BO_GT || Op == BO_LE)
                                        : (Op == BO_LT || Op == BO_GE));
    }
    if (Aligned) {
      WarpValue U;
      U.Params = C.Params;
      return U;
    }
  }
  if (Idx.S == Shape::LaneId && Other.Constant) {
    int64_t K = *Other.Constant;
    // lane < 32 or lane >= 0: the same answer in every lane.
    bool Always =
        (!Swapped && ((Op == BO_LT && K >= 32) || (Op == BO_GE && K <= 0))) ||
        (Swapped && ((Op == BO_GT && K >= 32) || (Op == BO_LE && K <= 0)));
    if (Always)
      return WarpValue::uniform();
  }
  return C;
}

WarpValue ValueEvaluator::evalBinary(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Comma)
    return eval(BO->getRHS());
  if (Op == BO_Assign)
    return eval(BO->getRHS());
  if (BO->isCompoundAssignmentOp())
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  WarpValue L = eval(BO->getLHS()), R = eval(BO->getRHS());
  // `count != nullptr` where count is the address of a local: known.
  if (Op == BO_EQ || Op == BO_NE) {
    auto IsNull = [&](const Expr *X) {
      return !X->isValueDependent() &&
             X->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
    };
    if ((L.isLocalAddress() && IsNull(BO->getRHS())) ||
        (R.isLocalAddress() && IsNull(BO->getLHS())))
      return WarpValue::constant(Op == BO_NE);
  }
  if (BinaryOperator::isComparisonOp(Op))
    return evalCompare(Op, L, R, BO);
  if (Op == BO_Sub && L.isUniform() && roundsDown(BO, R)) {
    WarpValue V = WarpValue::combine(L, R);
    V.S = Shape::WarpMultiple;
    return V;
  }
  if (BO->getType()->isPointerType() && (Op == BO_Add || Op == BO_Sub))
    return offsetAddress(BO->getLHS()->getType()->isPointerType() ? L : R,
                         BO->getLHS()->getType()->isPointerType() ? R : L);
  return arithmetic(Op, L, R);
}

bool ValueEvaluator::roundsDown(const BinaryOperator *Sub,
                                const WarpValue &Remainder) {
  // `x - x % m`, with m a multiple of 32: x rounded down to a multiple of m.
  const auto *Rem =
      dyn_cast<BinaryOperator>(Sub->getRHS()->IgnoreParenImpCasts());
  if (!Remainder.isUniform() || !Rem || Rem->getOpcode() != BO_Rem ||
      !eval(Rem->getRHS()).isWarpMultiple())
    return false;
  return sameExpr(Sub->getLHS(), Rem->getLHS(), Ctx);
}

WarpValue ValueEvaluator::offsetAddress(const WarpValue &Base,
                                        const WarpValue &Offset) {
  // `args + 1` past a lane's copy of a kernel parameter struct: the same
  // offset into every lane's copy of the same bytes still reads the same.
  if (Base.S == Shape::UniformLocalAddress && Offset.isUniform()) {
    WarpValue V = Base;
    V.Params |= Offset.Params;
    return V;
  }
  return WarpValue::combine(Base, Offset);
}

std::optional<WarpValue> ValueEvaluator::linearIndex(BinaryOperatorKind Op,
                                                     const WarpValue &L,
                                                     const WarpValue &R,
                                                     const WarpValue &C) {
  auto Either = [&](Shape A, Shape B) {
    return (L.S == A && R.S == B) || (L.S == B && R.S == A);
  };
  // threadIdx.y * blockDim.x: where this lane's row starts.
  if (Op == BO_Mul && Either(Shape::RowIndex, Shape::BlockDimX)) {
    WarpValue V = C;
    V.S = Shape::RowStart;
    return V;
  }
  // row start + threadIdx.x is the linear thread index, from which CUDA cuts
  // the warps: consecutive in a warp whatever the block's shape.
  const WarpValue &Index = L.S == Shape::RowStart ? R : L;
  if (Op == BO_Add && Either(Shape::RowStart, Shape::ThreadIndex) &&
      Index.OffsetMod32 == 0) {
    WarpValue V = WarpValue::varying(Variance::Lane, Index.Origin);
    V.S = Shape::ThreadIndex;
    V.OffsetMod32 = 0;
    V.Params = C.Params;
    V.LaneAffine = Index.LaneAffine;
    return V;
  }
  // (threadIdx.y * blockDim.x) / 32: the index of the warp the row starts
  // in, which is this lane's warp when blockDim.x divides 32 or is a
  // multiple of it (every power-of-two row width).
  if (L.S == Shape::RowStart && R.Constant &&
      ((Op == BO_Div && *R.Constant > 0 && *R.Constant % 32 == 0) ||
       (Op == BO_Shr && *R.Constant >= 5))) {
    WarpValue U;
    U.Params = C.Params;
    return U;
  }
  return std::nullopt;
}

/// Returns whether \p L op \p R, both uniform, is a multiple of 32: a product
/// with one, a mask that clears the lane bits, a sum or difference of two.
static bool keepsWarpMultiple(BinaryOperatorKind Op, const WarpValue &L,
                              const WarpValue &R) {
  auto ClearsLaneBits = [](const WarpValue &V) {
    return V.Constant && *V.Constant % 32 == 0;
  };
  return (Op == BO_Mul && (L.isWarpMultiple() || R.isWarpMultiple())) ||
         (Op == BO_And && (ClearsLaneBits(L) || ClearsLaneBits(R))) ||
         ((Op == BO_Add || Op == BO_Sub) && L.isWarpMultiple() &&
          R.isWarpMultiple());
}

/// Returns \p Index plus or minus the uniform \p Uniform when \p Index is a
/// lane id or threadIdx.x-like (\p IndexLeft: it is the left operand), as
/// \p C with the shape of a thread index: still distinct per lane.
static std::optional<WarpValue> shiftedIndex(BinaryOperatorKind Op,
                                             const WarpValue &Index,
                                             const WarpValue &Uniform,
                                             bool IndexLeft, WarpValue C) {
  if (Index.S != Shape::ThreadIndex && Index.S != Shape::LaneId)
    return std::nullopt;
  if (Op != BO_Add && (Op != BO_Sub || !IndexLeft))
    return std::nullopt;
  int8_t Offset = Index.S == Shape::LaneId ? int8_t(0) : Index.OffsetMod32;
  C.S = Shape::ThreadIndex;
  C.LaneAffine = Index.LaneAffine;
  C.AffineBaseByShape = Index.AffineBaseByShape;
  if (Uniform.Constant && Offset >= 0)
    C.OffsetMod32 =
        mod32(Offset + (Op == BO_Add ? *Uniform.Constant : -*Uniform.Constant));
  else if (Uniform.isWarpMultiple())
    C.OffsetMod32 = Offset;
  return C;
}

/// Returns threadIdx.x-like \p Index divided, shifted, reduced or masked by
/// the uniform \p Uniform on its right, where that gives the warp index (the
/// same in a warp), a lane id or another thread index (\p C: their
/// combination).
static std::optional<WarpValue> threadIndexQuotient(BinaryOperatorKind Op,
                                                    const WarpValue &Index,
                                                    const WarpValue &Uniform,
                                                    WarpValue C) {
  // tid / (32 * m), `tid / group_size` with a group of whole warps: the
  // group index, the same in a warp. (Not blockDim.x itself: in a block
  // of 16-wide rows the linear index over it is the row.)
  if (!Uniform.Constant && Uniform.S == Shape::WarpMultiple &&
      Index.OffsetMod32 == 0) {
    if (Op == BO_Div) {
      WarpValue U;
      U.Params = C.Params;
      return U;
    }
    if (Op == BO_Rem) {
      C.S = Shape::ThreadIndex; // tid % (32 * m): the rank in the group
      C.OffsetMod32 = 0;
      return C;
    }
  }
  if (!Uniform.Constant)
    return std::nullopt;
  int64_t K = *Uniform.Constant;
  // threadIdx.x / 32 (or >> 5) is the warp index: the same in a warp.
  if (((Op == BO_Div && K > 0 && K % 32 == 0) || (Op == BO_Shr && K >= 5)) &&
      Index.OffsetMod32 == 0) {
    WarpValue U;
    U.Params = C.Params;
    return U;
  }
  if ((Op == BO_Rem && K == 32) || (Op == BO_And && K == 31)) {
    C.S = Shape::LaneId;
    // The lane itself when the index starts its warp at a multiple of 32.
    C.LaneAffine = Index.LaneAffine && Index.OffsetMod32 == 0;
    return C;
  }
  // tid & ~31 clears the lane bits: the index of the warp's lane 0.
  if (Op == BO_And && (K & 31) == 0 && Index.OffsetMod32 == 0) {
    WarpValue U;
    U.Params = C.Params;
    return U;
  }
  // threadIdx.x % 64 (or & 63): 32 consecutive values stay distinct, and
  // keep their offset when the warp starts on a multiple of 32.
  if ((Op == BO_Rem && K > 32 && K % 32 == 0) ||
      (Op == BO_And && K > 31 && ((K + 1) & K) == 0)) {
    C.S = Shape::ThreadIndex;
    C.OffsetMod32 = Index.OffsetMod32 == 0 ? 0 : -1;
    return C;
  }
  return std::nullopt;
}

/// Returns a lane id divided, shifted, reduced or masked by the constant
/// \p K on its right, where that gives a uniform value or still a lane id
/// (\p C: their combination).
static std::optional<WarpValue> laneIdQuotient(BinaryOperatorKind Op, int64_t K,
                                               WarpValue C) {
  if ((Op == BO_Div && K >= 32) || (Op == BO_Shr && K >= 5))
    return WarpValue::uniform();
  if ((Op == BO_Rem && K >= 32 && K % 32 == 0) ||
      (Op == BO_And && K >= 31 && ((K + 1) & K) == 0)) {
    C.S = Shape::LaneId;
    return C;
  }
  return std::nullopt;
}

/// Returns \p C, the combination of \p Varying op \p Uniform, with the shape
/// that buys precision where one is kept; only \p Varying varies
/// (\p VaryingLeft: it is the left operand).
static WarpValue oneVaryingOperand(BinaryOperatorKind Op,
                                   const WarpValue &Varying,
                                   const WarpValue &Uniform, bool VaryingLeft,
                                   WarpValue C) {
  if (Varying.S == Shape::LaneMask && Op == BO_And) {
    C.S = Shape::LaneMask; // the lanes of a uniform mask below this lane
    return C;
  }
  if (std::optional<WarpValue> V =
          shiftedIndex(Op, Varying, Uniform, VaryingLeft, C))
    return *V;
  // Any other lane-affine value moved by a uniform amount stays one.
  if (Varying.LaneAffine && (Op == BO_Add || (Op == BO_Sub && VaryingLeft))) {
    C.LaneAffine = true;
    C.AffineBaseByShape = Varying.AffineBaseByShape;
    return C;
  }
  if (!VaryingLeft)
    return C;
  if (Varying.S == Shape::ThreadIndex)
    if (std::optional<WarpValue> V =
            threadIndexQuotient(Op, Varying, Uniform, C))
      return *V;
  if (Varying.S == Shape::LaneId && Uniform.Constant)
    if (std::optional<WarpValue> V = laneIdQuotient(Op, *Uniform.Constant, C))
      return *V;
  return C;
}

WarpValue ValueEvaluator::arithmetic(BinaryOperatorKind Op, const WarpValue &L,
                                     const WarpValue &R) {
  WarpValue C = WarpValue::combine(L, R);
  if (Op == BO_LAnd || Op == BO_LOr) {
    // `lane == 0 && x` is true in at most one lane; `lane != 0 || x` is
    // false in at most one lane.
    OneLane Want = Op == BO_LAnd ? OneLane::WhenTrue : OneLane::WhenFalse;
    if (L.Single == Want || R.Single == Want)
      C.Single = Want;
    return C;
  }
  if (C.isUniform()) {
    if (keepsWarpMultiple(Op, L, R))
      C.S = Shape::WarpMultiple;
    return C;
  }
  if (std::optional<WarpValue> Row = linearIndex(Op, L, R, C))
    return *Row;
  // Two values that are each a uniform value plus the lane index differ by
  // the same amount in every lane: `tid - lane` is the index of the warp's
  // lane 0 (a warp's slice `&s[threadIdx.x - lane]`).
  if (L.LaneAffine && R.LaneAffine && Op == BO_Sub)
    return affineDifference(L, R, C);
  if (L.isVarying() && R.isVarying())
    return affineOverShape(Op, L, R, C);
  // Exactly one operand varies: keep the shapes that buy precision.
  return L.isVarying() ? oneVaryingOperand(Op, L, R, /*VaryingLeft=*/true, C)
                       : oneVaryingOperand(Op, R, L, /*VaryingLeft=*/false, C);
}

WarpValue ValueEvaluator::evalCall(const CallExpr *Call) {
  llvm::SmallVector<WarpValue, 4> Args;
  for (const Expr *Arg : Call->arguments())
    Args.push_back(eval(Arg));
  WarpValue All = WarpValue::uniform();
  for (const WarpValue &A : Args)
    All = WarpValue::combine(All, A);

  if (std::optional<CollectiveUse> Use = matchCollective(Call)) {
    switch (Use->Info->Result) {
    case CollectiveResult::Uniform:
    case CollectiveResult::None:
      return WarpValue::uniform();
    case CollectiveResult::UniformIfSrc: {
      unsigned Src = Use->Info->SrcLaneArg;
      if (Src < Args.size() && Args[Src].isUniform()) {
        WarpValue U;
        U.Params = Args[Src].Params;
        return U;
      }
      return WarpValue::derived(Variance::Data, Args[Src], Call);
    }
    case CollectiveResult::Varying:
      // Shuffling a value that is the same in every lane returns it.
      if (Use->Info->Kind == CollectiveKind::Shuffle && Args.size() > 1 &&
          Args[1].isUniform())
        return Args[1];
      // Every lane of the mask holds the same key: each one's peer group
      // is the whole mask, the same in every lane.
      if (Use->Info->Kind == CollectiveKind::Match && Args.size() > 1 &&
          Args[0].isUniform() && Args[1].isUniform())
        return WarpValue::combine(Args[0], Args[1]);
      return WarpValue::varying(Variance::Data, Call);
    }
  }
  if (matchAtomic(Call))
    return WarpValue::varying(Variance::Data, Call);

  if (std::optional<IntrinsicValue> K = lookupIntrinsicValue(calleeName(Call)))
    return intrinsic(*K, Call, Args);
  // The smaller or larger of two multiples of 32 is one.
  if (Args.size() == 2 && All.isUniform() && Args[0].isWarpMultiple() &&
      Args[1].isWarpMultiple() &&
      llvm::is_contained(
          {"min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax"},
          calleeName(Call))) {
    All.S = Shape::WarpMultiple;
    return All;
  }

  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee && inCooperativeGroups(Callee)) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    // A group's members take the object first when called as operators.
    if (std::optional<IntrinsicValue> K = lookupGroupMethod(
            MD ? MD->getParent()->getName() : "", Callee->getName()))
      return intrinsic(*K, Call, Args);
  }
  if (Callee) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    llvm::ArrayRef<WarpValue> CalleeArgs = Args;
    // A call through operator() of a lambda passes the closure first.
    if (MD && isa<CXXOperatorCallExpr>(Call) && !MD->isStatic() &&
        !CalleeArgs.empty())
      CalleeArgs = CalleeArgs.drop_front();
    if (std::optional<WarpValue> R = evalInlined(Callee, CalleeArgs))
      return *R;
    std::optional<WarpValue> Object;
    if (const Expr *Obj = callObject(Call))
      Object = eval(Obj);
    if (std::optional<WarpValue> R = Oracle.callResult(
            Call, Callee, CalleeArgs, Object ? &*Object : nullptr))
      return *R;
  }
  // A callee we cannot see (a declaration only, a dependent call in a
  // template, a function pointer) is taken as a function of its arguments
  // and of the object it is called on: per-lane results come from per-lane
  // inputs, which the arguments carry (addresses of locals vary per lane).
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call))
    if (const Expr *Obj = MCE->getImplicitObjectArgument())
      All = WarpValue::combine(All, eval(Obj));
  if (All.isVarying() && All.V == Variance::Lane && All.S == Shape::Other)
    All.V = Variance::Data; // what it does with a lane index is unknown
  return All;
}

WarpValue ValueEvaluator::evalDependent(const Expr *E) {
  // Forms of template patterns and of error recovery. Some have no type at
  // all (a ParenListExpr initialiser), so nothing here may look at one.
  if (isa<UnresolvedLookupExpr, DependentScopeDeclRefExpr, SizeOfPackExpr>(E))
    return WarpValue::uniform(); // a name, a template constant, a pack size
  if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(E)) {
    if (Member->isImplicitAccess())
      return WarpValue::uniform(); // a member of `this`, as for MemberExpr
    WarpValue Base = eval(Member->getBase());
    return Member->isArrow() ? load(Base, E) : Base;
  }
  if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(E))
    return Member->isImplicitAccess() ? WarpValue::uniform()
                                      : eval(Member->getBase());
  if (const auto *Pack = dyn_cast<PackExpansionExpr>(E))
    return eval(Pack->getPattern());
  // ParenListExpr, CXXUnresolvedConstructExpr, CXXFoldExpr, RecoveryExpr:
  // a function of their operands.
  WarpValue V;
  for (const Stmt *Child : E->children())
    if (const auto *Operand = dyn_cast_or_null<Expr>(Child))
      V = WarpValue::combine(V, eval(Operand));
  return V;
}

WarpValue ValueEvaluator::evalThis() {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (MD && !MD->isStatic() && !MD->getParent()->isLambda())
    return WarpValue::param(ParamSet::ObjectIndex);
  return WarpValue::uniform();
}

std::optional<int64_t> ValueOracle::integerConstant(const Expr *E,
                                                    ASTContext &Ctx) {
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors() ||
      !E->getType()->isIntegralOrEnumerationType() || isa<CallExpr>(E))
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

WarpValue ValueEvaluator::evalCast(const CastExpr *Cast) {
  // A thread's local array lives in its own memory: its address differs
  // per lane, like &local.
  if (Cast->getCastKind() == CK_ArrayToPointerDecay &&
      localSlot(Cast->getSubExpr(), /*ForWrite=*/false)) {
    WarpValue V = WarpValue::varying(Variance::Lane, Cast);
    V.S = Shape::LocalAddress;
    return V;
  }
  WarpValue V = eval(Cast->getSubExpr());
  // The address of a local is never null.
  if (Cast->getCastKind() == CK_PointerToBoolean && V.isLocalAddress())
    return WarpValue::constant(1);
  // `if (tid)` is `tid != 0`: false in at most one lane when tid is
  // distinct per lane (so `!tid` and `tid ? … : x` elect one lane).
  if (Cast->getCastKind() == CK_IntegralToBoolean) {
    if (V.isLaneIndexed())
      V.Single = OneLane::WhenFalse;
    V.S = Shape::Other;
    V.OffsetMod32 = -1;
    if (V.Constant)
      V.Constant = *V.Constant != 0;
  }
  return V;
}

/// Returns the expression \p E only wraps (a full expression, a temporary,
/// a default argument or member initializer), whose value it has; null when
/// \p E is no such wrapper.
static const Expr *wrappedExpr(const Expr *E) {
  if (const auto *EWC = dyn_cast<FullExpr>(E))
    return EWC->getSubExpr();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return MTE->getSubExpr();
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    return BTE->getSubExpr();
  if (const auto *DAE = dyn_cast<CXXDefaultArgExpr>(E))
    return DAE->getExpr();
  if (const auto *DIE = dyn_cast<CXXDefaultInitExpr>(E))
    return DIE->getExpr();
  return nullptr;
}

WarpValue ValueEvaluator::evalUnary(const UnaryOperator *UO) {
  WarpValue V = eval(UO->getSubExpr());
  switch (UO->getOpcode()) {
  case UO_LNot:
    if (V.Single == OneLane::WhenTrue)
      V.Single = OneLane::WhenFalse;
    else if (V.Single == OneLane::WhenFalse)
      V.Single = OneLane::WhenTrue;
    V.S = Shape::Other;
    V.Constant.reset();
    return V;
  case UO_Deref:
    return load(V, UO);
  case UO_AddrOf:
    return addressOf(UO->getSubExpr());
  case UO_PreInc:
  case UO_PostInc:
  case UO_PreDec:
  case UO_PostDec:
    // k++ leaves 0..31: a lane id becomes threadIdx-like with unknown offset.
    V.Constant.reset();
    if (V.S == Shape::LaneId)
      V.S = Shape::ThreadIndex;
    V.OffsetMod32 = -1;
    return V;
  default:
    return WarpValue::combine(V, WarpValue::uniform());
  }
}

WarpValue ValueEvaluator::evalSubscript(const ArraySubscriptExpr *ASE) {
  if (std::optional<LocalSlot> Slot = localSlot(ASE, /*ForWrite=*/false))
    return evalLocal(*Slot, ASE);
  WarpValue Index = eval(ASE->getIdx());
  return load(offsetAddress(eval(ASE->getBase()), Index), ASE);
}

WarpValue ValueEvaluator::evalMember(const MemberExpr *ME) {
  if (!isa<FieldDecl>(ME->getMemberDecl()) &&
      !isa<VarDecl>(ME->getMemberDecl()))
    return WarpValue::uniform();
  if (ME->isArrow())
    return load(eval(ME->getBase()), ME);
  if (std::optional<LocalSlot> Slot = localSlot(ME, /*ForWrite=*/false))
    return evalLocal(*Slot, ME);
  return eval(ME->getBase());
}

WarpValue
ValueEvaluator::evalConditional(const AbstractConditionalOperator *CO) {
  WarpValue C = eval(CO->getCond());
  // `BLOCK_Y == 1 ? threadIdx.x : linear_tid`: a constant condition picks
  // one arm; the other never runs.
  if (C.Constant)
    return eval(*C.Constant ? CO->getTrueExpr() : CO->getFalseExpr());
  WarpValue J =
      WarpValue::join(eval(CO->getTrueExpr()), eval(CO->getFalseExpr()));
  if (C.isUniform()) {
    J.Params |= C.Params;
    return J;
  }
  return WarpValue::combine(C, J);
}

/// Whether \p E is a form only template patterns and error recovery have.
static bool isDependentForm(const Expr *E) {
  return isa<UnresolvedLookupExpr, DependentScopeDeclRefExpr, SizeOfPackExpr,
             CXXDependentScopeMemberExpr, UnresolvedMemberExpr,
             PackExpansionExpr, ParenListExpr, CXXUnresolvedConstructExpr,
             CXXFoldExpr, RecoveryExpr>(E);
}

/// asksClang for \p E without parentheses around it: the evaluator asks
/// this of every expression it meets, some three million times in a large
/// unit, after it has taken the parentheses off and set dependent forms
/// aside.
static bool asksClangUnwrapped(const Expr *E) {
  // The type first: most expressions of a kernel are pointers and floats.
  // (A dependent form may have no type at all.)
  QualType T = E->getType();
  return !T.isNull() && T->isIntegralOrEnumerationType() &&
         !E->isValueDependent() && !E->isTypeDependent() &&
         !E->containsErrors() && !isa<CXXThisExpr, CallExpr>(E);
}

/// Whether the evaluator asks clang to fold \p E itself, as it does for
/// the integer expressions it has no other way to know (not calls, not
/// pointers, not floating point).
static bool asksClang(const Expr *E) {
  E = E->IgnoreParens();
  return asksClangUnwrapped(E) && !isDependentForm(E);
}

bool ValueEvaluator::operandMayFold(const Expr *Op) {
  return !asksClang(Op) || eval(Op).Constant.has_value();
}

/// Whether \p VD may be read in a constant expression: constexpr, const,
/// or a reference (which may name such a variable).
static bool readableInConstants(const VarDecl *VD) {
  return VD->isConstexpr() || VD->getType()->isReferenceType() ||
         VD->getType().isConstQualified();
}

bool ValueEvaluator::mayFold(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->isCommaOp())
      return true;
    // `false && x` folds although x does not.
    if (BO->isLogicalOp())
      return operandMayFold(BO->getLHS()) || operandMayFold(BO->getRHS());
    return operandMayFold(BO->getLHS()) && operandMayFold(BO->getRHS());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp())
      return false; // a write
    if (UO->getOpcode() == UO_Deref)
      return true;
    return operandMayFold(UO->getSubExpr());
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    // Reading an lvalue clang folds gives the value evalCast passes on
    // from it.
    if (Cast->getCastKind() == CK_LValueToRValue ||
        Cast->getCastKind() == CK_NoOp)
      return !asksClang(Cast->getSubExpr());
    return operandMayFold(Cast->getSubExpr());
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return operandMayFold(CO->getCond());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return readableInConstants(VD);
  // A field of a variable no constant expression may read, or of `this`.
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return true;
    if (isa<CXXThisExpr>(Base))
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return readableInConstants(VD);
    return true;
  }
  // threadIdx.x and the other builtin registers.
  return !isa<PseudoObjectExpr>(E);
}

WarpValue ValueEvaluator::evalUncached(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<CXXThisExpr>(E))
    return evalThis();
  if (isDependentForm(E))
    return evalDependent(E);
  if (asksClangUnwrapped(E) && mayFold(E))
    if (std::optional<int64_t> K = Oracle.integerConstant(E, Ctx))
      return WarpValue::constant(*K);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return evalCast(Cast);
  if (const Expr *Wrapped = wrappedExpr(E))
    return eval(Wrapped);
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return OVE->getSourceExpr() ? eval(OVE->getSourceExpr())
                                : WarpValue::uniform();
  if (isa<PseudoObjectExpr>(E))
    return evalBuiltinRegister(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return evalDeclRef(DRE);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return evalUnary(UO);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return evalSubscript(ASE);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return evalMember(ME);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(CO);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    WarpValue V;
    for (const Expr *Arg : CE->arguments())
      V = WarpValue::combine(V, eval(Arg));
    return V;
  }
  // A closure holds what it captures: its calls read them through it.
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
    WarpValue V;
    for (const Expr *Init : Lambda->capture_inits())
      if (Init)
        V = WarpValue::combine(V, eval(Init));
    return V;
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    WarpValue V;
    for (const Expr *Init : ILE->inits())
      V = WarpValue::combine(V, eval(Init));
    return V;
  }
  return WarpValue::uniform();
}

} // namespace clang::warp
