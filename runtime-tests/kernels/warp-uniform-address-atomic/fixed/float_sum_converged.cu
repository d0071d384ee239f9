// warp-uniform-address-atomic, converged form: every lane (a neutral 0 past
// n) adds its float to one global address. warp-lint's fix-it turns this
// into a warp shuffle reduction plus one atomic per warp.
// Output: out_f[0] (arrives as 0) = sum of in_f.
#include "rt_launch.h"

namespace RT_NS {

__global__ void sum_converged(const float *in, float *sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = i < n ? in[i] : 0.0f;
  {
    unsigned warp_lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(warp_lane));
    float warp_value = v;
    for (int warp_offset = 16; warp_offset > 0; warp_offset /= 2)
      warp_value += __shfl_down_sync(0xffffffff, warp_value, warp_offset);
    if (warp_lane == 0)
      atomicAdd(sum, warp_value);
  }
}

void uaa_float_sum_converged(const RtArgs &a, cudaStream_t s) {
  sum_converged<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
