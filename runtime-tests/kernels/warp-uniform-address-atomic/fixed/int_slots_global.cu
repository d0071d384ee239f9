// warp-uniform-address-atomic, integer slots, global, fixed: warp-aggregated
// atomic (ballot + popc, one atomic by lane 0, base broadcast by shuffle).
#include "rt_launch.h"

namespace RT_NS {

__global__ void compact_global(const int *in, int *out, int *count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int x = (i < n) ? in[i] : 0;
  const bool keep = x > 0;
  const unsigned kept = __ballot_sync(0xffffffff, keep);
  int base = 0;
  if (lane == 0 && kept != 0)
    base = atomicAdd(count, __popc(kept));
  base = __shfl_sync(0xffffffff, base, 0);
  if (keep)
    out[base + __popc(kept & ((1u << lane) - 1))] = x;
}

void uaa_int_slots_global(const RtArgs &a, cudaStream_t s) {
  compact_global<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.counter, a.n);
}

} // namespace RT_NS
