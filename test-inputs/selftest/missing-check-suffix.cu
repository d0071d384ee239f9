// Runner self-test: a CHECK-MESSAGES text without the [check-id] suffix is
// a bad test input (warnings are written whole, their check included).
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something
}
