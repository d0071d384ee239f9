//===--- KernelLaunches.cpp - block shapes of kernel launches -------------===//

#include "KernelLaunches.h"
#include "WarpCollectives.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

namespace clang::warp {

namespace {

/// How deep block expressions are followed through variables, parameters
/// and constructors.
constexpr unsigned MaxDepth = 8;

/// The shape two launches (or two call sites of a helper) both show.
BlockShape meet(const BlockShape &A, const BlockShape &B) {
  BlockShape R;
  R.X = A.X == B.X ? A.X : std::nullopt;
  R.Y = A.Y == B.Y ? A.Y : std::nullopt;
  R.Z = A.Z == B.Z ? A.Z : std::nullopt;
  R.XWarpMultiple = A.XWarpMultiple && B.XWarpMultiple;
  R.OneDimensional = A.OneDimensional && B.OneDimensional;
  return R;
}

std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || E->getType().isNull() ||
      !E->getType()->isIntegralOrEnumerationType() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// Whether \p E is a multiple of 32 by construction: a constant one, or a
/// product with such a factor (`32 * nwarps`, `kWarpSize * rows`).
bool isWarpMultiple(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (std::optional<int64_t> C = constantOf(E, Ctx))
    return *C != 0 && *C % 32 == 0;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->getOpcode() == BO_Mul)
      return isWarpMultiple(BO->getLHS(), Ctx) ||
             isWarpMultiple(BO->getRHS(), Ctx);
  return false;
}

/// Whether \p FD runs on the device only (a kernel or a __device__
/// function): it can call no host function.
bool isDeviceOnly(const FunctionDecl *FD) {
  return FD->hasAttr<CUDAGlobalAttr>() ||
         (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>());
}

/// Collects the launches, the calls of every function and the enclosing
/// function of each launch, in one walk over the translation unit.
class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
public:
  /// With \p SkipDeviceCode, device-only functions are not walked (see
  /// findKernelLaunches).
  LaunchCollector(const SourceManager &SM, bool SkipDeviceCode)
      : SM(SM), SkipDeviceCode(SkipDeviceCode) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    // The toolkit's and other system headers launch their own kernels, not
    // the user's: their (often huge) template instances are not walked.
    if (D && !isa<TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    // Kernel bodies are most of a unit's code.
    if (FD && SkipDeviceCode && isDeviceOnly(FD))
      return true;
    if (FD)
      Enclosing.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Enclosing.pop_back();
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    Enclosing.push_back(L->getCallOperator());
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Enclosing.pop_back();
    return Result;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Enclosing.empty() || Enclosing.back()->isDependentContext())
      return true; // template patterns: their instantiations are walked
    if (auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
      Launches.push_back({Launch, Enclosing.back()});
      return true;
    }
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      Calls[Callee->getCanonicalDecl()].push_back({Call, Enclosing.back()});
      if (std::optional<LaunchApi> Api = lookupLaunchApi(calleeName(Call)))
        ApiLaunches.push_back({Call, Enclosing.back(), *Api});
    }
    return true;
  }

  const SourceManager &SM;
  const bool SkipDeviceCode;
  std::vector<const FunctionDecl *> Enclosing;
  std::vector<std::pair<const CUDAKernelCallExpr *, const FunctionDecl *>>
      Launches;
  struct ApiLaunch {
    const CallExpr *Call;
    const FunctionDecl *Enclosing;
    LaunchApi Api;
  };
  std::vector<ApiLaunch> ApiLaunches;
  /// By callee: its calls, each with the function it is written in.
  llvm::DenseMap<const FunctionDecl *,
                 std::vector<std::pair<const CallExpr *, const FunctionDecl *>>>
      Calls;
};

/// `block.x = v`: an extent of local `block` set after its construction,
/// as a statement of its own in a block.
struct MemberWrite {
  const VarDecl *Var;
  StringRef Member;
  const BinaryOperator *Assign;
  const CompoundStmt *Block = nullptr; ///< the block it is a statement of
};

/// The locals of one function that change after their initialisation.
struct WrittenLocals {
  /// Written in a way whose value is not followed.
  llvm::DenseSet<const VarDecl *> Vars;
  /// Members assigned by statements of their own, in source order.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<MemberWrite, 2>>
      MemberWrites;
};

