// Runner self-test: --fix rewrites a file whose warning has no fix.
// FAKE-TOUCH
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
}
