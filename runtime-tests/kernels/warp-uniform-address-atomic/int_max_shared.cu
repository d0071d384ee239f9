// warp-uniform-address-atomic: every lane `atomicMax`es one __shared__ int.
// Outputs: out_i[b] = max of in_i over block b.
#include <climits>
#include "rt_launch.h"

namespace RT_NS {

__global__ void max_shared(const int *in, int *block_max, int n) {
  __shared__ int s_max;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    s_max = INT_MIN;
  __syncthreads();
  if (i < n)
    atomicMax(&s_max, in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    block_max[blockIdx.x] = s_max;
}

void uaa_int_max_shared(const RtArgs &a, cudaStream_t s) {
  max_shared<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.n);
}

} // namespace RT_NS
