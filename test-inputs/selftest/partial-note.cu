// Runner self-test: the note's expectation is only the start of its
// message; notes match whole too.
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
  // FAKE-NOTE: 4:3: look here, and further
  // CHECK-NOTES: :[[@LINE-4]]:3: note: look here
}
