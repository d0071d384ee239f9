// warp-divergent-full-mask (f): a full-mask min reduction after an early
// return. In a partial warp the lanes that read exited lanes get undefined
// values (0 on sm_90), below every key. Consequence class: wrong-values.
// Outputs: out_i[w] = min over the elements k of global warp w of
// |in_i[k]| + 1 (every key is at least 1).
#include "rt_launch.h"

namespace RT_NS {

__global__ void exited_lane_min(const int *in, int *warp_min, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int key = abs(in[i]) + 1;
  for (int off = 16; off > 0; off >>= 1)
    key = min(key, __shfl_xor_sync(0xffffffff, key, off));
  if (threadIdx.x % 32 == 0)
    warp_min[i / 32] = key;
}

void dfm_exited_lane_min(const RtArgs &a, cudaStream_t s) {
  exited_lane_min<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.n);
}

} // namespace RT_NS
