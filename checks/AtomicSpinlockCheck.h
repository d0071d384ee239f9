//===--- AtomicSpinlockCheck.h - warp-atomic-spinlock -----------*- C++ -*-===//

#ifndef WARP_LINT_ATOMICSPINLOCKCHECK_H
#define WARP_LINT_ATOMICSPINLOCKCHECK_H

#include "WarpCheckBase.h"
#include "analysis/LockPatterns.h"
#include "analysis/LockSections.h"

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

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;

private:
  /// Reports \p A, reached at \p Site (its loop, or a lock helper's call),
  /// where lanes of one warp contend for the lock; once per location.
  void report(const LockAcquire &A, const Stmt *Site,
              const FunctionUniformity &FU, WarpAnalysis &WA);
  /// The warning at \p Loc, with the lane-safe rewrite where it is
  /// mechanical.
  void diagnose(const LockAcquire &A, const Stmt *Site, SourceLocation Loc,
                const WarpValue &Address, const CriticalSection &Section,
                ASTContext &Ctx);
  /// The notes after the warning at \p Loc: where a helper spins, what hangs,
  /// and how to repair the lock.
  void addNotes(const LockAcquire &A, const Stmt *Site, SourceLocation Loc,
                const CriticalSection &Section);

  /// The unit's lock helpers, each function looked into once.
  LockHelpers Helpers;
};

} // namespace clang::tidy::warp

#endif
