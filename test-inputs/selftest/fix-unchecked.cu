// Runner self-test: a fix is applied but no CHECK-FIXES says what to expect.
__global__ void kernel(float *out, unsigned mask) {
  float v = out[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 8);
  // FAKE-WARNING: 8: full mask [warp-fake] | 0xffffffff => mask
  // CHECK-MESSAGES: :[[@LINE-2]]:8: warning: full mask [warp-fake]
  out[threadIdx.x] = v;
}
