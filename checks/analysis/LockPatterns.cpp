//===--- LockPatterns.cpp - spin locks taken and released -----------------===//

#include "LockPatterns.h"
#include "WarpAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::warp {

/// Returns the integer value of \p E if it is a constant; inside a wrapper
/// called by \p Through, a parameter of the wrapper takes the constant its
/// call passes (`cas(lock, UNSET, SET)` around `atomicCAS(p, c, v)`).
static std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx,
                                         const CallExpr *Through = nullptr) {
  if (Through)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
          P && P->getDeclContext() == Through->getDirectCallee() &&
          P->getFunctionScopeIndex() < Through->getNumArgs())
        return constantOf(Through->getArg(P->getFunctionScopeIndex()), Ctx);
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// The value an atomic writes, if it is a constant.
static std::optional<int64_t>
writtenConstant(const AtomicInfo &Info, ASTContext &Ctx,
                const CallExpr *Through = nullptr) {
  if (!Info.Value)
    return Info.ImpliedValue;
  return constantOf(Info.Value, Ctx, Through);
}

/// Returns the lock \p Call takes, if it takes one: atomicCAS(p, FREE, HELD)
/// with two different constants, atomicExch(p, HELD) with a constant, and
/// libcu++'s compare_exchange_*(expected, HELD), exchange(HELD) and
/// test_and_set(). A CAS that writes a computed value is a lock-free retry
/// loop, not a lock.
const Expr *lockTaken(const CallExpr *Call, ASTContext &Ctx,
                      const CallExpr *Through) {
  std::optional<AtomicInfo> Info = matchAtomic(Call);
  if (!Info)
    return nullptr;
  std::optional<int64_t> Held = writtenConstant(*Info, Ctx, Through);
  if (Info->Op == AtomicOp::CAS) {
    // compare_exchange takes `expected` by reference: a variable.
    std::optional<int64_t> Free =
        Info->Member ? std::nullopt : constantOf(Info->Compare, Ctx, Through);
    return Held && (Info->Member || (Free && *Free != *Held)) ? Info->Address
                                                              : nullptr;
  }
  // atomicExch(l, 1), and the test-and-set atomicOr(l, 1).
  return (Info->Op == AtomicOp::Exch || Info->Op == AtomicOp::Or) &&
                 Held.value_or(0) != 0
             ? Info->Address
             : nullptr;
}

/// Returns whether \p A and \p B spell the same lock address.
static bool sameLock(const Expr *A, const Expr *B, ASTContext &Ctx) {
  // `*(volatile int *)lock = 0` releases `lock`.
  return sameExpr(A->IgnoreParenCasts(), B->IgnoreParenCasts(), Ctx);
}

/// Returns whether \p S releases \p Lock: atomicExch(lock, 0), a CAS back to
/// free, an atomic store of 0, or a plain store of 0 through the lock.
static bool isRelease(const Stmt *S, const Expr *Lock, ASTContext &Ctx) {
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    std::optional<AtomicInfo> Info = matchAtomic(Call);
    if (!Info || !sameLock(Info->Address, Lock, Ctx))
      return false;
    // atomicExch(l, 0), a CAS back to 0, l.store(0), flag.clear(), and the
    // test-and-set's atomicAnd(l, ~1) that clears the bit.
    return ((Info->Op == AtomicOp::Exch || Info->Op == AtomicOp::CAS ||
             Info->Op == AtomicOp::Store) &&
            writtenConstant(*Info, Ctx) == 0) ||
           Info->Op == AtomicOp::And;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->getOpcode() == BO_Assign && constantOf(BO->getRHS(), Ctx) == 0)
      if (const auto *UO =
              dyn_cast<UnaryOperator>(BO->getLHS()->IgnoreParenImpCasts()))
        return UO->getOpcode() == UO_Deref &&
               sameLock(UO->getSubExpr(), Lock, Ctx);
  return false;
}

/// Returns whether the release \p S orders the writes before it by itself:
/// a libcu++ store or exchange, whose memory order is seq_cst unless it says
/// memory_order_relaxed (the intrinsics are relaxed and need a fence).
bool isOrderedRelease(const Stmt *S) {
  const auto *Call = dyn_cast<CallExpr>(S);
  std::optional<AtomicInfo> Info = Call ? matchAtomic(Call) : std::nullopt;
  if (!Info || !Info->Member)
    return false;
  for (const Expr *Arg : Call->arguments()) {
    const Expr *E = Arg;
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      E = Default->getExpr();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (Ref->getDecl()->getName().contains("relaxed"))
        return false;
  }
  return true;
}

