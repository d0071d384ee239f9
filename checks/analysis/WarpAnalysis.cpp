//===--- WarpAnalysis.cpp - per-translation-unit analysis cache -----------===//

#include "WarpAnalysis.h"
#include "KernelLaunches.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <map>

namespace clang::warp {

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

bool callsTemplateCallable(const CallExpr *Call) {
  // Instantiation keeps the parameter as sugar over the substituted type.
  const Expr *Callable = Call->getCallee();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    Callable = Op->getOperator() == OO_Call ? Op->getArg(0) : nullptr;
  if (!Callable)
    return false;
  QualType T = Callable->IgnoreParenImpCasts()->getType();
  return T.getNonReferenceType()->getAs<SubstTemplateTypeParmType>();
}

const ParmVarDecl *maskParameter(const Expr *Mask) {
  if (!Mask)
    return nullptr;
  Mask = Mask->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Mask))
    return dyn_cast<ParmVarDecl>(DRE->getDecl());
  return nullptr;
}

/// Returns whether \p FD is a template pattern that no instantiation in this
/// translation unit covers.
static bool isUninstantiatedPattern(const FunctionDecl *FD) {
  if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
    return FTD->specializations().empty();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (const ClassTemplateDecl *CTD =
            MD->getParent()->getDescribedClassTemplate())
      return CTD->specializations().empty();
  return false;
}

bool isAnalysedDefinition(const FunctionDecl *FD) {
  return !FD->isDependentContext() || isUninstantiatedPattern(FD);
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

/// The function that defines the lambda whose closure type is \p RD, if any.
static const FunctionDecl *lambdaOwner(const CXXRecordDecl *RD) {
  if (!RD || !RD->isLambda())
    return nullptr;
  return dyn_cast_or_null<FunctionDecl>(
      RD->getDeclContext()->getNonClosureAncestor());
}

/// The functions that define the lambdas \p FD belongs to or is
/// instantiated with (`binary_search<int, (lambda in k)>`), outermost last.
static llvm::SmallVector<const FunctionDecl *, 2>
lambdaOwners(const FunctionDecl *FD) {
  llvm::SmallVector<const FunctionDecl *, 2> Owners;
  auto Add = [&](const FunctionDecl *Owner) {
    if (Owner && Owner != FD && Owner->hasBody() &&
        !llvm::is_contained(Owners, Owner))
      Owners.push_back(Owner);
  };
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    Add(lambdaOwner(MD->getParent()));
  if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
    for (const TemplateArgument &A : Args->asArray())
      if (A.getKind() == TemplateArgument::Type)
        Add(lambdaOwner(A.getAsType()->getAsCXXRecordDecl()));
  return Owners;
}

namespace {
/// Counts the analyses and summaries under way while it lives.
struct Nested {
  explicit Nested(unsigned &Depth) : Depth(Depth) { ++Depth; }
  ~Nested() { --Depth; }
  unsigned &Depth;
};
} // namespace

const FunctionUniformity *WarpAnalysis::function(const FunctionDecl *FD) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  if (Nesting == 0)
    HandedOut.insert(FD);
  auto It = Functions.find(FD);
  if (It != Functions.end())
    return It->second.get();
  if (!FD->hasBody()) {
    Functions[FD] = nullptr;
    return nullptr;
  }
  SpecializationKey K{FD, ""};
  if (ProvisionalEntry *P = reusableProvisional(K))
    return P->FU;
  // A lambda reads its captures from its owner's analysis. Started from
  // here, the owner's analysis would reach this function again (the owner
  // calls it, or calls a helper with the lambda) and find it unfinished:
  // analyse the owners first, and this function inside them.
  if (InProgress.empty()) {
    for (const FunctionDecl *Owner : lambdaOwners(FD))
      function(Owner);
    if (auto Done = Functions.find(FD); Done != Functions.end())
      return Done->second.get();
  }
  Nested Guard(Nesting);
  InProgress.insert(FD);
  size_t ReadsBefore = PartialReads.size();
  auto FU = std::make_unique<FunctionUniformity>(FD, Ctx, Opts, *this);
  InProgress.erase(FD);
  Partial.erase(FD);
  const FunctionUniformity *Result = FU->isValid() ? FU.get() : nullptr;
  if (readUnfinishedCaptures(ReadsBefore)) {
    // A lambda analysed while its enclosing function still is: its captures
    // are the values reached so far, so analyse it again once they change.
    ProvisionalCache[K] = {Result, nullptr, unfinishedReadsSince(ReadsBefore)};
    Provisional.push_back(std::move(FU));
    return Result;
  }
  Functions[FD] = FU->isValid() ? std::move(FU) : nullptr;
  forgetProvisionalWhenIdle();
  return Result;
}

