// warp-divergent-full-mask (h): the two half-warps run different full-mask
// shuffles; each names all 32 lanes, but only 16 arrive at each. Consequence
// class: undefined (the absent lanes are at another collective; sm_90
// returns the right values today).
// Outputs: out_f[i] = v(i ^ 1) for lanes 0..15, v(i ^ 2) for lanes 16..31,
// v(k) = in_f[k] for k < n, else 0.
#include "rt_launch.h"

namespace RT_NS {

__global__ void halves_different_shuffles(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const float v = i < n ? in[i] : 0.0f;
  float r;
  if (lane < 16)
    r = __shfl_xor_sync(0xffffffff, v, 1);
  else
    r = __shfl_xor_sync(0xffffffff, v, 2);
  if (i < n)
    out[i] = r;
}

void dfm_halves_different_shuffles(const RtArgs &a, cudaStream_t s) {
  halves_different_shuffles<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