/// An argument bound to a parameter, with the call and the caller.
struct Binding {
  const Expr *Arg;
  const CallExpr *Call;
  const FunctionDecl *Caller;
};

class ShapeResolver {
public:
  ShapeResolver(ASTContext &Ctx, const LaunchCollector &Walk)
      : Ctx(Ctx), Walk(Walk) {}

  /// The shape of block expression \p E, written in \p F; a parameter of F
  /// takes its argument at \p Site when that calls F, else what every call of
  /// F passes.
  std::optional<BlockShape> shape(const Expr *E, const FunctionDecl *F,
                                  const CallExpr *Site, unsigned Depth = 0);

  /// The values the x extent of block expression \p E (written in \p F,
  /// read at \p At) can take, where host code bounds them.
  ExtentValues xValues(const Expr *E, const FunctionDecl *F,
                       const CallExpr *Site, SourceLocation At,
                       unsigned Depth = 0);

  /// The arguments bound to parameter \p P of \p F at \p Site, or at every
  /// call of F when \p Site does not call it.
  std::vector<Binding> argumentsOf(const ParmVarDecl *P, const FunctionDecl *F,
                                   const CallExpr *Site) const;

private:
  std::optional<BlockShape> fromConstruct(const CXXConstructExpr *Construct,
                                          const FunctionDecl *F,
                                          const CallExpr *Site, unsigned Depth);
  std::optional<BlockShape> fromMember(const MemberExpr *ME,
                                       const FunctionDecl *F,
                                       const CallExpr *Site, unsigned Depth);
  /// The constructor call that makes the object \p E names, with the
  /// function it is written in.
  std::pair<const CXXConstructExpr *, const FunctionDecl *>
  constructionOf(const Expr *E, const FunctionDecl *F, const CallExpr *Site,
                 unsigned Depth);
  /// Whether local \p VD keeps the value it was initialised with, but for
  /// the extents set in straight-line code (memberWrites).
  bool neverWritten(const VarDecl *VD, const FunctionDecl *F);
  /// \p S with the extents that \p VD's straight-line member writes set
  /// before \p At.
  BlockShape withMemberWrites(BlockShape S, const VarDecl *VD,
                              SourceLocation At) const;

  ASTContext &Ctx;
  const LaunchCollector &Walk;
  llvm::DenseMap<const FunctionDecl *, WrittenLocals> Written;
};

/// Returns the local variable \p E names (through `&` and `*`-free casts).
const VarDecl *namedVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Returns the local and the member `block.x = v` assigns, when \p S is
/// such an assignment.
std::optional<MemberWrite> memberWrite(const Stmt *S) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || !BO->isAssignmentOp())
    return std::nullopt;
  const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
  if (!ME || ME->isArrow() || !ME->getMemberDecl()->getIdentifier())
    return std::nullopt;
  const VarDecl *VD = namedVar(ME->getBase());
  if (!VD || !VD->hasLocalStorage())
    return std::nullopt;
  return MemberWrite{VD, ME->getMemberDecl()->getName(), BO};
}

void collectWritten(const Stmt *S, WrittenLocals &Out);

/// The statements of block \p CS: `block.x = 32;` as a statement of its
/// own runs whenever the block's later statements do, so it is recorded as
/// a member write (see withMemberWrites), not as a write that makes the
/// local unknown.
void collectWrittenInBlock(const CompoundStmt *CS, WrittenLocals &Out) {
  for (const Stmt *Child : CS->body()) {
    if (std::optional<MemberWrite> W = memberWrite(Child)) {
      W->Block = CS;
      Out.MemberWrites[W->Var].push_back(*W);
      collectWritten(W->Assign->getRHS(), Out);
      continue;
    }
    collectWritten(Child, Out);
  }
}

