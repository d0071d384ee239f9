// Runner self-test: the note is reported at 6:3, not at 7:3.
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
  // FAKE-NOTE: 6:3: look here
  // CHECK-NOTES: :[[@LINE]]:3: note: look here
}
