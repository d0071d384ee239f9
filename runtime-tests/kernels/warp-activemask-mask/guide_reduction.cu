// warp-activemask-mask: the CUDA programming guide's incorrect use of
// __activemask(): the mask of a reduction over the lanes with i < n is taken
// with __activemask(), which names the lanes that happen to run together.
// Outputs: out_f[i] for lane 0 of each warp = the sum of in_f over the warp's
// elements (other lanes: not checked).
#include "rt_launch.h"

namespace RT_NS {

__global__ void guide_reduction(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned mask = __activemask();
    float v = in[i];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(mask, v, offset);
    out[i] = v;
  }
}

void amm_guide_reduction(const RtArgs &a, cudaStream_t s) {
  guide_reduction<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
