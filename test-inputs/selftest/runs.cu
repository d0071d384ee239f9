// Runner self-test: one input, two configurations. Unsuffixed expectations
// hold in both runs, CHECK-*-STRICT ones only in the run `strict`; the
// fake reports FAKE-WARNING(Strict) only with a --config naming Strict.
// Registered once per run; both must pass.
// WARP-LINT-RUN: plain
// WARP-LINT-RUN: strict {CheckOptions: {Strict: true}}
// WARP-LINT-ARGS-STRICT: -DSTRICT_ONLY=1
__global__ void kernel(float *out, unsigned mask) {
  out[threadIdx.x] = 1;
  // FAKE-WARNING: 3: in every run [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: in every run [warp-fake]
  float v = out[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 8);
  // FAKE-WARNING(Strict): 8: only when strict [warp-fake] | 0xffffffff => mask
  // FAKE-NOTE: 12:3: strict note
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:8: warning: only when strict [warp-fake]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:3: note: strict note
  // CHECK-FIXES-STRICT: v += __shfl_down_sync(mask, v, 8);
#if STRICT_ONLY
  out[threadIdx.x] = v;
#endif
}
