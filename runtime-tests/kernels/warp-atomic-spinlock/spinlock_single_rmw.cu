// warp-atomic-spinlock: a per-thread spin lock whose critical section is a
// single read-modify-write of one int (a plain one, as in real code: without
// `volatile` the load may even hit a stale L1 line, which the buggy test
// records as wrong values if it happens).
// Output: counter[0] = sum of in_i.
#include "rt_launch.h"

namespace RT_NS {

__global__ void locked_add(const int *in, int *total, int *lock, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  __threadfence();
  *total += in[i];
  __threadfence();
  atomicExch(lock, 0);
}

void spin_single_rmw(const RtArgs &a, cudaStream_t s) {
  locked_add<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.lock, a.n);
}

} // namespace RT_NS
