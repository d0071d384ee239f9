// Tests of warp-implicit-synchronous: lanes exchanging values through
// volatile shared memory with no __syncwarp() between one lane's write and
// another lane's read (the pre-Volta warp-synchronous reduction), and the
// legacy warp intrinsics without a mask.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- The classic last-warp reduction ---------------------------------------

__global__ void classic_last_warp(float *out, const float *in) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *vs = s;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'vs[tid + 16]' is read while another lane writes it as 'vs[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    vs[tid] += vs[tid + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'vs[tid + 8]' is read while another lane writes it as 'vs[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    vs[tid] += vs[tid + 4];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'vs[tid + 4]' is read while another lane writes it as 'vs[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    vs[tid] += vs[tid + 2];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'vs[tid + 2]' is read while another lane writes it as 'vs[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    vs[tid] += vs[tid + 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'vs[tid + 1]' is read while another lane writes it as 'vs[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-FIXES: { __syncwarp(); auto warp_step = vs[tid] + (vs[tid + 16]); __syncwarp(); vs[tid] = warp_step; __syncwarp(); }
    // CHECK-FIXES: { auto warp_step1 = vs[tid] + (vs[tid + 8]); __syncwarp(); vs[tid] = warp_step1; __syncwarp(); }
    // CHECK-FIXES: { auto warp_step2 = vs[tid] + (vs[tid + 4]); __syncwarp(); vs[tid] = warp_step2; __syncwarp(); }
    // CHECK-FIXES: { auto warp_step3 = vs[tid] + (vs[tid + 2]); __syncwarp(); vs[tid] = warp_step3; __syncwarp(); }
    // CHECK-FIXES: { auto warp_step4 = vs[tid] + (vs[tid + 1]); __syncwarp(); vs[tid] = warp_step4; __syncwarp(); }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// --- The same as a helper, unrolled by a template (the CUDA sample's form) --

template <unsigned BlockSize>
__device__ void warp_reduce(volatile int *sdata, unsigned tid) {
  if (BlockSize >= 64)
    sdata[tid] += sdata[tid + 32];
  if (BlockSize >= 32)
    sdata[tid] += sdata[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'sdata[tid + 16]' is read while another lane writes it as 'sdata[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-FIXES: { __syncwarp(); auto warp_step = sdata[tid] + (sdata[tid + 16]); __syncwarp(); sdata[tid] = warp_step; __syncwarp(); }
  if (BlockSize >= 16)
    sdata[tid] += sdata[tid + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'sdata[tid + 8]' is read while another lane writes it as 'sdata[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-FIXES: { auto warp_step1 = sdata[tid] + (sdata[tid + 8]); __syncwarp(); sdata[tid] = warp_step1; __syncwarp(); }
}

__global__ void reduce_with_helper(int *out, const int *in) {
  __shared__ int sdata[64];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32)
    warp_reduce<64>(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// --- Reads and writes already apart, but the steps are not ------------------

__global__ void steps_not_apart(float *out, const float *in) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *vs = s;
    float v = vs[tid] + vs[tid + 32];
    vs[tid] = v;
    v += vs[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'vs[tid + 16]' is read after other lanes wrote it as 'vs[tid]' with no __syncwarp() in between: the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: written here
    // CHECK-FIXES: __syncwarp();
    __syncwarp();
    vs[tid] = v;
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// --- The sum kept in a local (cuda-samples reduce) --------------------------

__global__ void sum_in_local(float *out, const float *in) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  float sum = in[tid];
  s[tid] = sum;
  __syncthreads();
  if (tid < 32) {
    volatile float *vs = s;
    vs[tid] = sum = sum + vs[tid + 32];
    vs[tid] = sum = sum + vs[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'vs[tid + 16]' is read while another lane writes it as 'vs[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-FIXES: { __syncwarp(); sum = sum + vs[tid + 16]; __syncwarp(); vs[tid] = sum; __syncwarp(); }
  }
  if (tid == 0)
    out[blockIdx.x] = sum;
}

// --- A loop over the strides ------------------------------------------------

__global__ void stride_loop(int *out, const int *in) {
  __shared__ int s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile int *vs = s;
    for (unsigned stride = 16; stride > 0; stride >>= 1)
      vs[tid] += vs[tid + stride];
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'vs[tid + stride]' is read while another lane writes it as 'vs[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
      // CHECK-FIXES: { auto warp_step = vs[tid] + (vs[tid + stride]); __syncwarp(); vs[tid] = warp_step; __syncwarp(); }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// --- Legacy intrinsics (clang's headers still declare them; nvcc rejects ----
// --- them for sm_70 and later, so nvcc does not see this part) --------------

#if defined(__clang__)
__global__ void legacy_converged(int *out, const int *in) {
  int v = in[threadIdx.x];
  v += __shfl_down(v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_down' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__shfl_down_sync' [warp-implicit-synchronous]
  unsigned any = __ballot(v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__ballot' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__ballot_sync' [warp-implicit-synchronous]
  out[threadIdx.x] = v + int(any) + __any(v < 0) + __all(v == 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: '__any' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__any_sync' [warp-implicit-synchronous]
  // CHECK-MESSAGES: :[[@LINE-2]]:52: warning: '__all' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__all_sync' [warp-implicit-synchronous]
  // CHECK-FIXES: v += __shfl_down_sync(0xffffffff, v, 16);
  // CHECK-FIXES: unsigned any = __ballot_sync(0xffffffff, v > 0);
  // CHECK-FIXES: out[threadIdx.x] = v + int(any) + __any_sync(0xffffffff, v < 0) + __all_sync(0xffffffff, v == 0);
}

__global__ void legacy_diverged(int *out, const int *in) {
  int v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = __shfl(v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__shfl_sync' [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:9: note: pass the mask of the lanes that run it, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
  out[threadIdx.x] = v;
}
#endif

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

// The CUDA programming guide's fixed form: every read and write apart.
__global__ void guide_fixed(float *out, const float *in) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *vs = s;
    float v = vs[tid];
    v += vs[tid + 32];
    __syncwarp();
    vs[tid] = v;
    __syncwarp();
    v += vs[tid + 16];
    __syncwarp();
    vs[tid] = v;
    __syncwarp();
    v += vs[tid + 8];
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// Each lane reads and writes its own element only.
__global__ void own_element(float *out, const float *in) {
  __shared__ volatile float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  s[lane] += 1.0f;
  out[threadIdx.x] = s[lane];
}

// Only lanes 0..15 run the step: lanes 16..31, whose elements they read, do
// not write.
__global__ void half_reads_other_half(float *out, const float *in) {
  __shared__ volatile float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  __syncwarp();
  if (lane < 16)
    s[lane] += s[lane + 16];
  __syncwarp();
  out[threadIdx.x] = s[lane];
}

// Not volatile: not the warp-synchronous idiom (and __syncthreads orders it).
__global__ void block_tree(float *out, const float *in) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32)
    s[tid] += s[tid + 32];
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// The _sync intrinsics.
__global__ void sync_intrinsics(int *out, const int *in) {
  int v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  out[threadIdx.x] = v + int(__ballot_sync(0xffffffff, v > 0));
}

// A project's own function that only shares a legacy intrinsic's name: it
// passes a mask to the _sync intrinsic (warp-ctc's __shfl_down<T>).
template <typename T>
__device__ __forceinline__ T __shfl_down(T v, int delta) {
  return __shfl_down_sync(0xffffffffu, v, delta);
}

__global__ void own_shfl_down(float *out, const float *in) {
  float x = in[blockIdx.x * 32 + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    x += __shfl_down(x, offset);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x] = x;
}

// Each step's writers are the lanes below the stride, and they read above
// it, where no lane writes in that step; __syncwarp() separates the steps.
__global__ void guarded_steps_with_loop_stride(const float *in, float *out) {
  __shared__ volatile float s[128];
  const int lane = threadIdx.x % 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  s[threadIdx.x] = v;
  __syncwarp();
  for (int stride = 16; stride > 0; stride /= 2) {
    if (lane < stride)
      s[threadIdx.x] = v = fmaxf(v, s[threadIdx.x + stride]);
    __syncwarp();
  }
  if (lane == 0)
    out[blockIdx.x * 4 + threadIdx.x / 32] = s[threadIdx.x];
}

// Strides of 32 and more read another warp's element: the block barrier
// orders those steps.
__global__ void block_steps_of_whole_warps(const int *in, int *out) {
  __shared__ volatile int s[256];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= 32; stride /= 2) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// The same tail written by a macro (a reduction generated per operator): one
// warning at the macro's use, naming the racing element as Clang prints it.
#define LAST_WARP_SUM(sdata, tid)                                              \
  if (tid < 32) {                                                              \
    volatile float *smem = sdata;                                              \
    smem[tid] += smem[tid + 32];                                               \
    smem[tid] += smem[tid + 16];                                               \
    smem[tid] += smem[tid + 8];                                                \
  }
__global__ void macro_last_warp(float *out, const float *in) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  LAST_WARP_SUM(s, tid)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'smem[tid + 16]' is read while another lane writes it as 'smem[tid]' in the same step: without __syncwarp() between the reads and the writes the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-10]]:18: note: expanded from macro 'LAST_WARP_SUM'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: separate each step's reads from its writes, and the steps from each other, with __syncwarp() (or use __shfl_down_sync)
  // CHECK-NOTES: :[[@LINE-12]]:5: note: expanded from macro 'LAST_WARP_SUM'
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
