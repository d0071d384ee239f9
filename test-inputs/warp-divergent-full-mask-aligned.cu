// warp-divergent-full-mask with the option WarpAlignedBlockDimX: the
// project promises blockDim.x is a multiple of 32, so every warp lies within
// one (y, z) row and conditions on threadIdx.y/z are warp-uniform. Run once
// with the global option and once with it set for this check only; both
// must give the same findings.
// WARP-LINT-RUN: global {CheckOptions: {WarpAlignedBlockDimX: true}}
// WARP-LINT-RUN: local {CheckOptions: {warp-divergent-full-mask.WarpAlignedBlockDimX: true}}

// A warp never spans two values of threadIdx.y.
__global__ void full_mask_in_thread_idx_y_branch(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}

// Whole warps leave when threadIdx.z > 0.
__global__ void full_mask_after_thread_idx_z_early_return(float *out, const float *in) {
  if (threadIdx.z > 0)
    return;
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}

// The trip count depends on threadIdx.y only: the same in every lane.
__global__ void loop_bound_thread_idx_y(unsigned *out, const float *in) {
  unsigned votes = 0;
  for (unsigned k = 0; k < threadIdx.y; ++k)
    votes |= __ballot_sync(0xffffffff, in[k * 32 + threadIdx.x % 32] > 0.0f);
  out[threadIdx.x] = votes;
}

// threadIdx.x still differs between the lanes.
__global__ void full_mask_in_lane_branch_still_reported(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (threadIdx.y == 0 && lane < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: full warp mask passed to '__shfl_sync' in divergent code [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-3]]:32: note: lanes diverge here
  // CHECK-NOTES-GLOBAL: :[[@LINE-3]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES-GLOBAL: :[[@LINE-4]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES-GLOBAL: :[[@LINE+5]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  // CHECK-NOTES-LOCAL: :[[@LINE-6]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES-LOCAL: :[[@LINE-7]]:9: note: lanes: mask 0xffffffff arrive 0x0000ffff
  // CHECK-NOTES-LOCAL: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// The linear thread index mod 32 is still the lane.
__global__ void linear_lane_branch_still_reported(float *out, const float *in) {
  const unsigned lane = (threadIdx.y * blockDim.x + threadIdx.x) % 32;
  float v = in[threadIdx.x];
  if (lane >= 16) {
    v += __shfl_xor_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: full warp mask passed to '__shfl_xor_sync' in divergent code [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
    // CHECK-FIXES: {{^}}  const unsigned warp_mask = __ballot_sync(0xffffffff, lane >= 16);
    // CHECK-FIXES: {{^}}    v += __shfl_xor_sync(warp_mask, v, 1);
    // CHECK-NOTES-GLOBAL: :[[@LINE-5]]:10: note: witness: in a 1-D block of whole warps, lanes 0..15 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES-GLOBAL: :[[@LINE-6]]:10: note: lanes: mask 0xffffffff arrive 0xffff0000
    // CHECK-NOTES-GLOBAL: :[[@LINE+6]]:3: note: consequence: hang: lanes 0..15 wait at a block barrier and the warp never meets
    // CHECK-NOTES-LOCAL: :[[@LINE-8]]:10: note: witness: in a 1-D block of whole warps, lanes 0..15 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES-LOCAL: :[[@LINE-9]]:10: note: lanes: mask 0xffffffff arrive 0xffff0000
    // CHECK-NOTES-LOCAL: :[[@LINE+3]]:3: note: consequence: hang: lanes 0..15 wait at a block barrier and the warp never meets
  }
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// Segments per row whose counter and bound carry the same lane offset: with
// whole rows in a warp every lane runs the loop the same number of times.
__global__ void segment_per_row_with_lane_offset_bounds(const float *val, float *out, int nnz, int num) {
  const int first = (blockIdx.x * blockDim.y + threadIdx.y) * 32 * num + threadIdx.x;
  const int last = first + (num - 1) * 32;
  float acc = 0.0f;
  for (int ind = first; ind < last; ind += 32) {
    acc += ind < nnz ? val[ind] : 0.0f;
    if (__any_sync(0xffffffff, acc > 1.0f))
      acc = 0.0f;
  }
  out[blockIdx.x * 32 + threadIdx.x] = acc;
}