bool WarpAnalysis::readUnfinishedCaptures(size_t Since) const {
  for (size_t I = Since; I < PartialReads.size(); ++I)
    if (InProgress.contains(PartialReads[I].Owner))
      return true;
  return false;
}

std::vector<WarpAnalysis::CaptureRead>
WarpAnalysis::unfinishedReadsSince(size_t Since) const {
  // Each capture once: entries that reuse others repeat their reads.
  std::vector<CaptureRead> Out;
  llvm::DenseSet<std::pair<const FunctionDecl *, const VarDecl *>> Seen;
  for (size_t I = Since; I < PartialReads.size(); ++I)
    if (InProgress.contains(PartialReads[I].Owner) &&
        Seen.insert({PartialReads[I].Owner, PartialReads[I].Var}).second)
      Out.push_back(PartialReads[I]);
  return Out;
}

void WarpAnalysis::addReads(std::vector<CaptureRead> &Into,
                            std::vector<CaptureRead> More) {
  for (CaptureRead &R : More)
    if (llvm::none_of(Into, [&](const CaptureRead &Old) {
          return Old.Owner == R.Owner && Old.Var == R.Var;
        }))
      Into.push_back(R);
}

WarpAnalysis::ProvisionalEntry *
WarpAnalysis::reusableProvisional(const SpecializationKey &K) {
  auto It = ProvisionalCache.find(K);
  if (It == ProvisionalCache.end())
    return nullptr;
  for (const CaptureRead &R : It->second.Reads)
    if (!InProgress.contains(R.Owner) ||
        unfinishedCapture(R.Owner, R.Var) != R.Value) {
      ProvisionalCache.erase(It);
      return nullptr;
    }
  // Reusing it reads those captures again: the caller depends on them too.
  for (const CaptureRead &R : It->second.Reads)
    PartialReads.push_back(R);
  return &It->second;
}

void WarpAnalysis::forgetProvisionalWhenIdle() {
  // Provisional analyses serve only the analyses under way; nothing outside
  // them holds one.
  if (!InProgress.empty())
    return;
  ProvisionalCache.clear();
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
  Nested Guard(Nesting);
  const FunctionUniformity *FU = function(FD);
  if (!FU) {
    Summaries[FD] = nullptr;
    return nullptr;
  }
  SpecializationKey K{FD, ""};
  if (ProvisionalEntry *P = reusableProvisional(K); P && P->Summary)
    return P->Summary;
  InProgress.insert(FD);
  size_t ReadsBefore = PartialReads.size();
  auto S = std::make_unique<FunctionSummary>(computeSummary(FD, *FU));
  InProgress.erase(FD);
  const FunctionSummary *Result = S.get();
  if (readUnfinishedCaptures(ReadsBefore) || !Functions.count(FD)) {
    if (auto P = ProvisionalCache.find(K);
        P != ProvisionalCache.end() && P->second.FU == FU) {
      P->second.Summary = Result;
      addReads(P->second.Reads, unfinishedReadsSince(ReadsBefore));
    }
    ProvisionalSummaries.push_back(std::move(S));
    return Result;
  }
  Summaries[FD] = std::move(S);
  forgetProvisionalWhenIdle();
  // Library functions (system headers) and functions no check acts on are
  // only ever needed through their summary, unless a check or tool holds
  // their analysis. Template-heavy code makes tens of thousands of them
  // (CuTe: 78,000 analyses, 15,600 of functions that matter), whose CFGs
  // would keep gigabytes alive.
  if (!HandedOut.contains(FD) &&
      (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) ||
       !mayMatter(FD)))
    Functions.erase(FD);
  return Result;
}

/// Bounds the call-site analyses of one translation unit; past it, calls use
/// the generic summaries (a little less precise, never wrong).
static constexpr size_t MaxSpecializations = 4096;

