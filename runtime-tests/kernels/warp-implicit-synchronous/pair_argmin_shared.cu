// warp-implicit-synchronous (b): a warp argmin over a (key, index) pair in
// plain (not volatile) shared memory, __syncwarp() between the steps only.
// In each step lane t reads slot t + s while lane t + s may write it: an
// intra-warp data race under independent thread scheduling. Consequence
// class: race (racecheck hazards; values right on sm_90 today).
// Outputs per global warp w with elements: out_f[w] = the smallest key,
// out_i[w] = its element index; key(k) = in_i[k] * 32 + k % 32 (unique in a
// warp). Lanes past n hold the key 1e9 and index -1.
#include "rt_launch.h"

namespace RT_NS {

__global__ void pair_argmin_shared(const int *in, float *min_key, int *min_at,
                                   int n) {
  __shared__ float keys[32 * 64];
  __shared__ int at[32 * 64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float *wk = keys + (threadIdx.x / 32) * 64;
  int *wa = at + (threadIdx.x / 32) * 64;
  wk[lane] = i < n ? float(in[i] * 32 + lane) : 1e9f;
  wa[lane] = i < n ? i : -1;
  wk[lane + 32] = 1e9f;
  wa[lane + 32] = -1;
  __syncwarp();
  for (int s = 16; s > 0; s /= 2) {
    if (wk[lane + s] < wk[lane]) {
      wk[lane] = wk[lane + s];
      wa[lane] = wa[lane + s];
    }
    __syncwarp();
  }
  if (lane == 0 && i < n) {
    min_key[i / 32] = wk[0];
    min_at[i / 32] = wa[0];
  }
}

void isync_pair_argmin_shared(const RtArgs &a, cudaStream_t s) {
  pair_argmin_shared<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_f, a.out_i, a.n);
}

} // namespace RT_NS
