// warp-uniform-address-atomic, converged form: every lane takes one output
// slot with `atomicAdd(count, 1)` (threads past n write the filler -6).
// warp-lint's fix-it turns this into one atomic per warp (ballot + popc +
// leader + shuffle broadcast) with each lane's slot given by its rank.
// Output: counter[0] = threads launched; out_i[0..counter) holds in_i and
// the fillers, each exactly once.
#include "rt_launch.h"

namespace RT_NS {

__global__ void slots_converged(const int *in, int *out, int *count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : -6;
  unsigned warp_lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(warp_lane));
  const unsigned warp_ballot = __ballot_sync(0xffffffff, 1);
  int warp_base = 0;
  if (warp_lane == 0)
    warp_base = atomicAdd(count, __popc(warp_ballot));
  int slot = __shfl_sync(0xffffffff, warp_base, 0) + __popc(warp_ballot & ((1u << warp_lane) - 1));
  out[slot] = v;
}

void uaa_int_slots_converged(const RtArgs &a, cudaStream_t s) {
  slots_converged<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.counter, a.n);
}

} // namespace RT_NS
