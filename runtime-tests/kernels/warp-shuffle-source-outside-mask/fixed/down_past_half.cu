// Fixed: every lane takes part in the shuffle with the full mask (the lanes
// read are then named), and only lanes 0..15 use the result.
#include "rt_launch.h"

namespace RT_NS {

__global__ void half_warp_pair_sum(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const float v = i < n ? in[i] : 0.0f;
  const float up = __shfl_down_sync(0xffffffff, v, 8);
  const float r = lane < 16 ? v + up : v;
  if (i < n)
    out[i] = r;
}

void ssom_down_past_half(const RtArgs &a, cudaStream_t s) {
  half_warp_pair_sum<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
