#include "warp_utils.cuh"

__global__ void warp_scan(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int offset = 1; offset < 32; offset *= 2) {
    int up = __shfl_up_sync(kFullMask, v, offset);
    if (lane_id() >= offset)
      v += up;
  }
  out[threadIdx.x] = v;
}
