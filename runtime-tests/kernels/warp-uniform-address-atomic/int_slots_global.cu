// warp-uniform-address-atomic: stream compaction where every kept lane takes
// its output slot with `atomicAdd(count, 1)`. ptxas aggregates this at -O3 on
// sm_90, not in -G builds or other toolchains (docs/runtime-results.md).
// Outputs: counter[0] = number of x > 0; out_i[0..count) = those x, any order.
#include "rt_launch.h"

namespace RT_NS {

__global__ void compact_global(const int *in, int *out, int *count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int x = in[i];
    if (x > 0) {
      const int slot = atomicAdd(count, 1);
      out[slot] = x;
    }
  }
}

void uaa_int_slots_global(const RtArgs &a, cudaStream_t s) {
  compact_global<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.counter, a.n);
}

} // namespace RT_NS
