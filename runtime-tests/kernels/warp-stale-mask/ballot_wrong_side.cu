// warp-stale-mask (b): the ballot of `p` is used as the mask on the `!p`
// side of the branch, where it names exactly the lanes that are absent.
// Outputs: out_i[i] = x of the first lane of i's warp on the same side of
// (x > 0) as i. Threads past n take x = 0 and write nothing.
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
    y = __shfl_sync(pos, x, __ffs(~pos) - 1);
  }
  if (i < n)
    out[i] = y;
}

void stale_ballot_wrong_side(const RtArgs &a, cudaStream_t s) {
  side_leaders<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.n);
}

} // namespace RT_NS
