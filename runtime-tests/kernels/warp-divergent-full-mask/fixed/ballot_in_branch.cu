// warp-divergent-full-mask (b), fixed: the fix-it warp-lint is to produce
// (a ballot of the branch condition taken by the converged warp before the
// `if`, used as the mask inside).
#include "rt_launch.h"

namespace RT_NS {

__global__ void half_warp_vote(const int *in, unsigned *ballots,
                               int *any_negative, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int x = (i < n) ? in[i] : 0;
  const unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 16) {
    const unsigned positive = __ballot_sync(warp_mask, x > 0);
    const unsigned present = __ballot_sync(warp_mask, 1);
    const int negative = __any_sync(warp_mask, x < 0);
    if (lane == 0) {
      ballots[2 * (i / 32)] = positive;
      ballots[2 * (i / 32) + 1] = present;
      any_negative[i / 32] = negative;
    }
  }
}

void dfm_ballot_in_branch(const RtArgs &a, cudaStream_t s) {
  half_warp_vote<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_u, a.out_i, a.n);
}

} // namespace RT_NS
