//===--- LockPatterns.h - spin locks taken and released ---------*- C++ -*-===//
//
// How CUDA code takes a lock (a loop spinning on atomicCAS, atomicExch, a
// test-and-set atomicOr, libcu++'s compare_exchange or a try-lock helper)
// and releases it, and which functions are lock helpers (a try-lock, or an
// acquire that ends with its spin loop). warp-atomic-spinlock reports
// per-lane locks from these; the exchange races skip what lanes do while
// holding one.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LOCKPATTERNS_H
#define WARP_LINT_ANALYSIS_LOCKPATTERNS_H

#include "WarpCollectives.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <utility>

namespace clang::warp {

/// A loop that spins until an atomic takes a lock, and where the lock is.
struct LockAcquire {
  const Stmt *Loop = nullptr;
  const CallExpr *Atomic = nullptr; ///< the atomicCAS/atomicExch that takes it
  /// The call in the loop that takes it: Atomic, or a try-lock helper's call.
  const CallExpr *TakeSite = nullptr;
  const Expr *Lock = nullptr; ///< the lock's address
};

/// Calls \p F on \p S and every statement below it.
template <typename Fn> void walkStmts(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *Child : S->children())
    walkStmts(Child, F);
}

/// The lock \p Call takes, if it takes one: atomicCAS(p, FREE, HELD) with
/// two different constants, atomicExch(p, HELD) or atomicOr(p, BIT) with a
/// constant, and libcu++'s compare_exchange_*, exchange and test_and_set. A
/// CAS that writes a computed value is a lock-free retry loop, not a lock.
/// Inside a wrapper called by \p Through, the wrapper's parameters take the
/// constants that call passes.
const Expr *lockTaken(const CallExpr *Call, ASTContext &Ctx,
                      const CallExpr *Through = nullptr);
/// The lock take inside a try-lock helper that \p Call calls (`bool
/// try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }`), and the argument
/// of \p Call that is the lock; nulls when there is none.
std::pair<const CallExpr *, const Expr *> tryLockTake(const CallExpr *Call,
                                                      ASTContext &Ctx);
/// \p Loop when it is a spin-acquire: it keeps trying until it holds the
/// lock, then leaves holding it. \p MayTake tells the calls that can take
/// a lock at all.
std::optional<LockAcquire>
spinAcquire(const Stmt *Loop, ASTContext &Ctx,
            llvm::function_ref<bool(const CallExpr *)> MayTake);
/// The release of \p Lock inside \p S, if any: atomicExch(lock, 0), a CAS
/// back to free, an atomic store of 0, a clearing atomicAnd, or a plain
/// store of 0 through the lock.
const Stmt *findRelease(const Stmt *S, const Expr *Lock, ASTContext &Ctx);
/// Whether the release \p S orders the writes before it by itself: a
/// libcu++ store or exchange not relaxed (the intrinsics need a fence).
bool isOrderedRelease(const Stmt *S);
/// The condition of \p Loop when it is a `while` or `do` loop with an empty
/// body, which spins on its condition alone; null otherwise.
const Expr *bareSpinCondition(const Stmt *Loop);

/// The lock helpers of one unit, each function looked into once: which calls
/// may take a lock at all, and which functions are an acquire that ends with
/// its spin loop (`void lock(int *l) { while (atomicCAS(l, 0, 1)); }`).
class LockHelpers {
public:
  /// Whether \p Call may take a lock: it is an atomic, or it calls a
  /// function that calls one (a try-lock helper).
  bool mayTakeLock(const CallExpr *Call);
  /// The spin-acquire loop that \p FD ends with, if it is a lock helper.
  const Stmt *helperAcquire(const FunctionDecl *FD, ASTContext &Ctx);
  /// spinAcquire over the calls that may take a lock.
  std::optional<LockAcquire> spinAcquire(const Stmt *Loop, ASTContext &Ctx);
  /// Forgets the unit's functions (at its end).
  void clear();

private:
  llvm::DenseMap<const FunctionDecl *, const Stmt *> HelperLoops;
  /// Function -> whether its body calls an atomic.
  llvm::DenseMap<const FunctionDecl *, bool> CallsAtomic;
};

} // namespace clang::warp

#endif
