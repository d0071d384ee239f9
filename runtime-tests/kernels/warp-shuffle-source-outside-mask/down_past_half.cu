// warp-shuffle-source-outside-mask: lanes 0..15 add the value 8 lanes up with
// the mask of lanes 0..15; lanes 8..15 read lanes 16..23, outside the mask.
// Outputs: out_f[i] = lanes 0..15: v(i) + v(i + 8); lanes 16..31: v(i), where
// v(k) = in_f[k] for k < n, else 0.
#include "rt_launch.h"

namespace RT_NS {

__global__ void half_warp_pair_sum(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const float v = i < n ? in[i] : 0.0f;
  float r = v;
  if (lane < 16)
    r = v + __shfl_down_sync(0xffff, v, 8);
  if (i < n)
    out[i] = r;
}

void ssom_down_past_half(const RtArgs &a, cudaStream_t s) {
  half_warp_pair_sum<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
