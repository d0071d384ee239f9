//===--- WarpAnalysis.cpp - per-translation-unit analysis cache -----------===//

#include "WarpAnalysis.h"
#include "KernelLaunches.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include <map>
#include <mutex>

namespace clang::tidy::warp {

namespace {
/// Analyses live per ASTContext; warp-lint -j runs translation units on
/// several threads, each with its own context.
std::mutex RegistryMutex;
/// Checks configured with different analysis options get separate analyses.
using RegistryKey = std::pair<const ASTContext *, bool>;
std::map<RegistryKey, std::unique_ptr<WarpAnalysis>> &registry() {
  static std::map<RegistryKey, std::unique_ptr<WarpAnalysis>> R;
  return R;
}
} // namespace

WarpAnalysis &WarpAnalysis::get(ASTContext &Ctx,
                                const UniformityOptions &Opts) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  auto &Slot = registry()[{&Ctx, Opts.ThreadIdxYZUniform}];
  if (!Slot)
    Slot = std::make_unique<WarpAnalysis>(Ctx, Opts);
  return *Slot;
}

void WarpAnalysis::release(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  registry().erase({&Ctx, false});
  registry().erase({&Ctx, true});
}

WarpAnalysis::~WarpAnalysis() = default;

const FunctionDecl *calledDefinition(const CallExpr *Call) {
  // A kernel launch starts new warps; it is not a call made by this warp.
  if (isa<CUDAKernelCallExpr>(Call))
    return nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->hasAttr<CUDAGlobalAttr>())
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  return Def;
}

bool sameExpr(const Expr *A, const Expr *B, ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

const ParmVarDecl *maskParameter(const Expr *Mask) {
  if (!Mask)
    return nullptr;
  Mask = Mask->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Mask))
    return dyn_cast<ParmVarDecl>(DRE->getDecl());
  return nullptr;
}

bool hasFullMask(const CollectiveUse &Use, const FunctionUniformity &FU,
                 ASTContext &Ctx) {
  if (Use.ImmediateMask)
    return isFullMask(*Use.ImmediateMask);
  if (!Use.Mask || Use.Mask->isValueDependent())
    return false;
  Expr::EvalResult R;
  if (Use.Mask->EvaluateAsInt(R, Ctx))
    return isFullMask(R.Val.getInt().getZExtValue());
  // A local that only ever holds the full mask.
  WarpValue V = FU.valueOf(Use.Mask);
  return V.Constant && isFullMask(uint64_t(*V.Constant));
}

const FunctionUniformity *WarpAnalysis::function(const FunctionDecl *FD) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  auto It = Functions.find(FD);
  if (It != Functions.end())
    return It->second.get();
  if (!FD->hasBody()) {
    Functions[FD] = nullptr;
    return nullptr;
  }
  InProgress.insert(FD);
  size_t ReadsBefore = PartialReads.size();
  auto FU = std::make_unique<FunctionUniformity>(FD, Ctx, Opts, *this);
  InProgress.erase(FD);
  Partial.erase(FD);
  const FunctionUniformity *Result = FU->isValid() ? FU.get() : nullptr;
  if (readUnfinishedCaptures(ReadsBefore)) {
    // A lambda analysed while its enclosing function still is: its captures
    // are the values reached so far, so analyse it again when asked later.
    Provisional.push_back(std::move(FU));
    return Result;
  }
  Functions[FD] = FU->isValid() ? std::move(FU) : nullptr;
  forgetProvisionalWhenIdle();
  return Result;
}

bool WarpAnalysis::readUnfinishedCaptures(size_t Since) const {
  for (size_t I = Since; I < PartialReads.size(); ++I)
    if (InProgress.contains(PartialReads[I]))
      return true;
  return false;
}

void WarpAnalysis::forgetProvisionalWhenIdle() {
  // Provisional analyses serve only the analyses under way; nothing outside
  // them holds one.
  if (!InProgress.empty())
    return;
  Provisional.clear();
  ProvisionalSummaries.clear();
  PartialReads.clear();
}