/// Returns the release of \p Lock inside \p S, if any.
const Stmt *findRelease(const Stmt *S, const Expr *Lock, ASTContext &Ctx) {
  const Stmt *Found = nullptr;
  walkStmts(S, [&](const Stmt *X) {
    if (!Found && isRelease(X, Lock, Ctx))
      Found = X;
  });
  return Found;
}

/// Returns the lock take inside a try-lock helper called by \p Call (e.g.
/// `bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }`) and the
/// argument of \p Call that is the lock.
std::pair<const CallExpr *, const Expr *> tryLockTake(const CallExpr *Call,
                                                      ASTContext &Ctx) {
  const FunctionDecl *Callee = calledDefinition(Call);
  if (!Callee)
    return {};
  std::pair<const CallExpr *, const Expr *> Found;
  walkStmts(Callee->getBody(), [&](const Stmt *S) {
    const auto *Inner = dyn_cast<CallExpr>(S);
    const Expr *Lock = Inner ? lockTaken(Inner, Ctx, Call) : nullptr;
    if (Found.first || !Lock)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Lock->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (P->getFunctionScopeIndex() < Call->getNumArgs())
          Found = {Inner, Call->getArg(P->getFunctionScopeIndex())};
  });
  return Found;
}

/// Returns the variables \p S assigns, increments or declares.
static llvm::SmallPtrSet<const VarDecl *, 4> writtenIn(const Stmt *S) {
  llvm::SmallPtrSet<const VarDecl *, 4> Out;
  auto Root = [](const Expr *E) -> const VarDecl * {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  };
  walkStmts(S, [&](const Stmt *X) {
    if (const auto *BO = dyn_cast<BinaryOperator>(X);
        BO && BO->isAssignmentOp())
      if (const VarDecl *VD = Root(BO->getLHS()))
        Out.insert(VD);
    if (const auto *UO = dyn_cast<UnaryOperator>(X);
        UO && UO->isIncrementDecrementOp())
      if (const VarDecl *VD = Root(UO->getSubExpr()))
        Out.insert(VD);
    if (const auto *DS = dyn_cast<DeclStmt>(X))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          Out.insert(VD);
  });
  return Out;
}

/// Returns whether \p Lock names the same lock on every trip of \p Loop: no
/// variable it reads changes inside the loop. `atomicCAS(&lock[row], 0, 1)`
/// in a loop over rows claims each row once: a bounded claim, not a spin.
static bool sameLockEveryTrip(const Expr *Lock, const Stmt *Loop) {
  llvm::SmallPtrSet<const VarDecl *, 4> Written = writtenIn(Loop);
  bool Changes = false;
  walkStmts(Lock, [&](const Stmt *X) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Changes |= Written.contains(VD);
  });
  return !Changes;
}

/// The condition of a while, do or for loop; null for `for (;;)`.
static const Expr *loopCondition(const Stmt *Loop) {
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getCond();
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getCond();
  return nullptr;
}

/// Returns whether \p S contains \p Target.
static bool contains(const Stmt *S, const Stmt *Target) {
  bool Found = false;
  walkStmts(S, [&](const Stmt *X) { Found |= X == Target; });
  return Found;
}

/// Whether \p Loop keeps going on what \p Take returns: the take is in the
/// loop's condition, or in the condition of an `if` that leaves the loop
/// (`if (atomicCAS(l, 0, 1) == 0) break;`). An atomic whose result the loop
/// ignores (`atomicOr(&overflow, 1)` in a loop over elements) is no spin.
static bool spinsOnResult(const CallExpr *Take, const Stmt *Loop) {
  // The variables the result is kept in (`old = atomicCAS(...)`).
  llvm::SmallPtrSet<const VarDecl *, 2> Carriers;
  walkStmts(Loop, [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && contains(BO->getRHS(), Take))
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Carriers.insert(VD);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getInit() && contains(VD->getInit(), Take))
          Carriers.insert(VD);
  });
  auto Reads = [&](const Stmt *Cond) {
    bool Found = false;
    walkStmts(Cond, [&](const Stmt *X) {
      if (X == Take)
        Found = true;
      else if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
        Found |= Carriers.contains(dyn_cast<VarDecl>(DRE->getDecl()));
    });
    return Found;
  };
  const Stmt *Cond = loopCondition(Loop);
  if (Cond && Reads(Cond))
    return true;
  bool Exits = false;
  walkStmts(Loop, [&](const Stmt *S) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || Exits || !Reads(If->getCond()))
      return;
    walkStmts(If, [&](const Stmt *X) {
      Exits |= isa<BreakStmt, ReturnStmt, GotoStmt>(X);
    });
  });
  return Exits;
}

