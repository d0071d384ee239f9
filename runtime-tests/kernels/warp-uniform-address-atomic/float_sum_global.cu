// warp-uniform-address-atomic: every lane adds its float to one global
// address. Correct, but float atomics are never aggregated by the compiler:
// 32 serialised RMWs per warp (about 32x slower, docs/runtime-results.md).
// Output: out_f[0] (arrives as 0) = sum of in_f.
#include "rt_launch.h"

namespace RT_NS {

__global__ void sum_global(const float *in, float *sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, in[i]);
}

void uaa_float_sum_global(const RtArgs &a, cudaStream_t s) {
  sum_global<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
