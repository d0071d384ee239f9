// warp-divergent-full-mask (a): a full-mask shuffle reduction after an early
// return. In a partial warp the exited lanes are named by the mask but never
// arrive; the lanes that read from them get undefined values.
// Outputs: out_f[w] = sum of in_f over global warp w.
#include "rt_launch.h"

namespace RT_NS {

__global__ void warp_sums_early_return(const float *in, float *warp_sums,
                                       int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffff, v, off);
  if ((threadIdx.x & 31) == 0)
    warp_sums[i / 32] = v;
}

void dfm_early_return_reduce(const RtArgs &a, cudaStream_t s) {
  warp_sums_early_return<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
