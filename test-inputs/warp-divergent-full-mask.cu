// Tests of warp-divergent-full-mask: a mask naming all 32 lanes given to a
// warp collective where the lanes of the warp may have diverged.
//
// Part 1: true positives, one kernel or device function each: every spelling
// of the full mask, every collective, every way lanes diverge.
// Part 2: code that must stay silent, each with the reason it is correct.
// Directives: see run_test.py (clang-tidy lit style). Both the input and the
// file after --fix must compile with nvcc -arch=sm_90.

#include <cassert>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffff
#define WARP_BROADCAST(x) __shfl_sync(0xffffffff, (x), 0)

constexpr unsigned kFullMask = 0xffffffff;
const unsigned kAllLanes = 0xffffffffu;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Butterfly sum over the whole warp: correct when every lane calls it.
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  // CHECK-NOTES: :[[@LINE-1]]:10: note: '__shfl_xor_sync' with a full mask runs here
  return v;
}

/// Reduces over the lanes named in `mask`; the default names the whole warp.
__device__ float reduce(float v, unsigned mask = 0xffffffff) {
  // CHECK-NOTES: :[[@LINE-1]]:43: note: the full mask is this default argument
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(mask, v, offset);
  // CHECK-NOTES: :[[@LINE-1]]:10: note: the mask is used here
  return v;
}

