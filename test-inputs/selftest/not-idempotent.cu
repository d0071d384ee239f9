// Runner self-test: the fix keeps what it replaces, so a second --fix
// changes the file again.
__global__ void kernel(float *out) {
  float v = out[threadIdx.x];
  v += 1.0f;
  // FAKE-WARNING: 3: add more [warp-fake] | 1.0f => 1.0f + 1.0f
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: add more [warp-fake]
  // CHECK-FIXES: v += 1.0f + 1.0f;
  out[threadIdx.x] = v;
}
