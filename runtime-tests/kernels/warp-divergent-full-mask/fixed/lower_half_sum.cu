// Fixed as warp-lint's fix-it does it: the mask is the ballot of the branch
// condition, taken before the branch while the warp is converged.
#include "rt_launch.h"

namespace RT_NS {

__global__ void lower_half_sum(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  float v = i < n ? in[i] : 0.0f;
  const unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 16) {
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor_sync(warp_mask, v, offset);
    if (i < n)
      out[i] = v;
  }
}

void dfm_lower_half_sum(const RtArgs &a, cudaStream_t s) {
  lower_half_sum<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
