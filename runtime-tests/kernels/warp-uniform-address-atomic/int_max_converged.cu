// warp-uniform-address-atomic, converged form: every lane (INT_MIN past n)
// atomicMax-es one global int. warp-lint's fix-it turns this into
// __reduce_max_sync plus one atomic per warp.
// Output: counter[0] (arrives as INT_MIN) = max of in_i.
#include "rt_launch.h"

#include <climits>

namespace RT_NS {

__global__ void max_converged(const int *in, int *result, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : INT_MIN;
  atomicMax(result, v);
}

void uaa_int_max_converged(const RtArgs &a, cudaStream_t s) {
  max_converged<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.n);
}

} // namespace RT_NS