/// Records in \p Out the locals of \p Body that are written after their
/// initialisation: assigned, incremented, their address taken, bound to a
/// non-const reference or used as the object of a non-const member call.
void collectWritten(const Stmt *S, WrittenLocals &Out) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return collectWrittenInBlock(CS, Out);
  auto Root = [](const Expr *E) -> const VarDecl * {
    E = E->IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    return namedVar(E);
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *VD = Root(BO->getLHS()))
        Out.Vars.insert(VD);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *VD = Root(UO->getSubExpr()))
        Out.Vars.insert(VD);
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      if (const VarDecl *VD = Root(Op->getArg(0)))
        Out.Vars.insert(VD);
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    if (const auto *MD = MC->getMethodDecl(); MD && !MD->isConst())
      if (const Expr *Obj = MC->getImplicitObjectArgument())
        if (const VarDecl *VD = Root(Obj))
          Out.Vars.insert(VD);
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
           ++I) {
        QualType T = Callee->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          if (const VarDecl *VD = Root(Call->getArg(I)))
            Out.Vars.insert(VD);
      }
  for (const Stmt *Child : S->children())
    collectWritten(Child, Out);
}

bool ShapeResolver::neverWritten(const VarDecl *VD, const FunctionDecl *F) {
  if (VD->getType().isConstQualified())
    return true;
  if (!F || !F->getBody())
    return false;
  auto [It, New] = Written.try_emplace(F);
  if (New)
    collectWritten(F->getBody(), It->second);
  return !It->second.Vars.contains(VD);
}

BlockShape ShapeResolver::withMemberWrites(BlockShape S, const VarDecl *VD,
                                           SourceLocation At) const {
  const FunctionDecl *F = dyn_cast<FunctionDecl>(VD->getDeclContext());
  auto It = F ? Written.find(F) : Written.end();
  if (It == Written.end())
    return S;
  auto Writes = It->second.MemberWrites.find(VD);
  if (Writes == It->second.MemberWrites.end())
    return S;
  const SourceManager &SM = Ctx.getSourceManager();
  // In source order: a write in a block that also holds the launch, before
  // it, runs whenever the launch does and sets the extent; one in a block
  // the launch is not in (a branch) may or may not have run: unknown, until
  // a later write that does run sets it again.
  for (const MemberWrite &W : Writes->second) {
    if (!SM.isBeforeInTranslationUnit(W.Assign->getBeginLoc(), At))
      continue;
    bool Runs = SM.isBeforeInTranslationUnit(W.Block->getLBracLoc(), At) &&
                SM.isBeforeInTranslationUnit(At, W.Block->getRBracLoc());
    // `block.x /= 4` leaves the extent unknown.
    bool Set = Runs && W.Assign->getOpcode() == BO_Assign;
    const Expr *Value = W.Assign->getRHS();
    std::optional<int64_t> V =
        Set ? constantOf(Value, Ctx) : std::optional<int64_t>();
    if (W.Member == "x") {
      S.X = V;
      S.XWarpMultiple = Set && isWarpMultiple(Value, Ctx);
    } else if (W.Member == "y") {
      S.Y = V;
    } else if (W.Member == "z") {
      S.Z = V;
    }
  }
  S.OneDimensional = S.Y == 1 && S.Z == 1;
  return S;
}

std::vector<Binding> ShapeResolver::argumentsOf(const ParmVarDecl *P,
                                                const FunctionDecl *F,
                                                const CallExpr *Site) const {
  std::vector<Binding> Out;
  unsigned Index = P->getFunctionScopeIndex();
  // A call of a member operator (a lambda) passes the object first.
  unsigned Shift =
      isa<CXXMethodDecl>(F) && !cast<CXXMethodDecl>(F)->isStatic() ? 1 : 0;
  auto It = Walk.Calls.find(F->getCanonicalDecl());
  if (It == Walk.Calls.end())
    return Out;
  for (auto [Call, Caller] : It->second) {
    if (Site && Call != Site)
      continue;
    unsigned I = Index + (isa<CXXOperatorCallExpr>(Call) ? Shift : 0);
    if (I < Call->getNumArgs())
      Out.push_back({Call->getArg(I), Call, Caller});
  }
  return Out;
}

