// Tests of warp-stale-mask: a mask computed (__activemask(), __ballot_sync,
// __match_any_sync, a parameter carrying one) before the lanes of the warp
// diverged further, and used by a warp collective after that divergence; a
// ballot of `p` used where `p` is false; a leader and a mask taken from two
// different __activemask() calls.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Broadcasts lane 0's value to the lanes named in `m`.
__device__ float bcast(unsigned m, float v) {
  return __shfl_sync(m, v, 0);
}

/// Sums `v` over pairs of neighbouring lanes named in `m`.
__device__ float pair_sum(unsigned m, float v) {
  return v + __shfl_xor_sync(m, v, 1);
}

/// Broadcasts the group leader's value in the groups whose key is positive.
__device__ float bcast_in_positive_groups(unsigned peers, float v, int key) {
  if (key > 0)
    v = __shfl_sync(peers, v, __ffs(peers) - 1);
  return v;
}

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- __activemask() taken before a lane-varying branch ---------------------

__global__ void activemask_then_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  unsigned m = __activemask();
  if (lane < 16) {
    v = __shfl_sync(m, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'm' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-4]]:16: note: mask computed here
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(m, lane < 16);
    // CHECK-FIXES: {{^}}  if (lane < 16) {
    // CHECK-FIXES: {{^}}    v = __shfl_sync(branch_mask, v, 1);
    // CHECK-NOTES: :[[@LINE-7]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-9]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void activemask_then_else_branch(float *out, const float *in) {
  const int lane = threadIdx.x & 31;
  float v = in[threadIdx.x];
  const unsigned active = __activemask();
  if (lane % 2 == 0) {
    v *= 2.0f;
  } else {
    v += __shfl_down_sync(active, v, 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: mask 'active' was computed before the lanes diverged further; '__shfl_down_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-6]]:27: note: mask computed here
    // CHECK-NOTES: :[[@LINE-6]]:16: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(active, !(lane % 2 == 0));
    // CHECK-FIXES: {{^}}    v += __shfl_down_sync(branch_mask, v, 2);
    // CHECK-NOTES: :[[@LINE-6]]:10: note: witness: in a 1-D block of whole warps, lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-8]]:10: note: lanes: mask 0xffffffff arrive 0xaaaaaaaa
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void activemask_assigned_then_lane_branch(unsigned *out, const float *in) {
  const int lane = threadIdx.x % 32;
  unsigned m;
  m = __activemask();
  unsigned votes = 0;
  if (lane >= 8)
    votes = __ballot_sync(m, in[threadIdx.x] > 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: mask 'm' was computed before the lanes diverged further; '__ballot_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
  // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(m, lane >= 8);
  // CHECK-FIXES: {{^}}    votes = __ballot_sync(branch_mask, in[threadIdx.x] > 0.0f);
  // CHECK-NOTES: :[[@LINE-6]]:13: note: witness: in a 1-D block of whole warps, lanes 0..7 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 0..7 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-8]]:13: note: lanes: mask 0xffffffff arrive 0xffffff00
  out[threadIdx.x] = votes;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- __ballot_sync taken before a lane-varying branch ----------------------

__global__ void ballot_then_other_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned positive = __ballot_sync(0xffffffff, v > 0.0f);
  if (lane < 16) {
    v = __shfl_sync(positive, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'positive' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-4]]:29: note: mask computed here
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(0xffffffff, lane < 16);
    // CHECK-FIXES: {{^}}    v = __shfl_sync(branch_mask, v, 0);
    // CHECK-NOTES: :[[@LINE-6]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-8]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ballot_over_param_mask_then_syncwarp_in_branch(float *out, unsigned full) {
  __shared__ float tile[32];
  const int lane = threadIdx.x % 32;
  tile[lane] = lane;
  const unsigned m = __ballot_sync(full, true);
  if (lane < 16) {
    tile[lane] += tile[lane + 16];
    __syncwarp(m);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: mask 'm' was computed before the lanes diverged further; '__syncwarp' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-5]]:22: note: mask computed here
    // CHECK-NOTES: :[[@LINE-5]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(full, lane < 16);
    // CHECK-FIXES: {{^}}    __syncwarp(branch_mask);
    // CHECK-NOTES: :[[@LINE-6]]:5: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE+9]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-8]]:5: note: lanes: mask 0xffffffff arrive 0x0000ffff
    tile[lane] += tile[lane + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: lane 8 writes 'tile[8]' while lane 0 reads it in the same step (offset 8): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:19: note: witness: in warp 0, lane 8 writes 'tile[8]' and lane 0 reads it with offset 8
    // CHECK-NOTES: :[[@LINE-3]]:19: note: consequence: race: lane 0 may read 'tile[8]' before or after lane 8 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    // CHECK-NOTES: :[[@LINE-4]]:5: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = tile[lane + 8];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it, each placed where every lane of the warp runs it, outside the branch that splits them (or exchange the values with __shfl_down_sync)
  }
  out[threadIdx.x] = tile[lane];
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- A ballot of p used where p is false -----------------------------------

__global__ void ballot_of_p_used_in_else(float *out, const float *in) {
  float v = in[threadIdx.x];
  const bool p = v > 0.0f;
  const unsigned pos = __ballot_sync(0xffffffff, p);
  if (p) {
    v *= 2.0f;
  } else {
    v = __shfl_sync(pos, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'pos' is the ballot of a condition but is used by '__shfl_sync' where that condition is false; it names none of the lanes that reach this call [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-6]]:24: note: mask computed here
    // CHECK-NOTES: :[[@LINE-6]]:7: note: lanes may diverge here on a data-dependent condition
    // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: any lane that gets here fails the condition of its ballot, so 'pos' does not name it
    // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: trap: the calling lanes are not in the mask: an illegal instruction in -O3 and -G builds alike
    // No fix: lane 0 may be one where p holds; the value read from it would
    // be undefined under the mask of the lanes where p is false.
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ballot_of_p_used_under_not_p(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned low = __ballot_sync(0xffffffff, lane < 16);
  if (!(lane < 16)) {
    v += __shfl_xor_sync(low, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: mask 'low' is the ballot of a condition but is used by '__shfl_xor_sync' where that condition is false; it names none of the lanes that reach this call [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-4]]:24: note: mask computed here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(0xffffffff, !(lane < 16));
    // CHECK-FIXES: {{^}}    v += __shfl_xor_sync(branch_mask, v, 1);
    // CHECK-NOTES: :[[@LINE-6]]:10: note: witness: any lane that gets here fails the condition of its ballot, so 'low' does not name it
    // CHECK-NOTES: :[[@LINE-7]]:10: note: consequence: trap: the calling lanes are not in the mask: an illegal instruction in -O3 and -G builds alike
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__device__ void ballot_of_p_used_after_p_lanes_return(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned in_range = __ballot_sync(0xffffffff, i < n);
  if (i < n)
    return;
  // Only the out-of-range lanes are left, and `in_range` names none of them.
  const float v = __shfl_sync(in_range, 0.0f, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: mask 'in_range' is the ballot of a condition but is used by '__shfl_sync' where that condition is false; it names none of the lanes that reach this call [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-6]]:29: note: mask computed here
  // CHECK-NOTES: :[[@LINE-5]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-4]]:19: note: witness: any lane that gets here fails the condition of its ballot, so 'in_range' does not name it
  // CHECK-NOTES: :[[@LINE-5]]:19: note: consequence: trap: the calling lanes are not in the mask: an illegal instruction in -O3 and -G builds alike
  // No fix: which lanes are out of range is data; lane 0 may not be one.
  //
  out[i - n] = v;
}
// The lanes that returned from the helper wait at the barrier.
__global__ void ballot_of_p_used_after_p_lanes_return_caller(float *out, const float *in, int n) {
  ballot_of_p_used_after_p_lanes_return(out, in, n);
  __syncthreads();
}

// --- Exits after the mask: return, continue, break -------------------------

__device__ void activemask_then_early_return(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = __activemask();
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_down_sync(m, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: mask 'm' was computed before the lanes diverged further; '__shfl_down_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-6]]:22: note: mask computed here
  // CHECK-NOTES: :[[@LINE-5]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-4]]:8: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+10]]:3: note: consequence: hang: lanes 17..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-6]]:8: note: lanes: mask 0xffffffff arrive 0x0001ffff
  // No fix: the lane below an exited lane reads it (with any narrower mask
  // the value read is undefined); the lanes must stay, with a neutral value.
  //
  out[i] = v;
}
// The lanes that returned from the helper wait at the barrier.
__global__ void activemask_then_early_return_caller(float *out, const float *in, int n) {
  activemask_then_early_return(out, in, n);
  __syncthreads();
}

__device__ void full_ballot_then_early_return_then_reduce_add(int *out, const int *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned warp = __ballot_sync(0xffffffff, 1);
  if (i >= n)
    return;
  out[i] = __reduce_add_sync(warp, in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: mask 'warp' was computed before the lanes diverged further; '__reduce_add_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-5]]:25: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: lanes exit here
  // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(0xffffffff, !(i >= n));
  // CHECK-FIXES: {{^}}  out[i] = __reduce_add_sync(branch_mask, in[i]);
  // CHECK-NOTES: :[[@LINE-6]]:12: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 17..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-8]]:12: note: lanes: mask 0xffffffff arrive 0x0001ffff
}
// The lanes that returned from the helper wait at the barrier.
__global__ void full_ballot_then_early_return_then_reduce_add_caller(int *out, const int *in, int n) {
  full_ballot_then_early_return_then_reduce_add(out, in, n);
  __syncthreads();
}

__global__ void activemask_then_continue(int *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  int count = 0;
  for (int k = 0; k < 4; ++k) {
    if (k > lane)
      continue;
    count += __all_sync(m, in[k * 32 + lane] > 0.0f);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: mask 'm' was computed before the lanes diverged further; '__all_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-7]]:22: note: mask computed here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes exit here
    // CHECK-FIXES: {{^}}    const unsigned branch_mask = __ballot_sync(m, !(k > lane));
    // CHECK-FIXES: {{^}}    count += __all_sync(branch_mask, in[k * 32 + lane] > 0.0f);
    // CHECK-NOTES: :[[@LINE-6]]:14: note: lanes: mask 0xffffffff arrive 0xfffffffe
    // CHECK-NOTES: :[[@LINE-7]]:14: note: witness: in a 1-D block of whole warps, lane 0 of the warp of threads 0..31 in iteration 2 of the loop around it is named by the mask but does not reach it
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lane 0 waits at a block barrier and the warp never meets
  }
  out[threadIdx.x] = count;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void activemask_then_break(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  float v = in[threadIdx.x];
  for (int k = 0; k < 8; ++k) {
    if (k == lane)
      break;
    v += __shfl_xor_sync(m, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: mask 'm' was computed before the lanes diverged further; '__shfl_xor_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-7]]:22: note: mask computed here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes exit here
    // CHECK-NOTES: :[[@LINE-7]]:21: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-5]]:10: note: lanes: mask 0xffffffff arrive 0xfffffffe
    // CHECK-NOTES: :[[@LINE-6]]:10: note: witness: in a 1-D block of whole warps, lane 0 of the warp of threads 0..31 in iteration 1 of the loop around it is named by the mask but does not reach it
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lane 0 waits at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- Loops and other divergence after the mask -----------------------------

__global__ void activemask_then_lane_dependent_loop(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  float v = in[threadIdx.x];
  for (int k = lane; k < 32; k += 8)
    v += __shfl_sync(m, v, k);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: mask 'm' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-5]]:22: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: in a 1-D block of whole warps, lanes 24..31 of the warp of threads 0..31 in iteration 2 of the loop around it are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 24..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-6]]:10: note: lanes: mask 0xffffffff arrive 0x00ffffff
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ballot_then_data_dependent_while(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned m = __ballot_sync(0xffffffff, true);
  while (v > 1.0f)
    v = 0.5f * __shfl_xor_sync(m, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: mask 'm' was computed before the lanes diverged further; '__shfl_xor_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-4]]:22: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: the lanes that do not arrive wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-5]]:16: note: data: which lanes get here depends on '__shfl_xor_sync(m, v, 1)', which differs between lanes with their data
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void activemask_then_switch_on_lane(int *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  int r = 0;
  switch (lane % 4) {
  case 0:
    r = __any_sync(m, in[threadIdx.x] > 0.0f);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'm' was computed before the lanes diverged further; '__any_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-6]]:22: note: mask computed here
    // CHECK-NOTES: :[[@LINE-5]]:16: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: in a 1-D block of whole warps, lanes 1..3, 5..7, 9..11, 13..15, 17..19, 21..23, 25..27, 29..31 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE+7]]:3: note: consequence: hang: lanes 1..3, 5..7, 9..11, 13..15, 17..19, 21..23, 25..27, 29..31 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-6]]:9: note: lanes: mask 0xffffffff arrive 0x11111111
    break;
  default:
    break;
  }
  out[threadIdx.x] = r;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void activemask_then_conditional_operator(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  const float v = in[threadIdx.x];
  out[threadIdx.x] = lane < 16 ? __shfl_sync(m, v, 0) : v;
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: mask 'm' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-4]]:22: note: mask computed here
  // CHECK-NOTES: :[[@LINE-3]]:27: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-4]]:34: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-6]]:34: note: lanes: mask 0xffffffff arrive 0x0000ffff
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void activemask_then_short_circuit_and(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  float v = in[threadIdx.x];
  if (lane < 16 && __any_sync(m, v > 0.0f))
    v = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: mask 'm' was computed before the lanes diverged further; '__any_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-5]]:22: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-5]]:20: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-7]]:20: note: lanes: mask 0xffffffff arrive 0x0000ffff
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void activemask_then_two_nested_branches(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  float v = in[threadIdx.x];
  if (lane < 16) {
    if (lane % 2 == 0) {
      v = __shfl_sync(m, v, 0);
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: mask 'm' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
      // CHECK-NOTES: :[[@LINE-6]]:22: note: mask computed here
      // CHECK-NOTES: :[[@LINE-5]]:12: note: lanes diverge here
      // CHECK-NOTES: :[[@LINE-5]]:18: note: lanes diverge here
      // CHECK-NOTES: :[[@LINE-5]]:11: note: witness: in a 1-D block of whole warps, lanes 1, 3, 5, 7, 9, 11, 13, 15..31 of the warp of threads 0..31 are named by the mask but do not reach it
      // CHECK-NOTES: :[[@LINE+5]]:3: note: consequence: hang: lanes 1, 3, 5, 7, 9, 11, 13, 15..31 wait at a block barrier and the warp never meets
      // CHECK-NOTES: :[[@LINE-7]]:11: note: lanes: mask 0xffffffff arrive 0x00005555
    }
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// A refresh later in the branch does not make the use before it fresh: only
// the definitions that reach a use count.
__global__ void mask_refreshed_only_after_its_stale_use(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  unsigned m = __activemask();
  if (lane < 16) {
    v = __shfl_sync(m, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'm' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-4]]:16: note: mask computed here
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(m, lane < 16);
    // CHECK-FIXES: {{^}}    v = __shfl_sync(branch_mask, v, 0);
    // CHECK-NOTES: :[[@LINE-6]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-8]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
    m = __activemask();
    v += __shfl_xor_sync(m, v, 1); // fresh: made under the same divergence
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- __match_any_sync groups used after further divergence ------------------

__global__ void match_any_group_then_lane_branch(int *out, const int *keys) {
  const int lane = threadIdx.x % 32;
  const int key = keys[threadIdx.x];
  int total = 0;
  const unsigned peers = __match_any_sync(0xffffffff, key);
  if (lane & 1) {
    total = __reduce_add_sync(peers, lane);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: mask 'peers' was computed before the lanes diverged further; '__reduce_add_sync' may wait for lanes that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-4]]:26: note: mask computed here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(peers, lane & 1);
    // CHECK-FIXES: {{^}}    total = __reduce_add_sync(branch_mask, lane);
    // CHECK-NOTES: :[[@LINE-6]]:13: note: witness: in a 1-D block of whole warps, lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 of the warp of threads 0..31 are named by the mask but do not reach it
    // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-8]]:13: note: lanes: mask 0xffffffff arrive 0xaaaaaaaa
  }
  out[threadIdx.x] = total;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// A helper that branches on something other than the key splits the groups.
__global__ void match_any_group_to_helper_branching_on_lane(float *out, const int *keys, const float *in) {
  const unsigned peers = __match_any_sync(0xffffffff, keys[threadIdx.x]);
  out[threadIdx.x] = bcast_in_positive_groups(peers, in[threadIdx.x], threadIdx.x % 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: mask 'peers' was computed before the lanes diverged further; 'bcast_in_positive_groups' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-3]]:26: note: mask computed here
  // CHECK-NOTES: :[[@LINE-3]]:71: note: this argument differs between lanes
  // CHECK-NOTES: :[[@LINE-423]]:11: note: lanes diverge here in 'bcast_in_positive_groups' on parameter 'key'
  // CHECK-NOTES: :[[@LINE-423]]:9: note: the mask is used here
  // CHECK-NOTES: :[[@LINE-6]]:22: note: witness: in a 1-D block of whole warps, lane 0 of the warp of threads 0..31 is named by the mask but does not reach it
  // CHECK-NOTES: :[[@LINE-7]]:22: note: lanes: mask 0xffffffff arrive 0xfffffffe
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lane 0 waits at a block barrier and the warp never meets
  __syncthreads(); // the lanes the helper skipped wait here
}

// --- A mask passed into a helper called under narrower divergence ----------

__global__ void activemask_passed_to_helper_in_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned m = __activemask();
  if (lane < 8)
    v = bcast(m, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'm' was computed before the lanes diverged further; 'bcast' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-4]]:22: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
  // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(m, lane < 8);
  // CHECK-FIXES: {{^}}    v = bcast(branch_mask, v);
  // CHECK-NOTES: :[[@LINE-6]]:9: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-8]]:9: note: lanes: mask 0xffffffff arrive 0x000000ff
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__device__ void ballot_passed_to_helper_after_early_return(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = __ballot_sync(0xffffffff, true);
  if (i >= n)
    return;
  out[i] = pair_sum(m, in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: mask 'm' was computed before the lanes diverged further; 'pair_sum' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-5]]:22: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: lanes exit here
  // CHECK-FIXES: {{^}}  const unsigned branch_mask = __ballot_sync(0xffffffff, !(i >= n));
  // CHECK-FIXES: {{^}}  out[i] = pair_sum(branch_mask, in[i]);
  // CHECK-NOTES: :[[@LINE-6]]:12: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 17..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-8]]:12: note: lanes: mask 0xffffffff arrive 0x0001ffff
}
// The lanes that returned from the helper wait at the barrier.
__global__ void ballot_passed_to_helper_after_early_return_caller(float *out, const float *in, int n) {
  ballot_passed_to_helper_after_early_return(out, in, n);
  __syncthreads();
}

/// The stale mask arrives as a parameter: the helper's own branch narrows it.
/// Branches on a parameter (`lane`): inside the helper the lanes diverge only
/// if the caller passes a lane-varying value, so it is reported at the calls.
__device__ float bcast_to_low_half(unsigned m, float v, int lane) {
  if (lane < 16)
    v = __shfl_sync(m, v, 0);
  return v;
}

/// The same with the lane computed inside the helper: reported there.
__device__ float bcast_to_low_half_here(unsigned m, float v) {
  if (threadIdx.x % 32 < 16)
    v = __shfl_sync(m, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: mask 'm' was computed before the lanes diverged further; '__shfl_sync' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-5]]:50: note: mask received here
  // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-6]]:9: note: consequence: undefined: lanes 16..31 return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
  return v;
}

__global__ void call_mask_param_helper(float *out, const float *in) {
  out[threadIdx.x] = bcast_to_low_half(__activemask(), in[threadIdx.x], threadIdx.x % 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: mask '__activemask()' was computed before the lanes diverged further; 'bcast_to_low_half' may wait for lanes that no longer reach it [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-2]]:73: note: this argument differs between lanes
  // CHECK-NOTES: :[[@LINE-22]]:12: note: lanes diverge here in 'bcast_to_low_half' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-22]]:9: note: the mask is used here
  // CHECK-NOTES: :[[@LINE-5]]:22: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are named by the mask but do not reach it
  // CHECK-NOTES: :[[@LINE-6]]:22: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes the helper skipped wait here
}

__global__ void call_mask_param_helper_with_local(float *out, const float *in) {
  const unsigned m = __activemask();
  const int lane = threadIdx.x % 32;
  // The lanes the helper skips leave the kernel after the call: exited
  // lanes are exempt, as for a mask that never left the kernel.
  out[threadIdx.x] = bcast_to_low_half(m, in[threadIdx.x], lane);
}

// --- Two __activemask() calls relied on to agree ---------------------------

__global__ void leader_and_mask_from_two_activemask_calls(float *out, const float *in) {
  float v = in[threadIdx.x];
  const int leader = __ffs(__activemask()) - 1;
  v = __shfl_sync(__activemask(), v, leader);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__shfl_sync' takes its source lane from one __activemask() and its mask from another; the two may differ, so the leader may not be in the mask [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-3]]:28: note: source lane chosen from this __activemask()
  // CHECK-NOTES: :[[@LINE-3]]:19: note: mask taken from this __activemask()
  // CHECK-NOTES: :[[@LINE-4]]:7: note: consequence: wrong-values: a leader outside the mask reads as undefined (0 on sm_90)
  out[threadIdx.x] = v;
}

__global__ void leader_and_mask_from_two_activemask_locals(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned first = __activemask();
  const int leader = __ffs(first) - 1;
  v *= 2.0f;
  const unsigned second = __activemask();
  v = __shfl_sync(second, v, leader);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__shfl_sync' takes its source lane from one __activemask() and its mask from another; the two may differ, so the leader may not be in the mask [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-6]]:26: note: source lane chosen from this __activemask()
  // CHECK-NOTES: :[[@LINE-4]]:27: note: mask taken from this __activemask()
  // CHECK-NOTES: :[[@LINE-4]]:7: note: consequence: wrong-values: a leader outside the mask reads as undefined (0 on sm_90)
  out[threadIdx.x] = v;
}

//===----------------------------------------------------------------------===//
// Part 2: must stay silent
//===----------------------------------------------------------------------===//

__global__ void ballot_of_p_used_under_p(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  // Exactly the lanes with lane < 16 reach the shuffle, and the ballot names them.
  const unsigned low = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 16)
    v = __shfl_sync(low, v, 0);
  out[threadIdx.x] = v;
}

__global__ void ballot_of_not_p_used_in_else(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  // The else side runs exactly the lanes where !(lane < 16) holds.
  const unsigned high = __ballot_sync(0xffffffff, !(lane < 16));
  if (lane < 16)
    v *= 2.0f;
  else
    v = __shfl_sync(high, v, 16);
  out[threadIdx.x] = v;
}

__global__ void ballot_of_in_range_after_exiting_out_of_range(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The lanes left after the return are exactly those where !(i >= n) held.
  const unsigned warp_mask = __ballot_sync(0xffffffff, !(i >= n));
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_down_sync(warp_mask, v, 1);
  out[i] = __ballot_sync(warp_mask, v > 0.0f);
}

__global__ void ballot_of_p_then_return_not_p(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Lanes where !(i < n) return; the rest are exactly the ballot of i < n.
  const unsigned in_range = __ballot_sync(0xffffffff, i < n);
  if (!(i < n))
    return;
  out[i] = __shfl_sync(in_range, in[i], 0);
}

__global__ void activemask_inside_the_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    // Taken inside the branch that uses it: no divergence between.
    const unsigned m = __activemask();
    v = __shfl_sync(m, v, __ffs(m) - 1);
  }
  out[threadIdx.x] = v;
}

__global__ void ballot_inside_the_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 4) {
    // Made by the lanes that use it, in the same branch.
    const unsigned here = __ballot_sync(__activemask(), true);
    v += __shfl_xor_sync(here, v, 1);
  }
  out[threadIdx.x] = v;
}

__global__ void mask_refreshed_in_grid_stride_loop(float *out, const float *in, int n) {
  float sum = 0.0f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Refreshed every iteration over the lanes that stay: always the lanes present.
  unsigned mask = __ballot_sync(0xffffffff, i < n);
  while (i < n) {
    float v = in[i];
    v += __shfl_down_sync(mask, v, 1);
    sum += v;
    i += blockDim.x * gridDim.x;
    mask = __ballot_sync(mask, i < n);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void mask_used_before_any_divergence(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  // Used while the lanes that made it are all still here.
  const unsigned m = __activemask();
  v = __shfl_sync(m, v, 0);
  if (lane < 16)
    v *= 2.0f;
  out[threadIdx.x] = v;
}

__global__ void mask_used_after_branch_reconverges(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned m = __ballot_sync(0xffffffff, true);
  if (lane < 16)
    v *= 2.0f;
  // Every lane that made the mask reaches this point again.
  v = __shfl_sync(m, v, 0);
  out[threadIdx.x] = v;
}

__global__ void uniform_branch_after_mask(float *out, const float *in, int mode) {
  float v = in[threadIdx.x];
  const unsigned m = __activemask();
  // `mode` is a kernel parameter: every lane takes the same side.
  if (mode == 1)
    v = __shfl_sync(m, v, 0);
  out[threadIdx.x] = v;
}

__global__ void block_index_branch_after_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned m = __ballot_sync(0xffffffff, true);
  // blockIdx is the same for every lane of a warp.
  if (blockIdx.x % 2 == 0)
    v += __shfl_xor_sync(m, v, 1);
  out[threadIdx.x] = v;
}

__global__ void warp_id_branch_after_mask(float *out, const float *in) {
  const int warp_id = threadIdx.x / 32;
  float v = in[threadIdx.x];
  const unsigned m = __activemask();
  // threadIdx.x / 32 is the same for every lane of a warp.
  if (warp_id == 0)
    v = __shfl_sync(m, v, 0);
  out[threadIdx.x] = v;
}

__global__ void first_warp_guard_after_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned m = __ballot_sync(0xffffffff, true);
  // With 1-D blocks, threadIdx.x < 32 holds for all lanes of warp 0 and none of the others.
  if (threadIdx.x < 32)
    v = __shfl_sync(m, v, 31);
  out[threadIdx.x] = v;
}

__global__ void vote_result_branch_after_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned m = __activemask();
  // The result of __all_sync is the same in every lane that voted.
  if (__all_sync(m, v > 0.0f))
    v = __shfl_sync(m, v, 0);
  out[threadIdx.x] = v;
}

__global__ void uniform_trip_count_loop_after_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned m = __ballot_sync(0xffffffff, true);
  // Every lane runs the same five iterations.
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(m, v, offset);
  out[threadIdx.x] = v;
}

__global__ void uniform_early_return_after_mask(float *out, const float *in, int n) {
  const unsigned m = __activemask();
  // `n` is a kernel parameter: either every lane returns or none does.
  if (n == 0)
    return;
  out[threadIdx.x] = __shfl_sync(m, in[threadIdx.x], 0);
}

__global__ void helper_called_under_the_ballot_predicate(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  // The helper runs on exactly the lanes the ballot names.
  const unsigned m = __ballot_sync(0xffffffff, lane < 8);
  if (lane < 8)
    v = bcast(m, v);
  out[threadIdx.x] = v;
}

__global__ void helper_called_before_divergence(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  // The helper runs with every lane that made the mask.
  const unsigned m = __activemask();
  float v = pair_sum(m, in[threadIdx.x]);
  if (lane < 8)
    v = 0.0f;
  out[threadIdx.x] = v;
}

__global__ void leader_and_mask_from_one_activemask(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane % 3 == 0) {
    // One __activemask() gives both the mask and the leader: they agree.
    const unsigned m = __activemask();
    const int leader = __ffs(m) - 1;
    v = __shfl_sync(m, v, leader);
  }
  out[threadIdx.x] = v;
}

__global__ void match_any_group_used_at_once(float *out, const int *keys, const float *in) {
  // The peer group is used where it was made, by the lanes that made it.
  const unsigned peers = __match_any_sync(0xffffffff, keys[threadIdx.x]);
  const int leader = __ffs(peers) - 1;
  out[threadIdx.x] = __shfl_sync(peers, in[threadIdx.x], leader);
}

__global__ void ballot_refreshed_per_iteration_of_lane_loop(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  for (int k = 0; k < 4; ++k) {
    // Made at the top of each iteration by the lanes running it.
    const unsigned m = __ballot_sync(0xffffffff, k <= lane);
    if (!(k <= lane))
      continue;
    v += __shfl_down_sync(m, v, 1);
  }
  out[threadIdx.x] = v;
}

__global__ void coalesced_group_inside_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    // A coalesced group made in the branch names exactly the lanes there.
    cg::coalesced_group active = cg::coalesced_threads();
    v = active.shfl(v, 0);
  }
  out[threadIdx.x] = v;
}

__global__ void tiled_partition_reduce(float *out, const float *in) {
  // The tile is the whole warp and every lane calls the reduction.
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = cg::reduce(tile, in[threadIdx.x], cg::plus<float>());
}

__global__ void half_warp_masks_per_half(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  // Each half names itself: a sub-warp mask computed per half, not stale.
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  if (lane < 16)
    v += __shfl_xor_sync(half, v, 1);
  else
    v += __shfl_xor_sync(half, v, 2);
  out[threadIdx.x] = v;
}

// A helper branching on an argument that is the same in every lane keeps the
// lanes together, whatever the mask.
__global__ void mask_param_helper_with_uniform_argument(float *out, const float *in) {
  out[threadIdx.x] = bcast_to_low_half(__activemask(), in[threadIdx.x], blockIdx.x);
}

// The caller passes the ballot of the very condition the helper branches on:
// the mask names exactly the lanes that reach the shuffle.
__global__ void ballot_of_the_helpers_condition(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned low = __ballot_sync(0xffffffff, lane < 16);
  out[threadIdx.x] = bcast_to_low_half(low, in[threadIdx.x], lane);
}

// A __match_any_sync group shares its key: a branch on the key (here and
// inside a helper) keeps every group whole, so the mask names exactly the
// lanes that reach the shuffle.
__global__ void match_any_group_branch_on_its_key(float *out, const int *keys, const float *in) {
  const int key = keys[threadIdx.x];
  const unsigned peers = __match_any_sync(0xffffffff, key);
  float v = in[threadIdx.x];
  if (key % 4 == 1)
    v = __shfl_sync(peers, v, __ffs(peers) - 1);
  out[threadIdx.x] = bcast_in_positive_groups(peers, v, key);
}

// --- A ballot of p after an exit on the negation of p, in any spelling -----

__global__ void ballot_then_exit_on_greater_equal(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffff, i < n);
  if (i >= n)
    return;
  out[i] = __shfl_down_sync(active, in[i], 1);
}