llvm::SmallVector<WarpValue, 4>
WarpAnalysis::argumentValues(const CallExpr *Call,
                             const FunctionUniformity &Caller) {
  llvm::SmallVector<WarpValue, 4> Values;
  for (const Expr *Arg : callArguments(Call))
    Values.push_back(Caller.valueOf(Arg));
  return Values;
}

std::vector<WarpValue> WarpAnalysis::entryValues(llvm::ArrayRef<WarpValue> Args,
                                                 std::string &Key) {
  std::vector<WarpValue> Entry;
  bool Generic = true;
  llvm::raw_string_ostream OS(Key);
  for (unsigned I = 0; I < Args.size() && I < 64; ++I) {
    // The callee sees what the argument is, in its own parameter's terms:
    // uniform values stay "uniform if the caller's is" so that results map
    // back to the caller through bindParameters.
    WarpValue V = Args[I];
    V.Origin = nullptr;
    if (V.isVarying())
      V.Params = {};
    else
      V.Params = V.Constant ? ParamSet() : WarpValue::param(I).Params;
    Generic &= V == WarpValue::param(I);
    OS << unsigned(V.V) << unsigned(V.S) << int(V.OffsetMod32)
       << unsigned(V.Single) << (V.Params ? "p" : "")
       << (V.Constant ? "=" + std::to_string(*V.Constant) : "") << ',';
    Entry.push_back(V);
  }
  if (Generic)
    Entry.clear();
  return Entry;
}

/// Whether a lambda is written in \p FD: its closure class is declared in
/// FD's context (a nested lambda's in that of the lambda around it).
static bool definesLambda(const FunctionDecl *FD) {
  return llvm::any_of(FD->decls(), [](const Decl *D) {
    const auto *Class = dyn_cast<CXXRecordDecl>(D);
    return Class && Class->isLambda();
  });
}

void WarpAnalysis::startChecking(const FunctionDecl *FD) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  const FunctionDecl *Done = std::exchange(LastChecked, FD);
  if (Done != FD)
    SharedReach.reset();
  if (!Done || Done == FD || !Done->hasAttr<CUDAGlobalAttr>() ||
      definesLambda(Done))
    return;
  Functions.erase(Done);
  HandedOut.erase(Done);
}

LaneReach &WarpAnalysis::laneReach(const FunctionUniformity &FU) {
  if (!SharedReach || &SharedReach->function() != &FU)
    SharedReach = std::make_unique<LaneReach>(FU, Ctx);
  SharedReach->evaluator().forgetThreadIndexSeen();
  return *SharedReach;
}

bool WarpAnalysis::inSystemHeader(const FunctionDecl *FD) {
  if (std::exchange(SystemHeaderAsked, FD) != FD) {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(FD->getBeginLoc());
    LastInSystemHeader = Loc.isValid() && SM.isInSystemHeader(Loc);
  }
  return LastInSystemHeader;
}

bool WarpAnalysis::hasUnknownCallers(const FunctionDecl *FD) {
  // A kernel, a lambda, a constructor...: no need to walk the unit.
  if (!UnknownCallers::mayBeEntry(FD))
    return false;
  if (!Entries)
    Entries.emplace(Ctx);
  return Entries->isEntry(FD);
}

std::optional<llvm::ArrayRef<UnknownCallers::CallSite>>
WarpAnalysis::onlyCalledAt(const FunctionDecl *FD) {
  if (!Entries)
    Entries.emplace(Ctx);
  return Entries->onlyCalledAt(FD);
}

std::optional<Fate> WarpAnalysis::fateAfterReturn(const FunctionDecl *FD) {
  auto [It, New] = ReturnFates.try_emplace(FD);
  if (!New)
    return It->second; // known, or recursion: unknown
  std::optional<llvm::ArrayRef<UnknownCallers::CallSite>> Sites =
      onlyCalledAt(FD);
  std::optional<Fate> Result;
  if (Sites) {
    Fate Worst;
    for (const UnknownCallers::CallSite &Site : *Sites) {
      const FunctionUniformity *Caller = function(Site.Caller);
      if (!Caller) {
        Worst = {AbsentFate::ReturnToCaller, nullptr};
        break;
      }
      Fate F = fateAfter(*Caller, Site.Call, *this, [&](const FunctionDecl *G) {
        return fateAfterReturn(G);
      });
      if (F.F > Worst.F)
        Worst = F;
    }
    Result = Worst;
  }
  ReturnFates[FD] = Result;
  return Result;
}

