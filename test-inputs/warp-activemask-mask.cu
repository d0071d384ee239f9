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
  }
  out[threadIdx.x] = v;
}

// --- In converged code: the mask meant is the full one ---------------------

__global__ void converged_reduce(int *out, const int *in) {
  int v = in[threadIdx.x];
  v = __reduce_add_sync(__activemask(), v);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: __activemask() as the mask of '__reduce_add_sync' names the lanes that happen to run together, not those that are meant to take part [warp-activemask-mask]
  // CHECK-FIXES: v = __reduce_add_sync(0xffffffff, v);
  out[threadIdx.x] = v;
}

// --- A broadcast from a fixed lane -----------------------------------------

__device__ float from_lane_zero(float v) {
  return __shfl_sync(__activemask(), v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __activemask() as the mask of '__shfl_sync' names the lanes that happen to run together, not those that are meant to take part [warp-activemask-mask]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: compute the mask of the lanes meant with __ballot_sync(0xffffffff, <condition>) where the warp is converged, or use cooperative_groups::coalesced_threads()
}

__global__ void broadcast_lane_zero(float *out, const float *in) {
  out[threadIdx.x] = from_lane_zero(in[threadIdx.x]);
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

// Counting the lanes that run together.
__global__ void count_active(int *out) {
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
