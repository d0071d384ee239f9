// Fixed: every lane takes part with a neutral value, with the full mask
// (the lanes with i < n alone would still read lanes outside their mask).
#include "rt_launch.h"

namespace RT_NS {

__global__ void guide_reduction(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (i < n)
    out[i] = v;
}

void amm_guide_reduction(const RtArgs &a, cudaStream_t s) {
  guide_reduction<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