const FunctionUniformity *
WarpAnalysis::withVaryingParameters(const FunctionDecl *FD) {
  // What callers pass per lane is a scalar (a size, an index, a flag, a
  // request); pointers, references and objects (a fragment, a tensor view,
  // a work descriptor) are shared by the warp far more often, so they stay
  // as uniform as their arguments.
  std::vector<WarpValue> Args;
  bool Any = false;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    QualType T = FD->getParamDecl(I)->getType();
    bool Scalar =
        !T->isReferenceType() && (T->isArithmeticType() || T->isEnumeralType());
    Args.push_back(Scalar ? WarpValue::varying(Variance::Data, nullptr)
                          : WarpValue::param(I));
    Any |= Scalar;
  }
  return Any ? function(FD, Args) : function(FD);
}

const FunctionUniformity *
WarpAnalysis::function(const FunctionDecl *FD, llvm::ArrayRef<WarpValue> Args) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  std::string Key;
  std::vector<WarpValue> Entry = entryValues(Args, Key);
  if (Entry.empty())
    return function(FD);
  SpecializationKey K{FD, Key};
  auto It = Specialized.find(K);
  if (It != Specialized.end())
    return It->second.FU ? It->second.FU.get() : function(FD);
  if (SpecializationsInProgress.count(K) ||
      Specialized.size() >= MaxSpecializations || !FD->hasBody())
    return function(FD);
  if (ProvisionalEntry *P = reusableProvisional(K))
    return P->FU;
  SpecializationsInProgress.insert(K);
  // The generic analysis, if under way, keeps publishing its variables to
  // the lambdas it calls.
  auto PartialIt = Partial.find(FD);
  const ValueEvaluator::VarState *Publishing =
      PartialIt == Partial.end() ? nullptr : PartialIt->second;
  size_t ReadsBefore = PartialReads.size();
  auto FU = std::make_unique<FunctionUniformity>(FD, Ctx, Opts, *this,
                                                 std::move(Entry));
  if (Publishing)
    Partial[FD] = Publishing;
  else
    Partial.erase(FD);
  SpecializationsInProgress.erase(K);
  if (!FU->isValid())
    return function(FD);
  const FunctionUniformity *Result = FU.get();
  if (readUnfinishedCaptures(ReadsBefore)) {
    ProvisionalCache[K] = {Result, nullptr, unfinishedReadsSince(ReadsBefore)};
    Provisional.push_back(std::move(FU));
    return Result;
  }
  Specialized[K].FU = std::move(FU);
  return Result;
}

const FunctionSummary *WarpAnalysis::summary(const FunctionDecl *FD,
                                             llvm::ArrayRef<WarpValue> Args) {
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  const FunctionSummary *Generic = summary(FD);
  if (!Generic)
    return nullptr;
  std::string Key;
  std::vector<WarpValue> Entry = entryValues(Args, Key);
  ParamSet Informative;
  for (unsigned I = 0; I < Entry.size(); ++I)
    if (Entry[I] != WarpValue::param(I))
      Informative |= ParamSet::of(I);
  if (!Informative || !Generic->dependsOn(Informative))
    return Generic;
  SpecializationKey K{FD, Key};
  if (auto It = Specialized.find(K);
      It != Specialized.end() && It->second.Summary)
    return It->second.Summary.get();
  if (SpecializationsInProgress.count(K))
    return Generic;
  const FunctionUniformity *FU = function(FD, Args);
  if (!FU || !FU->isSpecialized())
    return Generic;
  if (ProvisionalEntry *P = reusableProvisional(K); P && P->Summary)
    return P->Summary;
  SpecializationsInProgress.insert(K);
  size_t ReadsBefore = PartialReads.size();
  auto S = std::make_unique<FunctionSummary>(computeSummary(FD, *FU));
  SpecializationsInProgress.erase(K);
  const FunctionSummary *Result = S.get();
  auto It = Specialized.find(K);
  if (readUnfinishedCaptures(ReadsBefore) || It == Specialized.end()) {
    if (auto P = ProvisionalCache.find(K);
        P != ProvisionalCache.end() && P->second.FU == FU) {
      P->second.Summary = Result;
      addReads(P->second.Reads, unfinishedReadsSince(ReadsBefore));
    }
    ProvisionalSummaries.push_back(std::move(S));
    return Result;
  }
  It->second.Summary = std::move(S);
  return Result;
}

