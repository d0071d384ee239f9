// Fixed by hand as the issue's fix-it describes it: read into registers,
// __syncwarp(), write, __syncwarp().
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
  float key = i < n ? float(in[i] * 32 + lane) : 1e9f;
  int where = i < n ? i : -1;
  wk[lane] = key;
  wa[lane] = where;
  wk[lane + 32] = 1e9f;
  wa[lane + 32] = -1;
  __syncwarp();
  for (int s = 16; s > 0; s /= 2) {
    const float other_key = wk[lane + s];
    const int other_at = wa[lane + s];
    __syncwarp();
    if (other_key < key) {
      key = other_key;
      where = other_at;
      wk[lane] = key;
      wa[lane] = where;
    }
    __syncwarp();
  }
  if (lane == 0 && i < n) {
    min_key[i / 32] = key;
    min_at[i / 32] = where;
  }
}

void isync_pair_argmin_shared(const RtArgs &a, cudaStream_t s) {
  pair_argmin_shared<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_f, a.out_i, a.n);
}

} // namespace RT_NS
