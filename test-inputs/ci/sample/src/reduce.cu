#include "warp_utils.cuh"

// Out-of-range lanes contribute 0 instead of leaving, so the full mask holds.
__global__ void block_sum(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  if (lane_id() == 0)
    atomicAdd(out, v);
}