const Expr *WarpAnalysis::divergingArgument(const CallExpr *Call,
                                            ParamSet ParamConditions,
                                            const Stmt *Collective,
                                            const FunctionUniformity &Caller,
                                            const Stmt *Via) {
  const Expr *Varying = varyingArgument(ParamConditions, Call, Caller);
  const FunctionDecl *Callee = calledDefinition(Call);
  if (!Varying || !Callee)
    return Varying;
  const FunctionSummary *Generic = summary(Callee);
  const FunctionSummary *AtCall = summary(Callee, argumentValues(Call, Caller));
  const CollectiveFacet *Needs =
      AtCall ? AtCall->facet<CollectiveFacet>() : nullptr;
  if (!Needs || AtCall == Generic)
    return Varying;
  // With the arguments' real values the branch may not split the warp at
  // all (`if (tid / 32 == w)`, `if (lane < 32)`).
  auto Same = [&](const Stmt *C, const Stmt *V) {
    return C == Collective && (!Via || V == Via);
  };
  for (const FullWarpNeed &N : Needs->FullWarp)
    if (Same(N.Collective, N.Via))
      return nullptr;
  for (const MaskParam &M : Needs->MaskParams)
    if (Same(M.Collective, M.Via) && !M.DivergedInside &&
        !varyingArgument(M.ParamConditions, Call, Caller))
      return nullptr;
  return Varying;
}

/// Returns whether the generic summary of \p Call's callee runs
/// \p Collective with lanes its caller decides: a full-mask collective that
/// needs the whole warp, or one whose mask is a parameter.
static bool reaches(WarpAnalysis &WA, const CallExpr *Call,
                    const Stmt *Collective) {
  const FunctionDecl *Callee = calledDefinition(Call);
  const FunctionSummary *S = Callee ? WA.summary(Callee) : nullptr;
  const CollectiveFacet *Needs = S ? S->facet<CollectiveFacet>() : nullptr;
  return Needs && (llvm::any_of(Needs->FullWarp,
                                [&](const FullWarpNeed &N) {
                                  return N.Collective == Collective;
                                }) ||
                   llvm::any_of(Needs->MaskParams, [&](const MaskParam &M) {
                     return M.Collective == Collective;
                   }));
}

DivergencePath WarpAnalysis::divergencePath(const CallExpr *Call,
                                            const Stmt *Collective,
                                            const FunctionUniformity &Caller,
                                            const Stmt *Via) {
  DivergencePath Path;
  const FunctionUniformity *FU = &Caller;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const FunctionDecl *Callee = calledDefinition(Call);
    FU = Callee ? function(Callee, argumentValues(Call, *FU)) : nullptr;
    if (!FU)
      return {};
    // The statements on the way: the collective itself, or calls whose
    // callee runs it. Until the split is found, the first diverged one,
    // else the first one; past it, the first one.
    bool Searching = !Path.found();
    const Stmt *Next = nullptr;
    Divergence D;
    FU->forEachStmt([&](const Stmt *St) {
      if (D.isDiverged() || (Next && !Searching))
        return;
      const auto *C = dyn_cast<CallExpr>(St);
      if (St != Collective && !(C && reaches(*this, C, Collective)))
        return;
      // The first callee's way is the one the need came by, when known.
      if (Depth == 0 && Via && St != Via)
        return;
      if (!Searching) {
        Next = St;
        return;
      }
      Divergence Here = FU->divergenceAt(St);
      if (!Next || Here.isDiverged()) {
        Next = St;
        D = std::move(Here);
      }
    });
    if (!Next)
      return {};
    Path.Frames.push_back({FU, Next});
    if (D.isDiverged()) {
      Path.DivergedFrame = Path.Frames.size() - 1;
      Path.At = std::move(D);
    }
    if (Next == Collective)
      return Path;
    Call = cast<CallExpr>(Next);
  }
  return {};
}

