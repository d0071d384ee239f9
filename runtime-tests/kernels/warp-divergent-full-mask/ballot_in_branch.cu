// warp-divergent-full-mask (b): full-mask votes inside `if (lane < 16)`; the
// upper half-warp never arrives at the votes.
// Outputs per global warp w: out_u[2w] = ballot of (x > 0) over lanes < 16,
// out_u[2w+1] = participation ballot (expected 0x0000ffff), out_i[w] =
// __any_sync(x < 0) over lanes < 16. Threads past n take x = 0.
#include "rt_launch.h"

namespace RT_NS {

__global__ void half_warp_vote(const int *in, unsigned *ballots,
                               int *any_negative, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int x = (i < n) ? in[i] : 0;
  if (lane < 16) {
    const unsigned positive = __ballot_sync(0xffffffff, x > 0);
    const unsigned present = __ballot_sync(0xffffffff, 1);
    const int negative = __any_sync(0xffffffff, x < 0);
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
