// warp-uniform-address-atomic, converged form under a uniform unbraced `if`,
// fixed: the body is a block with a warp shuffle reduction and one atomic
// per warp.
// Output: out_f[0] (arrives as 0) = sum of in_f.
#include "rt_launch.h"

namespace RT_NS {

__global__ void sum_unbraced(const float *in, float *sum, int n, bool enabled) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = i < n ? in[i] : 0.0f;
  if (enabled) {
    float total = v;
    for (int offset = 16; offset > 0; offset /= 2)
      total += __shfl_down_sync(0xffffffff, total, offset);
    if (threadIdx.x % 32 == 0)
      atomicAdd(sum, total);
  }
}

void uaa_float_sum_unbraced(const RtArgs &a, cudaStream_t s) {
  sum_unbraced<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n, a.n > 0);
}

} // namespace RT_NS