__global__ void ballot_then_exit_on_swapped_operands(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffff, i < n);
  if (n <= i)
    return;
  out[i] = __shfl_down_sync(active, in[i], 1);
}

__global__ void ballot_then_exit_on_not(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffff, i < n);
  if (!(i < n))
    return;
  out[i] = __shfl_down_sync(active, in[i], 1);
}

__global__ void ballot_of_not_equal_then_exit_on_equal(int *out, const int *keys, int key) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned others = __ballot_sync(0xffffffff, keys[i] != key);
  if (keys[i] == key)
    return;
  out[i] = __shfl_sync(others, keys[i], __ffs(others) - 1);
}

// The lanes that stay are those where the ballot's predicate is false.
__device__ void ballot_then_exit_on_same_predicate(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffff, i < n);
  if (n > i)
    return;
  out[0] = __shfl_down_sync(active, in[0], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: mask 'active' is the ballot of a condition but is used by '__shfl_down_sync' where that condition is false; it names none of the lanes that reach this call [warp-stale-mask]
  // CHECK-NOTES: :[[@LINE-5]]:27: note: mask computed here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: witness: any lane that gets here fails the condition of its ballot, so 'active' does not name it
  // CHECK-NOTES: :[[@LINE-5]]:12: note: consequence: trap: the calling lanes are not in the mask: an illegal instruction in -O3 and -G builds alike
}
// The lanes that returned from the helper wait at the barrier.
__global__ void ballot_then_exit_on_same_predicate_caller(float *out, const float *in, int n) {
  ballot_then_exit_on_same_predicate(out, in, n);
  __syncthreads();
}

