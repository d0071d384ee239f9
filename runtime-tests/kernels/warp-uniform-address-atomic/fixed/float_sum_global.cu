// warp-uniform-address-atomic, float, global, fixed: a shuffle reduction over
// the whole warp (lanes without an element bring 0) and one atomic per warp.
#include "rt_launch.h"

namespace RT_NS {

__global__ void sum_global(const float *in, float *sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffff, v, off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(sum, v);
}

void uaa_float_sum_global(const RtArgs &a, cudaStream_t s) {
  sum_global<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
