// Runner self-test: a warning nobody expects must fail the test.
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: one [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: one [warp-fake]
  out[threadIdx.x + 1] = 2;
  // FAKE-WARNING: 3: two [warp-fake]
}
