// Runner self-test: findings reported but exit status 0 breaks the contract.
// FAKE-EXIT: 0
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
}
