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
  int slot = atomicAdd(count, 1);
  out[slot] = v;
}

void uaa_int_slots_converged(const RtArgs &a, cudaStream_t s) {
  slots_converged<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.counter, a.n);
}

} // namespace RT_NS
