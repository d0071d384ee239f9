// Runner self-test: every expectation is right, so the runner must pass.
__global__ void kernel(float *out, unsigned mask) {
  float v = out[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v += __shfl_down_sync(0xffffffff, v, 8);
    // FAKE-WARNING: 10: full mask in the fake [warp-fake] | 0xffffffff => mask
    // FAKE-NOTE: 4:7: lanes diverge here
    // CHECK-MESSAGES: :[[@LINE-3]]:10: warning: full mask {{i[n]}} the fake [warp-fake]
    // CHECK-NOTES: :4:7: note: lanes diverge here
    // CHECK-FIXES: v += __shfl_down_sync(mask, v, 8);
  }
  out[threadIdx.x] = v;
  // FAKE-WARNING: 3: no fix for this one [warp-fake]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: no fix for this one [warp-fake]
}
