// Tests of warp-activemask-mask: __activemask() used as the mask of a collective that expects particular lanes.
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
