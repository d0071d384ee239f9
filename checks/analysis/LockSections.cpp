//===--- LockSections.cpp - lock contention and critical sections ---------===//

#include "LockSections.h"
#include "clang/AST/ASTContext.h"

namespace clang::warp {

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

CriticalSection criticalSection(const LockAcquire &A, const Stmt *Site,
                                const FunctionUniformity &FU,
                                WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  // A helper's lock is spelled with the helper's parameters: the caller's
  // statements cannot be matched against it.
  bool ViaHelper = Site != A.Loop;
  CriticalSection Section;
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

std::optional<WarpValue> contendedAddress(const LockAcquire &A,
                                          const Stmt *Site,
                                          const FunctionUniformity &FU,
                                          WarpAnalysis &WA) {
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

bool releaseNeedsFence(const CriticalSection &Section) {
  if (isOrderedRelease(Section.Release))
    return false;
  const auto *Prev = dyn_cast<CallExpr>(Section.After[Section.End - 1]);
  return !Prev || !isDeviceFence(calleeName(Prev));
}

} // namespace clang::warp