/// Whether a test-and-set \p Take (`atomicOr(l, 1)`) spins on the bits it
/// sets: `while (atomicOr(l, 2) & 1)` waits for another thread's flag while
/// setting its own, which is no lock. Other takes always do.
static bool testsBitsItSets(const CallExpr *Take, const Stmt *Loop,
                            ASTContext &Ctx) {
  std::optional<AtomicInfo> Info = matchAtomic(Take);
  if (!Info || Info->Op != AtomicOp::Or)
    return true;
  std::optional<int64_t> Set = writtenConstant(*Info, Ctx);
  const Expr *Cond = loopCondition(Loop);
  bool Ok = true;
  walkStmts(Cond, [&](const Stmt *S) {
    const auto *And = dyn_cast<BinaryOperator>(S);
    if (!And || And->getOpcode() != BO_And)
      return;
    for (auto [Side, Other] : {std::pair(And->getLHS(), And->getRHS()),
                               std::pair(And->getRHS(), And->getLHS())})
      if (Side->IgnoreParenImpCasts() == Take)
        if (std::optional<int64_t> Tested = constantOf(Other, Ctx))
          Ok = Set && (*Tested & *Set) != 0;
  });
  return Ok;
}

std::optional<LockAcquire>
spinAcquire(const Stmt *Loop, ASTContext &Ctx,
            llvm::function_ref<bool(const CallExpr *)> MayTake) {
  const CallExpr *Take = nullptr, *TakeSite = nullptr;
  const Expr *Lock = nullptr;
  walkStmts(Loop, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Take || !Call || !MayTake(Call))
      return;
    if (const Expr *Taken = lockTaken(Call, Ctx)) {
      Take = Call;
      Lock = Taken;
    } else {
      std::tie(Take, Lock) = tryLockTake(Call, Ctx);
    }
    if (Take)
      TakeSite = Call;
  });
  if (!Take || !sameLockEveryTrip(Lock, Loop) ||
      !spinsOnResult(TakeSite, Loop) || !testsBitsItSets(Take, Loop, Ctx))
    return std::nullopt;
  // The lane-safe form releases inside the loop: no lane leaves holding it.
  if (findRelease(Loop, Lock, Ctx))
    return std::nullopt;
  LockAcquire A;
  A.Loop = Loop;
  A.Atomic = Take;
  A.TakeSite = TakeSite;
  A.Lock = Lock;
  return A;
}

const Expr *bareSpinCondition(const Stmt *Loop) {
  const Stmt *Body = nullptr;
  const Expr *Cond = nullptr;
  if (const auto *While = dyn_cast<WhileStmt>(Loop)) {
    Body = While->getBody();
    Cond = While->getCond();
  } else if (const auto *Do = dyn_cast<DoStmt>(Loop)) {
    Body = Do->getBody();
    Cond = Do->getCond();
  }
  bool EmptyBody =
      Body && (isa<NullStmt>(Body) || (isa<CompoundStmt>(Body) &&
                                       cast<CompoundStmt>(Body)->body_empty()));
  return EmptyBody ? Cond : nullptr;
}

bool LockHelpers::mayTakeLock(const CallExpr *Call) {
  if (matchAtomic(Call))
    return true;
  const FunctionDecl *Callee = calledDefinition(Call);
  if (!Callee)
    return false;
  auto [It, Inserted] = CallsAtomic.try_emplace(Callee, false);
  bool &Calls = It->second;
  if (Inserted)
    walkStmts(Callee->getBody(), [&](const Stmt *S) {
      if (const auto *Inner = dyn_cast<CallExpr>(S);
          Inner && matchAtomic(Inner))
        Calls = true;
    });
  return Calls;
}

std::optional<LockAcquire> LockHelpers::spinAcquire(const Stmt *Loop,
                                                    ASTContext &Ctx) {
  return warp::spinAcquire(
      Loop, Ctx, [this](const CallExpr *Call) { return mayTakeLock(Call); });
}

const Stmt *LockHelpers::helperAcquire(const FunctionDecl *FD,
                                       ASTContext &Ctx) {
  auto [It, Inserted] = HelperLoops.try_emplace(FD, nullptr);
  if (!Inserted)
    return It->second;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body || Body->body_empty())
    return nullptr;
  const Stmt *Last = Body->body_back();
  if (!isa<WhileStmt, DoStmt, ForStmt>(Last))
    return nullptr;
  if (spinAcquire(Last, Ctx))
    It->second = Last;
  return It->second;
}

void LockHelpers::clear() {
  HelperLoops.clear();
  CallsAtomic.clear();
}

} // namespace clang::warp
