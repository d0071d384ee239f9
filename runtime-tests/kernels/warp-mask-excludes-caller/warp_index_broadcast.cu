// warp-mask-excludes-caller: the cutlass b2b_gemm / dual_gemm shape. Every
// lane broadcasts lane 0's warp index (so that the compiler sees it as
// warp-uniform) with a mask that names lanes 0..4 only.
// Outputs: out_i[i] = the warp index of thread i in its block.
#include "rt_launch.h"

namespace RT_NS {

__global__ void warp_index_broadcast(int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp_idx = __shfl_sync(0x1f, threadIdx.x / 32, 0);
  if (i < n)
    out[i] = warp_idx;
}

void mec_warp_index_broadcast(const RtArgs &a, cudaStream_t s) {
  warp_index_broadcast<<<a.grid, a.block, 0, s>>>(a.out_i, a.n);
}

} // namespace RT_NS
