// Tests of warp-shuffle-source-outside-mask: a lane named by a shuffle's
// mask reads a source lane (srcLane, lane - delta, lane + delta,
// lane ^ laneMask, within width) that the mask does not name.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- shfl_down past the end of a half-warp mask ----------------------------

__global__ void down_past_half(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_down_sync(0xffff, v, 8);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes 8..15 of '__shfl_down_sync' read lanes 16..23, which mask 0x0000ffff does not name: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-2]]:38: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: lanes 8..15 read lanes 16..23 outside the mask
    // CHECK-NOTES: :[[@LINE-4]]:10: note: lanes: mask 0x0000ffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: wrong-values: lanes 8..15 get undefined values (0 on sm_90)
  out[threadIdx.x] = v;
}

// --- shfl_up below the start of the upper half -----------------------------

__global__ void up_below_upper_half(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 16)
    v += __shfl_up_sync(0xffff0000, v, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes 16..19 of '__shfl_up_sync' read lanes 12..15, which mask 0xffff0000 does not name: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-2]]:40: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: lanes 16..19 read lanes 12..15 outside the mask
    // CHECK-NOTES: :[[@LINE-4]]:10: note: lanes: mask 0xffff0000 arrive 0xffff0000
    // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: wrong-values: lanes 16..19 get undefined values (0 on sm_90)
  out[threadIdx.x] = v;
}

// --- A broadcast from a lane the mask leaves out ----------------------------

__global__ void broadcast_from_outside(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 8)
    v = __shfl_sync(0xff, v, 31);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: lanes 0..7 of '__shfl_sync' read lane 31, which mask 0x000000ff does not name: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-2]]:30: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-3]]:9: note: witness: lanes 0..7 read lane 31 outside the mask
    // CHECK-NOTES: :[[@LINE-4]]:9: note: lanes: mask 0x000000ff arrive 0x000000ff
    // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: wrong-values: lanes 0..7 get undefined values (0 on sm_90)
  out[threadIdx.x] = v;
}

// --- A butterfly that crosses into lanes outside the mask ------------------

__global__ void xor_outside(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_xor_sync(0xffff, v, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes 0..15 of '__shfl_xor_sync' read lanes 16..31, which mask 0x0000ffff does not name: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-2]]:37: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: lanes 0..15 read lanes 16..31 outside the mask
    // CHECK-NOTES: :[[@LINE-4]]:10: note: lanes: mask 0x0000ffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: wrong-values: lanes 0..15 get undefined values (0 on sm_90)
  out[threadIdx.x] = v;
}

// --- A reduction over a ballot mask (cuda-samples #398's shape) -----------

// With one thread left active the ballot names lane 0 alone, and the
// reduction's offsets 16..1 make it read lanes 16, 8, 4, 2 and 1.
template <unsigned BlockSize>
__global__ void reduce_tail_with_ballot_mask(float *out, const float *in) {
  const unsigned tid = threadIdx.x;
  constexpr unsigned Extent = BlockSize / 32 < 32 ? BlockSize / 32 : 32;
  float sum = in[tid];
  const unsigned active = __ballot_sync(0xffffffff, tid < Extent);
  if (tid < Extent) {
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(active, sum, offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: lane 0 of '__shfl_down_sync' read lane 16, which mask 0x00000001 does not name: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-2]]:44: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-3]]:14: note: witness: lane 0 read lane 16 outside the mask
    // CHECK-NOTES: :[[@LINE-4]]:14: note: lanes: mask 0x00000001 arrive 0x00000001
    // CHECK-NOTES: :[[@LINE-5]]:14: note: consequence: wrong-values: lane 0 get undefined values (0 on sm_90)
  }
  if (tid == 0)
    out[blockIdx.x] = sum;
}
template __global__ void reduce_tail_with_ballot_mask<32>(float *, const float *);

// A warp reduction in a helper, called after the lanes past the end left:
// the helper's shuffles read them as if written in the kernel. With n = 17
// lanes 17..31 are gone, and lanes 1..15 add what they read from them.
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  // CHECK-NOTES: :[[@LINE-1]]:10: note: the shuffle runs here, with the full mask
  // CHECK-NOTES: :[[@LINE-2]]:42: note: the source lane is computed from this operand
  return v;
}

