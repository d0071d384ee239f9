// Tests of warp-partial-warp-launch: a launch whose block thread count is a
// constant that is not a multiple of 32, of a kernel that runs a full-mask
// warp collective with its lanes together (itself or through the functions
// it calls): the last warp of each block is partial.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

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

void launch_dim3(unsigned *out, const int *in) {
  dim3 block(100, 2);
  vote_kernel<<<1, block>>>(out, in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'vote_kernel' is launched with blocks of 200 (100 x 2 x 1) threads, not a multiple of 32: the last warp of each block has 8 lanes, but 'vote_kernel' runs '__ballot_sync' with a full mask [warp-partial-warp-launch]
  // CHECK-NOTES: :[[@LINE-30]]:16: note: '__ballot_sync' with a full mask runs here
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
