// Runner self-test: a misspelt directive must not be ignored silently.
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
}