__global__ void sum_after_bounds_exit(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = warp_sum(in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: lanes 1..15 of 'warp_sum' read lanes 17..31 through '__shfl_down_sync', which have left the kernel: the values read are undefined [warp-shuffle-source-outside-mask]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 leave before it
  // CHECK-NOTES: :[[@LINE-4]]:13: note: lanes: mask 0xffffffff arrive 0x0001ffff
  // CHECK-NOTES: :[[@LINE-5]]:13: note: consequence: wrong-values: lanes 1..15 get undefined values (0 on sm_90)
  // CHECK-NOTES: :[[@LINE-7]]:5: note: keep these lanes in the warp with a neutral value instead of leaving, so that every lane the shuffle reads is there
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}

// A broadcast from lane 0 with the ballot of a per-lane flag as mask, run
// by the lanes whose flag is set: lane 0 is in the mask only when its own
// flag is set. Data tier: which lanes those are, each lane's load says.
__global__ void broadcast_over_flag_ballot(float *out, const float *in,
                                           const int *flag) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __ballot_sync(0xffffffff, flag[t]);
  if (flag[t])
    out[t] = __shfl_sync(m, in[t], 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl_sync' reads lane 0, which its mask names only where lane 0's own 'flag[t]' holds: when it does not, the lanes that call read a lane outside the mask, and the values read are undefined [warp-shuffle-source-outside-mask]
  // CHECK-NOTES: :[[@LINE-4]]:16: note: the mask is the ballot of 'flag[t]' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: only the lanes where it holds call the shuffle
  // CHECK-NOTES: :[[@LINE-4]]:14: note: data: whether lane 0 is in the mask depends on 'flag[t]', which each lane loads from its own address
  // CHECK-NOTES: :[[@LINE-5]]:14: note: consequence: wrong-values: the calling lanes get undefined values (0 on sm_90)
  // CHECK-NOTES: :[[@LINE-6]]:36: note: read from the first lane of the mask instead: '__ffs(mask) - 1'
}

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

// Lanes 8..15 read past the width of 16 and get their own value back.
__global__ void down_clamped_by_width(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_down_sync(0xffff, v, 8, 16);
  out[threadIdx.x] = v;
}

// A butterfly inside the half.
__global__ void xor_inside(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_xor_sync(0xffff, v, 8);
  out[threadIdx.x] = v;
}

// shfl_up: the low lanes of the segment get their own value back.
__global__ void up_inside(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_up_sync(0xffff, v, 4);
  out[threadIdx.x] = v;
}

// The full mask names every source.
__global__ void full_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  out[threadIdx.x] = v;
}

// A source lane from data: not known.
__global__ void data_source(float *out, const float *in, const int *src) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(0xffff, v, src[threadIdx.x]);
  out[threadIdx.x] = v;
}

// The ballot of `lane < 16` names lanes 0..15, and offsets 8..1 stay there.
__global__ void ballot_mask_reduction_within(float *out, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned low = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 16)
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor_sync(low, v, offset);
  out[threadIdx.x] = v;
}

// Each half with its own mask, a broadcast from the half's first lane.
__global__ void per_half_broadcast(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  float v = in[threadIdx.x];
  v = __shfl_sync(half, v, 0, 16);
  out[threadIdx.x] = v;
}

// Segments of 16 lanes, each leaving as a whole: the xor butterfly stays in
// its segment, so no lane reads one that left. The block index is not
// blockIdx.x itself and the row count is a product: neither is a run-time
// value free to take any value (a block offset is a multiple of the block).
__global__ void segment_norms(const float *x, float *y, int rows, int heads,
                              int first_block) {
  const int block_idx = blockIdx.x >= first_block ? blockIdx.x - first_block
                                                  : blockIdx.x;
  const int row = (threadIdx.x + block_idx * blockDim.x) / 16;
  if (row >= rows * heads)
    return;
  float v = x[row * 16 + threadIdx.x % 16];
  for (int o = 8; o >= 1; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  y[row] = v;
}

// The same helper after whole warps leave: every lane it reads is there.
__global__ void sum_after_warp_exit(float *out, const float *in, int warps) {
  int w = threadIdx.x / 32;
  if (w >= warps)
    return;
  float v = warp_sum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[w] = v;
}

// A helper's butterfly within 16-lane segments after whole segments leave.
__device__ float segment_sum16(float v) {
  for (int o = 8; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, 16);
  return v;
}

__global__ void segments_after_row_exit(float *out, const float *in,
                                        int rows) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
  if (row >= rows)
    return;
  float v = segment_sum16(in[row * 16 + threadIdx.x % 16]);
  if (threadIdx.x % 16 == 0)
    out[row] = v;
}

// A vote in a helper after lanes leave: exited lanes are exempt from it.
__device__ unsigned lanes_with(bool p) { return __ballot_sync(0xffffffff, p); }

__global__ void vote_after_exit(unsigned *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = lanes_with(in[i] > 0);
}

