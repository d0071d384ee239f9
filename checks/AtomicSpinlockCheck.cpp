//===--- AtomicSpinlockCheck.cpp - warp-atomic-spinlock -------------------===//

#include "AtomicSpinlockCheck.h"
#include "FixItText.h"
#include "analysis/LockPatterns.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/BitVector.h"

namespace clang::tidy::warp {

void AtomicSpinlockCheck::onEndOfTranslationUnit() {
  HelperLoops.clear();
  CallsAtomic.clear();
  WarpCheckBase::onEndOfTranslationUnit();
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
  walkStmts(S, [&](const Stmt *X) {
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
    walkStmts(Callee->getBody(), [&](const Stmt *S) {
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
