// warp-divergent-full-mask (c): `__syncwarp()` and a full-mask ballot after
// `if (i >= n) return;`. In the last, partial warp the exited lanes are named
// by both masks.
// Outputs: out_i[i] = in_i[i] - in_i[first element of i's warp];
// out_u[w] = ballot of (x > 0) over the warp's live lanes.
#include "rt_launch.h"

namespace RT_NS {

__global__ void warp_deltas(const int *in, int *delta, unsigned *positive,
                            int n) {
  __shared__ int s_first[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  if (i >= n)
    return;
  const int x = in[i];
  if (lane == 0)
    s_first[warp] = x;
  __syncwarp();
  delta[i] = x - s_first[warp];
  const unsigned pos = __ballot_sync(0xffffffff, x > 0);
  if (lane == 0)
    positive[i / 32] = pos;
}

void dfm_syncwarp_after_return(const RtArgs &a, cudaStream_t s) {
  warp_deltas<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.out_u, a.n);
}

} // namespace RT_NS