/// The arguments of \p Call bound to \p Params, and with \p WithObject the
/// object it is called on. The object's value is the join of all its fields
/// (one per-lane `tid` member makes it vary), so only an atomic's address,
/// where "varies" means "stay silent", takes it into account: for branch
/// conditions it would make every member test look divergent.
template <typename Fn>
static void forEachBound(ParamSet Params, const CallExpr *Call, bool WithObject,
                         Fn F) {
  llvm::ArrayRef<const Expr *> Args = callArguments(Call);
  for (unsigned I = 0; I < Args.size() && I < ParamSet::ObjectIndex; ++I)
    if (Params.contains(I))
      F(Args[I]);
  if (WithObject && Params.contains(ParamSet::ObjectIndex))
    if (const Expr *Object = callObject(Call))
      F(Object);
}

ParamSet mapParams(ParamSet CalleeParams, const CallExpr *Call,
                   const FunctionUniformity &Caller, bool &AnyVarying,
                   bool WithObject) {
  ParamSet Mapped;
  forEachBound(CalleeParams, Call, WithObject, [&](const Expr *Arg) {
    WarpValue V = Caller.valueOf(Arg);
    if (V.isVarying())
      AnyVarying = true;
    Mapped |= V.Params;
  });
  return Mapped;
}

const Expr *varyingArgument(ParamSet Params, const CallExpr *Call,
                            const FunctionUniformity &Caller, bool WithObject) {
  const Expr *Varying = nullptr;
  forEachBound(Params, Call, WithObject, [&](const Expr *Arg) {
    if (!Varying && Caller.valueOf(Arg).isVarying())
      Varying = Arg;
  });
  return Varying;
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

/// Returns what the caller sees of \p V when the callee hands it over at
/// \p St (a write through a parameter, a return): varying wherever the lanes
/// that get there may differ, since the other lanes keep the old value or
/// leave by another return.
static WarpValue handedOver(WarpValue V, const Stmt *St,
                            const FunctionUniformity &FU) {
  Divergence D = FU.divergenceAt(St);
  if (D.isDiverged())
    V = WarpValue::combine(V, D.asValue(St));
  V.Params |= D.ParamConditions;
  return V;
}

/// Records in \p S what \p FD writes through its reference and pointer
/// parameters at \p St: the value, made varying by divergence at the write.
static void recordParamWrites(const Stmt *St, const FunctionDecl *FD,
                              const FunctionUniformity &FU, WarpAnalysis &WA,
                              FunctionSummary &S) {
  auto Record = [&](const ParmVarDecl *P, WarpValue V) {
    unsigned I = P->getFunctionScopeIndex();
    if (I >= S.ParamWrites.size())
      return;
    V = handedOver(V, St, FU);
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
        Record(P, FU.asmValue(Asm));
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
      bool Ours =
          P->getType()->isPointerType() || writtenParameter(Args[I], FD);
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
  llvm::SmallVector<SummaryFacet *, FacetKinds> Facets;
  for (unsigned K = 0; K < FacetKinds; ++K)
    if (this->Facets & facetBit(FacetKind(K))) {
      S.Facets[K] = makeFacet(FacetKind(K));
      Facets.push_back(S.Facets[K].get());
    }
  SummaryWalk Walk{FD, FU, *this};
  bool SawReturn = false;
  FU.forEachStmt([&](const Stmt *St) {
    recordParamWrites(St, FD, FU, *this, S);
    if (const auto *Ret = dyn_cast<ReturnStmt>(St)) {
      // `if (lane < n) return true; return false;`: the value each return
      // hands over is uniform, which one a lane takes is not.
      if (const Expr *V = Ret->getRetValue()) {
        WarpValue R = handedOver(FU.valueOf(V), Ret, FU);
        S.Result = SawReturn ? WarpValue::join(S.Result, R) : R;
        SawReturn = true;
      }
      return;
    }
    if (std::optional<CollectiveUse> Use = matchCollective(St)) {
      if (!S.Synchronizes)
        S.Synchronizes = St;
      Divergence D = FU.divergenceAt(St);
      for (SummaryFacet *F : Facets)
        F->collective(St, *Use, D, Walk);
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(St);
    if (!Call)
      return;
    if (!S.Synchronizes && isBarrierName(calleeName(Call)))
      S.Synchronizes = St;
    if (std::optional<AtomicInfo> Atomic = matchAtomic(Call)) {
      Divergence D = FU.divergenceAt(Call);
      for (SummaryFacet *F : Facets)
        F->atomic(Call, *Atomic, D, Walk);
      return;
    }
    const FunctionDecl *Callee = calledDefinition(Call);
    if (!Callee)
      return;
    const FunctionSummary *CS = summary(Callee, argumentValues(Call, FU));
    if (!CS)
      return;
    if (!S.Synchronizes && CS->Synchronizes)
      S.Synchronizes = St;
    Divergence D = FU.divergenceAt(St);
    for (SummaryFacet *F : Facets)
      F->call(Call, *CS, D, Walk);
  });
  FU.forgetExpressionValues();
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
  R.Params = {};
  for (unsigned I = 0; I < Args.size() && I < 64; ++I)
    if (V.Params.contains(I)) {
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
                         llvm::ArrayRef<WarpValue> Args,
                         const WarpValue *Object) {
  const FunctionDecl *Def = calledDefinition(Call);
  if (!Def)
    return std::nullopt;
  const FunctionSummary *S = summary(Def, Args);
  if (!S)
    return WarpValue::varying(Variance::Data, Call); // recursion
  WarpValue R = bindParameters(S->Result, Args, Call);
  // A view's `operator()(i)` or `data()` reads its members: per-lane views
  // (a tensor sliced at the lane's row) give per-lane results.
  if (Object && S->Result.Params.contains(ParamSet::ObjectIndex))
    R = WarpValue::combine(R, *Object);
  return R;
}

std::optional<ParamWrite>
WarpAnalysis::paramWrite(const CallExpr *Call, unsigned Param,
                         llvm::ArrayRef<WarpValue> Args) {
  const FunctionDecl *Def = calledDefinition(Call);
  const FunctionSummary *S = Def ? summary(Def, Args) : nullptr;
  if (!S || Param >= S->ParamWrites.size())
    return std::nullopt;
  ParamWrite W = S->ParamWrites[Param];
  if (W.Written)
    W.Value = bindParameters(W.Value, Args, Call);
  return W;
}

/// Whether \p Of holds a launch and every one has a block that \p Shape
/// accepts.
static bool everyLaunch(llvm::ArrayRef<KernelLaunch> Of,
                        llvm::function_ref<bool(const BlockShape &)> Shape) {
  return !Of.empty() && llvm::all_of(Of, [&](const KernelLaunch &L) {
    return Shape(L.Block);
  });
}

bool WarpAnalysis::launchedWarpAligned(const FunctionDecl *Kernel) {
  return everyLaunch(launchesOf(Kernel),
                     [](const BlockShape &B) { return B.warpAligned(); });
}

bool WarpAnalysis::launchedOneThreadPerBlock(const FunctionDecl *FD) {
  return FD->hasAttr<CUDAGlobalAttr>() &&
         everyLaunch(launchesOf(FD),
                     [](const BlockShape &B) { return B.oneThread(); });
}

llvm::ArrayRef<KernelLaunch> WarpAnalysis::launches() {
  if (!Launches) {
    // The callers walk sees every body, device code's launches included.
    if (!Entries)
      Entries.emplace(Ctx);
    Launches = findKernelLaunches(Ctx, Entries->launchesFromDevice());
    for (const KernelLaunch &L : *Launches)
      LaunchesByKernel[L.Kernel].push_back(L);
  }
  return *Launches;
}

llvm::ArrayRef<KernelLaunch>
WarpAnalysis::launchesOf(const FunctionDecl *Kernel) {
  (void)launches();
  auto It = LaunchesByKernel.find(Kernel->getCanonicalDecl());
  return It == LaunchesByKernel.end() ? llvm::ArrayRef<KernelLaunch>()
                                      : llvm::ArrayRef(It->second);
}

llvm::ArrayRef<BlockExtents>
WarpAnalysis::launchShapes(const FunctionDecl *FD) {
  const FunctionDecl *Key = FD->getCanonicalDecl();
  auto [It, New] = LaunchShapes.try_emplace(Key);
  if (!New)
    return It->second ? llvm::ArrayRef(*It->second)
                      : llvm::ArrayRef<BlockExtents>();
  std::vector<BlockExtents> Shapes;
  auto Add = [&Shapes](const BlockExtents &E) {
    if (!llvm::is_contained(Shapes, E))
      Shapes.push_back(E);
  };
  if (!FD->hasAttr<CUDAGlobalAttr>()) {
    // A helper's blocks are its callers'; one caller of unknown block (or
    // an unknown caller) leaves it any.
    std::optional<llvm::ArrayRef<UnknownCallers::CallSite>> Calls =
        onlyCalledAt(FD);
    bool Known = Calls && !Calls->empty();
    for (size_t I = 0; Known && I < Calls->size(); ++I) {
      const FunctionDecl *Caller = (*Calls)[I].Caller;
      llvm::ArrayRef<BlockExtents> Of =
          Caller ? launchShapes(Caller) : llvm::ArrayRef<BlockExtents>();
      Known = !Of.empty();
      llvm::for_each(Of, Add);
    }
    if (!Known)
      Shapes.clear();
  } else {
    for (const KernelLaunch &L : launchesOf(FD)) {
      const BlockShape &B = L.Block;
      std::optional<int64_t> Y = B.Y, Z = B.Z;
      if (B.OneDimensional)
        Y = Z = 1;
      if (!B.X || !Y || !Z || *B.X <= 0 || *Y <= 0 || *Z <= 0) {
        Shapes.clear(); // one launch the unit cannot size: any block
        break;
      }
      Add(BlockExtents{*B.X, *Y, *Z});
    }
  }
  // The map may have grown while the callers were asked.
  std::optional<std::vector<BlockExtents>> &Slot = LaunchShapes[Key];
  Slot = std::move(Shapes);
  return *Slot;
}

WarpValue WarpAnalysis::unfinishedCapture(const FunctionDecl *Owner,
                                          const VarDecl *VD) {
  ++UnfinishedReads;
  auto It = Partial.find(Owner);
  if (It == Partial.end() || isa<ParmVarDecl>(VD))
    return isa<ParmVarDecl>(VD) ? asCapture(WarpValue::param(0), Owner)
                                : WarpValue::uniform();
  auto V = It->second->find(VD);
  return asCapture(V == It->second->end() ? WarpValue::uniform() : V->second,
                   Owner);
}

std::optional<int64_t> WarpAnalysis::integerConstant(const Expr *E,
                                                     ASTContext &Ctx) {
  // What clang folds a variable's name to is what its declaration holds,
  // the same at every read (a capture is read through its lambda: not so).
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        VD && !Ref->refersToEnclosingVariableOrCapture()) {
      auto [It, Inserted] = VariableConstants.try_emplace(VD);
      if (Inserted)
        It->second = ValueOracle::integerConstant(E, Ctx);
      return It->second;
    }
  auto [It, Inserted] = Constants.try_emplace(E);
  if (Inserted)
    It->second = ValueOracle::integerConstant(E, Ctx);
  return It->second;
}

WarpValue WarpAnalysis::capturedValue(const VarDecl *VD) {
  const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!Owner)
    return WarpValue::uniform();
  if (InProgress.contains(Owner)) {
    // Read the value reached so far; the owner's fixpoint calls again.
    WarpValue R = unfinishedCapture(Owner, VD);
    PartialReads.push_back({Owner, VD, R});
    return R;
  }
  const FunctionUniformity *FU = function(Owner);
  if (!FU)
    return WarpValue::uniform();
  WarpValue V = isa<ParmVarDecl>(VD) && !Owner->hasAttr<CUDAGlobalAttr>()
                    ? WarpValue::param(0)
                    : FU->valueOf(VD);
  return asCapture(V, Owner);
}

WarpValue WarpAnalysis::asCapture(WarpValue V, const FunctionDecl *Owner) {
  // What the owner's callers decide reaches the lambda through its closure
  // object: the callers of the lambda (and theirs, down to the owner's)
  // bind it (`run([&] { atomicAdd(&c[key], 1); })` with a per-lane key). A
  // kernel has no callers: its parameters are the same in every lane.
  if (V.Params && !Owner->hasAttr<CUDAGlobalAttr>())
    V.Params = ParamSet::of(ParamSet::ObjectIndex);
  else
    V.Params = {};
  return V;
}

} // namespace clang::warp
