// Runner self-test: the fix names a variable that does not exist.
__global__ void kernel(float *out) {
  float v = out[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 8);
  // FAKE-WARNING: 8: full mask [warp-fake] | 0xffffffff => no_such_mask
  // CHECK-MESSAGES: :[[@LINE-2]]:8: warning: full mask [warp-fake]
  // CHECK-FIXES: v += __shfl_down_sync(no_such_mask, v, 8);
  out[threadIdx.x] = v;
}