const FunctionSummary *WarpAnalysis::summary(const FunctionDecl *FD) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  auto It = Summaries.find(FD);
  if (It != Summaries.end())
    return It->second.get();
  if (InProgress.contains(FD))
    return nullptr;
  const FunctionUniformity *FU = function(FD);
  if (!FU) {
    Summaries[FD] = nullptr;
    return nullptr;
  }
  InProgress.insert(FD);
  size_t ReadsBefore = PartialReads.size();
  auto S = std::make_unique<FunctionSummary>(computeSummary(FD, *FU));
  InProgress.erase(FD);
  const FunctionSummary *Result = S.get();
  if (readUnfinishedCaptures(ReadsBefore) || !Functions.count(FD)) {
    ProvisionalSummaries.push_back(std::move(S));
    return Result;
  }
  Summaries[FD] = std::move(S);
  forgetProvisionalWhenIdle();
  // Library functions (system headers) are only ever needed through their
  // summary; their CFGs would keep gigabytes alive in template-heavy code.
  if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
    Functions.erase(FD);
  return Result;
}

/// Returns the parameters of the caller that arguments bound to the callee
/// parameters \p CalleeParams depend on; sets \p AnyVarying when one of those
/// arguments varies in the caller.
static uint64_t mapParams(uint64_t CalleeParams,
                          llvm::ArrayRef<const Expr *> Args,
                          const FunctionUniformity &Caller, bool &AnyVarying) {
  uint64_t Mapped = 0;
  for (unsigned I = 0; I < Args.size() && I < 64; ++I) {
    if (!(CalleeParams & (uint64_t(1) << I)))
      continue;
    WarpValue V = Caller.valueOf(Args[I]);
    if (V.isVarying())
      AnyVarying = true;
    Mapped |= V.Params;
  }
  return Mapped;
}

const Expr *varyingArgument(uint64_t Params, llvm::ArrayRef<const Expr *> Args,
                            const FunctionUniformity &Caller) {
  for (unsigned I = 0; I < Args.size() && I < 64; ++I)
    if ((Params & (uint64_t(1) << I)) && Caller.valueOf(Args[I]).isVarying())
      return Args[I];
  return nullptr;
}

/// Returns the reference or pointer parameter of \p FD that the store to
/// \p LValue writes through (`r = v`, `r.f = v`, `*p = v`, `p[i] = v`,
/// `p->f = v`), if any.
static const ParmVarDecl *writtenParameter(const Expr *LValue,
                                           const FunctionDecl *FD) {
  const Expr *E = LValue->IgnoreParenImpCasts();
  bool ThroughPointer = false;
  while (true) {
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      E = UO->getSubExpr()->IgnoreParenImpCasts();
      ThroughPointer = true;
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase()->IgnoreParenImpCasts();
      ThroughPointer = true;
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      ThroughPointer |= ME->isArrow();
      E = ME->getBase()->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != FD)
    return nullptr;
  QualType T = P->getType();
  if (ValueEvaluator::isMutableReference(T))
    return P;
  return ThroughPointer && T->isPointerType() ? P : nullptr;
}

/// Records in \p S what \p FD writes through its reference and pointer
/// parameters at \p St: the value, made varying by divergence at the write
/// (lanes that skip it keep the old value).
static void recordParamWrites(const Stmt *St, const FunctionDecl *FD,
                              const FunctionUniformity &FU,
                              WarpAnalysis &WA, FunctionSummary &S) {
  auto Record = [&](const ParmVarDecl *P, WarpValue V) {
    unsigned I = P->getFunctionScopeIndex();
    if (I >= S.ParamWrites.size())
      return;
    Divergence D = FU.divergenceAt(St);
    if (D.isDiverged())
      V = WarpValue::combine(V, WarpValue::varying(D.strongest(), St));
    V.Params |= D.ParamConditions;
    ParamWrite &W = S.ParamWrites[I];
    W.Value = W.Written ? WarpValue::join(W.Value, V) : V;
    W.Written = true;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (BO->isAssignmentOp())
      if (const ParmVarDecl *P = writtenParameter(BO->getLHS(), FD))
        Record(P, FU.valueOf(BO));
  } else if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
    if (UO->isIncrementDecrementOp())
      if (const ParmVarDecl *P = writtenParameter(UO->getSubExpr(), FD))
        Record(P, FU.valueOf(UO));
  } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(St)) {
    for (const Expr *Out : Asm->outputs())
      if (const ParmVarDecl *P = writtenParameter(Out, FD))
        Record(P, WarpValue::varying(Variance::Data, St));
  } else if (const auto *Call = dyn_cast<CallExpr>(St)) {
    // A parameter handed on to another callee's reference or pointer.
    const FunctionDecl *Callee = Call->getDirectCallee();
    llvm::ArrayRef<const Expr *> Args = callArguments(Call);
    llvm::SmallVector<WarpValue, 4> Values; // filled on first need
    for (unsigned I = 0; I < Args.size(); ++I) {
      const auto *Ref = dyn_cast<DeclRefExpr>(Args[I]->IgnoreParenImpCasts());
      const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
      if (!P || P->getDeclContext() != FD || !Callee ||
          I >= Callee->getNumParams())
        continue;
      QualType T = Callee->getParamDecl(I)->getType();
      bool Writable =
          ValueEvaluator::isMutableReference(T) ||
          (T->isPointerType() && !T->getPointeeType().isConstQualified());
      // Our pointer, or our non-const reference, bound to one of the callee's.
      bool Ours = P->getType()->isPointerType() || writtenParameter(Args[I], FD);
      if (!Writable || !Ours)
        continue;
      if (Values.empty())
        for (const Expr *Arg : Args)
          Values.push_back(FU.valueOf(Arg));
      if (std::optional<ParamWrite> W = WA.paramWrite(Call, I, Values)) {
        if (W->Written)
          Record(P, W->Value);
      } else {
        Record(P, WarpValue::varying(Variance::Data, Call));
      }
    }
  }
}

