// Runner self-test: the expectation names line 9, the warning is on line 8.
__global__ void kernel(float *out) {
  float v = out[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v += __shfl_down_sync(0xffffffff, v, 8);
  }
  out[threadIdx.x] = v;
  out[threadIdx.x + 1] = v;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: something [warp-fake]
}
