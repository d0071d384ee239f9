// warp-divergent-full-mask: three collectives in one branch, one finding
// (one cause); the lanes that skip the branch wait at the block barrier.
// One `const unsigned warp_mask = __ballot_sync(...)` declared before the
// `if` is the mask of all three.
__global__ void half_warp(float *out, const float *in) {
  __shared__ float tile[32];
  const unsigned lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    v += __shfl_xor_sync(0xffffffff, v, 4); // SITE(warp-divergent-full-mask)
    tile[lane] = v;
    __syncwarp(); // ALSO(warp-divergent-full-mask)
    v += __shfl_down_sync(0xffffffff, tile[lane ^ 1], 2, 16); // ALSO(warp-divergent-full-mask)
  }
  __syncthreads();
  out[threadIdx.x] = v;
}
