// warp-atomic-spinlock, single-RMW critical section, fixed: the matching
// atomic replaces the lock.
#include "rt_launch.h"

namespace RT_NS {

__global__ void locked_add(const int *in, int *total, int *lock, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(total, in[i]);
}

void spin_single_rmw(const RtArgs &a, cudaStream_t s) {
  locked_add<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.lock, a.n);
}

} // namespace RT_NS
