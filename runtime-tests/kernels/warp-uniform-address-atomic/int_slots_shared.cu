// warp-uniform-address-atomic: per-block compaction into shared memory, every
// kept lane taking its slot with `atomicAdd(&s_count, 1)`.
// Outputs: out_u[b] = number of x > 0 in block b; out_i[b * block + j],
// j < out_u[b] = those x, any order.
#include "rt_launch.h"

namespace RT_NS {

__global__ void compact_shared(const int *in, int *out, unsigned *counts,
                               int n) {
  __shared__ int s_count;
  __shared__ int s_buf[1024];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    s_count = 0;
  __syncthreads();
  if (i < n) {
    const int x = in[i];
    if (x > 0)
      s_buf[atomicAdd(&s_count, 1)] = x;
  }
  __syncthreads();
  for (int j = threadIdx.x; j < s_count; j += blockDim.x)
    out[blockIdx.x * blockDim.x + j] = s_buf[j];
  if (threadIdx.x == 0)
    counts[blockIdx.x] = s_count;
}

void uaa_int_slots_shared(const RtArgs &a, cudaStream_t s) {
  compact_shared<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.out_u, a.n);
}

} // namespace RT_NS