/// Adds the neighbour's value in the lower half-warp only: diverges on `lane`.
__device__ float sum_if_low(float v, int lane) {
  if (lane < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here in 'sum_if_low' on parameter 'lane'
  return v;
}

/// Innermost of a two-level helper chain; needs the full warp.
/// Splits a linear index into quotient and remainder (CUTLASS FastDivmod
/// style): the remainder comes back through a reference.
struct Divmod {
  int divisor;
  __device__ int divmod(int &remainder, int dividend) const {
    const int quotient = dividend / divisor;
    remainder = dividend - quotient * divisor;
    return quotient;
  }
};

/// Returns the lane id and warp id through references.
__device__ void lane_and_warp(int &lane, int &warp) {
  lane = threadIdx.x % 32;
  warp = threadIdx.x / 32;
}

/// Shuffles with the mask it is given, but only in the lanes below `half`.
__device__ float bcast_below(unsigned mask, float v, int lane, int half) {
  if (lane < half)
    v = __shfl_sync(mask, v, 0);
  return v;
}

__device__ unsigned inner_vote(float v) {
  return __ballot_sync(0xffffffff, v > 0.0f);
  // CHECK-NOTES: :[[@LINE-1]]:10: note: '__ballot_sync' with a full mask runs here
}

/// Outer helper of the chain: no collective of its own, but calls one.
__device__ int outer_vote_count(float v) { return __popc(inner_vote(v)); }

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- Every spelling of the full mask ---------------------------------------

__global__ void shfl_sync_literal_mask_in_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    v = __shfl_sync(0xffffffff, v, 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);
    // CHECK-FIXES: {{^}}  if (lane < 16) {
    // CHECK-FIXES: {{^}}    v = __shfl_sync(warp_mask, v, 3);
    // CHECK-NOTES: :[[@LINE-6]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-7]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void shfl_up_sync_uppercase_mask_in_else_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    v *= 2.0f;
  } else {
    v += __shfl_up_sync(0xFFFFFFFFu, v, 1, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_up_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-5]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, !(lane < 16));
    // CHECK-FIXES: v += __shfl_up_sync(warp_mask, v, 1, 16);
    // CHECK-NOTES: :[[@LINE-5]]:10: note: witness: in a 1-D block of whole warps, lanes 0..15 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:10: note: lanes: mask 0xffffffff arrive 0xffff0000
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 0..15 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void shfl_down_sync_not_zero_mask_in_conditional_operator(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const float v = in[threadIdx.x];
  out[threadIdx.x] = lane < 16 ? __shfl_down_sync(~0u, v, 8) : v;
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: full warp mask passed to '__shfl_down_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:27: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:34: note: run '__shfl_down_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
  // CHECK-NOTES: :[[@LINE-4]]:34: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:34: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ballot_sync_minus_one_mask_in_lane_branch(unsigned *out, const float *in) {
  const int lane = threadIdx.x % 32;
  unsigned votes = 0;
  if (lane < 16) {
    votes = __ballot_sync(-1, in[threadIdx.x] > 0.0f);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: full warp mask passed to '__ballot_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
    // CHECK-FIXES: const unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);
    // CHECK-FIXES: votes = __ballot_sync(warp_mask, in[threadIdx.x] > 0.0f);
    // CHECK-NOTES: :[[@LINE-5]]:13: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:13: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = votes;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void shfl_xor_sync_macro_mask_in_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 8) {
    v += __shfl_xor_sync(FULL_MASK, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
    // CHECK-FIXES: const unsigned warp_mask = __ballot_sync(0xffffffff, lane >= 8);
    // CHECK-FIXES: v += __shfl_xor_sync(warp_mask, v, 1);
    // CHECK-NOTES: :[[@LINE-5]]:10: note: witness: in a 1-D block of whole warps, lanes 0..7 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:10: note: lanes: mask 0xffffffff arrive 0xffffff00
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 0..7 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void all_sync_constexpr_mask_in_lane_dependent_loop(int *out, const float *in) {
  const int lane = threadIdx.x % 32;
  int hits = 0;
  for (int k = 0; k < lane; ++k)
    hits += __all_sync(kFullMask, in[k] > 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: full warp mask passed to '__all_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:21: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
  // CHECK-NOTES: :[[@LINE-4]]:13: note: lanes: mask 0xffffffff arrive 0xfffffffe
  // CHECK-NOTES: :[[@LINE-5]]:13: note: witness: in a 1-D block of whole warps, lane 0 of the warp of threads 0..31 in iteration 1 of the loop around it does not reach it
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lane 0 waits at a block barrier and the warp never meets
  out[threadIdx.x] = hits;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void any_sync_const_global_mask_in_switch(int *out, const float *in) {
  const int lane = threadIdx.x % 32;
  int r = 0;
  switch (lane % 4) {
  case 0:
    r = __any_sync(kAllLanes, in[threadIdx.x] > 0.0f);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__any_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-4]]:16: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:9: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
    // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: in a 1-D block of whole warps, lanes 1..3, 5..7, 9..11, 13..15, 17..19, 21..23, 25..27, 29..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-5]]:9: note: lanes: mask 0xffffffff arrive 0x11111111
    // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 1..3, 5..7, 9..11, 13..15, 17..19, 21..23, 25..27, 29..31 wait at a block barrier and the warp never meets
    break;
  default:
    break;
  }
  out[threadIdx.x] = r;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void uni_sync_local_const_mask_in_short_circuit_and(float *out, const float *in) {
  const unsigned mask = 0xffffffff;
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16 && __uni_sync(mask, v > 0.0f))
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: full warp mask passed to '__uni_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-2]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:20: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
    // CHECK-NOTES: :[[@LINE-4]]:20: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-5]]:20: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    v = 0.0f;
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void helper_default_full_mask_in_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = reduce(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to 'reduce' in divergent code, which uses it as the mask of '__shfl_xor_sync' [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void syncwarp_without_argument_in_lane_branch(float *out, const float *in) {
  __shared__ float tile[32];
  const int lane = threadIdx.x % 32;
  tile[lane] = in[threadIdx.x];
  if (lane < 16) {
    tile[lane] += in[threadIdx.x + 16];
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: full warp mask passed to '__syncwarp' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the full mask is the default argument of '__syncwarp'
    // CHECK-FIXES: const unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);
    // CHECK-FIXES: {{^}}    __syncwarp(warp_mask);
    // CHECK-NOTES: :[[@LINE-6]]:5: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-7]]:5: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+8]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    tile[lane] += tile[lane + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: lane 8 writes 'tile[8]' while lane 0 reads it in the same step (offset 8): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:19: note: witness: in warp 0, lane 8 writes 'tile[8]' and lane 0 reads it with offset 8
    // CHECK-NOTES: :[[@LINE-3]]:19: note: consequence: race: lane 0 may read 'tile[8]' before or after lane 8 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    // CHECK-NOTES: :[[@LINE-4]]:5: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = tile[lane + 8];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it, each placed where every lane of the warp runs it, outside the branch that splits them (or exchange the values with __shfl_down_sync)
  }
  out[threadIdx.x] = tile[lane];
  __syncthreads(); // the lanes that skipped the collective wait here
}

// Since sm_70 lanes at different __syncwarp calls wait for each other, but
// here the arms run different numbers of them: the second barrier of the
// `then` arm waits for lanes that never get there.
__global__ void syncwarp_count_differs_between_arms(float *out, const float *in) {
  __shared__ float tile[32];
  const int lane = threadIdx.x % 32;
  if (lane < 16) {
    tile[lane] = in[threadIdx.x];
    __syncwarp();
    // Pairs up with the __syncwarp() of the else arm (Volta and later).
    tile[lane] += tile[15 - lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: lane 15 writes 'tile[15]' while lane 0 reads it in the same step (offset 15): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:19: note: witness: in warp 0, lane 15 writes 'tile[15]' and lane 0 reads it with offset 15
    // CHECK-NOTES: :[[@LINE-3]]:19: note: consequence: race: lane 0 may read 'tile[15]' before or after lane 15 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    // CHECK-NOTES: :[[@LINE-4]]:5: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = tile[15 - lane];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it, each placed where every lane of the warp runs it, outside the branch that splits them (or exchange the values with __shfl_down_sync)
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: full warp mask passed to '__syncwarp' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-11]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the full mask is the default argument of '__syncwarp'
    // CHECK-NOTES: :[[@LINE-4]]:5: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-5]]:5: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+7]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  } else {
    tile[lane] = -in[threadIdx.x];
    __syncwarp();
    // Pairs up with the first __syncwarp() of the then arm.
  }
  out[threadIdx.x] = tile[31 - lane];
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- Every collective ------------------------------------------------------

__global__ void match_any_sync_in_short_circuit_or(int *out, const int *keys) {
  const int lane = threadIdx.x % 32;
  const int key = keys[threadIdx.x];
  const bool alone = lane >= 16 || __match_any_sync(0xffffffff, key) == (1u << lane);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: full warp mask passed to '__match_any_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:27: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:36: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
  // CHECK-NOTES: :[[@LINE-4]]:36: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:36: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = alone;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void match_all_sync_in_data_dependent_conditional_operator(unsigned *out, const int *keys) {
  const int key = keys[threadIdx.x];
  int pred = 0;
  const unsigned same = key != 0 ? __match_all_sync(0xffffffff, key, &pred) : 0u;
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: full warp mask passed to '__match_all_sync' in potentially divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:29: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-3]]:36: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
  // CHECK-NOTES: :[[@LINE-4]]:36: note: data: which lanes get here depends on 'keys[threadIdx.x]', which each lane loads from its own address
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: the lanes that do not arrive wait at a block barrier and the warp never meets
  out[threadIdx.x] = same + pred;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__device__ void reduce_add_sync_after_early_return(unsigned *out, const unsigned *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned total = __reduce_add_sync(0xffffffff, in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: full warp mask passed to '__reduce_add_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: lanes exit here
  // CHECK-FIXES: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, !(i >= n));
  // CHECK-FIXES: {{^}}  if (i >= n)
  // CHECK-FIXES: const unsigned total = __reduce_add_sync(warp_mask, in[i]);
  // CHECK-NOTES: :[[@LINE-6]]:26: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-7]]:26: note: lanes: mask 0xffffffff arrive 0x0001ffff
  // CHECK-NOTES: :[[@LINE+7]]:3: note: consequence: hang: lanes 17..31 wait at a block barrier and the warp never meets
  if (threadIdx.x % 32 == 0)
    out[i / 32] = total;
}
// The lanes that returned from the helper wait at the barrier.
__global__ void reduce_add_sync_after_early_return_caller(unsigned *out, const unsigned *in, int n) {
  reduce_add_sync_after_early_return(out, in, n);
  __syncthreads();
}

__global__ void reduce_min_sync_in_lane_loop_with_ragged_trip_count(unsigned *out, const unsigned *in) {
  const int lane = threadIdx.x % 32;
  unsigned m = ~0u;
  // 100 is not a multiple of 32: lanes 0-3 run 4 iterations, the others 3.
  for (int k = lane; k < 100; k += 32)
    m = min(m, __reduce_min_sync(0xffffffff, in[k]));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: full warp mask passed to '__reduce_min_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:16: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
  // CHECK-NOTES: :[[@LINE-4]]:16: note: witness: in a 1-D block of whole warps, lanes 4..31 of the warp of threads 0..31 in iteration 4 of the loop around it do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:16: note: lanes: mask 0xffffffff arrive 0x0000000f
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 4..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = m;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void reduce_max_sync_in_else_if_chain(int *out, const int *in) {
  const int lane = threadIdx.x % 32;
  int r = in[threadIdx.x];
  if (lane < 8) {
    r = 0;
  } else if (lane < 24) {
    r = __reduce_max_sync(0xffffffff, r);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__reduce_max_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:19: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-6]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:9: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
    // CHECK-NOTES: :[[@LINE-5]]:9: note: witness: in a 1-D block of whole warps, lanes 0..7, 24..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:9: note: lanes: mask 0xffffffff arrive 0x00ffff00
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 0..7, 24..31 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = r;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ptx_shfl_sync_register_mask_in_lane_branch(unsigned *out, const unsigned *in) {
  const int lane = threadIdx.x % 32;
  unsigned x = in[threadIdx.x];
  if (lane < 16) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, %3;"
                 : "=r"(x) : "r"(x), "r"(1), "r"(0xffffffff));
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: full warp mask passed to 'shfl.sync{{[^']*}}' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:5: note: run 'shfl.sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
    // CHECK-NOTES: :[[@LINE-5]]:5: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:5: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    // No fix: no fix for inline PTX: its source lanes are not followed.
  }
  out[threadIdx.x] = x;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ptx_vote_sync_immediate_mask_in_lane_branch(unsigned *out, const unsigned *in) {
  const int lane = threadIdx.x % 32;
  unsigned b = 0;
  if (lane < 8) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
                 "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
                 : "=r"(b) : "r"(in[threadIdx.x]));
    // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: full warp mask passed to 'vote.sync{{[^']*}}' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-5]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-5]]:5: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:5: note: lanes: mask 0xffffffff arrive 0x000000ff
    // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
    // The mask is an immediate inside the asm string: no fix, but the note
    // must still tell the user what to pass.
    // CHECK-NOTES: :[[@LINE-10]]:5: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
  }
  out[threadIdx.x] = b;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ptx_bar_warp_sync_in_data_dependent_loop(int *out, const int *in) {
  int k = threadIdx.x;
  while (in[k] > 0) {
    asm volatile("bar.warp.sync %0;" ::"r"(0xffffffffu));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: full warp mask passed to 'bar.warp.sync' in potentially divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:16: note: lanes may diverge here on a data-dependent condition
    // CHECK-NOTES: :[[@LINE-3]]:5: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
    // CHECK-NOTES: :[[@LINE-4]]:5: note: data: which lanes get here depends on 'in[k]', which each lane loads from its own address
    // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: the lanes that do not arrive wait at a block barrier and the warp never meets
    k += blockDim.x;
  }
  out[threadIdx.x] = k;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- Every way lanes diverge -----------------------------------------------

// The classic partial-warp reduction: the lanes past `n` have left, the
// shuffles read undefined values from them (right answer only by luck).
__device__ void shfl_down_reduction_after_early_return(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_down_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-6]]:5: note: keep these lanes in the warp with a neutral value instead of leaving: with a narrower mask, values '__shfl_down_sync' reads from exited lanes are undefined
  // CHECK-NOTES: :[[@LINE-4]]:10: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:10: note: lanes: mask 0xffffffff arrive 0x0001ffff
  // CHECK-NOTES: :[[@LINE+7]]:3: note: consequence: hang: lanes 17..31 wait at a block barrier and the warp never meets
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}
// The lanes that returned from the helper wait at the barrier.
__global__ void shfl_down_reduction_after_early_return_caller(float *out, const float *in, int n) {
  shfl_down_reduction_after_early_return(out, in, n);
  __syncthreads();
}

__global__ void shfl_xor_sync_after_lane_dependent_break(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = 0.0f;
  for (int k = 0; k < 32; ++k) {
    if (k == lane)
      break;
    v += in[k];
    v += __shfl_xor_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes exit here
    // CHECK-NOTES: :[[@LINE-7]]:21: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-6]]:7: note: keep these lanes in the warp with a neutral value instead of leaving: with a narrower mask, values '__shfl_xor_sync' reads from exited lanes are undefined
    // CHECK-NOTES: :[[@LINE-5]]:10: note: lanes: mask 0xffffffff arrive 0xfffffffe
    // CHECK-NOTES: :[[@LINE-6]]:10: note: witness: in a 1-D block of whole warps, lane 0 of the warp of threads 0..31 in iteration 1 of the loop around it does not reach it
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lane 0 waits at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void syncwarp_after_lane_dependent_continue(float *out, const float *in) {
  __shared__ float tile[32];
  const int lane = threadIdx.x % 32;
  for (int k = 0; k < 4; ++k) {
    if (lane % 2 == k % 2)
      continue;
    tile[lane] = in[k * 32 + lane];
    __syncwarp(0xffffffff);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: full warp mask passed to '__syncwarp' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes exit here
    // CHECK-FIXES: {{^}}    const unsigned warp_mask = __ballot_sync(0xffffffff, !(lane % 2 == k % 2));
    // CHECK-FIXES: {{^}}    __syncwarp(warp_mask);
    // CHECK-NOTES: :[[@LINE-5]]:5: note: witness: in a 1-D block of whole warps, lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 of the warp of threads 0..31 in iteration 1 of the loop around it do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:5: note: lanes: mask 0xffffffff arrive 0xaaaaaaaa
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 wait at a block barrier and the warp never meets
    out[k * 32 + lane] = tile[lane ^ 2];
  }
  __syncthreads(); // the lanes that skipped the collective wait here
}

__device__ void syncwarp_without_argument_after_early_return(float *out, const float *in, int n) {
  __shared__ float tile[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  if (i >= n) return;
  tile[lane] = in[i];
  __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: full warp mask passed to '__syncwarp' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the full mask is the default argument of '__syncwarp'
  // CHECK-FIXES: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, !(i >= n));
  // CHECK-FIXES: {{^}}  if (i >= n) return;
  // CHECK-FIXES: {{^}}  __syncwarp(warp_mask);
  // CHECK-NOTES: :[[@LINE-7]]:3: note: condition: lanes split only when 'n' is not a multiple of 32; with 'n' = 17, lanes 17..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-8]]:3: note: lanes: mask 0xffffffff arrive 0x0001ffff
  // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 17..31 wait at a block barrier and the warp never meets
  out[i] = tile[lane ^ 1];
}
// The lanes that returned from the helper wait at the barrier.
__global__ void syncwarp_without_argument_after_early_return_caller(float *out, const float *in, int n) {
  syncwarp_without_argument_after_early_return(out, in, n);
  __syncthreads();
}

__global__ void nested_lane_branches(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    if (lane < 8)
      v += __shfl_xor_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-5]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:12: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
    // CHECK-NOTES: :[[@LINE-5]]:12: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:12: note: lanes: mask 0xffffffff arrive 0x000000ff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// Both arms of an `if` run the same full-mask ballot: since Volta the lanes
// at one and the lanes at the other meet (the Programming Guide's if/else
// example), so neither is a finding.
__global__ void ballot_sync_in_both_arms(unsigned *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const float x = in[threadIdx.x];
  unsigned votes;
  if (lane < 16) {
    votes = __ballot_sync(0xffffffff, x > 0.0f);
  } else {
    votes = __ballot_sync(0xffffffff, x < 0.0f);
  }
  out[threadIdx.x] = votes;
  __syncthreads();
}

__global__ void shfl_sync_in_data_dependent_branch(float *out, const float *in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (in[i] > 0.0f)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_sync' in potentially divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:13: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-3]]:9: note: run '__shfl_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
  // CHECK-NOTES: :[[@LINE-4]]:9: note: data: which lanes get here depends on 'in[i]', which each lane loads from its own address
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: the lanes that do not arrive wait at a block barrier and the warp never meets
  // No fix: lane 0 may not take the branch.
  out[i] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// Without WarpAlignedBlockDimX a warp may span two rows of a 2-D block.
__global__ void shfl_xor_sync_in_thread_idx_y_branch(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:19: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-4]]:19: note: the lanes split here only if threadIdx.y or threadIdx.z differ inside a warp, that is if blockDim.x is not a multiple of 32; no launch of this kernel is seen: if blockDim.x always is a multiple of 32, set the option WarpAlignedBlockDimX to true
  // CHECK-NOTES: :[[@LINE-4]]:10: note: run '__shfl_xor_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
  // CHECK-NOTES: :[[@LINE-5]]:10: note: condition: lanes split only when 'blockDim.x' is not a multiple of 32; in a 16x2x1 block, lanes 16..31 of warp 0 of block 0 do not reach it
  // CHECK-NOTES: :[[@LINE-6]]:10: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // No fix: which lanes take the branch is not known per lane.
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void ptx_laneid_branch(float *out, const float *in) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  float v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-FIXES: const unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);
  // CHECK-FIXES: v = __shfl_sync(warp_mask, v, 0);
  // CHECK-NOTES: :[[@LINE-5]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-6]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31; }

__global__ void lane_id_helper_branch(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (lane_id() < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_down_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:17: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: run '__shfl_down_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:10: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void tile_thread_rank_branch(float *out, const float *in) {
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (tile.thread_rank() < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:26: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-4]]:10: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- Through helpers, templates, lambdas, members, macros ------------------

__global__ void full_warp_helper_called_in_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = warp_sum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call to 'warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach the call
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void two_level_helper_chain_called_in_lane_branch(int *out, const float *in) {
  const int lane = threadIdx.x % 32;
  int count = 0;
  if (lane < 16)
    count = outer_vote_count(in[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: call to 'outer_vote_count' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-576]]:58: note: 'inner_vote' is called here
  // CHECK-NOTES: :[[@LINE-4]]:13: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach the call
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = count;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void helper_diverging_on_lane_argument(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  v = sum_if_low(v, lane);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call to 'sum_if_low' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: this argument differs between lanes
  // CHECK-NOTES: :[[@LINE-626]]:10: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void branch_on_lane_returned_through_reference(float *out, const float *in) {
  int lane, warp;
  lane_and_warp(lane, warp);
  float v = in[threadIdx.x];
  if (lane < 16)
    v = warp_sum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call to 'warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-657]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach the call
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v + warp;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void full_mask_to_helper_diverging_on_lane_argument(float *out, const float *in) {
  out[threadIdx.x] = bcast_below(0xffffffff, in[threadIdx.x], threadIdx.x % 32, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: full warp mask passed to 'bcast_below' in divergent code, which uses it as the mask of '__shfl_sync' [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:63: note: this argument differs between lanes
  // CHECK-NOTES: :[[@LINE-625]]:12: note: lanes diverge here in 'bcast_below' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-625]]:9: note: the mask is used here
  // CHECK-NOTES: :[[@LINE-5]]:34: note: condition: lanes split only when 'half' is less than 32; with 'half' = 17, lanes 17..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 17..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void explicit_full_mask_to_helper_in_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = reduce(v, 0xffffffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: full warp mask passed to 'reduce' in divergent code, which uses it as the mask of '__shfl_xor_sync' [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-673]]:10: note: the mask is used here
  // CHECK-NOTES: :[[@LINE-4]]:19: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// Instantiated twice (float, int): reported once, at the template.
template <typename T>
__device__ T half_warp_shift(T v) {
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_down_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: run '__shfl_down_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:10: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+15]]:20: note: consequence: undefined: lanes 16..31 wait at another warp collective instead: undefined behaviour that runs silently on sm_90 today
  // CHECK-NOTES: :[[@LINE-8]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-8]]:42: note: the source lane is computed from this operand
  // CHECK-NOTES: :[[@LINE-9]]:10: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 leave before it
  // CHECK-NOTES: :[[@LINE-10]]:10: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-11]]:10: note: consequence: wrong-values: lanes 8..15 get undefined values (0 on sm_90)
  // No fix: lanes 8..15 would read lanes 16..23, which skip the branch.
  // CHECK-MESSAGES: :[[@LINE-13]]:10: warning: lanes 8..15 of '__shfl_down_sync' read lanes 16..23, which have left the kernel: the values read are undefined [warp-shuffle-source-outside-mask]
  // (In half_warp_shift<int>, called last, the lanes that skip the branch
  // return and leave the kernel: the shuffle reads them.)
  return v;
}

__global__ void template_instantiated_twice(float *f, int *n) {
  f[threadIdx.x] = half_warp_shift(f[threadIdx.x]);
  n[threadIdx.x] = half_warp_shift(n[threadIdx.x]);
}

// Never instantiated in this translation unit (header-only library style):
// the pattern is analysed with its dependent collective call.
template <typename T>
__device__ T never_instantiated_low_half_sum(T v) {
  if (threadIdx.x % 32 < 16)
    v += __shfl_xor_sync(0xffffffff, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
  // CHECK-FIXES: const unsigned warp_mask = __ballot_sync(0xffffffff, threadIdx.x % 32 < 16);
  // CHECK-FIXES: v += __shfl_xor_sync(warp_mask, v, 2);
  // CHECK-NOTES: :[[@LINE-5]]:10: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-6]]:10: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-7]]:10: note: consequence: undefined: lanes 16..31 return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
  return v;
}

__global__ void lambda_with_lane_branch(float *out, const float *in) {
  auto low_half_sum = [](float x) {
    if (threadIdx.x % 32 < 16)
      x += __shfl_xor_sync(0xffffffff, x, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:26: note: lanes diverge here
    // CHECK-FIXES: {{^}}    const unsigned warp_mask = __ballot_sync(0xffffffff, threadIdx.x % 32 < 16);
    // CHECK-FIXES: x += __shfl_xor_sync(warp_mask, x, 4);
    // CHECK-NOTES: :[[@LINE-5]]:12: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:12: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    return x;
  };
  out[threadIdx.x] = low_half_sum(in[threadIdx.x]);
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void lambda_capturing_lane(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  auto shift_low = [=](float x) {
    if (lane < 16)
      x = __shfl_down_sync(0xffffffff, x, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: full warp mask passed to '__shfl_down_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:14: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:11: note: run '__shfl_down_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
    // CHECK-NOTES: :[[@LINE-4]]:11: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-5]]:11: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+5]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
    // No fix: lane 15 would read lane 16, which skips the branch.
    return x;
  };
  out[threadIdx.x] = shift_low(in[threadIdx.x]);
  __syncthreads(); // the lanes that skipped the collective wait here
}

struct WarpAccumulator {
  float value;
  __device__ void add_from_upper_half() {
    if (threadIdx.x % 32 >= 16)
      value += __shfl_xor_sync(0xffffffff, value, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:26: note: lanes diverge here
    // CHECK-FIXES: const unsigned warp_mask = __ballot_sync(0xffffffff, threadIdx.x % 32 >= 16);
    // CHECK-FIXES: value += __shfl_xor_sync(warp_mask, value, 1);
    // CHECK-NOTES: :[[@LINE-5]]:16: note: witness: in a 1-D block of whole warps, lanes 0..15 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:16: note: lanes: mask 0xffffffff arrive 0xffff0000
    // CHECK-NOTES: :[[@LINE+8]]:3: note: consequence: hang: lanes 0..15 wait at a block barrier and the warp never meets
  }
};

__global__ void member_function_with_lane_branch(float *out, const float *in) {
  WarpAccumulator acc{in[threadIdx.x]};
  acc.add_from_upper_half();
  out[threadIdx.x] = acc.value;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// The collective comes from a macro: reported at the expansion, never fixed
// inside the macro, but the note says what to pass instead.
__global__ void macro_expanded_shuffle_in_lane_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = WARP_BROADCAST(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:9: note: pass the mask of the lanes that reach this call, computed with __ballot_sync(0xffffffff, <condition>) before the lanes diverge
  // CHECK-NOTES: :[[@LINE-812]]:27: note: expanded from macro 'WARP_BROADCAST'
  // CHECK-NOTES: :[[@LINE-813]]:27: note: expanded from macro 'WARP_BROADCAST'
  // CHECK-NOTES: :[[@LINE-6]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-7]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-816]]:27: note: expanded from macro 'WARP_BROADCAST'
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-818]]:27: note: expanded from macro 'WARP_BROADCAST'
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

//===----------------------------------------------------------------------===//
// Part 2: must stay silent
//===----------------------------------------------------------------------===//

// A warp id is the same for all 32 lanes: whole warps take the branch.
__global__ void warp_id_guard(float *out, const float *in) {
  const int warp_id = threadIdx.x / 32;
  float v = in[threadIdx.x];
  if (warp_id == 0)
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}

// With 1-D blocks threads 0-31 are exactly warp 0.
__global__ void first_warp_guard(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.x < 32)
    v = warp_sum(v);
  out[threadIdx.x] = v;
}

// threadIdx.x / 32 is the warp index: uniform.
__global__ void warp_index_equals_one_guard(unsigned *out, const float *in) {
  unsigned votes = 0;
  if (threadIdx.x / 32 == 1)
    votes = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
  out[threadIdx.x] = votes;
}

// `>> 5` is the same warp index.
__global__ void warp_index_shift_guard(int *out, const float *in) {
  int any = 0;
  if ((threadIdx.x >> 5) % 2 == 0)
    any = __any_sync(0xffffffff, in[threadIdx.x] < 0.0f);
  out[threadIdx.x] = any;
}

// blockIdx is the same for every thread of the block.
__global__ void block_index_guard(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (blockIdx.x == 0)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  out[threadIdx.x] = v;
}

// Kernel parameters are the same for every thread of the grid.
__global__ void kernel_parameter_guard(float *out, const float *in, int n, bool fast) {
  float v = in[threadIdx.x];
  if (fast && n > 64)
    v = __shfl_sync(0xffffffff, v, 0);
  out[threadIdx.x] = v;
}

// The loop bound is a kernel parameter: every lane runs the same iterations.
__global__ void loop_with_parameter_trip_count(float *out, const float *in, int rounds) {
  float v = in[threadIdx.x];
  for (int r = 0; r < rounds; ++r)
    v += __shfl_xor_sync(0xffffffff, v, r % 32);
  out[threadIdx.x] = v;
}

// The mask is the ballot of exactly the condition that guards the call.
__global__ void ballot_mask_used_under_its_condition(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = __ballot_sync(0xffffffff, i < n);
  if (i < n) {
    float v = in[i];
    v += __shfl_sync(m, v, __ffs(m) - 1);
    out[i] = v;
  }
}

// The ballot of !(i >= n), taken before the early exit, names the lanes left.
__global__ void ballot_mask_before_early_return(int *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = __ballot_sync(0xffffffff, !(i >= n));
  if (i >= n)
    return;
  out[i] = __any_sync(m, in[i] < 0.0f);
}

// The mask is refreshed each iteration to the lanes still looping.
__global__ void ballot_mask_refreshed_in_loop(float *out, const float *in, int n) {
  int i = threadIdx.x;
  float v = 0.0f;
  unsigned mask = __ballot_sync(0xffffffff, i < n);
  while (i < n) {
    v += in[i];
    v += __shfl_xor_sync(mask, v, 1);
    i += 32;
    mask = __ballot_sync(mask, i < n);
  }
  out[threadIdx.x] = v;
}

// Each half-warp passes the mask of its own half.
__global__ void per_half_masks(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(half, v, 0, 16);
  else
    v = __shfl_sync(half, v, 16, 16);
  out[threadIdx.x] = v;
}

// A constant narrow mask naming exactly the lanes of the branch.
__global__ void narrow_constant_mask_matches_branch(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_xor_sync(0x0000ffff, v, 1);
  out[threadIdx.x] = v;
}

// __activemask() taken where it is used names the lanes that are there.
__global__ void activemask_inside_branch(unsigned *out, const float *in) {
  const int lane = threadIdx.x % 32;
  unsigned votes = 0;
  if (lane < 16) {
    const unsigned active = __activemask();
    votes = __ballot_sync(active, in[threadIdx.x] > 0.0f);
  }
  out[threadIdx.x] = votes;
}

// coalesced_threads() is the group of the lanes that got here.
__global__ void coalesced_group_in_data_dependent_branch(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (v > 0.0f) {
    cg::coalesced_group active = cg::coalesced_threads();
    v = active.shfl(v, 0);
    active.sync();
  }
  out[threadIdx.x] = v;
}

// tiled_partition<32> collectives where the whole tile is converged.
__global__ void tile_collectives_at_converged_point(float *out, const float *in) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += tile.shfl_down(v, offset);
  tile.sync();
  out[threadIdx.x] = tile.ballot(v > 0.0f) ? v : 0.0f;
}

// cg::reduce on a converged tile.
__global__ void cg_reduce_on_tile(float *out, const float *in) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = cg::reduce(tile, in[threadIdx.x], cg::plus<float>());
}

// k runs lane, lane+32, lane+64, lane+96 for every lane: 4 iterations each.
__global__ void lane_loop_with_uniform_trip_count(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = 0.0f;
  for (int k = lane; k < 128; k += 32)
    v += __shfl_xor_sync(0xffffffff, in[k], 1);
  out[threadIdx.x] = v;
}

// The bound is a multiple of 32 times a parameter: same trip count again.
__global__ void lane_loop_over_parameter_tiles(float *out, const float *in, int tiles) {
  const int lane = threadIdx.x % 32;
  float v = 0.0f;
  for (int k = lane; k < 32 * tiles; k += 32)
    v += __reduce_add_sync(0xffffffff, static_cast<unsigned>(in[k]));
  out[threadIdx.x] = v;
}

// The lanes reconverge after the `if`; the shuffle runs on the full warp.
__global__ void full_mask_after_branch_reconverged(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v *= 2.0f;
  v += __shfl_xor_sync(0xffffffff, v, 16);
  __syncwarp();
  out[threadIdx.x] = v;
}

// Lanes leave the inner loop at different times but meet again after it.
__global__ void full_mask_after_loop_with_lane_dependent_break(int *out, const int *keys, int key) {
  const int lane = threadIdx.x % 32;
  int found = -1;
  for (int k = 0; k < 32; ++k) {
    if (keys[k * 32 + lane] == key) {
      found = k;
      break;
    }
  }
  out[threadIdx.x] = __ballot_sync(0xffffffff, found >= 0);
}

// A lane-dependent loop without collectives, then one after it.
__global__ void full_mask_after_lane_dependent_loop(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = 0.0f;
  for (int k = 0; k < lane; ++k)
    v += in[k];
  out[threadIdx.x] = __shfl_sync(0xffffffff, v, 31);
}

// A full-warp helper called where the warp is converged.
__global__ void full_warp_helper_called_converged(float *out, const float *in) {
  out[threadIdx.x] = warp_sum(in[threadIdx.x]);
}

// The default full mask of `reduce` in converged code; a ballot mask when
// called under a branch.
__global__ void mask_helper_called_correctly(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = reduce(in[threadIdx.x]);
  const unsigned low = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 16)
    v = reduce(v, low);
  out[threadIdx.x] = v;
}

// The helper diverges on its argument, here the same for every lane.
__global__ void helper_with_uniform_argument(float *out, const float *in) {
  out[threadIdx.x] = sum_if_low(in[threadIdx.x], blockIdx.x % 32);
}

// The classic reduction over a uniform trip count.
__global__ void uniform_loop_reduction(float *out, const float *in) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = v;
}

// Lanes that fail the check abort the kernel: nothing after runs diverged.
__global__ void full_mask_after_trap(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    __trap();
  out[i] = warp_sum(in[i]);
}

// A failed device assert aborts the kernel too.
__global__ void full_mask_after_assert(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = __shfl_sync(0xffffffff, in[i], 0);
}

// Whole warps leave: with 1-D blocks only warp 0 continues.
__global__ void whole_warps_return_early(float *out, const float *in) {
  if (threadIdx.x >= 32)
    return;
  out[threadIdx.x] = warp_sum(in[threadIdx.x]);
}

// The condition is a compile-time constant.
template <typename T>
__device__ T shuffle_if_wide(T v) {
  if constexpr (sizeof(T) >= 4)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  return v;
}

__global__ void if_constexpr_branch(float *out, const float *in) {
  out[threadIdx.x] = shuffle_if_wide(in[threadIdx.x]);
}

// One lane writes the result; no collective runs in the branch.
__global__ void single_lane_store_without_collective(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const float v = warp_sum(in[threadIdx.x]);
  if (lane == 0)
    atomicAdd(out, v);
}

// A full-mask ballot of a lane-dependent predicate, at a converged point.
__global__ void ballot_of_lane_predicate_converged(unsigned *out) {
  const int lane = threadIdx.x % 32;
  out[threadIdx.x] = __ballot_sync(0xffffffff, lane < 16);
}

// __any_sync is warp-uniform: the loop runs the same iterations in every lane.
__global__ void loop_on_any_sync(float *out, const float *in) {
  float v = in[threadIdx.x];
  bool pending = v > 0.0f;
  while (__any_sync(0xffffffff, pending)) {
    if (pending) {
      v -= 1.0f;
      pending = v > 0.0f;
    }
  }
  out[threadIdx.x] = v;
}

// A value broadcast from lane 0 is the same in every lane.
__global__ void branch_on_broadcast_value(float *out, const float *in) {
  float v = in[threadIdx.x];
  const float first = __shfl_sync(0xffffffff, v, 0);
  if (first > 0.0f)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}

// A warp reduction's result is the same in every lane.
__global__ void branch_on_warp_reduction(unsigned *out, const unsigned *in) {
  const unsigned total = __reduce_add_sync(0xffffffff, in[threadIdx.x]);
  unsigned r = 0;
  if (total > 100)
    r = __reduce_max_sync(0xffffffff, in[threadIdx.x]);
  out[threadIdx.x] = r;
}

// The macro-expanded collective at a converged point.
__global__ void macro_collective_converged(float *out, const float *in) {
  out[threadIdx.x] = WARP_BROADCAST(in[threadIdx.x]);
}

// The helper branches on arguments that are the same in every lane.
__global__ void full_mask_to_helper_branching_on_uniform_arguments(float *out, const float *in, int half) {
  out[threadIdx.x] = bcast_below(0xffffffff, in[threadIdx.x], blockIdx.x, half);
}

// Values returned through references are as uniform as what the helper
// writes there: a block's tile coordinates, the warp index.
__global__ void branch_on_uniform_values_returned_through_references(Divmod tiles, float *out, const float *in, int rows) {
  int col;
  const int row = tiles.divmod(col, blockIdx.x);
  int lane, warp;
  lane_and_warp(lane, warp);
  float v = in[threadIdx.x];
  if (row < rows && col > 0 && warp == 0)
    v = warp_sum(v);
  out[threadIdx.x] = v + lane;
}

// Both arms run one full-mask __syncwarp: since sm_70 the lanes at the two
// calls wait for each other, and the whole warp meets.
__global__ void syncwarp_in_both_arms(float *out, const float *in) {
  __shared__ float tile[32];
  const int lane = threadIdx.x % 32;
  if (lane < 16) {
    tile[lane] = in[threadIdx.x];
    __syncwarp();
  } else {
    tile[lane] = -in[threadIdx.x];
    __syncwarp();
  }
  out[threadIdx.x] = tile[31 - lane];
}

/// Rounds `n` down to a multiple of `m` (a one-line helper, as in FAISS).
__host__ __device__ constexpr int round_down(int n, int m) { return (n / m) * m; }

// The bound is a multiple of 32 and a warp's lanes start at consecutive
// indices: all lanes of a warp run the same iterations (FAISS BlockSelect
// handles the remainder after the loop).
__global__ void whole_warps_below_rounded_down_limit(float *out, const float *in, int n) {
  const int limit = round_down(n, 32);
  float v = 0.0f;
  int i = threadIdx.x;
  for (; i < limit; i += blockDim.x)
    v += warp_sum(in[i]);
  if (i < n)
    v += in[i];
  out[threadIdx.x] = v;
}

// --- threadIdx.y/z and the launches seen in this translation unit ----------

__device__ float launch_warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

// Every launch below uses blockDim.x == 32: a warp is one row, so the y test
// is warp-uniform and the warp is whole at the reduction.
__global__ void rows_launched_warp_aligned(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}

// Launched with a runtime blockDim.x: a warp may span two rows.
__global__ void rows_launched_unaligned(float *p) {
  if (threadIdx.y == 0)
    p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
  __syncthreads(); // the other rows wait here
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: call to 'launch_warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE+12]]:3: note: launched here with a block whose x extent is not known to be a multiple of 32
  // CHECK-NOTES: :[[@LINE-19]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-6]]:19: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-7]]:19: note: the lanes split here only if threadIdx.y or threadIdx.z differ inside a warp, that is if blockDim.x is not a multiple of 32; a launch of this kernel does not show it: if blockDim.x always is a multiple of 32, set the option WarpAlignedBlockDimX to true
  // CHECK-NOTES: :[[@LINE-7]]:22: note: condition: lanes split only when 'blockDim.x' is not a multiple of 32; in a 16x2x1 block, lanes 16..31 of warp 0 of block 0 do not reach the call
  // CHECK-NOTES: :[[@LINE-7]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
}

void launch_rows(float *p, int width) {
  const dim3 aligned_block(32, 4, 1);
  rows_launched_warp_aligned<<<1, aligned_block>>>(p);
  rows_launched_warp_aligned<<<1, dim3(64, 2)>>>(p);
  rows_launched_unaligned<<<1, dim3(width, 4)>>>(p);
}

// A dim3 local that is never written again, a launch helper that takes the
// kernel, and a launch-parameter struct: all show a warp-aligned block.
__global__ void rows_via_plain_dim3(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
__global__ void rows_via_launch_helper(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
__global__ void rows_via_params_struct(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
// Launched with 16-wide rows: two rows share a warp.
__global__ void rows_half_warp_wide(float *p) {
  if (threadIdx.y == 0)
    p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
  __syncthreads(); // the other rows wait here
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: call to 'launch_warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-56]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-5]]:19: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-6]]:19: note: the lanes split here only if threadIdx.y or threadIdx.z differ inside a warp, that is if blockDim.x is not a multiple of 32; a launch of this kernel does not show it: if blockDim.x always is a multiple of 32, set the option WarpAlignedBlockDimX to true
  // CHECK-NOTES: :[[@LINE-6]]:22: note: witness: in a 16x2x1 block, lanes 16..31 of warp 0 of block 0 do not reach the call
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
}
// No launch in this unit: the note says which option would silence it.
__global__ void rows_never_launched(float *p) {
  if (threadIdx.y == 0)
    p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
  __syncthreads(); // the other rows wait here
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: call to 'launch_warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-68]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-5]]:19: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-6]]:19: note: the lanes split here only if threadIdx.y or threadIdx.z differ inside a warp, that is if blockDim.x is not a multiple of 32; no launch of this kernel is seen: if blockDim.x always is a multiple of 32, set the option WarpAlignedBlockDimX to true
  // CHECK-NOTES: :[[@LINE-6]]:22: note: condition: lanes split only when 'blockDim.x' is not a multiple of 32; in a 16x2x1 block, lanes 16..31 of warp 0 of block 0 do not reach the call
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
}

// Warps are cut from the linear thread index threadIdx.y * blockDim.x +
// threadIdx.x whatever the block's shape: its quotient by 32 is the warp,
// its remainder the lane. No launch is seen, and none is needed.
__global__ void rows_linear_warp_index(float *p) {
  const unsigned tid = threadIdx.x + threadIdx.y * blockDim.x;
  if (tid / 32 != 0)
    return;
  p[tid] = launch_warp_sum(p[tid]);
  const unsigned lane = (blockDim.x * threadIdx.y + threadIdx.x) % 32;
  if (lane == 0)
    p[tid] += 1.0f;
}
// The warp a row starts in is the lane's warp whenever blockDim.x divides 32
// or is a multiple of it (every power-of-two row width).
__global__ void rows_row_start_warp_index(float *p) {
  const int warp_id = (threadIdx.y * blockDim.x) / 32;
  if (warp_id == 0)
    p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
// threadIdx.y * 32 is not where a row starts: rows of 16 put two values of
// threadIdx.y in one warp.
__global__ void rows_scaled_by_constant(float *p) {
  if ((threadIdx.y * 32) / 32 == 0)
    p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'launch_warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:31: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-4]]:31: note: the lanes split here only if threadIdx.y or threadIdx.z differ inside a warp, that is if blockDim.x is not a multiple of 32; no launch of this kernel is seen: if blockDim.x always is a multiple of 32, set the option WarpAlignedBlockDimX to true
  // CHECK-NOTES: :[[@LINE-102]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-5]]:22: note: condition: lanes split only when 'blockDim.x' is not a multiple of 32; in a 16x2x1 block, lanes 16..31 of warp 0 of block 0 do not reach the call
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

// `if (tid == k) ... else if (tid < k)`: past `tid < k` no lane has
// tid == k, so the one-lane test splits none of the workers; groups of whole
// warps are indexed and ranked like warps.
__global__ void producer_and_workers(float *p, int nwarps) {
  const int workers = nwarps * 32;
  const int tid = threadIdx.x;
  if (tid == workers) {
    p[0] = 1.0f;
  } else if (tid < workers) {
    p[tid] = launch_warp_sum(p[tid]);
  }
  const int group_size = nwarps * 32;
  const int group = tid / group_size;
  const int rank = tid - group * group_size;
  if (group == 1 && rank < 64)
    p[tid] = launch_warp_sum(p[tid]);
}
// Here the elected lane is one of the workers: their warp is split.
__global__ void producer_among_workers(float *p, int nwarps) {
  const int workers = nwarps * 32;
  const int tid = threadIdx.x;
  if (tid == 5) {
    p[0] = 1.0f;
  } else if (tid < workers) {
    p[tid] = launch_warp_sum(p[tid]);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: lane 5 writes 'p[0]' while lane 0 reads it in the same step (offset 5): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: written here
    // CHECK-NOTES: :[[@LINE-3]]:30: note: witness: in warp 0, lane 5 writes 'p[0]' and lane 0 reads it with offset 5
    // CHECK-NOTES: :[[@LINE-4]]:30: note: consequence: race: lane 0 may read 'p[0]' before or after lane 5 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
    // CHECK-NOTES: :[[@LINE-5]]:5: note: suggested code: read what other lanes write into registers before the step ('const auto warp_read = p[tid];'), then '__syncwarp();', the step using those registers, and '__syncwarp();' after it, each placed where every lane of the warp runs it, outside the branch that splits them (or exchange the values with __shfl_down_sync)
    // CHECK-MESSAGES: :[[@LINE-6]]:14: warning: call to 'launch_warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-10]]:11: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-140]]:10: note: '__shfl_xor_sync' with a full mask runs here
    // CHECK-NOTES: :[[@LINE-9]]:14: note: witness: in a 1-D block of whole warps, lane 5 of the warp of threads 0..31 does not reach the call
    // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lane 5 waits at a block barrier and the warp never meets
  }
  __syncthreads(); // the lanes that skipped the collective wait here
}

// A test excludes another only where both read the same values: here
// `index` changes between `index >= end` and the next `index < end`.
__global__ void consume_until_empty(const int *endp, float *p, const int *next) {
  int index = threadIdx.x;
  int end = *endp;
  do {
    while (index < end) {
      p[index] = launch_warp_sum(p[index]);
      // KNOWN MISS: a while loop whose lanes leave after data-dependent
      // numbers of iterations: the first iteration is conditional on end
      // (threadIdx.x < end), but the evaluator follows for loops only, so
      // this is potential
      index = next[index];
    }
    if (index >= end)
      break;
  } while (true);
  __syncthreads(); // the lanes that skipped the collective wait here
}

template <typename Kernel, typename... Args>
void launch_kernel(Kernel kernel, dim3 grid, dim3 block, Args... args) {
  kernel<<<grid, block>>>(args...);
}
struct LaunchShape {
  dim3 grid, block;
  LaunchShape(dim3 g, dim3 b) : grid(g), block(b) {}
};
template <typename Kernel, typename... Args>
void launch_with(Kernel kernel, const LaunchShape &shape, Args... args) {
  kernel<<<shape.grid, shape.block>>>(args...);
}
__global__ void rows_via_runtime_api(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
__global__ void rows_via_launch_config(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
void launch_through_runtime(float *p, int n, unsigned warps) {
  void *args[] = {&p};
  cudaLaunchKernel((void *)rows_via_runtime_api, dim3(n), dim3(64, 2), args, 0, 0);
  dim3 threads(32, warps);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(n);
  config.blockDim = threads;
  auto kernel = rows_via_launch_config;
  cudaLaunchKernelEx(&config, kernel, p);
}

void launch_more_rows(float *p, int n, int warps) {
  dim3 block(32, 4);
  rows_via_plain_dim3<<<n, block>>>(p);
  launch_kernel(rows_via_launch_helper, dim3(n), dim3(64, 2), p);
  const LaunchShape shape(dim3(n), dim3(32 * warps, 4));
  launch_with(rows_via_params_struct, shape, p);
  rows_half_warp_wide<<<n, dim3(16, 2)>>>(p);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: launched here with a block whose x extent is not known to be a multiple of 32
}

// Extents set right after the dim3 is built, in the block that declares it:
// every launch below it sees them (blockDim.x is 32 here).
__global__ void rows_via_member_writes(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
// An extent set only on one path is not known at the launch.
__global__ void rows_via_member_write_in_branch(float *p) {
  if (threadIdx.y == 0)
    p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
  __syncthreads(); // the other rows wait here
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: call to 'launch_warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE+19]]:3: note: launched here with a block whose x extent is not known to be a multiple of 32
  // CHECK-NOTES: :[[@LINE-5]]:19: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-6]]:19: note: the lanes split here only if threadIdx.y or threadIdx.z differ inside a warp, that is if blockDim.x is not a multiple of 32; a launch of this kernel does not show it: if blockDim.x always is a multiple of 32, set the option WarpAlignedBlockDimX to true
  // CHECK-NOTES: :[[@LINE-6]]:22: note: condition: lanes split only when 'blockDim.x' is not a multiple of 32; in a 16x2x1 block, lanes 16..31 of warp 0 of block 0 do not reach the call
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-228]]:10: note: '__shfl_xor_sync' with a full mask runs here
}
void launch_with_member_writes(float *p, int m, int width) {
  dim3 grid(m);
  dim3 block(width < 1024 ? width : 1024);
  block.x = 32;
  block.y = 8;
  grid.x = (m + 7) / 8;
  rows_via_member_writes<<<grid, block>>>(p);
}
void launch_with_member_write_in_branch(float *p, int m, int width) {
  dim3 block(32, 8);
  if (width < 32)
    block.x = width;
  rows_via_member_write_in_branch<<<m, block>>>(p);
}

// --- Warp-uniform values the lanes can branch on ---------------------------

// After a butterfly all-reduce every lane holds the total.
__global__ void branch_on_butterfly_sum(float *out, const float *in) {
  const float total = launch_warp_sum(in[threadIdx.x]);
  if (total > 0.0f)
    out[threadIdx.x] = __shfl_sync(0xffffffff, total, 0);
  float m = in[threadIdx.x];
#pragma unroll
  for (int o = 1; o < 32; o <<= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (m > 1.0f)
    __syncwarp();
}

// A butterfly over 16-lane groups is uniform per group only.
__global__ void branch_on_half_warp_sum(float *out, const float *in) {
  float v = in[threadIdx.x];
  for (int o = 8; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, 16);
  if (v > 0.0f)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: full warp mask passed to '__syncwarp' in potentially divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:9: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the full mask is the default argument of '__syncwarp'
  // CHECK-NOTES: :[[@LINE-4]]:5: note: data: which lanes get here depends on 'in[threadIdx.x]', which each lane loads from its own address
  // CHECK-NOTES: :[[@LINE+4]]:3: note: consequence: hang: the lanes that do not arrive wait at a block barrier and the warp never meets
  // CHECK-FIXES: {{^}}  const unsigned warp_mask{{[0-9]*}} = __ballot_sync(0xffffffff, v > 0.0f);
  // CHECK-FIXES: {{^}}    __syncwarp(warp_mask{{[0-9]*}});
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// Block-wide votes are the same in every thread of the block.
__global__ void branch_on_block_vote(float *out, const float *in) {
  const int any_positive = __syncthreads_or(in[threadIdx.x] > 0.0f);
  const int positives = __syncthreads_count(in[threadIdx.x] > 0.0f);
  if (any_positive && positives > 3)
    out[threadIdx.x] = __shfl_down_sync(0xffffffff, in[threadIdx.x], 1);
}

// A helper that returns a warp vote: uniform.
__device__ bool warp_any(bool p) { return __any_sync(0xffffffff, p); }
__device__ int warp_count(bool p) {
  const unsigned votes = __ballot_sync(0xffffffff, p);
  return __popc(votes);
}
__global__ void branch_on_helper_vote(float *out, const float *in) {
  if (warp_any(in[threadIdx.x] > 0.0f) && warp_count(in[threadIdx.x] < 0.0f) < 4)
    out[threadIdx.x] = __shfl_sync(0xffffffff, in[threadIdx.x], 0);
}

// One thread writes the shared value, the barrier publishes it to all.
__global__ void branch_on_shared_broadcast(float *out, const float *in, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = n > 0 ? int(in[0]) : 0;
  __syncthreads();
  const int c = count;
  if (c > 2)
    out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1);
}

// Overwritten by every lane after a write by lane 0 only.
__global__ void branch_on_overwritten_local(float *out, const float *in, int n) {
  int t = 0;
  if (threadIdx.x == 0)
    t = int(in[blockIdx.x]);
  __syncthreads();
  t = n * 2;
  if (t > 4)
    out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1);
}

// A compile-time condition picks one arm of ?: (the other never runs).
template <int Rows>
__global__ void constant_conditional_row(float *out, const float *in) {
  const int row = Rows == 1 ? 0 : int(threadIdx.x) / 8;
  if (row == 0)
    out[threadIdx.x] = __shfl_sync(0xffffffff, in[threadIdx.x], 0);
}
template __global__ void constant_conditional_row<1>(float *, const float *);

// A test that the whole warp is here makes the full mask right again.
__global__ void whole_warp_after_divergence(float *out, const float *in) {
  if (in[threadIdx.x] > 0.0f) {
    cg::coalesced_group active = cg::coalesced_threads();
    if (active.size() == 32)
      out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1);
    if (__activemask() == 0xffffffffu)
      __syncwarp();
    if (__popc(__activemask()) != 32)
      return;
    __syncwarp();
  }
}

// --- Template patterns never instantiated: dependent expressions -----------

template <class Queue> __device__ void paren_init_pattern(int *p) {
  Queue q(p);
  Queue r(threadIdx.x, 1.0);
  if (threadIdx.x % 32 < 16)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: full warp mask passed to '__syncwarp' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the full mask is the default argument of '__syncwarp'
  // CHECK-NOTES: :[[@LINE-4]]:5: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-5]]:5: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE-6]]:5: note: consequence: undefined: lanes 16..31 return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
}

template <class T, int Width, class... Rest>
__device__ T dependent_pattern(T v, T *p, Rest... rest) {
  auto w = T(threadIdx.x);
  p[T::index] = v.member + w;
  v = (rest + ... + 0) ? v : w;
  if (p[threadIdx.x] < T::limit)
    v = __shfl_xor_sync(0xffffffff, v, Width / 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_xor_sync' in potentially divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:22: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-3]]:9: note: run '__shfl_xor_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
  // CHECK-NOTES: :[[@LINE-4]]:9: note: data: which lanes get here depends on 'p[threadIdx.x]', which each lane loads from its own address
  // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: undefined: the lanes that do not arrive return to callers this unit does not show, which may synchronize: undefined behaviour that runs silently on sm_90 today
  return v;
}

// The fix's mask name must not clash with a name the function already uses.
__global__ void existing_warp_mask_name(float *out, const float *in) {
  const unsigned warp_mask = 0x0000ffffu;
  const unsigned lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 8)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
  // CHECK-FIXES: {{^}}  const unsigned warp_mask1 = __ballot_sync(0xffffffff, lane < 8);
  // CHECK-FIXES: {{^}}    v = __shfl_sync(warp_mask1, v, 0);
  // CHECK-NOTES: :[[@LINE-5]]:9: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-6]]:9: note: lanes: mask 0xffffffff arrive 0x000000ff
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v + warp_mask;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- Past a lane's copy of a kernel parameter (silent) ------------------------

// &k.head is a per-lane address (each thread's copy of the parameter), but
// the bytes after it are the same parameter in every lane: the trip count
// read through `head + 1` is uniform.
struct BatchInfo { int n; };
struct ParamHead { int count; };
struct ParamBlock { ParamHead head; BatchInfo batches[4]; };
__device__ void run_batches(const ParamHead *head) {
  const BatchInfo *b = (const BatchInfo *)(head + 1);
  for (int i = 0; i < b[0].n; ++i)
    __syncwarp();
}
__global__ void through_parameter_copy(ParamBlock k) { run_batches(&k.head); }

// --- Which shuffles a narrower mask repairs ----------------------------------

// Offsets 8..1 keep the lanes below 16 among themselves: the ballot of the
// condition names every lane read, so the fix applies.
__global__ void counted_offsets_within_branch(float *out, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    for (int offset = 8; offset > 0; offset >>= 1)
      v += __shfl_xor_sync(0xffffffff, v, offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);
    // CHECK-FIXES: {{^}}      v += __shfl_xor_sync(warp_mask, v, offset);
    // CHECK-NOTES: :[[@LINE-5]]:12: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-6]]:12: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// Offset 16 makes lane 0 read lane 16, which skips the branch: a narrower
// mask would leave that value undefined (vilib's reduction inside a bounds
// test): no fix, and the note says what to do instead.
__global__ void counted_offsets_leave_branch(float *out, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffff, v, offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: full warp mask passed to '__shfl_down_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:12: note: run '__shfl_down_sync' where the lanes are together, with a neutral value in the lanes that skip the branch: with the mask of the lanes that take it, values read from the other lanes are undefined
    // CHECK-NOTES: :[[@LINE-4]]:12: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-5]]:12: note: lanes: mask 0xffffffff arrive 0x0000ffff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// The lanes that stay after an exit read only each other: the ballot of
// the lanes that stay repairs it.
__device__ void exit_then_reads_among_stayers(float *out, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 16)
    return;
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: lanes exit here
  // CHECK-FIXES: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, !(lane >= 16));
  // CHECK-FIXES: {{^}}  v += __shfl_xor_sync(warp_mask, v, 1);
  // CHECK-NOTES: :[[@LINE-5]]:8: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-6]]:8: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
}
// The lanes that returned from the helper wait at the barrier.
__global__ void exit_then_reads_among_stayers_caller(float *out, const float *in) {
  exit_then_reads_among_stayers(out, in);
  __syncthreads();
}

// --- The warp's own base index (silent) -------------------------------------

// `tid - lane` is the index of the warp's lane 0: whole warps leave together,
// and the ballot after the exit sees its whole warp (SlabHash's build).
__global__ void exit_on_warp_base(const unsigned *keys, unsigned n, unsigned *out) {
  const unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  const unsigned lane = threadIdx.x & 0x1f;
  if (tid - lane >= n)
    return;
  const bool active = tid < n;
  const unsigned queue = __ballot_sync(0xffffffff, active);
  if (lane == 0)
    out[tid / 32] = queue + (active ? keys[tid] : 0u);
}

// --- Lambdas run by a generic helper (silent) -------------------------------

// The lambda captures only a kernel parameter: its result through the
// helper is the same in every lane, and so is the exit on it (ginkgo's
// group-wide search).
template <typename I, typename Pred>
__device__ I partition_search(I offset, I length, Pred pred) {
  while (length > 0) {
    const I half = length / 2;
    const I mid = offset + half;
    const bool below = pred(mid);
    length = below ? half : length - (half + 1);
    offset = below ? offset : mid + 1;
  }
  return offset;
}
__global__ void exit_on_searched_position(int threshold, int n, unsigned *out) {
  const int pos = partition_search(0, n, [=](int i) { return i >= threshold; });
  if (pos == 0)
    return;
  out[blockIdx.x] = __ballot_sync(0xffffffff, threadIdx.x % 32 < unsigned(pos));
}

// --- Loops every lane runs the same number of times (silent) ---------------

// The counter and its bound both start from `base + threadIdx.x`: the test
// compares their uniform difference (ginkgo's COO segments).
__global__ void segment_with_lane_offset_bounds(const float *val, float *out, int nnz, int num) {
  const int first = blockIdx.x * 32 * num + threadIdx.x;
  const int last = first + (num - 1) * 32;
  float acc = 0.0f;
  for (int ind = first; ind < last; ind += 32) {
    acc += ind < nnz ? val[ind] : 0.0f;
    if (__any_sync(0xffffffff, acc > 1.0f))
      acc = 0.0f;
  }
  out[blockIdx.x * 32 + threadIdx.x] = acc;
}

// The same segments, one per row of a 2-D block (ginkgo's COO kernel): the
// bases come from threadIdx.y, so the loop splits a warp only when a warp
// spans two rows, and the finding says exactly that.
__global__ void segment_per_row_with_lane_offset_bounds(const float *val, float *out, int nnz, int num) {
  const int first = (blockIdx.x * blockDim.y + threadIdx.y) * 32 * num + threadIdx.x;
  const int last = first + (num - 1) * 32;
  float acc = 0.0f;
  for (int ind = first; ind < last; ind += 32) {
    acc += ind < nnz ? val[ind] : 0.0f;
    if (__any_sync(0xffffffff, acc > 1.0f))
    // KNOWN MISS: the loop bounds need both a launch shape and a runtime
    // value (num) bound at once; the witness search binds one at a time, so
    // this is potential
      acc = 0.0f;
  }
  out[blockIdx.x * 32 + threadIdx.x] = acc;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// A window whose ends are multiples of 32, one of them a min() of two.
__global__ void window_of_warp_multiples(const float *val, float *out, int nnz, int step) {
  const int start = blockIdx.x * 32 * step;
  const int end = min(start + 32 * step, (nnz + 31) / 32 * 32);
  float acc = 0.0f;
  for (int ind = start + threadIdx.x % 32; ind < end; ind += 32)
    acc += __shfl_xor_sync(0xffffffff, val[ind], 1);
  out[blockIdx.x * 32 + threadIdx.x] = acc;
}

// A range-for over a local array runs its constant length in every lane.
__global__ void range_for_over_local_array(const int *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float around[3] = {in[i] - 1.0f, float(in[i]), in[i] + 1.0f};
  float s = 0.0f;
  for (float x : around)
    s += __shfl_xor_sync(0xffffffff, x, 1);
  out[i] = s;
}

// The launch sits in a branch that sets the extent first; other branches
// change it in other ways (FasterTransformer's layer-norm launcher).
__global__ void rows_via_branch_member_write(float *p) {
  if (threadIdx.y > 0)
    return;
  p[threadIdx.x] = launch_warp_sum(p[threadIdx.x]);
}
void launch_with_branch_member_write(float *p, int m, int width) {
  dim3 block(width < 1024 ? width : 1024);
  if (width % 32 != 0) {
    block.x = 1024;
  }
  if (m > 1024) {
    block.x = 32;
    block.y = 8;
    rows_via_branch_member_write<<<m / 8, block>>>(p);
  } else {
    block.x /= 4;
  }
}

// Each return of the helper hands over a constant, but which return a lane
// takes depends on its lane: the result differs between lanes.
__device__ bool outside_low_lanes(unsigned lane) {
  if (lane < 8)
    return false;
  return true;
}
__device__ void exit_on_helper_result(float *p) {
  const unsigned lane = threadIdx.x % 32;
  if (outside_low_lanes(lane))
    return;
  p[lane] = warp_sum(p[lane]);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: call to 'warp_sum' in divergent code runs a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 do not reach the call
  // CHECK-NOTES: :[[@LINE+6]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-1785]]:10: note: '__shfl_xor_sync' with a full mask runs here
}
// The lanes that returned from the helper wait at the barrier.
__global__ void exit_on_helper_result_caller(float *p) {
  exit_on_helper_result(p);
  __syncthreads();
}
// The same helper asked about the warp: every lane takes the same return.
__global__ void exit_on_helper_result_per_warp(float *p) {
  if (outside_low_lanes(threadIdx.x / 32))
    return;
  p[threadIdx.x] = warp_sum(p[threadIdx.x]);
}

// --- CUDA's exited-thread rule (silent) -------------------------------------

// A collective waits only for the non-exited lanes its mask names: lanes
// that returned from the kernel, or that run to its end with no barrier and
// no collective on the way, are exempt. None of these reads a lane that has
// left (warp-shuffle-source-outside-mask reports the shuffles that do).
__global__ void exited_lanes_vote(unsigned *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned any = __any_sync(0xffffffff, in[i] > 0.0f);
  const unsigned all = __all_sync(0xffffffff, in[i] > 1.0f);
  out[i] = __ballot_sync(0xffffffff, in[i] > 2.0f) + any + all;
}
__global__ void exited_lanes_match_and_reduce(unsigned *out, const unsigned *in,
                                              int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int pred;
  const unsigned peers = __match_any_sync(0xffffffff, in[i]);
  const unsigned same = __match_all_sync(0xffffffff, in[i], &pred);
  out[i] = __reduce_add_sync(0xffffffff, in[i]) + peers + same;
}
__global__ void exited_lanes_syncwarp(float *out, const float *in, int n) {
  __shared__ float tile[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x % 32] = in[i];
  __syncwarp();
  out[i] = tile[threadIdx.x % 32];
}
// The upper half leaves; the lower half's butterfly stays in the lower half.
__global__ void exited_lanes_not_read(float *out, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  if (lane >= 16)
    return;
  float v = in[threadIdx.x];
  for (int offset = 8; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}
// The lanes that skip the branch run on to the kernel's end: as good as
// exited, since nothing on their way waits for the others.
__global__ void skipping_lanes_run_to_the_end(unsigned *out, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  unsigned votes = 0;
  if (lane < 16)
    votes = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
  out[threadIdx.x] = votes;
}

// --- Cooperative-groups collectives spelled through a 32-thread tile -------
// They run with the tile's full mask: the rule of the intrinsics holds.

__global__ void tile_shuffle_in_lane_branch(float *out, const float *in) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (tile.thread_rank() < 16)
    v += tile.shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::shfl_down' on a tile of 32 threads in divergent code: every lane of the tile must call it [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:26: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-4]]:10: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-6]]:10: note: call it where the tile's 32 lanes are together, or use the group of the lanes that take the branch (cooperative_groups::coalesced_threads())
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void tile_reduce_in_lane_branch(float *out, const float *in) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (tile.thread_rank() < 16)
    v = cg::reduce(tile, v, cg::plus<float>());
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cooperative_groups::reduce' on a tile of 32 threads in divergent code: every lane of the tile must call it [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:26: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE-4]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES: :[[@LINE-6]]:9: note: call it where the tile's 32 lanes are together, or use the group of the lanes that take the branch (cooperative_groups::coalesced_threads())
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// A tile vote after the lanes past the end left: exited lanes are exempt.
__global__ void tile_ballot_after_exit(unsigned *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[i] = tile.ballot(in[i] > 0.0f);
}

// --- Tiles of fewer than 32 threads ----------------------------------------
// A tile's collectives run with the mask of its own lanes: lanes of other
// tiles may be elsewhere, lanes of the same tile may not.

__global__ void tile16_split_inside_tile(float *out, const float *in) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (tile.thread_rank() < 8)
    v += tile.shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'thread_block_tile<16>::shfl_down' on a tile of 16 threads in divergent code: every lane of the tile must call it [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:26: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: in a 1-D block of whole warps, lanes 8..15, 24..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-4]]:10: note: lanes: mask 0xffffffff arrive 0x00ff00ff
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 8..15, 24..31 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-6]]:10: note: call it where the tile's 16 lanes are together, or use the group of the lanes that take the branch (cooperative_groups::coalesced_threads())
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

__global__ void tile8_reduce_split_inside_tile(float *out, const float *in) {
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 4)
    v = cg::reduce(tile, v, cg::plus<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cooperative_groups::reduce' on a tile of 8 threads in divergent code: every lane of the tile must call it [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:9: note: witness: in a 1-D block of whole warps, lanes 4..7 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-4]]:9: note: lanes: mask 0x000000ff arrive 0x0000000f
    // CHECK-NOTES: :[[@LINE+3]]:3: note: consequence: hang: lanes 4..7 wait at a block barrier and the warp never meets
    // CHECK-NOTES: :[[@LINE-6]]:9: note: call it where the tile's 8 lanes are together, or use the group of the lanes that take the branch (cooperative_groups::coalesced_threads())
  out[threadIdx.x] = v;
  __syncthreads();
}

// The branch keeps whole 16-thread tiles: lanes 0..15 are the first tile.
__global__ void tile16_branch_keeps_whole_tiles(float *out, const float *in) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v += tile.shfl_down(v, 1);
  out[threadIdx.x] = v;
  __syncthreads();
}

// A branch on the tile's index within the block keeps whole tiles.
__global__ void tile8_branch_on_meta_group_rank(float *out, const float *in) {
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  float v = in[threadIdx.x];
  if (tile.meta_group_rank() % 2 == 0)
    v = cg::reduce(tile, v, cg::plus<float>());
  out[threadIdx.x] = v;
  __syncthreads();
}

// A coalesced group is made of the lanes that formed it (warp-stale-mask's
// question when it is used after they split): never a full mask.
__global__ void coalesced_group_formed_in_branch(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    cg::coalesced_group active = cg::coalesced_threads();
    v = cg::reduce(active, v, cg::plus<float>());
  }
  out[threadIdx.x] = v;
  __syncthreads();
}

// A helper runs in the blocks of the kernels that call it: the only launch
// in the unit is 32x8, so threadIdx.y is the same in every lane of a warp
// and the rows that leave are whole warps.
__device__ float row_sum_first_row(const float *in) {
  if (threadIdx.y > 0)
    return 0.0f;
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__global__ void row_sum_kernel_32x8(float *out, const float *in) {
  const float v = row_sum_first_row(in);
  if (threadIdx.x == 0 && threadIdx.y == 0)
    out[blockIdx.x] = v;
  __syncthreads();
}
void launch_row_sum_32x8(float *out, const float *in, int n) {
  row_sum_kernel_32x8<<<n, dim3(32, 8)>>>(out, in);
}
