// warp-implicit-synchronous (c): lanes hand values to each other through
// shared arrays inside lane-divergent branches, with no __syncwarp() between
// the write and the read. First the odd lanes publish and the even lanes read
// on the other side of the branch, then the roles swap, so whichever side
// runs first, one round has its readers before its writers. Consequence
// class: race (racecheck; wrong values when a reader runs first).
// Outputs: out_i[i] = 3 * x(i ^ 1) + 1, x(k) = in_i[k] for k < n, else 0.
// The slots start at -1.
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
  int got = 0;
  if (lane % 2 == 1)
    odd_levels[t] = 3 * x + 1;
  else
    got = odd_levels[t + 1];
  if (lane % 2 == 0)
    even_levels[t] = 3 * x + 1;
  else
    got = even_levels[t - 1];
  if (i < n)
    out[i] = got;
}

void isync_divergent_publish(const RtArgs &a, cudaStream_t s) {
  divergent_publish<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.n);
}

} // namespace RT_NS
