// warp-divergent-full-mask (c), fixed: the fix-it warp-lint is to produce (a
// ballot of the negated exit condition before the early return, used as the
// mask after it).
#include "rt_launch.h"

namespace RT_NS {

__global__ void warp_deltas(const int *in, int *delta, unsigned *positive,
                            int n) {
  __shared__ int s_first[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const unsigned warp_mask = __ballot_sync(0xffffffff, !(i >= n));
  if (i >= n)
    return;
  const int x = in[i];
  if (lane == 0)
    s_first[warp] = x;
  __syncwarp(warp_mask);
  delta[i] = x - s_first[warp];
  const unsigned pos = __ballot_sync(warp_mask, x > 0);
  if (lane == 0)
    positive[i / 32] = pos;
}

void dfm_syncwarp_after_return(const RtArgs &a, cudaStream_t s) {
  warp_deltas<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.out_u, a.n);
}

} // namespace RT_NS
