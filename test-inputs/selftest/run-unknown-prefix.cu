// Runner self-test: a directive suffix that names no declared run is a
// misspelling, not an expectation that never applies.
// WARP-LINT-RUN: plain
// WARP-LINT-RUN: strict {CheckOptions: {Strict: true}}
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
  // CHECK-MESSAGES-STRIKT: :[[@LINE-3]]:3: warning: something [warp-fake]
}
