// warp-uniform-address-atomic, atomicMax, global, fixed: `__reduce_max_sync`
// over the whole warp (neutral INT_MIN), one atomic by lane 0.
#include <climits>
#include "rt_launch.h"

namespace RT_NS {

__global__ void max_global(const int *in, int *result, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = __reduce_max_sync(0xffffffff, (i < n) ? in[i] : INT_MIN);
  if ((threadIdx.x & 31) == 0)
    atomicMax(result, v);
}

void uaa_int_max_global(const RtArgs &a, cudaStream_t s) {
  max_global<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.n);
}

} // namespace RT_NS
