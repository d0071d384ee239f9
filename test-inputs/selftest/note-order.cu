// Runner self-test: both notes are reported, but in the other order.
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
  // FAKE-NOTE: 3:7: second
  // FAKE-NOTE: 3:3: first
  // CHECK-NOTES: :[[@LINE-5]]:3: note: first
  // CHECK-NOTES: :[[@LINE-6]]:7: note: second
  // CHECK-NOTE-ORDER: :[[@LINE-7]]:3: [[@LINE-7]]:3 [[@LINE-7]]:7
}
