// warp-divergent-full-mask (g): lanes 0..15 call __syncwarp() (full mask)
// to read what lanes 16..31 stored; lanes 16..31 skip the branch and wait at
// __syncthreads(). Consequence class: hang (sm_90 never releases either).
// Outputs: out_f[i] = v(i) + v(i + 16) for lanes 0..15, v(i) for lanes
// 16..31, v(k) = in_f[k] for k < n, else 0.
#include "rt_launch.h"

namespace RT_NS {

__global__ void syncwarp_lower_half(const float *in, float *out, int n) {
  __shared__ float staged[1024];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  const int lane = t % 32;
  float v = i < n ? in[i] : 0.0f;
  staged[t] = v;
  if (lane < 16) {
    __syncwarp();
    v += staged[t + 16];
  }
  __syncthreads();
  if (i < n)
    out[i] = v;
}

void dfm_syncwarp_lower_half(const RtArgs &a, cudaStream_t s) {
  syncwarp_lower_half<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
