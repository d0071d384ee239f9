// warp-uniform-address-atomic, float, shared, fixed: warp reduction first,
// one shared atomic per warp.
#include "rt_launch.h"

namespace RT_NS {

__global__ void sum_shared(const float *in, float *block_sums, int n) {
  __shared__ float s_sum;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    s_sum = 0.0f;
  __syncthreads();
  float v = (i < n) ? in[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffff, v, off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(&s_sum, v);
  __syncthreads();
  if (threadIdx.x == 0)
    block_sums[blockIdx.x] = s_sum;
}

void uaa_float_sum_shared(const RtArgs &a, cudaStream_t s) {
  sum_shared<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
