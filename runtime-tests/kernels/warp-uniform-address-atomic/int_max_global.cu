// warp-uniform-address-atomic: every lane `atomicMax`es one global int.
// Output: counter[0] (arrives as INT_MIN) = max of in_i.
#include "rt_launch.h"

namespace RT_NS {

__global__ void max_global(const int *in, int *result, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(result, in[i]);
}

void uaa_int_max_global(const RtArgs &a, cudaStream_t s) {
  max_global<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.n);
}

} // namespace RT_NS
