// Tests of warp-implicit-synchronous: lanes of one warp exchanging values
// through shared or global memory (volatile or not, through any index or
// pointer arithmetic) with no __syncwarp() between one lane's write and
// another lane's read, and the legacy warp intrinsics without a mask.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.
// Potential findings (the option Tiers): warp-implicit-synchronous-tiers.cu.

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
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lane 16 writes 's[16]' while lane 0 reads it in the same step (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: witness: in warp 0, lane 16 writes 's[16]' and lane 0 reads it with offset 16
    // CHECK-NOTES: :[[@LINE-3]]:16: note: consequence: race: lane 0 may read 's[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    vs[tid] += vs[tid + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lane 8 writes 's[8]' while lane 0 reads it in the same step (offset 8): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: witness: in warp 0, lane 8 writes 's[8]' and lane 0 reads it with offset 8
    // CHECK-NOTES: :[[@LINE-3]]:16: note: consequence: race: lane 0 may read 's[8]' before or after lane 8 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    vs[tid] += vs[tid + 4];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lane 4 writes 's[4]' while lane 0 reads it in the same step (offset 4): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: witness: in warp 0, lane 4 writes 's[4]' and lane 0 reads it with offset 4
    // CHECK-NOTES: :[[@LINE-3]]:16: note: consequence: race: lane 0 may read 's[4]' before or after lane 4 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    vs[tid] += vs[tid + 2];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lane 2 writes 's[2]' while lane 0 reads it in the same step (offset 2): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: witness: in warp 0, lane 2 writes 's[2]' and lane 0 reads it with offset 2
    // CHECK-NOTES: :[[@LINE-3]]:16: note: consequence: race: lane 0 may read 's[2]' before or after lane 2 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    vs[tid] += vs[tid + 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lane 1 writes 's[1]' while lane 0 reads it in the same step (offset 1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: witness: in warp 0, lane 1 writes 's[1]' and lane 0 reads it with offset 1
    // CHECK-NOTES: :[[@LINE-3]]:16: note: consequence: race: lane 0 may read 's[1]' before or after lane 1 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
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
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: lane 16 writes 'sdata[16]' while lane 0 reads it in the same step (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE+19]]:5: note: the parameters hold what this call passes
    // CHECK-NOTES: :[[@LINE-3]]:19: note: witness: through the call in 'reduce_with_helper', in warp 0, lane 16 writes 'sdata[16]' and lane 0 reads it with offset 16
    // CHECK-NOTES: :[[@LINE-4]]:19: note: consequence: race: lane 0 may read 'sdata[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    // CHECK-FIXES: { __syncwarp(); auto warp_step = sdata[tid] + (sdata[tid + 16]); __syncwarp(); sdata[tid] = warp_step; __syncwarp(); }
  if (BlockSize >= 16)
    sdata[tid] += sdata[tid + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: lane 8 writes 'sdata[8]' while lane 0 reads it in the same step (offset 8): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE+12]]:5: note: the parameters hold what this call passes
    // CHECK-NOTES: :[[@LINE-3]]:19: note: witness: through the call in 'reduce_with_helper', in warp 0, lane 8 writes 'sdata[8]' and lane 0 reads it with offset 8
    // CHECK-NOTES: :[[@LINE-4]]:19: note: consequence: race: lane 0 may read 'sdata[8]' before or after lane 8 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
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
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lane 16 writes 's[16]' while lane 0 reads it in the same step (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: written here
    // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: in warp 0, lane 16 writes 's[16]' and lane 0 reads it with offset 16
    // CHECK-NOTES: :[[@LINE-4]]:10: note: consequence: race: lane 0 may read 's[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
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
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: lane 16 writes 's[16]' while lane 0 reads it in the same step (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:27: note: witness: in warp 0, lane 16 writes 's[16]' and lane 0 reads it with offset 16
    // CHECK-NOTES: :[[@LINE-3]]:27: note: consequence: race: lane 0 may read 's[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
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
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: lane 16 writes 's[16]' while lane 0 reads it in the same step when 'stride' is 16 (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
      // CHECK-NOTES: :[[@LINE-2]]:18: note: witness: in warp 0, lane 16 writes 's[16]' and lane 0 reads it with offset 16 when 'stride' is 16
      // CHECK-NOTES: :[[@LINE-3]]:18: note: consequence: race: lane 0 may read 's[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
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
  // CHECK-NOTES: :[[@LINE-2]]:8: note: witness: '__shfl_down' names no lanes: it takes part with whichever lanes reach it together
  // CHECK-NOTES: :[[@LINE-3]]:8: note: consequence: undefined: nvcc rejects it for sm_70 and later; where it is still built, which lanes take part is undefined since Volta
  unsigned any = __ballot(v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__ballot' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__ballot_sync' [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:18: note: witness: '__ballot' names no lanes: it takes part with whichever lanes reach it together
  // CHECK-NOTES: :[[@LINE-3]]:18: note: consequence: undefined: nvcc rejects it for sm_70 and later; where it is still built, which lanes take part is undefined since Volta
  out[threadIdx.x] = v + int(any) + __any(v < 0) + __all(v == 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: '__any' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__any_sync' [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:37: note: witness: '__any' names no lanes: it takes part with whichever lanes reach it together
  // CHECK-NOTES: :[[@LINE-3]]:37: note: consequence: undefined: nvcc rejects it for sm_70 and later; where it is still built, which lanes take part is undefined since Volta
  // CHECK-MESSAGES: :[[@LINE-4]]:52: warning: '__all' has no mask: it synchronizes implicitly with whichever lanes run it together, which is not guaranteed since Volta; use '__all_sync' [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-5]]:52: note: witness: '__all' names no lanes: it takes part with whichever lanes reach it together
  // CHECK-NOTES: :[[@LINE-6]]:52: note: consequence: undefined: nvcc rejects it for sm_70 and later; where it is still built, which lanes take part is undefined since Volta
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
    // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: '__shfl' names no lanes: it takes part with whichever lanes reach it together
    // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: undefined: nvcc rejects it for sm_70 and later; where it is still built, which lanes take part is undefined since Volta
  out[threadIdx.x] = v;
}
#endif

// --- A (distance, index) pair reduced in plain shared memory ----------------
// The nearest-neighbour shape: __syncwarp() only between the steps, so in
// one step lane t reads [t + s] while lane t + s writes it.

__global__ void nearest_pair(const float *dist, float *out_dist,
                             int *out_idx) {
  __shared__ float red[64];
  __shared__ int red_idx[64];
  const unsigned tid = threadIdx.x;
  red[tid] = dist[blockIdx.x * 64 + tid];
  red_idx[tid] = tid;
  __syncthreads();
  if (tid < 32) {
    for (unsigned s = 32; s > 0; s >>= 1) {
      if (red[tid + s] < red[tid]) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: lane 16 writes 'red[16]' while lane 0 reads it in the same step when 's' is 16 (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
      // CHECK-NOTES: :[[@LINE+6]]:9: note: written here
      // CHECK-NOTES: :[[@LINE+5]]:20: note: another read in the same step races too
      // CHECK-NOTES: :[[@LINE+5]]:24: note: another read in the same step races too
      // CHECK-NOTES: :[[@LINE-5]]:11: note: data: whether lanes write it depends on 'red[tid + s] < red[tid]', which differs between lanes by data; in warp 0, lane 16 writes 'red[16]' and lane 0 reads it with offset 16 when 's' is 16
      // CHECK-NOTES: :[[@LINE-6]]:11: note: consequence: race: lane 0 may read 'red[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
      // CHECK-NOTES: :[[@LINE-7]]:11: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = red[tid + s]; const auto warp_read1 = red_idx[tid + s];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it (or exchange the values with __shfl_down_sync)
        red[tid] = red[tid + s];
        red_idx[tid] = red_idx[tid + s];
      }
      __syncwarp();
    }
  }
  if (tid == 0) {
    out_dist[blockIdx.x] = red[0];
    out_idx[blockIdx.x] = red_idx[0];
  }
}

// The same reduction unrolled in a helper (the 3-D library's shape): its
// pointer and index parameters hold what the one call passes.
template <typename T>
__device__ void warp_min(T *dists, int *idxs, const unsigned tid) {
  if (dists[tid] > dists[tid + 32]) {
    idxs[tid] = idxs[tid + 32];
    dists[tid] = dists[tid + 32];
  }
  __syncwarp();
  if (dists[tid] > dists[tid + 16]) {
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: lane 16 writes 'dists[16]' while lane 0 reads it in the same step (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE+8]]:5: note: written here
  // CHECK-NOTES: :[[@LINE+6]]:17: note: another read in the same step races too
  // CHECK-NOTES: :[[@LINE+6]]:18: note: another read in the same step races too
  // CHECK-NOTES: :[[@LINE+18]]:5: note: the parameters hold what this call passes
  // CHECK-NOTES: :[[@LINE-6]]:20: note: data: whether lanes write it depends on 'dists[tid] > dists[tid + 16]', which differs between lanes by data; through the call in 'nearest_with_helper', in warp 0, lane 16 writes 'dists[16]' and lane 0 reads it with offset 16
  // CHECK-NOTES: :[[@LINE-7]]:20: note: consequence: race: lane 0 may read 'dists[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-NOTES: :[[@LINE-8]]:7: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = dists[tid + 16]; const auto warp_read1 = idxs[tid + 16];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it (or exchange the values with __shfl_down_sync)
    idxs[tid] = idxs[tid + 16];
    dists[tid] = dists[tid + 16];
  }
  __syncwarp();
}

__global__ void nearest_with_helper(const float *dist, float *out) {
  __shared__ float dists[64];
  __shared__ int idxs[64];
  const unsigned tid = threadIdx.x;
  dists[tid] = dist[blockIdx.x * 64 + tid];
  idxs[tid] = tid;
  __syncthreads();
  if (tid < 32)
    warp_min<float>(dists, idxs, tid);
  if (tid == 0)
    out[blockIdx.x] = dists[0] + idxs[0];
}

// The lanes below 16 write in every step: with s = 8, lane 0 reads red[8],
// which lane 8 writes in the same step.
__global__ void min_steps(const float *in, float *out) {
  __shared__ float red[32];
  const unsigned lane = threadIdx.x % 32;
  red[lane] = in[blockIdx.x * 32 + lane];
  __syncwarp();
  for (int s = 16; s > 0; s /= 2) {
    if (lane < 16)
      red[lane] = fminf(red[lane], red[lane + s]);
      // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: lane 8 writes 'red[8]' while lane 0 reads it in the same step when 's' is 8 (offset 8): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
      // CHECK-NOTES: :[[@LINE-2]]:36: note: witness: in warp 0, lane 8 writes 'red[8]' and lane 0 reads it with offset 8 when 's' is 8
      // CHECK-NOTES: :[[@LINE-3]]:36: note: consequence: race: lane 0 may read 'red[8]' before or after lane 8 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
      // CHECK-NOTES: :[[@LINE-4]]:7: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = red[lane + s];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it, each placed where every lane of the warp runs it, outside the branch that splits them (or exchange the values with __shfl_down_sync)
    __syncwarp();
  }
  if (lane == 0)
    out[blockIdx.x] = red[0];
}

// --- Values passed to another lane through shared memory -------------------

// A hash kernel: each lane publishes its level and mixes in its
// neighbour's, with no __syncwarp() in between.
__global__ void hash_levels(const unsigned *keys, unsigned *out) {
  __shared__ unsigned levels[32];
  const unsigned lane = threadIdx.x % 32;
  unsigned h = keys[blockIdx.x * 32 + lane] * 2654435761u;
  levels[lane] = h >> 7;
  unsigned mixed = h ^ levels[(lane + 1) % 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: lane 1 writes 'levels[1]' while lane 0 reads it in the same step (offset 1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:24: note: witness: in warp 0, lane 1 writes 'levels[1]' and lane 0 reads it with offset 1
  // CHECK-NOTES: :[[@LINE-4]]:24: note: consequence: race: lane 0 may read 'levels[1]' before or after lane 1 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  unsigned mixed = h ^ levels[(lane + 1) % 32];
  out[blockIdx.x * 32 + lane] = mixed;
}

// The same with a level chosen by the hash: which lane's element is read
// depends on the data.
__global__ void hash_levels_by_data(const unsigned *keys, unsigned *out) {
  __shared__ unsigned levels[32];
  const unsigned lane = threadIdx.x % 32;
  unsigned h = keys[blockIdx.x * 32 + lane] * 2654435761u;
  levels[lane] = h >> 7;
  out[blockIdx.x * 32 + lane] = levels[h % 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'levels[h % 32]' is read while another lane may write it as 'levels[lane]' in the same step: without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:33: note: data: which element is read depends on 'h % 32', which differs between lanes by data
  // CHECK-NOTES: :[[@LINE-4]]:33: note: consequence: race: the read may see the element before or after the other lane writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  out[blockIdx.x * 32 + lane] = levels[h % 32];
}

// --- Pointer arithmetic and members ----------------------------------------

__global__ void through_pointers(const float *in, float *out) {
  __shared__ float s[64];
  const unsigned lane = threadIdx.x % 32;
  float *p = s;
  p[lane] = in[threadIdx.x];
  out[threadIdx.x] = *(p + lane + 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: lane 16 writes 's[16]' while lane 0 reads it in the same step (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: witness: in warp 0, lane 16 writes 's[16]' and lane 0 reads it with offset 16
  // CHECK-NOTES: :[[@LINE-4]]:22: note: consequence: race: lane 0 may read 's[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  out[threadIdx.x] = *(p + lane + 16);
}

__global__ void pair_swap(const int *in, int *out) {
  __shared__ int s[32];
  int *p = s;
  const int lane = threadIdx.x & 31;
  p[lane] = in[blockIdx.x * 32 + lane];
  out[blockIdx.x * 32 + lane] = p[lane ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: lane 1 writes 's[1]' while lane 0 reads it in the same step (offset 1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:33: note: witness: in warp 0, lane 1 writes 's[1]' and lane 0 reads it with offset 1
  // CHECK-NOTES: :[[@LINE-4]]:33: note: consequence: race: lane 0 may read 's[1]' before or after lane 1 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  out[blockIdx.x * 32 + lane] = p[lane ^ 1];
}

struct Slots {
  float dist[32];
  int idx[32];
};

__global__ void struct_members(const float *in, float *out) {
  __shared__ Slots sm;
  const unsigned lane = threadIdx.x % 32;
  sm.dist[lane] = in[threadIdx.x];
  sm.idx[lane] = lane;
  out[threadIdx.x] = sm.dist[lane ^ 1] + sm.idx[lane];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: lane 1 writes 'sm.dist[1]' while lane 0 reads it in the same step (offset 1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: witness: in warp 0, lane 1 writes 'sm.dist[1]' and lane 0 reads it with offset 1
  // CHECK-NOTES: :[[@LINE-4]]:22: note: consequence: race: lane 0 may read 'sm.dist[1]' before or after lane 1 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  out[threadIdx.x] = sm.dist[lane ^ 1] + sm.idx[lane];
}

struct Pair {
  float dist;
  int idx;
};

__global__ void array_of_structs(const float *in, int *out) {
  __shared__ Pair pairs[32];
  const unsigned lane = threadIdx.x % 32;
  pairs[lane].dist = in[threadIdx.x];
  pairs[lane].idx = lane;
  __syncwarp();
  pairs[lane].idx = pairs[(lane + 31) % 32].idx;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: lane 31 writes 'pairs[31].idx' while lane 0 reads it in the same step (offset 31): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: witness: in warp 0, lane 31 writes 'pairs[31].idx' and lane 0 reads it with offset 31
  // CHECK-NOTES: :[[@LINE-3]]:21: note: consequence: race: lane 0 may read 'pairs[31].idx' before or after lane 31 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  { auto warp_step = pairs[(lane + 31) % 32].idx; __syncwarp(); pairs[lane].idx = warp_step; __syncwarp(); }
  out[threadIdx.x] = pairs[lane].idx;
}

// --- Steps of a loop with no __syncwarp() at all ---------------------------
// Lanes below the stride only read above it in one step, but lane 0 may be
// a step ahead: it reads s[8] with o = 8 while lane 8 writes it with o = 16.
__global__ void guarded_steps_without_sync(const float *in, float *out) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  __syncwarp();
  for (int o = 16; o > 0; o /= 2)
    if (lane < o)
      s[lane] += s[lane + o];
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: lane 8 writes 's[8]' when 'o' is 16 while lane 0 reads it when 'o' is 8, with no __syncwarp() between the two steps: the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
      // CHECK-NOTES: :[[@LINE-2]]:18: note: witness: in warp 0, lane 8 writes 's[8]' when 'o' is 16 and lane 0 reads it with offset 8 when 'o' is 8
      // CHECK-NOTES: :[[@LINE-3]]:18: note: consequence: race: lane 0 may read 's[8]' before or after lane 8 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
      // CHECK-NOTES: :[[@LINE-4]]:7: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = s[lane + o];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it, each placed where every lane of the warp runs it, outside the branch that splits them (or exchange the values with __shfl_down_sync)
  if (lane == 0)
    out[blockIdx.x] = s[0];
}

// --- One lane writes, the others read in the same step ---------------------
__global__ void broadcast_without_sync(const float *in, float *out) {
  __shared__ float s[8];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    s[warp] = in[blockIdx.x * 8 + warp];
  out[threadIdx.x] = s[warp];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: lane 0 writes 's[0]' while lane 1 reads it in the same step (offset -1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: witness: in warp 0, lane 0 writes 's[0]' and lane 1 reads it with offset -1
  // CHECK-NOTES: :[[@LINE-4]]:22: note: consequence: race: lane 1 may read 's[0]' before or after lane 0 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  out[threadIdx.x] = s[warp];
}

// --- Global memory (a kernel that also has a block barrier: a kernel with
// --- no barrier, collective, atomic, volatile or shared access is not
// --- analysed) ---------------------------------------------------------------
__global__ void global_neighbour(float *buf) {
  const unsigned lane = threadIdx.x % 32;
  buf[blockIdx.x * 32 + lane] = lane;
  float next = buf[blockIdx.x * 32 + (lane ^ 1)];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lane 1 writes 'buf[blockIdx.x * 32 + lane]' while lane 0 reads it as 'buf[blockIdx.x * 32 + (lane ^ 1)]' in the same step (offset 1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: written here
  // CHECK-NOTES: :[[@LINE-3]]:16: note: witness: in warp 0, lane 1 writes 'buf[blockIdx.x * 32 + lane]' and lane 0 reads it as 'buf[blockIdx.x * 32 + (lane ^ 1)]' with offset 1
  // CHECK-NOTES: :[[@LINE-4]]:16: note: consequence: race: lane 0 may read 'buf[blockIdx.x * 32 + lane]' before or after lane 1 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-FIXES: {{^}}  __syncwarp();
  // CHECK-FIXES: {{^}}  float next = buf[blockIdx.x * 32 + (lane ^ 1)];
  __syncthreads();
  buf[blockIdx.x * 32 + lane] = next * 2.0f;
}

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

// Warp 0 reads s[32..63], which no lane of warp 0 writes (warp 1's elements,
// ordered by __syncthreads()).
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
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lane 16 writes 's[16]' while lane 0 reads it in the same step (offset 16): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-10]]:18: note: expanded from macro 'LAST_WARP_SUM'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: in warp 0, lane 16 writes 's[16]' and lane 0 reads it with offset 16
  // CHECK-NOTES: :[[@LINE-12]]:18: note: expanded from macro 'LAST_WARP_SUM'
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: race: lane 0 may read 's[16]' before or after lane 16 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
  // CHECK-NOTES: :[[@LINE-14]]:18: note: expanded from macro 'LAST_WARP_SUM'
  // CHECK-NOTES: :[[@LINE-7]]:3: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = smem[tid + 16];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it (or exchange the values with __shfl_down_sync)
  // CHECK-NOTES: :[[@LINE-16]]:5: note: expanded from macro 'LAST_WARP_SUM'
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// --- Non-volatile exchanges that are ordered or never meet -----------------

// Each lane exchanges with its neighbour across a __syncwarp().
__global__ void neighbour_after_syncwarp(const float *in, float *out) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  __syncwarp();
  out[threadIdx.x] = s[lane ^ 1];
}

// The block barrier orders them too.
__global__ void neighbour_after_syncthreads(const float *in, float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// A shuffle between the write and the read: the warp meets there.
__global__ void neighbour_after_shuffle(const float *in, float *out) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  s[lane] = v;
  float first = __shfl_sync(0xffffffff, v, 0);
  out[threadIdx.x] = s[lane ^ 1] + first;
}

// A __syncwarp() on both paths.
__global__ void syncwarp_on_every_path(const float *in, float *out, int n) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  if (n > 4)
    __syncwarp();
  else
    __syncwarp();
  out[threadIdx.x] = s[(lane + 1) % 32];
}

// Lane 0 writes, the others read after __syncwarp().
__global__ void broadcast_after_sync(const float *in, float *out) {
  __shared__ float s[8];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    s[warp] = in[blockIdx.x * 8 + warp];
  __syncwarp();
  out[threadIdx.x] = s[warp];
}

// Lanes 0..15 write their elements, lanes 16..31 read theirs: no element is
// both.
__global__ void disjoint_halves(const float *in, float *out) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  if (lane < 16)
    s[lane] = in[threadIdx.x];
  else
    out[threadIdx.x] = s[lane];
}

// Per-warp slices, each lane at its own element.
__global__ void per_warp_slices(const float *in, float *out) {
  __shared__ float s[256];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s[warp * 32 + lane] = in[threadIdx.x];
  s[warp * 32 + lane] *= 2.0f;
  out[threadIdx.x] = s[warp * 32 + lane];
}

// A block-level tree with __syncthreads() after each step (the stride is
// the same in every lane and not known here).
__global__ void block_tree_with_barriers(const float *in, float *out) {
  __shared__ float sdata[256];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The same with a known block size: each step's writers are below the
// stride and read above it.
template <unsigned Block>
__global__ void block_tree_known_size(const float *in, float *out) {
  __shared__ float sdata[Block];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * Block + tid];
  __syncthreads();
  for (unsigned s = Block / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
template __global__ void block_tree_known_size<256>(const float *, float *);

// Lane 0 of warp 0 reads s[32], which lane 0 of warp 1 writes: a race
// between warps (a block barrier's business), not inside one.
__global__ void other_warps_element(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 32)
    out[threadIdx.x] = s[threadIdx.x + 32];
}

// Every lane stores the same value and reads it back.
__global__ void same_value_everywhere(float *out) {
  __shared__ int tile_base[8];
  const unsigned warp = threadIdx.x / 32;
  tile_base[warp] = blockIdx.x * 256;
  out[threadIdx.x] = tile_base[warp];
}
