// Warp-level helpers shared by every unit.
#pragma once

constexpr unsigned kFullMask = 0xffffffffu;

__device__ inline unsigned lane_id() { return threadIdx.x % 32; }

// The whole warp must call it: every lane takes part in each shuffle.
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}
