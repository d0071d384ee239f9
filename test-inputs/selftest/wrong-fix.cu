// Runner self-test: the fix produces `mask`, the expectation says `m`.
__global__ void kernel(float *out, unsigned mask) {
  float v = out[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 8);
  // FAKE-WARNING: 8: full mask [warp-fake] | 0xffffffff => mask
  // CHECK-MESSAGES: :[[@LINE-2]]:8: warning: full mask [warp-fake]
  // CHECK-FIXES: v += __shfl_down_sync(mask, v, 8);
  out[threadIdx.x] = v;
  // CHECK-FIXES: v += __shfl_down_sync(m, v, 8);
}
