// warp-atomic-spinlock, fixed: the lane-safe loop. The critical section sits
// inside the branch that won the CAS, so the winner releases the lock before
// any lane of its warp spins again; correct with or without independent
// thread scheduling.
#include "rt_launch.h"

namespace RT_NS {

__global__ void locked_stats(const int *in, int *stats, int *lock, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  volatile int *vstats = stats;
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) {
      __threadfence();
      vstats[0] = vstats[0] + 1;
      vstats[1] = vstats[1] + in[i];
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    }
  }
}

void spin_stats(const RtArgs &a, cudaStream_t s) {
  locked_stats<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.lock, a.n);
}

} // namespace RT_NS
