// warp-divergent-full-mask (e): lanes 0..15 shuffle with the full mask and
// read lanes 16..31, which skip the branch and run on to the end of the
// kernel. Consequence class: wrong-values (a value read from a lane that is
// not at the shuffle is undefined; sm_90 returns 0).
// Outputs: out_f[i] = v(i) + v(i + 16) for lanes 0..15, v(i) for lanes
// 16..31, v(k) = in_f[k] for k < n, else 0. Threads past n stay alive.
#include "rt_launch.h"

namespace RT_NS {

__global__ void read_absent_half(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = i < n ? in[i] : 0.0f;
  if (lane < 16)
    v += __shfl_down_sync(0xffffffff, v, 16);
  if (i < n)
    out[i] = v;
}

void dfm_read_absent_half(const RtArgs &a, cudaStream_t s) {
  read_absent_half<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
