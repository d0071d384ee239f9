// Tests of warp-partial-warp-launch: a launch whose block thread count is a
// constant that is not a multiple of 32, or is computed on the host from a
// runtime value in a way that can give such a count (a power of two, a cap),
// of a kernel that runs a full-mask shuffle with its lanes together (itself
// or through the functions it calls): the last warp of each block is partial.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

#include <algorithm>

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void warp_reduce_kernel(float *out, const float *in) {
  float v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

__global__ void vote_kernel(unsigned *out, const int *in) {
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  out[threadIdx.x / 32] = b;
}

__global__ void plain_kernel(float *out, const float *in) {
  out[threadIdx.x] = 2.0f * in[threadIdx.x];
}

template <typename Kernel, typename... Args>
void launch(Kernel kernel, dim3 grid, dim3 block, Args... args) {
  kernel<<<grid, block>>>(args...);
}

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

void launch_48(float *out, const float *in) {
  warp_reduce_kernel<<<4, 48>>>(out, in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'warp_reduce_kernel' is launched with blocks of 48 threads, not a multiple of 32: the last warp of each block has 16 lanes, but 'warp_reduce_kernel' runs '__shfl_down_sync' with a full mask [warp-partial-warp-launch]
  // CHECK-NOTES: :[[@LINE-31]]:10: note: '__shfl_down_sync' with a full mask runs here in 'warp_sum'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: the block is a constant 48 threads
  // CHECK-NOTES: :[[@LINE-4]]:3: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: undefined: the mask names lanes that do not exist
}

void launch_dim3(float *out, const float *in) {
  dim3 block(100, 2);
  warp_reduce_kernel<<<1, block>>>(out, in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'warp_reduce_kernel' is launched with blocks of 200 (100 x 2 x 1) threads, not a multiple of 32: the last warp of each block has 8 lanes, but 'warp_reduce_kernel' runs '__shfl_down_sync' with a full mask [warp-partial-warp-launch]
  // CHECK-NOTES: :[[@LINE-41]]:10: note: '__shfl_down_sync' with a full mask runs here in 'warp_sum'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: the block is a constant 200 (100 x 2 x 1) threads
  // CHECK-NOTES: :[[@LINE-4]]:3: note: lanes: mask 0xffffffff arrive 0x000000ff
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: undefined: the mask names lanes that do not exist
}

void launch_helper(float *out, const float *in) {
  launch(warp_reduce_kernel, dim3(8), dim3(16, 1), out, in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'warp_reduce_kernel' is launched with blocks of 16 threads, not a multiple of 32: the last warp of each block has 16 lanes, but 'warp_reduce_kernel' runs '__shfl_down_sync' with a full mask [warp-partial-warp-launch]
  // CHECK-NOTES: :[[@LINE-50]]:10: note: '__shfl_down_sync' with a full mask runs here in 'warp_sum'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: the block is a constant 16 threads
  // CHECK-NOTES: :[[@LINE-4]]:3: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: undefined: the mask names lanes that do not exist
}

// 4 x 3 threads: one warp of 12 lanes.
void launch_small_rows(float *out, const float *in) {
  warp_reduce_kernel<<<4, dim3(4, 3)>>>(out, in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'warp_reduce_kernel' is launched with blocks of 12 (4 x 3 x 1) threads, not a multiple of 32: the last warp of each block has 12 lanes, but 'warp_reduce_kernel' runs '__shfl_down_sync' with a full mask [warp-partial-warp-launch]
  // CHECK-NOTES: :[[@LINE-60]]:10: note: '__shfl_down_sync' with a full mask runs here in 'warp_sum'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: the block is a constant 12 (4 x 3 x 1) threads
  // CHECK-NOTES: :[[@LINE-4]]:3: note: lanes: mask 0xffffffff arrive 0x00000fff
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: undefined: the mask names lanes that do not exist
}

// --- Block sizes computed on the host from a runtime value ---------------
// The code bounds the size (a power of two, a cap): for some values of the
// runtime value the block is not whole warps. Conditional tier.

// 16-lane segments scanned with a full mask: the kernel assumes 32 lanes.
__global__ void segment_scan_kernel(int *out, const int *in) {
  int v = in[threadIdx.x];
  for (int i = 1; i < 16; i *= 2) {
    int u = __shfl_up_sync(0xffffffff, v, i, 16);
    if (threadIdx.x % 16 >= i)
      v += u;
  }
  out[threadIdx.x] = v;
}

static int round_up_pow2(int x) {
  int p = 1;
  while (p < x)
    p <<= 1;
  return p;
}

// A throughput rounded up to a power of two: 1..16 threads when it is small.
void launch_pow2(int *out, const int *in, int throughput) {
  segment_scan_kernel<<<1, round_up_pow2(throughput)>>>(out, in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'segment_scan_kernel' is launched with a block size computed from 'throughput' (a power of two) that can be 16 threads, not a multiple of 32: the last warp of each block then has 16 lanes, but 'segment_scan_kernel' runs '__shfl_up_sync' with a full mask [warp-partial-warp-launch]
  // CHECK-NOTES: :[[@LINE-18]]:13: note: '__shfl_up_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: condition: only for some values of 'throughput': the block has 1, 2, 4, 8 or 16 threads for some of them
  // CHECK-NOTES: :[[@LINE-4]]:3: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: undefined: the mask names lanes that do not exist
}

// A power of two by a shift of a runtime exponent, through the launch helper.
void launch_shift(float *out, const float *in, int log_threads) {
  launch(warp_reduce_kernel, dim3(1), dim3(1 << log_threads), out, in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'warp_reduce_kernel' is launched with a block size computed from 'log_threads' (a power of two) that can be 16 threads, not a multiple of 32: the last warp of each block then has 16 lanes, but 'warp_reduce_kernel' runs '__shfl_down_sync' with a full mask [warp-partial-warp-launch]
  // CHECK-NOTES: :[[@LINE-102]]:10: note: '__shfl_down_sync' with a full mask runs here in 'warp_sum'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: condition: only for some values of 'log_threads': the block has 1, 2, 4, 8 or 16 threads for some of them
  // CHECK-NOTES: :[[@LINE-4]]:3: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: undefined: the mask names lanes that do not exist
}

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

// Multiples of 32.
void launch_aligned(float *out, const float *in, unsigned *bits,
                    const int *keys) {
  warp_reduce_kernel<<<4, 64>>>(out, in);
  vote_kernel<<<1, dim3(32, 4)>>>(bits, keys);
}

// Warps are cut from the linear thread index: 4 x 8 and 8 x 4 x 2 threads
// make whole warps although x alone is not a multiple of 32.
void launch_narrow_rows(float *out, const float *in) {
  warp_reduce_kernel<<<4, dim3(4, 8)>>>(out, in);
  dim3 block(8, 4, 2);
  warp_reduce_kernel<<<4, block>>>(out, in);
}

// Rows of 4 threads and a row count not known here: the warps may be whole.
void launch_unknown_rows(float *out, const float *in, int rows) {
  warp_reduce_kernel<<<4, dim3(4, rows)>>>(out, in);
}

// A kernel that needs no full warp.
void launch_plain(float *out, const float *in) {
  plain_kernel<<<1, 48>>>(out, in);
}

// A block size that is not known here.
void launch_runtime(float *out, const float *in, int n) {
  warp_reduce_kernel<<<1, n>>>(out, in);
}

// A cap on a runtime value bounds nothing: n may well be whole warps (a
// size rounded up to them elsewhere, a power of two of at least 32). A
// finding here would rest on not knowing n, not on the code.
void launch_capped(float *out, const float *in, int n) {
  const int threads = std::min(n, 256);
  warp_reduce_kernel<<<(n + threads - 1) / threads, threads>>>(out, in);
  int clamped = n;
  if (clamped > 128)
    clamped = 128;
  launch(warp_reduce_kernel, dim3(1), dim3(clamped), out, in);
  warp_reduce_kernel<<<1, n < 64 ? n : 64>>>(out, in);
}

// Rounded up to whole warps, then capped: every value is a multiple of 32.
void launch_rounded_then_capped(float *out, const float *in, int n) {
  int threads = (n + 31) / 32 * 32;
  threads = std::min(threads, 1024);
  warp_reduce_kernel<<<1, threads>>>(out, in);
  warp_reduce_kernel<<<1, std::min((n + 31) & ~31, 512)>>>(out, in);
}

// A power of two of at least one warp, three ways.
void launch_pow2_at_least_a_warp(float *out, const float *in, int n) {
  warp_reduce_kernel<<<1, std::max(32, round_up_pow2(n))>>>(out, in);
  int threads = round_up_pow2(n);
  if (threads < 32)
    threads = 32;
  warp_reduce_kernel<<<1, threads>>>(out, in);
  int doubled = 32;
  while (doubled < n && doubled < 1024)
    doubled *= 2;
  warp_reduce_kernel<<<1, doubled>>>(out, in);
}

// A loop that stops at a constant: always 256 threads.
void launch_pow2_to_constant(float *out, const float *in) {
  int threads = 1;
  while (threads < 256)
    threads *= 2;
  warp_reduce_kernel<<<1, threads>>>(out, in);
}

// Raised to one warp but not capped or rounded: as unknown as n itself.
void launch_raised(float *out, const float *in, int n) {
  int threads = n;
  if (threads < 32)
    threads = 32;
  warp_reduce_kernel<<<1, threads>>>(out, in);
}

// A kernel whose only collective is a vote. The lanes a partial warp lacks
// never run: a vote, like one after `if (i >= n) return;`, leaves them out
// (CUDA defines it over the non-exited lanes the mask names).
void launch_vote(unsigned *out, const int *in, int n) {
  vote_kernel<<<1, dim3(100, 2)>>>(out, in);
  vote_kernel<<<1, std::min(n, 256)>>>(out, in);
}
