// Runner self-test: a note nobody expects must fail the test, even when its
// warning is expected (check_clang_tidy.py's CHECK-NOTES rule).
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
  // FAKE-NOTE: 4:3: expected note
  // CHECK-NOTES: :[[@LINE-4]]:3: note: expected note
  // FAKE-NOTE: 3:17: nobody expects this note
}
