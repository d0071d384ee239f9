// Placeholder inputs for warp-divergent-full-mask; the checks owner extends
// this file as the analysis grows.

__global__ void shuffle_in_lane_branch(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v += __shfl_down_sync(0xffffffff, v, 8);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full {{(warp )?}}mask passed to {{.*}} in divergent code [warp-divergent-full-mask]
  }
  out[threadIdx.x] = v;
}

// The whole warp is converged here: a full mask is correct.
__global__ void converged_reduction(float *out, const float *in) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}
