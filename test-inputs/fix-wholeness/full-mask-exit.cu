// warp-divergent-full-mask after a `continue`: the lanes that skip wait at
// the next iteration's block barrier. The ballot of the lanes that stay,
// declared before the `if`, is the mask of both votes.
__global__ void votes_per_step(unsigned *out, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  for (int step = 0; step < 4; ++step) {
    __syncthreads();
    if (lane >= 16)
      continue;
    const float x = in[step * blockDim.x + threadIdx.x];
    const unsigned positive = __ballot_sync(0xffffffff, x > 0.0f); // SITE(warp-divergent-full-mask)
    const int all = __all_sync(0xffffffff, x < 1.0f); // ALSO(warp-divergent-full-mask)
    out[step * blockDim.x + threadIdx.x] = positive + all;
  }
}
