// warp-uniform-address-atomic, converged form under a uniform unbraced `if`:
// every lane (a neutral 0 past n) adds its float to one global address.
// warp-lint's fix-it replaces the `if` body with a block: a warp shuffle
// reduction plus one atomic per warp.
// Output: out_f[0] (arrives as 0) = sum of in_f.
#include "rt_launch.h"

namespace RT_NS {

__global__ void sum_unbraced(const float *in, float *sum, int n, bool enabled) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = i < n ? in[i] : 0.0f;
  if (enabled)
    atomicAdd(sum, v);
}

void uaa_float_sum_unbraced(const RtArgs &a, cudaStream_t s) {
  sum_unbraced<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n, a.n > 0);
}

} // namespace RT_NS
