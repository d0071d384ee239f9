//===--- AtomicSpinlockCheck.h - warp-atomic-spinlock -----------*- C++ -*-===//

#ifndef WARP_LINT_ATOMICSPINLOCKCHECK_H
#define WARP_LINT_ATOMICSPINLOCKCHECK_H

#include "WarpCheckBase.h"
#include "analysis/LockPatterns.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::warp {

/// Flags per-lane spin locks: a loop spinning on atomicCAS/atomicExch to take
/// a lock that lanes of one warp can contend for, with the critical section
/// after the loop.
///
/// For the user-facing documentation see:
/// docs/checks/warp-atomic-spinlock.md
class AtomicSpinlockCheck : public WarpCheckBase {
public:
  AtomicSpinlockCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}
  void onEndOfTranslationUnit() override;

  using Acquire = LockAcquire;
  struct CriticalSection;

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;

private:
  /// Reports \p A, reached at \p Site (its loop, or a lock helper's call),
  /// where lanes of one warp contend for the lock; once per location.
  void report(const Acquire &A, const Stmt *Site, const FunctionUniformity &FU,
              WarpAnalysis &WA);
  /// The warning at \p Loc, with the lane-safe rewrite where it is
  /// mechanical.
  void diagnose(const Acquire &A, const Stmt *Site, SourceLocation Loc,
                const WarpValue &Address, const CriticalSection &Section,
                ASTContext &Ctx);
  /// The notes after the warning at \p Loc: where a helper spins, what hangs,
  /// and how to repair the lock.
  void addNotes(const Acquire &A, const Stmt *Site, SourceLocation Loc,
                const CriticalSection &Section);
  /// The spin-acquire loop a helper ends with, if it is a lock helper.
  const Stmt *helperAcquire(const FunctionDecl *FD, WarpAnalysis &WA);

  /// Whether \p Call may take a lock: it is an atomic, or it calls a
  /// function that calls one (a try-lock helper).
  bool mayTakeLock(const CallExpr *Call);
  auto mayTakeLockFn() {
    return [this](const CallExpr *Call) { return mayTakeLock(Call); };
  }

  llvm::DenseMap<const FunctionDecl *, const Stmt *> HelperLoops;
  /// Function -> whether its body calls an atomic.
  llvm::DenseMap<const FunctionDecl *, bool> CallsAtomic;
};

} // namespace clang::tidy::warp

#endif
