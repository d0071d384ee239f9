// Tests of warp-activemask-mask: __activemask() given (directly or through a
// local) as the mask of a shuffle or a reduction, which expects particular
// lanes, not those that happen to run together.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- The CUDA programming guide's incorrect use -----------------------------

__global__ void guide_incorrect(float *out, const float *in, int n) {
  float v = 0.0f;
  if (threadIdx.x < n) {
  // CHECK-FIXES: const unsigned lanes_mask = __ballot_sync(0xffffffff, threadIdx.x < n);
    unsigned mask = __activemask();
    // CHECK-FIXES: unsigned mask = lanes_mask;
    v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(mask, v, offset);
      // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: __activemask() as the mask of '__shfl_down_sync' names the lanes that happen to run together, not those that are meant to take part [warp-activemask-mask]
      // CHECK-NOTES: :[[@LINE-6]]:21: note: the mask is taken here
      // CHECK-NOTES: :[[@LINE-3]]:29: note: witness: __activemask() is taken where the lanes may have diverged, so it names whichever lanes the scheduler ran together
      // CHECK-NOTES: :[[@LINE-4]]:29: note: consequence: wrong-values: lanes that arrive later are left out of the result
  }
  out[threadIdx.x] = v;
}

// --- A reduction over half a warp ------------------------------------------

__global__ void half_warp_reduce(int *out, const int *in) {
  int v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
  // CHECK-FIXES: const unsigned lanes_mask = __ballot_sync(0xffffffff, threadIdx.x % 32 < 16);
    v = __reduce_add_sync(__activemask(), v);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __activemask() as the mask of '__reduce_add_sync' names the lanes that happen to run together, not those that are meant to take part [warp-activemask-mask]
    // CHECK-FIXES: v = __reduce_add_sync(lanes_mask, v);
    // CHECK-NOTES: :[[@LINE-3]]:27: note: witness: __activemask() is taken where the lanes may have diverged, so it names whichever lanes the scheduler ran together
    // CHECK-NOTES: :[[@LINE-4]]:27: note: consequence: wrong-values: lanes that arrive later are left out of the result
  out[threadIdx.x] = v;
}

// --- A broadcast from a fixed lane on a data-dependent branch --------------

__global__ void broadcast_lane_zero_if_positive(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (v > 0.0f) {
    // No fix: the ballot of `v > 0.0f` may not name lane 0, the source.
    v = __shfl_sync(__activemask(), v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: __activemask() as the mask of '__shfl_sync' names the lanes that happen to run together, not those that are meant to take part [warp-activemask-mask]
    // CHECK-NOTES: :[[@LINE-2]]:21: note: compute the mask of the lanes meant with __ballot_sync(0xffffffff, <condition>) where the warp is converged, or use cooperative_groups::coalesced_threads()
    // CHECK-NOTES: :[[@LINE-3]]:21: note: data: __activemask() is taken where the lanes may have diverged, so it names whichever lanes the scheduler ran together
    // CHECK-NOTES: :[[@LINE-4]]:21: note: consequence: wrong-values: lanes that arrive later are left out of the result
  }
  out[threadIdx.x] = v;
}

// --- In a device function: no fix (its callers decide which lanes enter) --

__device__ float half_sum(float v) {
  if (threadIdx.x % 32 < 16)
    v += __shfl_xor_sync(__activemask(), v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __activemask() as the mask of '__shfl_xor_sync' names the lanes that happen to run together, not those that are meant to take part [warp-activemask-mask]
    // CHECK-NOTES: :[[@LINE-2]]:26: note: compute the mask of the lanes meant with __ballot_sync(0xffffffff, <condition>) where the warp is converged, or use cooperative_groups::coalesced_threads()
    // CHECK-NOTES: :[[@LINE-3]]:26: note: witness: __activemask() is taken where the lanes may have diverged, so it names whichever lanes the scheduler ran together
    // CHECK-NOTES: :[[@LINE-4]]:26: note: consequence: wrong-values: lanes that arrive later are left out of the result
  return v;
}

__global__ void half_sum_kernel(float *out, const float *in) {
  out[threadIdx.x] = half_sum(in[threadIdx.x]);
}

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

// Warp-aggregated atomic: leader and rank come from the same mask, which is
// meant to be the lanes that run together.
__device__ int aggregated_increment(int *counter) {
  const unsigned active = __activemask();
  const int leader = __ffs(active) - 1;
  const unsigned rank = __popc(active & ((1u << (threadIdx.x % 32)) - 1));
  int base = 0;
  if (rank == 0)
    base = atomicAdd(counter, __popc(active));
  base = __shfl_sync(active, base, leader);
  return base + int(rank);
}

__global__ void aggregated(int *out, int *counter) {
  out[threadIdx.x] = aggregated_increment(counter);
}

// A vote over the active lanes is what the mask describes.
__global__ void vote_active(unsigned *out, const int *in) {
  out[threadIdx.x] = __ballot_sync(__activemask(), in[threadIdx.x] > 0);
}

// Converged: every lane is active, as meant.
__global__ void converged_reduce(int *out, const int *in) {
  int v = in[threadIdx.x];
  v = __reduce_add_sync(__activemask(), v);
  out[threadIdx.x] = v;
}

// The mask is taken before a further branch: warp-stale-mask's finding.
__global__ void stale_is_other_check(float *out, const float *in) {
  const unsigned m = __activemask();
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 8)
  // CHECK-FIXES: const unsigned branch_mask = __ballot_sync(m, threadIdx.x % 32 < 8);
    v = __shfl_sync(m, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'm' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-FIXES: v = __shfl_sync(branch_mask, v, 0);
    // CHECK-NOTES: :[[@LINE-7]]:22: note: mask computed here
    // CHECK-NOTES: :[[@LINE-6]]:24: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-5]]:9: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:9: note: lanes: mask 0xffffffff arrive 0x000000ff
    // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skip the shuffle wait here
}

// Counting the lanes that run together.
__global__ void count_active(int *out, const int *in) {
  if (in[threadIdx.x] > 0)
    out[threadIdx.x] = __reduce_add_sync(__activemask(), 1);
}

// The fixed form of the guide's example.
__global__ void guide_fixed(float *out, const float *in, int n) {
  float v = 0.0f;
  const unsigned mask = __ballot_sync(0xffffffff, threadIdx.x < n);
  if (threadIdx.x < n) {
    v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(mask, v, offset);
  }
  out[threadIdx.x] = v;
}
