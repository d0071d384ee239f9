// warp-uniform-address-atomic, atomicMax, shared, fixed.
#include <climits>
#include "rt_launch.h"

namespace RT_NS {

__global__ void max_shared(const int *in, int *block_max, int n) {
  __shared__ int s_max;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    s_max = INT_MIN;
  __syncthreads();
  const int v = __reduce_max_sync(0xffffffff, (i < n) ? in[i] : INT_MIN);
  if ((threadIdx.x & 31) == 0)
    atomicMax(&s_max, v);
  __syncthreads();
  if (threadIdx.x == 0)
    block_max[blockIdx.x] = s_max;
}

void uaa_int_max_shared(const RtArgs &a, cudaStream_t s) {
  max_shared<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.n);
}

} // namespace RT_NS
