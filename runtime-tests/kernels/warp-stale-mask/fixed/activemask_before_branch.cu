// warp-stale-mask (a), fixed: narrow the stale mask to the lanes that take
// the branch with a ballot by the lanes of `m` just before it.
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
  const unsigned odd_mask = __ballot_sync(m, lane % 2);
  if (lane % 2) {
    x = __shfl_sync(odd_mask, v, 1);
  }
  out[i] = x;
}

void stale_activemask_before_branch(const RtArgs &a, cudaStream_t s) {
  odd_lanes_take_lane1<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
