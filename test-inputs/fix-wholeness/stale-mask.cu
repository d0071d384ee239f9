// warp-stale-mask: two shuffles in one branch with a mask taken before it
// share one recomputed `branch_mask`; the lanes that skip the branch
// wait at the block barrier.
__global__ void activemask_then_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  unsigned m = __activemask();
  if (lane < 16) {
    v = __shfl_sync(m, v, 1); // SITE(warp-stale-mask)
    v += __shfl_sync(m, v, 2); // SITE(warp-stale-mask)
  }
  __syncthreads();
  out[threadIdx.x] = v;
}
