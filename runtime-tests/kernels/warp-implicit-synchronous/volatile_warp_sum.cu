// warp-implicit-synchronous: the pre-Volta warp reduction through volatile
// shared memory, each warp in its own 64 slots, no __syncwarp() between the
// steps or between a step's reads and writes.
// Outputs: out_f[i] = the sum of v(k) over i's warp, v(k) = in_f[k] for
// k < n, else 0.
#include "rt_launch.h"

namespace RT_NS {

__global__ void volatile_warp_sum(const float *in, float *out, int n) {
  __shared__ float slots[32 * 64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  volatile float *ws = slots + (threadIdx.x / 32) * 64;
  ws[lane + 32] = 0.0f;
  ws[lane] = i < n ? in[i] : 0.0f;
  ws[lane] += ws[lane + 16];
  ws[lane] += ws[lane + 8];
  ws[lane] += ws[lane + 4];
  ws[lane] += ws[lane + 2];
  ws[lane] += ws[lane + 1];
  if (i < n)
    out[i] = ws[0];
}

void isync_volatile_warp_sum(const RtArgs &a, cudaStream_t s) {
  volatile_warp_sum<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
