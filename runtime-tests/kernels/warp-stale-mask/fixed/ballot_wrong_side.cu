// warp-stale-mask (b), fixed: the `!p` side uses the complement of the
// ballot, which names exactly its lanes (the ballot was taken by all 32).
#include "rt_launch.h"

namespace RT_NS {

__global__ void side_leaders(const int *in, int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int x = (i < n) ? in[i] : 0;
  const unsigned pos = __ballot_sync(0xffffffff, x > 0);
  int y;
  if (x > 0) {
    y = __shfl_sync(pos, x, __ffs(pos) - 1);
  } else {
    y = __shfl_sync(~pos, x, __ffs(~pos) - 1);
  }
  if (i < n)
    out[i] = y;
}

void stale_ballot_wrong_side(const RtArgs &a, cudaStream_t s) {
  side_leaders<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.n);
}

} // namespace RT_NS
