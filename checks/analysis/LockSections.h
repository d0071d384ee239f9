//===--- LockSections.h - lock contention and critical sections -*- C++ -*-===//
//
// A spin lock that lanes of one warp take each for itself is a bug only
// when they can contend for it (not a leader's lock, not a lock per lane,
// not a function its callers run one lane at a time), and how bad depends
// on what the holder does before it releases: a warp collective or a
// barrier in the critical section waits for lanes that are still spinning
// and hangs. These questions are about the program, not about how
// warp-atomic-spinlock words its finding, so they live here.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LOCKSECTIONS_H
#define WARP_LINT_ANALYSIS_LOCKSECTIONS_H

#include "LockPatterns.h"
#include "WarpAnalysis.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>

namespace clang::warp {

/// What follows a spin-acquire in its compound statement, up to the release.
struct CriticalSection {
  llvm::ArrayRef<Stmt *> After; ///< the statements after the acquire
  /// The release of the lock, inside After[End]; null when none is seen.
  const Stmt *Release = nullptr;
  const Stmt *Sync = nullptr; ///< the first synchronization before Release
  size_t End = 0;             ///< After.size() when there is no Release
};

/// Returns the statements after the acquire \p A at \p Site (its loop, or a
/// lock helper's call) up to the one that releases its lock, and the first
/// synchronization among them: a warp collective not over __activemask(),
/// a barrier, another lock, or a call of a function that synchronizes. A
/// helper's lock is spelled with the helper's parameters, so no release is
/// looked for after a helper's call.
CriticalSection criticalSection(const LockAcquire &A, const Stmt *Site,
                                const FunctionUniformity &FU, WarpAnalysis &WA);

/// Returns the value of the lock's address when lanes of one warp can
/// contend for the lock \p A takes at \p Site: the lock of a spin loop, the
/// first argument of a lock helper's call. Nullopt when they cannot: one
/// lane runs \p Site (a leader lock), every caller calls the function one
/// lane at a time, or the lock is indexed by the lane itself.
std::optional<WarpValue> contendedAddress(const LockAcquire &A,
                                          const Stmt *Site,
                                          const FunctionUniformity &FU,
                                          WarpAnalysis &WA);

/// Returns whether the release of \p Section needs a fence before it: the
/// release does not order the section's writes itself, and the statement
/// before it is no device fence. \p Section has a release after at least one
/// statement.
bool releaseNeedsFence(const CriticalSection &Section);

} // namespace clang::warp

#endif
