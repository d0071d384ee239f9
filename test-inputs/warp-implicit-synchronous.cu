// Tests of warp-implicit-synchronous: pre-Volta warp-synchronous code without __syncwarp.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

__global__ void converged_full_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0);
}
