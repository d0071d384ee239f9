// warp-uniform-address-atomic: every lane adds its float to one __shared__
// accumulator per block.
// Outputs: out_f[b] = sum of in_f over block b.
#include "rt_launch.h"

namespace RT_NS {

__global__ void sum_shared(const float *in, float *block_sums, int n) {
  __shared__ float s_sum;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    s_sum = 0.0f;
  __syncthreads();
  if (i < n)
    atomicAdd(&s_sum, in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    block_sums[blockIdx.x] = s_sum;
}

void uaa_float_sum_shared(const RtArgs &a, cudaStream_t s) {
  sum_shared<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