// The same broadcast from the first lane the mask names (the fix), and
// from lane 0 where the predicate keeps lane 0 in the mask.
__global__ void broadcast_from_first_flagged(float *out, const float *in,
                                             const int *flag) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = __ballot_sync(0xffffffff, flag[t]);
  if (flag[t])
    out[t] = __shfl_sync(m, in[t], __ffs(m) - 1);
  const bool keep = threadIdx.x % 32 == 0 || flag[t] > 1;
  const unsigned k = __ballot_sync(0xffffffff, keep);
  if (keep)
    out[t] += __shfl_sync(k, in[t], 0);
}

// --- Cooperative-groups tiles: shuffles within the tile --------------------

// A tile's shuffle after the lanes past the end left reads them.
__global__ void tile_sum_after_bounds_exit(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[i];
  for (int o = 16; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes 1..15 of 'thread_block_tile<32>::shfl_down' read lanes 17..31, which have left the kernel: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: lanes exit here
    // CHECK-NOTES: :[[@LINE-3]]:28: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-4]]:10: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 leave before it
    // CHECK-NOTES: :[[@LINE-5]]:10: note: lanes: mask 0xffffffff arrive 0x0001ffff
    // CHECK-NOTES: :[[@LINE-6]]:10: note: consequence: wrong-values: lanes 1..15 get undefined values (0 on sm_90)
    // CHECK-NOTES: :[[@LINE-11]]:5: note: keep these lanes in the warp with a neutral value instead of leaving, so that every lane the shuffle reads is there
  if (tile.thread_rank() == 0)
    atomicAdd(out, v);
}

// The same in 16-thread tiles: with n = 17 the second tile has lane 16 alone.
__global__ void tile16_butterfly_after_bounds_exit(float *out, const float *in,
                                                   int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  float v = in[i];
  for (int o = 8; o > 0; o /= 2)
    v += tile.shfl_xor(v, o);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lane 16 of 'thread_block_tile<16>::shfl_xor' read lane 24, which has left the kernel: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: lanes exit here
    // CHECK-NOTES: :[[@LINE-3]]:27: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-4]]:10: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 leave before it
    // CHECK-NOTES: :[[@LINE-5]]:10: note: lanes: mask 0xffffffff arrive 0x0001ffff
    // CHECK-NOTES: :[[@LINE-6]]:10: note: consequence: wrong-values: lane 16 get undefined values (0 on sm_90)
    // CHECK-NOTES: :[[@LINE-11]]:5: note: keep these lanes in the warp with a neutral value instead of leaving, so that every lane the shuffle reads is there
  out[i] = v;
}

// One row per 16-thread tile: the exit keeps whole tiles, and the butterfly
// stays inside each.
__global__ void tile16_rows_exit_whole_tiles(float *out, const float *in,
                                             int rows) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
  if (row >= rows)
    return;
  float v = in[row * 16 + tile.thread_rank()];
  for (int o = 8; o > 0; o /= 2)
    v += tile.shfl_xor(v, o);
  if (tile.thread_rank() == 0)
    out[row] = v;
}

// A helper runs in the blocks of the kernels that call it: with the unit's
// one launch of 256 threads, the second reduction runs in lanes 0..7 of
// warp 0, and its butterfly reads lanes 8..31, which have returned.
template <int N>
__device__ float butterfly_sum(float v) {
  for (int o = N / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o, N);
  return v;
}
__device__ float block_sum_partial_warp(float v) {
  __shared__ float partial[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = butterfly_sum<32>(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (threadIdx.x < blockDim.x / 32)
    v = butterfly_sum<32>(partial[lane]);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: lanes 0..7 of 'butterfly_sum' read lanes 16..23 through '__shfl_xor_sync', which have left the kernel: the values read are undefined [warp-shuffle-source-outside-mask]
    // CHECK-NOTES: :[[@LINE-3]]:19: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-14]]:10: note: the shuffle runs here, with the full mask
    // CHECK-NOTES: :[[@LINE-15]]:41: note: the source lane is computed from this operand
    // CHECK-NOTES: :[[@LINE-5]]:9: note: witness: in a 256x1x1 block, lanes 8..31 of warp 0 of block 0 leave before it
    // CHECK-NOTES: :[[@LINE-6]]:9: note: lanes: mask 0xffffffff arrive 0x000000ff
    // CHECK-NOTES: :[[@LINE-7]]:9: note: consequence: wrong-values: lanes 0..7 get undefined values (0 on sm_90)
  return v;
}
__global__ void row_sums_256(float *out, const float *in) {
  const float v = block_sum_partial_warp(in[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}
void launch_row_sums_256(float *out, const float *in, int rows) {
  row_sums_256<<<rows, 256>>>(out, in);
}