std::pair<const CXXConstructExpr *, const FunctionDecl *>
ShapeResolver::constructionOf(const Expr *E, const FunctionDecl *F,
                              const CallExpr *Site, unsigned Depth) {
  if (Depth > MaxDepth)
    return {nullptr, nullptr};
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getConstructor()->isCopyOrMoveConstructor() &&
        Construct->getNumArgs() == 1)
      return constructionOf(Construct->getArg(0), F, Site, Depth + 1);
    return {Construct, F};
  }
  const VarDecl *VD = namedVar(E);
  if (!VD)
    return {nullptr, nullptr};
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    std::vector<Binding> Args = argumentsOf(P, F, Site);
    // One call site only: several could construct different objects.
    if (Args.size() != 1)
      return {nullptr, nullptr};
    return constructionOf(Args.front().Arg, Args.front().Caller, nullptr,
                          Depth + 1);
  }
  if (VD->hasLocalStorage() && VD->getInit() && neverWritten(VD, F))
    return constructionOf(VD->getInit(), F, Site, Depth + 1);
  return {nullptr, nullptr};
}

std::optional<BlockShape> ShapeResolver::fromMember(const MemberExpr *ME,
                                                    const FunctionDecl *F,
                                                    const CallExpr *Site,
                                                    unsigned Depth) {
  // `params.block_dims`, where params was built by a constructor that
  // initialises the member from one of its arguments.
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Field || ME->isArrow())
    return std::nullopt;
  auto [Construct, Where] = constructionOf(ME->getBase(), F, Site, Depth + 1);
  if (!Construct)
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!Construct->getConstructor()->hasBody(Def) || !Def)
    return std::nullopt;
  for (const CXXCtorInitializer *Init :
       cast<CXXConstructorDecl>(Def)->inits()) {
    if (Init->getMember() != Field)
      continue;
    const Expr *Value = Init->getInit()->IgnoreImplicit();
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(Value);
        Copy && Copy->getNumArgs() == 1)
      Value = Copy->getArg(0);
    const auto *Param = dyn_cast_or_null<ParmVarDecl>(namedVar(Value));
    if (!Param || Param->getDeclContext() != Def)
      return shape(Value, Def, nullptr, Depth + 1);
    unsigned Index = Param->getFunctionScopeIndex();
    if (Index >= Construct->getNumArgs())
      return std::nullopt;
    return shape(Construct->getArg(Index), Where, nullptr, Depth + 1);
  }
  return std::nullopt;
}

std::optional<BlockShape>
ShapeResolver::fromConstruct(const CXXConstructExpr *Construct,
                             const FunctionDecl *F, const CallExpr *Site,
                             unsigned Depth) {
  if (Construct->getConstructor()->isCopyOrMoveConstructor() &&
      Construct->getNumArgs() == 1)
    return shape(Construct->getArg(0), F, Site, Depth + 1);
  // dim3(x, y = 1, z = 1)
  unsigned N = Construct->getNumArgs();
  if (N < 1 || N > 3)
    return std::nullopt;
  const Expr *X = Construct->getArg(0)->IgnoreImplicit();
  if (X->getType().isNull() || !X->getType()->isIntegerType())
    return std::nullopt;
  BlockShape S;
  auto Extent = [&](unsigned I) -> std::optional<int64_t> {
    if (I >= N || isa<CXXDefaultArgExpr>(Construct->getArg(I)))
      return 1;
    return constantOf(Construct->getArg(I), Ctx);
  };
  S.X = Extent(0);
  S.Y = Extent(1);
  S.Z = Extent(2);
  S.XWarpMultiple = isWarpMultiple(X, Ctx);
  S.OneDimensional = S.Y == 1 && S.Z == 1;
  return S;
}

std::optional<BlockShape> ShapeResolver::shape(const Expr *E,
                                               const FunctionDecl *F,
                                               const CallExpr *Site,
                                               unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreImplicit(); // dim3(n)
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return fromConstruct(Construct, F, Site, Depth);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return fromMember(ME, F, Site, Depth);
  if (const VarDecl *VD = namedVar(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      if (!F)
        F = dyn_cast<FunctionDecl>(P->getDeclContext());
      if (!F)
        return std::nullopt;
      std::optional<BlockShape> Met;
      for (const Binding &B : argumentsOf(P, F, Site)) {
        std::optional<BlockShape> S =
            shape(B.Arg, B.Caller, nullptr, Depth + 1);
        if (!S)
          return std::nullopt;
        Met = Met ? meet(*Met, *S) : *S;
      }
      return Met;
    }
    if (VD->hasLocalStorage() && VD->getInit() && neverWritten(VD, F)) {
      // Extents written later may tell what the initializer does not.
      std::optional<BlockShape> S = shape(VD->getInit(), F, Site, Depth + 1);
      return withMemberWrites(S.value_or(BlockShape()), VD, E->getBeginLoc());
    }
    return std::nullopt;
  }
  if (!E->getType().isNull() && E->getType()->isIntegerType()) {
    BlockShape S;
    S.X = constantOf(E, Ctx);
    S.XWarpMultiple = isWarpMultiple(E, Ctx);
    S.OneDimensional = true;
    return S;
  }
  return std::nullopt;
}

