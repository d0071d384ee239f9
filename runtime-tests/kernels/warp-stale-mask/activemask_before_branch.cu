// warp-stale-mask (a): `__activemask()` taken before `if (lane % 2)` and used
// inside it; the mask still names the even lanes, which never arrive.
// Outputs: out_f[i] = odd lanes: in_f of lane 1 of i's warp; even lanes: in_f[i].
#include "rt_launch.h"

namespace RT_NS {

__global__ void odd_lanes_take_lane1(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  if (i >= n)
    return;
  const float v = in[i];
  unsigned m = __activemask();
  float x = v;
  if (lane % 2) {
    x = __shfl_sync(m, v, 1);
  }
  out[i] = x;
}

void stale_activemask_before_branch(const RtArgs &a, cudaStream_t s) {
  odd_lanes_take_lane1<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
