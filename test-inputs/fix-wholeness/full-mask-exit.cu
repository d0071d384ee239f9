// warp-divergent-full-mask after an early return: the ballot of the lanes
// that stay, declared before the `if`, is the mask of both votes.
__global__ void votes_after_exit(unsigned *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned positive = __ballot_sync(0xffffffff, in[i] > 0.0f); // SITE(warp-divergent-full-mask)
  const int all = __all_sync(0xffffffff, in[i] < 1.0f); // SITE(warp-divergent-full-mask)
  out[i] = positive + all;
}