ExtentValues ShapeResolver::xValues(const Expr *E, const FunctionDecl *F,
                                    const CallExpr *Site, SourceLocation At,
                                    unsigned Depth) {
  if (!E || !F || Depth > MaxDepth)
    return {};
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreImplicit();
  // dim3(x, …), the conversion of an integer to dim3, and copies.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0 ||
        isa<CXXDefaultArgExpr>(Construct->getArg(0)))
      return {};
    return xValues(Construct->getArg(0), F, Site, At, Depth + 1);
  }
  if (const VarDecl *VD = namedVar(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      std::vector<Binding> Args = argumentsOf(P, F, Site);
      if (Args.size() == 1)
        return xValues(Args.front().Arg, Args.front().Caller, nullptr,
                       Args.front().Call->getBeginLoc(), Depth + 1);
    } else if (E->getType().isNull() || !E->getType()->isIntegerType()) {
      // A local dim3 kept as constructed.
      bool Kept = VD->hasLocalStorage() && VD->getInit() && neverWritten(VD, F);
      auto It = Written.find(F);
      if (Kept && It != Written.end() && !It->second.MemberWrites.count(VD))
        return xValues(VD->getInit(), F, Site, At, Depth + 1);
      return {};
    }
  }
  if (E->getType().isNull() || !E->getType()->isIntegerType())
    return {};
  return extentValues(E, F, At, Ctx);
}

/// Returns the kernel \p E names (`k`, `&k`, `k<T>`), if any.
/// Returns the kernel \p E names (`k`, `&k`, `(void *)k`, `k<T>`, a local
/// `auto kernel = k<T>;`), if any.
const FunctionDecl *kernelNamed(const Expr *E, unsigned Depth = 0) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
    return VD->hasLocalStorage() && VD->getInit() && Depth < 4
               ? kernelNamed(VD->getInit(), Depth + 1)
               : nullptr;
  const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
  return FD && FD->hasAttr<CUDAGlobalAttr>() ? FD : nullptr;
}

/// The block a cudaLaunchConfig_t local gets in \p F: its one assignment
/// `cfg.blockDim = b`, or its initializer's blockDim field.
const Expr *configBlock(const Expr *ConfigPtr, const FunctionDecl *F) {
  const Expr *E = ConfigPtr->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr();
  const VarDecl *Config = namedVar(E);
  if (!Config || !F || !F->getBody())
    return nullptr;
  const Expr *Found = nullptr;
  unsigned Writes = 0;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    // `cfg.blockDim = b`: a dim3 assignment is a call of its operator=.
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign)
      std::tie(LHS, RHS) = std::make_pair(BO->getLHS(), BO->getRHS());
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      std::tie(LHS, RHS) = std::make_pair(Op->getArg(0), Op->getArg(1));
    if (LHS)
      if (const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts()))
        if (namedVar(ME->getBase()) == Config &&
            ME->getMemberDecl()->getName() == launchConfigBlockField()) {
          Found = RHS;
          ++Writes;
        }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(F->getBody());
  if (Writes == 1)
    return Found;
  if (Writes == 0 && Config->getInit())
    if (const auto *ILE =
            dyn_cast<InitListExpr>(Config->getInit()->IgnoreImplicit()))
      if (const RecordDecl *RD = ILE->getType()->getAsRecordDecl())
        for (const FieldDecl *Field : RD->fields())
          if (Field->getName() == launchConfigBlockField() &&
              Field->getFieldIndex() < ILE->getNumInits())
            return ILE->getInit(Field->getFieldIndex());
  return nullptr;
}

} // namespace

