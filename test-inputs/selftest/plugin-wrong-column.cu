// Runner self-test against the real plugin: the warning is at column 10
// (the call), the expectation says column 4.
__global__ void kernel(float *out) {
  float v = out[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v += __shfl_down_sync(0xffffffff, v, 8);
    // CHECK-MESSAGES: :[[@LINE-1]]:4: warning: full warp mask passed to '__shfl_down_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
    // CHECK-FIXES: v += __shfl_down_sync(warp_mask, v, 8);
  }
  out[threadIdx.x] = v;
}
