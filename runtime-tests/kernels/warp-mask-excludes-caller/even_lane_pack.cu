// warp-mask-excludes-caller (b): nibble packing as quantizers write it.
// Every lane calls __shfl_down_sync with a mask of the even lanes, so the
// odd lanes call a shuffle whose mask leaves them out (and the even lanes
// read odd lanes outside the mask). Consequence class: trap (illegal
// instruction in a -G build; silent in a release build on sm_90).
// Outputs: out_u[i / 2] = q(i) | q(i + 1) << 4 for even i < n, where
// q(k) = (in_i[k] + 5) & 0xf for k < n, else 0.
#include "rt_launch.h"

namespace RT_NS {

__global__ void even_lane_pack(const int *in, unsigned *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const unsigned q = i < n ? unsigned(in[i] + 5) & 0xfu : 0u;
  const unsigned word = q | (__shfl_down_sync(0x55555555, q, 1) << 4);
  if (lane % 2 == 0 && i < n)
    out[i / 2] = word;
}

void mec_even_lane_pack(const RtArgs &a, cudaStream_t s) {
  even_lane_pack<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_u, a.n);
}

} // namespace RT_NS
