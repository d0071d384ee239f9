// Fixed by hand as the CUDA programming guide does: __syncwarp() between
// each step's reads and its writes, and between the steps.
#include "rt_launch.h"

namespace RT_NS {

__global__ void volatile_warp_sum(const float *in, float *out, int n) {
  __shared__ float slots[32 * 64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  volatile float *ws = slots + (threadIdx.x / 32) * 64;
  ws[lane + 32] = 0.0f;
  float v = i < n ? in[i] : 0.0f;
  ws[lane] = v;
  __syncwarp();
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    v += ws[lane + offset];
    __syncwarp();
    ws[lane] = v;
    __syncwarp();
  }
  if (i < n)
    out[i] = ws[0];
}

void isync_volatile_warp_sum(const RtArgs &a, cudaStream_t s) {
  volatile_warp_sum<<<a.grid, a.block, 0, s>>>(a.in_f, a.out_f, a.n);
}

} // namespace RT_NS
