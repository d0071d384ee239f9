#include "warp_utils.cuh"

// Lanes with the same bin add once per warp, through a match.
__global__ void histogram(const int *keys, int *bins) {
  int key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned peers = __match_any_sync(kFullMask, key);
  int leader = __ffs(peers) - 1;
  if (lane_id() == unsigned(leader))
    atomicAdd(&bins[key], __popc(peers));
}
