// warp-uniform-address-atomic, integer slots, shared, fixed: warp-aggregated
// shared atomic.
#include "rt_launch.h"

namespace RT_NS {

__global__ void compact_shared(const int *in, int *out, unsigned *counts,
                               int n) {
  __shared__ int s_count;
  __shared__ int s_buf[1024];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  if (threadIdx.x == 0)
    s_count = 0;
  __syncthreads();
  const int x = (i < n) ? in[i] : 0;
  const bool keep = x > 0;
  const unsigned kept = __ballot_sync(0xffffffff, keep);
  int base = 0;
  if (lane == 0 && kept != 0)
    base = atomicAdd(&s_count, __popc(kept));
  base = __shfl_sync(0xffffffff, base, 0);
  if (keep)
    s_buf[base + __popc(kept & ((1u << lane) - 1))] = x;
  __syncthreads();
  for (int j = threadIdx.x; j < s_count; j += blockDim.x)
    out[blockIdx.x * blockDim.x + j] = s_buf[j];
  if (threadIdx.x == 0)
    counts[blockIdx.x] = s_count;
}

void uaa_int_slots_shared(const RtArgs &a, cudaStream_t s) {
  compact_shared<<<a.grid, a.block, 0, s>>>(a.in_i, a.out_i, a.out_u, a.n);
}

} // namespace RT_NS
