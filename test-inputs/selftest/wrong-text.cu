// Runner self-test: the expected text is not a substring of the message.
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something else [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: not what it says [warp-fake]
}
