// warp-divergent-full-mask (i): the README's example. Lanes 0..15 reduce
// among themselves with the full mask; lanes 16..31 skip the branch and run
// to the end of the kernel. No lane reads an absent lane. Consequence class:
// undefined (sm_90 returns the right values today).
// Outputs: out_f[i] = sum of v over lanes 0..15 of i's warp for lanes 0..15
// with i < n, v(k) = in_f[k] for k < n, else 0; lanes 16..31 write nothing.
#include "rt_launch.h"

namespace RT_NS {

__global__ void lower_half_sum(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  float v = i < n ? in[i] : 0.0f;
  if (lane < 16) {
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xffffffff, v, offset);
    if (i < n)
      out[i] = v;
  }
}

void dfm_lower_half_sum(const RtArgs &a, cudaStream_t s) {
  lower_half_sum<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