FunctionSummary WarpAnalysis::computeSummary(const FunctionDecl *FD,
                                             const FunctionUniformity &FU) {
  FunctionSummary S;
  S.ParamWrites.resize(FD->getNumParams());
  bool SawReturn = false;
  FU.forEachStmt([&](const Stmt *St) {
    recordParamWrites(St, FD, FU, *this, S);
    if (const auto *Ret = dyn_cast<ReturnStmt>(St)) {
      if (const Expr *V = Ret->getRetValue()) {
        S.Result = SawReturn ? WarpValue::join(S.Result, FU.valueOf(V))
                             : FU.valueOf(V);
        SawReturn = true;
      }
      return;
    }
    if (std::optional<CollectiveUse> Use = matchCollective(St)) {
      if (!S.Synchronizes)
        S.Synchronizes = St;
      Divergence D = FU.divergenceAt(St);
      if (hasFullMask(*Use, FU, Ctx)) {
        if (!D.isDiverged())
          S.FullWarp.push_back({St, FD, D.ParamConditions});
      } else if (const ParmVarDecl *P = maskParameter(Use->Mask)) {
        if (P->getDeclContext() == FD)
          S.MaskParams.push_back({P->getFunctionScopeIndex(), St, FD,
                                  D.isDiverged(), D.ParamConditions});
      }
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(St);
    if (!Call)
      return;
    if (!S.Synchronizes && isBarrierName(calleeName(Call)))
      S.Synchronizes = St;
    if (std::optional<AtomicInfo> Atomic = matchAtomic(Call)) {
      WarpValue Address = FU.atomicAddress(*Atomic);
      if (Atomic->isReadModifyWrite() && Address.isUniform() && Address.Params &&
          !FU.isSingleLane(Call))
        S.ParamAtomics.push_back({Call, FD, Address.Params});
      return;
    }
    const FunctionDecl *Callee = calledDefinition(Call);
    if (!Callee)
      return;
    const FunctionSummary *CS = summary(Callee);
    if (!CS)
      return;
    if (!S.Synchronizes && CS->Synchronizes)
      S.Synchronizes = St;
    llvm::ArrayRef<const Expr *> Args = callArguments(Call);
    Divergence D = FU.divergenceAt(St);
    if (!D.isDiverged())
      for (const FullWarpNeed &N : CS->FullWarp) {
        bool Varying = false;
        uint64_t Cond =
            D.ParamConditions | mapParams(N.ParamConditions, Args, FU, Varying);
        if (!Varying)
          S.FullWarp.push_back({N.Collective, N.Owner, Cond});
      }
    if (!FU.isSingleLane(Call))
      for (const UniformAtomic &A : CS->ParamAtomics) {
        bool Varying = false;
        uint64_t Mapped = mapParams(A.AddressParams, Args, FU, Varying);
        if (!Varying && Mapped) {
          UniformAtomic Through = A;
          Through.AddressParams = Mapped;
          Through.Path.insert(Through.Path.begin(), Call);
          S.ParamAtomics.push_back(std::move(Through));
        }
      }
    for (const MaskParam &M : CS->MaskParams) {
      // A full mask handed to the helper makes its collective a need of
      // this function.
      Expr::EvalResult R;
      bool Varying = false;
      uint64_t Cond = D.ParamConditions |
                      mapParams(M.ParamConditions, Args, FU, Varying);
      if (M.Index < Args.size() && !M.DivergedInside && !D.isDiverged() &&
          !Varying && !Args[M.Index]->isValueDependent() &&
          Args[M.Index]->EvaluateAsInt(R, Ctx) &&
          isFullMask(R.Val.getInt().getZExtValue()))
        S.FullWarp.push_back({M.Collective, M.Owner, Cond});
    }
    for (const MaskParam &M : CS->MaskParams)
      if (M.Index < Args.size())
        if (const ParmVarDecl *P = maskParameter(Args[M.Index]))
          if (P->getDeclContext() == FD) {
            bool Varying = false;
            uint64_t Cond = D.ParamConditions |
                            mapParams(M.ParamConditions, Args, FU, Varying);
            S.MaskParams.push_back({P->getFunctionScopeIndex(), M.Collective,
                                    M.Owner,
                                    M.DivergedInside || D.isDiverged() ||
                                        Varying,
                                    Cond});
          }
  });
  return S;
}

/// Returns \p V, a value in terms of a callee's parameters, with the values
/// of the arguments \p Args of \p Call put in for them.
static WarpValue bindParameters(const WarpValue &V,
                                llvm::ArrayRef<WarpValue> Args,
                                const CallExpr *Call) {
  WarpValue R = V;
  if (R.isVarying()) {
    if (!R.Origin)
      R.Origin = Call;
    return R;
  }
  R.Params = 0;
  for (unsigned I = 0; I < Args.size() && I < 64; ++I)
    if (V.Params & (uint64_t(1) << I)) {
      R = WarpValue::combine(R, Args[I]);
      if (Args[I].isVarying() && !R.Origin)
        R.Origin = Call;
    }
  if (R.isUniform() && !R.Params) {
    R.Constant = V.Constant;
    R.S = V.S;
  }
  return R;
}

std::optional<WarpValue>
WarpAnalysis::callResult(const CallExpr *Call, const FunctionDecl *Callee,
                         llvm::ArrayRef<WarpValue> Args) {
  const FunctionDecl *Def = calledDefinition(Call);
  if (!Def)
    return std::nullopt;
  const FunctionSummary *S = summary(Def);
  if (!S)
    return WarpValue::varying(Variance::Data, Call); // recursion
  return bindParameters(S->Result, Args, Call);
}

std::optional<ParamWrite>
WarpAnalysis::paramWrite(const CallExpr *Call, unsigned Param,
                         llvm::ArrayRef<WarpValue> Args) {
  const FunctionDecl *Def = calledDefinition(Call);
  const FunctionSummary *S = Def ? summary(Def) : nullptr;
  if (!S || Param >= S->ParamWrites.size())
    return std::nullopt;
  ParamWrite W = S->ParamWrites[Param];
  if (W.Written)
    W.Value = bindParameters(W.Value, Args, Call);
  return W;
}

bool WarpAnalysis::launchedWarpAligned(const FunctionDecl *Kernel) {
  if (!Launches)
    Launches = findWarpAlignedLaunches(Ctx);
  return Launches->lookup(Kernel->getCanonicalDecl());
}

WarpValue WarpAnalysis::capturedValue(const VarDecl *VD) {
  const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!Owner)
    return WarpValue::uniform();
  if (InProgress.contains(Owner)) {
    // Read the value reached so far; the owner's fixpoint calls again.
    PartialReads.push_back(Owner);
    auto It = Partial.find(Owner);
    if (It == Partial.end() || isa<ParmVarDecl>(VD))
      return WarpValue::uniform();
    auto V = It->second->find(VD);
    WarpValue R = V == It->second->end() ? WarpValue::uniform() : V->second;
    R.Params = 0;
    return R;
  }
  const FunctionUniformity *FU = function(Owner);
  if (!FU)
    return WarpValue::uniform();
  WarpValue V = isa<ParmVarDecl>(VD) && !Owner->hasAttr<CUDAGlobalAttr>()
                    ? WarpValue::uniform()
                    : FU->valueOf(VD);
  V.Params = 0;
  return V;
}

} // namespace clang::tidy::warp