// --- Coalesced groups: the lanes that formed them ---------------------------

// Formed by the whole warp, used by half of it: the group waits for lanes
// 16..31, which wait at the barrier.
__global__ void coalesced_group_before_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  cg::coalesced_group active = cg::coalesced_threads();
  if (lane < 16)
    v = active.shfl(v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: group 'active' was formed by coalesced_threads() before the lanes diverged further; 'coalesced_group::shfl' waits for lanes of the group that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-4]]:32: note: group formed here
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 are in the group but do not reach it
    // CHECK-NOTES: :[[@LINE-5]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-7]]:9: note: form the group inside the branch (cooperative_groups::coalesced_threads() there), or split it before the branch with cooperative_groups::binary_partition(group, condition)
  out[threadIdx.x] = v;
  __syncthreads();
}

// A reduction over a group formed before a per-lane test of the data.
__global__ void coalesced_reduce_after_data_test(float *out, const float *in) {
  float v = in[threadIdx.x];
  cg::coalesced_group active = cg::coalesced_threads();
  if (v > 0.0f)
    v = cg::reduce(active, v, cg::plus<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: group 'active' was formed by coalesced_threads() before the lanes diverged further; 'cooperative_groups::reduce' waits for lanes of the group that no longer reach it [warp-stale-mask]
    // CHECK-NOTES: :[[@LINE-4]]:32: note: group formed here
    // CHECK-NOTES: :[[@LINE-4]]:9: note: lanes may diverge here on a data-dependent condition
    // CHECK-NOTES: :[[@LINE-4]]:9: note: data: which lanes get here depends on 'in[threadIdx.x]', which each lane loads from its own address
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: the lanes that do not arrive wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-6]]:9: note: form the group inside the branch (cooperative_groups::coalesced_threads() there), or split it before the branch with cooperative_groups::binary_partition(group, condition)
  out[threadIdx.x] = v;
  __syncthreads();
}

// Used after the lanes met again: the group is whole.
__global__ void coalesced_group_after_join(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  cg::coalesced_group active = cg::coalesced_threads();
  if (lane < 16)
    v *= 2.0f;
  v = active.shfl(v, 0);
  out[threadIdx.x] = v;
  __syncthreads();
}

// The branch is the same for the whole warp: the group stays whole.
__global__ void coalesced_group_uniform_branch(float *out, const float *in) {
  float v = in[threadIdx.x];
  cg::coalesced_group active = cg::coalesced_threads();
  if (blockIdx.x % 2 == 0)
    v = active.shfl(v, 0);
  out[threadIdx.x] = v;
  __syncthreads();
}

// The lanes that skip the group's vote leave the kernel: exited lanes are
// exempt, as for a mask.
__global__ void coalesced_group_after_exit_split(unsigned *out, const float *in,
                                                 int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  cg::coalesced_group active = cg::coalesced_threads();
  if (i >= n)
    return;
  out[i] = active.ballot(in[i] > 0.0f);
}
