// Runner self-test: an expectation of the run `strict` that the front end
// does not report there fails that run; the run `plain` ignores it (and
// passes).
// WARP-LINT-RUN: plain
// WARP-LINT-RUN: strict {CheckOptions: {Strict: true}}
__global__ void kernel(float *out) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: something [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: something [warp-fake]
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:3: warning: strictly something [warp-fake]
}
