// Fixed by hand: each round's writes and reads are separated by
// __syncwarp(), called by the whole warp outside the branches.
#include "rt_launch.h"

namespace RT_NS {

__global__ void divergent_publish(const int *in, int *out, int n) {
  __shared__ int odd_levels[1024];
  __shared__ int even_levels[1024];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  const int lane = t % 32;
  const int x = i < n ? in[i] : 0;
  odd_levels[t] = -1;
  even_levels[t] = -1;
  __syncthreads();
  if (lane % 2 == 1)
    odd_levels[t] = 3 * x + 1;
  else
    even_levels[t] = 3 * x + 1;
  __syncwarp();
  const int got = lane % 2 == 0 ? odd_levels[t + 1] : even_levels[t - 1];
  if (i < n)
    out[i] = got;
}

void isync_divergent_publish(const RtArgs &a, cudaStream_t s) {
  divergent_publish<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.n);
}

} // namespace RT_NS
