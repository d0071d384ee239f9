// Runner self-test: the expectation is only the end of the message; texts
// must match the whole message.
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: the whole message [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: message [warp-fake]
}
