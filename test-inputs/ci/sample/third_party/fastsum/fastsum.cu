// Vendored: a half-warp sum that names all 32 lanes (a real warp bug, but
// not this project's to fix; .warp-lint.yaml excludes third_party/).
__global__ void fastsum_half(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}
