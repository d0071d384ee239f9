// warp-divergent-full-mask (d): a helper whose shuffles name the full warp,
// called from a lane-dependent branch. The lanes that skip the call stay
// alive and wait at __syncthreads(): on sm_90 this hangs
// (docs/runtime-results.md).
// Outputs: out_f[b] = sum of in_f over block b.
#include "rt_launch.h"

namespace RT_NS {

__device__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, off);
  return v;
}

__global__ void block_sums(const float *in, float *out, int n) {
  __shared__ float s_warp[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  if (lane == 0)
    s_warp[warp] = 0.0f;
  __syncthreads();
  if (i < n) {
    const float s = warp_sum(in[i]);
    if (lane == 0)
      s_warp[warp] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w)
      t += s_warp[w];
    out[blockIdx.x] = t;
  }
}

void dfm_helper_in_branch(const RtArgs &a, cudaStream_t s) {
  block_sums<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
