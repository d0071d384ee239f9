// Runtime tests for warp-atomic-spinlock (kernels/warp-atomic-spinlock).
// On sm_90 the buggy per-thread lock completes (independent thread
// scheduling); it deadlocks before Volta. bench/ measures its cost.

#include "rt_oracle.h"

#include <gtest/gtest.h>

using namespace rt;

namespace {

std::string verifyStats(const HostIO &H) {
  if (H.counter[0] != H.cfg.n)
    return mismatch("stats", 0, H.counter[0], H.cfg.n);
  long Sum = 0;
  for (int X : H.in_i)
    Sum += X;
  if (H.counter[1] != Sum)
    return mismatch("stats", 1, H.counter[1], Sum);
  return "";
}

std::string verifyTotal(const HostIO &H) {
  long Sum = 0;
  for (int X : H.in_i)
    Sum += X;
  if (H.counter[0] != Sum)
    return mismatch("total", 0, H.counter[0], Sum);
  return "";
}

} // namespace

RT_PATTERN(AtomicSpinlock, Stats, spin_stats, "warp-atomic-spinlock", nullptr,
           verifyStats)
RT_PATTERN(AtomicSpinlock, SingleRmw, spin_single_rmw, "warp-atomic-spinlock",
           nullptr, verifyTotal)
RT_PATTERN(AtomicSpinlock, LibcuxxStats, spin_libcuxx_stats,
           "warp-atomic-spinlock", nullptr, verifyStats)
