// warp-atomic-spinlock: every thread spins on atomicCAS for a global lock,
// with the critical section after the spin loop. On pre-Volta GPUs (and AMD)
// the lane that wins waits forever for its warp to reconverge; on sm_90 it
// completes but serialises every thread (docs/runtime-results.md).
// Outputs: counter[0] = n, counter[1] = sum of in_i (both updated together
// under the lock, so no single atomic can replace the section).
#include "rt_launch.h"

namespace RT_NS {

__global__ void locked_stats(const int *in, int *stats, int *lock, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  volatile int *vstats = stats;
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  __threadfence();
  vstats[0] = vstats[0] + 1;
  vstats[1] = vstats[1] + in[i];
  __threadfence();
  atomicExch(lock, 0);
}

void spin_stats(const RtArgs &a, cudaStream_t s) {
  locked_stats<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.lock, a.n);
}

} // namespace RT_NS
