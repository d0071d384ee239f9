//===--- AtomicSpinlockCheck.cpp - warp-atomic-spinlock -------------------===//

#include "AtomicSpinlockCheck.h"
#include "FixItText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/BitVector.h"

namespace clang::tidy::warp {

/// A loop that spins until an atomic takes a lock, and where the lock is.
struct AtomicSpinlockCheck::Acquire {
  const Stmt *Loop = nullptr;
  const CallExpr *Atomic = nullptr; ///< the atomicCAS/atomicExch that takes it
  /// The call in the loop that takes it: Atomic, or a try-lock helper's call.
  const CallExpr *TakeSite = nullptr;
  const Expr *Lock = nullptr; ///< the lock's address
};

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
static const Expr *lockTaken(const CallExpr *Call, ASTContext &Ctx,
                             const CallExpr *Through = nullptr) {
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
static bool isOrderedRelease(const Stmt *S) {
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

/// Calls \p F on \p S and every statement below it.
template <typename Fn> static void walk(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *Child : S->children())
    walk(Child, F);
}

/// Returns the release of \p Lock inside \p S, if any.
static const Stmt *findRelease(const Stmt *S, const Expr *Lock,
                               ASTContext &Ctx) {
  const Stmt *Found = nullptr;
  walk(S, [&](const Stmt *X) {
    if (!Found && isRelease(X, Lock, Ctx))
      Found = X;
  });
  return Found;
}

void AtomicSpinlockCheck::onEndOfTranslationUnit() {
  HelperLoops.clear();
  CallsAtomic.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

/// Returns the lock-taking atomic of \p Loop when it is a spin-acquire: the
/// loop keeps trying until it holds the lock, then leaves holding it.
/// Returns the lock take inside a try-lock helper called by \p Call (e.g.
/// `bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }`) and the
/// argument of \p Call that is the lock.
static std::pair<const CallExpr *, const Expr *>
tryLockTake(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *Callee = calledDefinition(Call);
  if (!Callee)
    return {};
  std::pair<const CallExpr *, const Expr *> Found;
  walk(Callee->getBody(), [&](const Stmt *S) {
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
  walk(S, [&](const Stmt *X) {
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
  walk(Lock, [&](const Stmt *X) {
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
  walk(S, [&](const Stmt *X) { Found |= X == Target; });
  return Found;
}

/// Whether \p Loop keeps going on what \p Take returns: the take is in the
/// loop's condition, or in the condition of an `if` that leaves the loop
/// (`if (atomicCAS(l, 0, 1) == 0) break;`). An atomic whose result the loop
/// ignores (`atomicOr(&overflow, 1)` in a loop over elements) is no spin.
static bool spinsOnResult(const CallExpr *Take, const Stmt *Loop) {
  // The variables the result is kept in (`old = atomicCAS(...)`).
  llvm::SmallPtrSet<const VarDecl *, 2> Carriers;
  walk(Loop, [&](const Stmt *S) {
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
    walk(Cond, [&](const Stmt *X) {
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
  walk(Loop, [&](const Stmt *S) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || Exits || !Reads(If->getCond()))
      return;
    walk(If, [&](const Stmt *X) {
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
  walk(Cond, [&](const Stmt *S) {
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

/// \p MayTake tells the calls that can take a lock at all.
static std::optional<AtomicSpinlockCheck::Acquire>
spinAcquire(const Stmt *Loop, ASTContext &Ctx,
            llvm::function_ref<bool(const CallExpr *)> MayTake) {
  const CallExpr *Take = nullptr, *TakeSite = nullptr;
  const Expr *Lock = nullptr;
  walk(Loop, [&](const Stmt *S) {
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
  AtomicSpinlockCheck::Acquire A;
  A.Loop = Loop;
  A.Atomic = Take;
  A.TakeSite = TakeSite;
  A.Lock = Lock;
  return A;
}

/// Returns the statements after \p S in its enclosing compound statement.
static llvm::ArrayRef<Stmt *> followers(const Stmt *S,
                                        const FunctionUniformity &FU) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(FU.parentOf(S));
  if (!CS)
    return {};
  llvm::ArrayRef<Stmt *> Body(CS->body_begin(), CS->body_end());
  for (size_t I = 0; I < Body.size(); ++I)
    if (Body[I] == S)
      return Body.drop_front(I + 1);
  return {};
}

/// Returns a warp collective, barrier or lock taken in \p S (directly or in a
/// called function): inside a per-lane critical section it never completes.
static const Stmt *synchronizationIn(const Stmt *S, WarpAnalysis &WA,
                                     ASTContext &Ctx) {
  const Stmt *Found = nullptr;
  walk(S, [&](const Stmt *X) {
    if (Found)
      return;
    if (std::optional<CollectiveUse> Use = matchCollective(X)) {
      // A collective over __activemask() waits for no one who is spinning.
      const auto *MaskCall =
          Use->Mask ? dyn_cast<CallExpr>(Use->Mask->IgnoreParenImpCasts())
                    : nullptr;
      if (maskSourceKind(MaskCall) != MaskSourceKind::ActiveLanes)
        Found = X;
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(X);
    if (!Call)
      return;
    if (isBarrierName(calleeName(Call)) || lockTaken(Call, Ctx)) {
      Found = X;
      return;
    }
    if (const FunctionDecl *Callee = calledDefinition(Call);
        Callee && WA.mayMatter(Callee))
      if (const FunctionSummary *S = WA.summary(Callee))
        if (S->Synchronizes)
          Found = X;
  });
  return Found;
}

const Stmt *AtomicSpinlockCheck::helperAcquire(const FunctionDecl *FD,
                                               WarpAnalysis &WA) {
  auto [It, Inserted] = HelperLoops.try_emplace(FD, nullptr);
  if (!Inserted)
    return It->second;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body || Body->body_empty())
    return nullptr;
  const Stmt *Last = Body->body_back();
  if (!isa<WhileStmt, DoStmt, ForStmt>(Last))
    return nullptr;
  if (spinAcquire(Last, WA.context(), mayTakeLockFn()))
    It->second = Last;
  return It->second;
}

bool AtomicSpinlockCheck::mayTakeLock(const CallExpr *Call) {
  if (matchAtomic(Call))
    return true;
  const FunctionDecl *Callee = calledDefinition(Call);
  if (!Callee)
    return false;
  auto [It, Inserted] = CallsAtomic.try_emplace(Callee, false);
  bool &Calls = It->second;
  if (Inserted)
    walk(Callee->getBody(), [&](const Stmt *S) {
      if (const auto *Inner = dyn_cast<CallExpr>(S);
          Inner && matchAtomic(Inner))
        Calls = true;
    });
  return Calls;
}

void AtomicSpinlockCheck::checkFunction(const FunctionDecl *FD,
                                        const FunctionUniformity &FU,
                                        WarpAnalysis &WA) {
  // One thread per block: no other lane of the warp contends for the lock.
  if (WA.launchedOneThreadPerBlock(FD))
    return;
  ASTContext &Ctx = WA.context();
  const Stmt *HelperLoop = helperAcquire(FD, WA);
  const FunctionUniformity::BodyOutline &Outline = FU.outline();
  llvm::ArrayRef<const Stmt *> Items = Outline.LoopsAndCalls;
  // A loop spins on a lock only when a call inside it may take one (an
  // atomic, or a try-lock helper): most loops hold none and are not looked
  // into. Marks each such call's enclosing loops, innermost first.
  llvm::BitVector HoldsTake(Items.size());
  for (size_t I = 0; I < Items.size(); ++I)
    if (const auto *Call = dyn_cast<CallExpr>(Items[I]);
        Call && mayTakeLock(Call))
      for (int L = Outline.EnclosingLoop[I]; L >= 0 && !HoldsTake[L];
           L = Outline.EnclosingLoop[L])
        HoldsTake.set(L);
  // Loops and calls of lock helpers, in the order they are written.
  for (size_t I = 0; I < Items.size(); ++I) {
    const Stmt *Loop = nullptr;
    const auto *Call = dyn_cast<CallExpr>(Items[I]);
    if (!Call) {
      // A lock helper's own loop is reported where it is called.
      if (HoldsTake[I] && Items[I] != HelperLoop)
        Loop = Items[I];
    } else if (!isa<CXXOperatorCallExpr>(Call)) {
      if (const FunctionDecl *Callee = calledDefinition(Call))
        Loop = helperAcquire(Callee, WA);
    }
    if (Loop)
      if (std::optional<Acquire> A = spinAcquire(Loop, Ctx, mayTakeLockFn()))
        report(*A, Items[I], FU, WA);
  }
}

/// What follows a spin-acquire in its compound statement, up to the release.
struct AtomicSpinlockCheck::CriticalSection {
  llvm::ArrayRef<Stmt *> After; ///< the statements after the acquire
  /// The release of the lock, inside After[End]; null when none is seen.
  const Stmt *Release = nullptr;
  const Stmt *Sync = nullptr; ///< the first synchronization before Release
  size_t End = 0;             ///< After.size() when there is no Release
};

/// Whether every call of \p FD in the unit runs in one lane of its warp at
/// a time, in its caller or further up (`if (rank == turn) alloc()` in a loop
/// over the lanes): then nothing in \p FD is contended by lanes of one warp.
static bool calledOneLaneAtATime(const FunctionDecl *FD, WarpAnalysis &WA,
                                 unsigned Depth = 0) {
  if (Depth > 4 || FD->hasAttr<CUDAGlobalAttr>())
    return false;
  std::optional<llvm::ArrayRef<UnknownCallers::CallSite>> Sites =
      WA.onlyCalledAt(FD);
  return Sites && llvm::all_of(*Sites, [&](const UnknownCallers::CallSite &C) {
           const FunctionUniformity *Caller = WA.function(C.Caller);
           return Caller && (Caller->isSingleLane(C.Call) ||
                             calledOneLaneAtATime(C.Caller, WA, Depth + 1));
         });
}

/// Returns the value of the lock's address when lanes of one warp can
/// contend for the lock \p A takes at \p Site: the lock of a spin loop, the
/// first argument of a lock helper's call. Nullopt when they cannot.
static std::optional<WarpValue>
contendedAddress(const AtomicSpinlockCheck::Acquire &A, const Stmt *Site,
                 const FunctionUniformity &FU, WarpAnalysis &WA) {
  // A leader lock (lane == 0, threadIdx.x == 0) has no contending lanes,
  // nor a function its callers run one lane at a time.
  if (FU.isSingleLane(Site) || calledOneLaneAtATime(FU.decl(), WA))
    return std::nullopt;
  WarpValue Address;
  if (Site == A.Loop) {
    if (A.Lock)
      Address = FU.valueOf(A.Lock);
  } else if (llvm::ArrayRef<const Expr *> Args =
                 callArguments(cast<CallExpr>(Site));
             !Args.empty()) {
    Address = FU.valueOf(Args[0]);
  }
  // Locks indexed by the lane itself are distinct per lane.
  if (Address.isVarying() && Address.isLaneIndexed())
    return std::nullopt;
  return Address;
}

/// Returns the statements after the acquire at \p Site up to the one that
/// releases \p A's lock, and the first synchronization among them.
static AtomicSpinlockCheck::CriticalSection
criticalSection(const AtomicSpinlockCheck::Acquire &A, const Stmt *Site,
                const FunctionUniformity &FU, WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  // A helper's lock is spelled with the helper's parameters: the caller's
  // statements cannot be matched against it.
  bool ViaHelper = Site != A.Loop;
  AtomicSpinlockCheck::CriticalSection Section;
  Section.After = followers(Site, FU);
  for (; Section.End < Section.After.size(); ++Section.End) {
    const Stmt *S = Section.After[Section.End];
    if (const Stmt *R = findRelease(S, A.Lock, Ctx); R && !ViaHelper) {
      Section.Release = R;
      break;
    }
    if (!Section.Sync)
      Section.Sync = synchronizationIn(S, WA, Ctx);
  }
  return Section;
}

/// Returns the condition of \p Loop when it is a `while` or `do` loop with an
/// empty body, which spins on its condition alone; null otherwise.
static const Expr *bareSpinCondition(const Stmt *Loop) {
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

/// Returns the statements of \p Section up to its release, one a line,
/// indented one level deeper than \p Indent; nullopt when one has no text
/// of its own in the file.
static std::optional<std::string>
indentedSection(const AtomicSpinlockCheck::CriticalSection &Section,
                const std::string &Indent, ASTContext &Ctx) {
  std::string Text;
  for (const Stmt *S : Section.After.take_front(Section.End + 1)) {
    std::string T = fileText(S->getSourceRange(), Ctx);
    CharSourceRange R = statementRange(S, Ctx);
    if (T.empty() || R.isInvalid())
      return std::nullopt;
    Text += Indent + "    " +
            Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts())
                .str() +
            "\n";
  }
  return Text;
}

/// Returns the mechanical rewrite of the spin loop \p Site: the lane-safe
/// loop with \p Section inside it, so that no lane leaves holding the lock.
/// Only for a bare spin loop followed by a release, with no synchronization
/// in between.
static std::optional<FixItHint>
laneSafeLoop(const Stmt *Site,
             const AtomicSpinlockCheck::CriticalSection &Section,
             ASTContext &Ctx) {
  if (Section.Sync || !Section.Release || Section.End == 0)
    return std::nullopt;
  const Expr *Cond = bareSpinCondition(Site);
  std::optional<std::string> Indent =
      indentationAt(Site->getBeginLoc(), Ctx.getSourceManager());
  if (!Cond || !Indent)
    return std::nullopt;
  std::string CondText = fileText(Cond->getSourceRange(), Ctx);
  if (CondText.empty())
    return std::nullopt;
  std::optional<std::string> Body = indentedSection(Section, *Indent, Ctx);
  CharSourceRange First = statementRange(Site, Ctx);
  CharSourceRange Last = statementRange(Section.After[Section.End], Ctx);
  if (!Body || First.isInvalid() || Last.isInvalid())
    return std::nullopt;
  std::string Done = "warp_lock_done";
  const std::string &I = *Indent;
  return FixItHint::CreateReplacement(
      CharSourceRange::getCharRange(First.getBegin(), Last.getEnd()),
      "for (bool " + Done + " = false; !" + Done + ";) {\n" + I + "  if (!(" +
          CondText + ")) {\n" + *Body + I + "    " + Done + " = true;\n" + I +
          "  }\n" + I + "}");
}

void AtomicSpinlockCheck::report(const Acquire &A, const Stmt *Site,
                                 const FunctionUniformity &FU,
                                 WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  std::optional<WarpValue> Address = contendedAddress(A, Site, FU, WA);
  if (!Address)
    return;
  // At the atomic that takes the lock (or the call of the lock helper).
  SourceLocation Loc =
      Site != A.Loop ? Site->getBeginLoc() : A.TakeSite->getBeginLoc();
  if (Loc.isMacroID())
    Loc = Ctx.getSourceManager().getExpansionLoc(Loc);
  if (!firstReportAt(Loc))
    return;
  CriticalSection Section = criticalSection(A, Site, FU, WA);
  diagnose(A, Site, Loc, *Address, Section, Ctx);
  addNotes(A, Site, Loc, Section);
  noteTier(*this, Loc,
           Address->isUniform()           ? Tier::Proven
           : Address->V == Variance::Data ? Tier::Data
                                          : Tier::Potential,
           Address->isUniform()
               ? "every lane spins on the same lock word"
               : "lanes whose lock words coincide contend for the lock");
  if (Section.Sync)
    noteConsequence(*this, Section.Sync->getBeginLoc(), Consequence::Hang,
                    "the section waits for lanes that spin on the lock");
  else
    noteConsequence(*this, Loc, Consequence::Portability,
                    "deadlocks before Volta and on AMD GPUs; on Volta and "
                    "later the lanes take the lock one by one (about 45,000x "
                    "slower than an atomic, measured on an H200)");
}

void AtomicSpinlockCheck::diagnose(const Acquire &A, const Stmt *Site,
                                   SourceLocation Loc, const WarpValue &Address,
                                   const CriticalSection &Section,
                                   ASTContext &Ctx) {
  std::string Take = atomicName(A.Atomic);
  StringRef Contend = Address.isUniform() ? "contend" : "may contend";
  auto Diag =
      Section.Sync
          ? diag(Loc, "spin lock taken per lane with '%0' hangs: lanes of "
                      "one warp %1 for it and the critical section waits "
                      "for lanes that are still spinning")
          : diag(Loc, "spin lock taken per lane with '%0': lanes of one "
                      "warp %1 for it, which deadlocks before Volta and on "
                      "AMD GPUs and serializes the warp on Volta and later");
  Diag << Take << Contend;
  if (std::optional<FixItHint> Fix = laneSafeLoop(Site, Section, Ctx))
    Diag << *Fix;
}

/// Returns whether the release of \p Section needs a fence before it: the
/// release does not order the section's writes itself, and the statement
/// before it is no device fence.
static bool needsFence(const AtomicSpinlockCheck::CriticalSection &Section) {
  if (isOrderedRelease(Section.Release))
    return false;
  const auto *Prev = dyn_cast<CallExpr>(Section.After[Section.End - 1]);
  return !Prev || !isDeviceFence(calleeName(Prev));
}

void AtomicSpinlockCheck::addNotes(const Acquire &A, const Stmt *Site,
                                   SourceLocation Loc,
                                   const CriticalSection &Section) {
  if (Site != A.Loop)
    diag(A.Loop->getBeginLoc(), "the lock is taken by spinning here",
         DiagnosticIDs::Note);
  if (Section.Sync) {
    diag(Section.Sync->getBeginLoc(),
         "this synchronizes lanes while others of the warp spin on the lock",
         DiagnosticIDs::Note);
    return;
  }
  if (!Section.Release) {
    diag(
        Loc,
        "take the lock once per warp instead: one lane acquires, __syncwarp(), "
        "the warp runs the section, __syncwarp(), that lane releases",
        DiagnosticIDs::Note);
    return;
  }
  if (Section.End == 1)
    diag(Section.After[0]->getBeginLoc(),
         "if the critical section is a single read-modify-write, the matching "
         "atomic (atomicAdd, atomicMax, ...) replaces the lock",
         DiagnosticIDs::Note);
  if (Section.End > 0 && needsFence(Section))
    diag(Section.Release->getBeginLoc(),
         "no __threadfence() before the release: writes of the critical "
         "section may not be visible to the next holder",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::warp