bool launchesFromDevice(const CallExpr *Call, const FunctionDecl *In) {
  if (!isa<CUDAKernelCallExpr>(Call) &&
      !(Call->getDirectCallee() && lookupLaunchApi(calleeName(Call))))
    return false;
  // Clang makes lambdas without attributes (BOOL_SWITCH's dispatch lambdas,
  // which launch) and constexpr functions host-device implicitly: such a
  // lambda is called by the code that holds it. Only a function written
  // for the device, or code nested in one, launches from the device.
  for (const DeclContext *DC = In; DC; DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      const auto *Device = FD->getAttr<CUDADeviceAttr>();
      if (FD->hasAttr<CUDAGlobalAttr>() || (Device && !Device->isImplicit()))
        return true;
    }
  return false;
}

std::vector<KernelLaunch> findKernelLaunches(ASTContext &Ctx,
                                             bool DeviceCodeLaunches) {
  // Device-only code matters here only through its launches and its calls,
  // and its calls reach only functions device code may call. When none of
  // those launches (no dynamic parallelism), nothing device code calls
  // leads to a launch, and its bodies, most of a unit, need no walk. (A
  // host-device function that calls a launching host function cannot be
  // called from device code: that build fails.)
  LaunchCollector Walk(Ctx.getSourceManager(),
                       /*SkipDeviceCode=*/!DeviceCodeLaunches);
  Walk.TraverseDecl(Ctx.getTranslationUnitDecl());
  ShapeResolver Resolver(Ctx, Walk);
  std::vector<KernelLaunch> Out;
  for (auto [Launch, F] : Walk.Launches) {
    const CallExpr *Config = Launch->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      continue;
    const Expr *Block = Config->getArg(1);
    if (const FunctionDecl *Kernel = Launch->getDirectCallee();
        Kernel && Kernel->hasAttr<CUDAGlobalAttr>()) {
      std::optional<BlockShape> S = Resolver.shape(Block, F, nullptr);
      Out.push_back(
          {Kernel->getCanonicalDecl(), Launch, S.value_or(BlockShape())});
      if (!Out.back().Block.X)
        Out.back().XValues =
            Resolver.xValues(Block, F, nullptr, Launch->getBeginLoc());
      continue;
    }
    // `kernel<<<…>>>` where kernel is a parameter of a launch helper: each
    // call of the helper launches the kernel it passes.
    const auto *Param =
        dyn_cast_or_null<ParmVarDecl>(namedVar(Launch->getCallee()));
    if (!Param)
      continue;
    for (const Binding &B : Resolver.argumentsOf(Param, F, nullptr))
      if (const FunctionDecl *Kernel = kernelNamed(B.Arg)) {
        std::optional<BlockShape> S = Resolver.shape(Block, F, B.Call);
        Out.push_back(
            {Kernel->getCanonicalDecl(), B.Call, S.value_or(BlockShape())});
        if (!Out.back().Block.X)
          Out.back().XValues =
              Resolver.xValues(Block, F, B.Call, Launch->getBeginLoc());
      }
  }
  // cudaLaunchKernel(kernel, grid, block, …), cudaLaunchKernelEx(&cfg, …).
  for (const LaunchCollector::ApiLaunch &L : Walk.ApiLaunches) {
    unsigned N = L.Call->getNumArgs();
    if (L.Api.KernelArg >= N)
      continue;
    const FunctionDecl *Kernel = kernelNamed(L.Call->getArg(L.Api.KernelArg));
    if (!Kernel)
      continue;
    const Expr *Block =
        L.Api.BlockArg >= 0 && unsigned(L.Api.BlockArg) < N
            ? L.Call->getArg(L.Api.BlockArg)
        : L.Api.ConfigArg >= 0 && unsigned(L.Api.ConfigArg) < N
            ? configBlock(L.Call->getArg(L.Api.ConfigArg), L.Enclosing)
            : nullptr;
    std::optional<BlockShape> S =
        Block ? Resolver.shape(Block, L.Enclosing, nullptr) : std::nullopt;
    Out.push_back(
        {Kernel->getCanonicalDecl(), L.Call, S.value_or(BlockShape())});
  }
  return Out;
}

} // namespace clang::warp
