// Tests of warp-mask-excludes-caller: a lane that executes a warp collective
// is not named by the collective's mask (a constant mask, or one computed
// from the lane id), as the branch conditions on lane ids that lead to the
// call show.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- The two cutlass bugs (b2b_gemm, dual_gemm), reduced --------------------
// Every thread broadcasts lane 0's warp index so that the compiler sees it as
// warp-uniform, with a mask that names lanes 0..4 only.

struct B2bGemmKernel {
  __device__ void operator()(int *out) {
    int warp_idx = __shfl_sync(0x1f, threadIdx.x / 32, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: lanes 5..31 run '__shfl_sync' but mask 0x0000001f does not name them [warp-mask-excludes-caller]
    // CHECK-NOTES: :[[@LINE-2]]:20: note: all 32 lanes of the warp run this call
    // CHECK-FIXES: int warp_idx = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
    // CHECK-NOTES: :[[@LINE-4]]:20: note: witness: lanes 5..31 run it outside its mask
    // CHECK-NOTES: :[[@LINE-5]]:20: note: lanes: mask 0x0000001f arrive 0xffffffff
    // CHECK-NOTES: :[[@LINE-6]]:20: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
    out[threadIdx.x] = warp_idx;
  }
};

__global__ void b2b_gemm_kernel(int *out) { B2bGemmKernel()(out); }

template <int WarpCount> struct DualGemmKernel {
  __device__ void run(float *out) {
    int warp_idx = __shfl_sync(0x1f, threadIdx.x / 32, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: lanes 5..31 run '__shfl_sync' but mask 0x0000001f does not name them [warp-mask-excludes-caller]
    // CHECK-NOTES: :[[@LINE-2]]:20: note: all 32 lanes of the warp run this call
    // CHECK-FIXES: int warp_idx = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
    // CHECK-NOTES: :[[@LINE-4]]:20: note: witness: lanes 5..31 run it outside its mask
    // CHECK-NOTES: :[[@LINE-5]]:20: note: lanes: mask 0x0000001f arrive 0xffffffff
    // CHECK-NOTES: :[[@LINE-6]]:20: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
    int lane_idx = threadIdx.x % 32;
    out[threadIdx.x] = float(warp_idx * WarpCount + lane_idx);
  }
};

__global__ void dual_gemm_kernel(float *out) {
  DualGemmKernel<4>().run(out);
}

// The same in a kernel whose later branch reads threadIdx.x: still every lane
// of every warp runs the broadcast, so the full mask is the fix.
__global__ void warp_index_then_guard(int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp_idx = __shfl_sync(0x1f, threadIdx.x / 32, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: lanes 5..31 run '__shfl_sync' but mask 0x0000001f does not name them [warp-mask-excludes-caller]
  // CHECK-NOTES: :[[@LINE-2]]:18: note: all 32 lanes of the warp run this call
  // CHECK-FIXES: int warp_idx = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  // CHECK-NOTES: :[[@LINE-4]]:18: note: witness: lanes 5..31 run it outside its mask
  // CHECK-NOTES: :[[@LINE-5]]:18: note: lanes: mask 0x0000001f arrive 0xffffffff
  // CHECK-NOTES: :[[@LINE-6]]:18: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
  if (i < n)
    out[i] = warp_idx;
}

// --- A half-warp mask where every lane runs the call -----------------------

__global__ void half_mask_whole_warp(float *out, const float *in) {
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: lanes 16..31 run '__shfl_xor_sync' but mask 0x0000ffff does not name them [warp-mask-excludes-caller]
  // CHECK-NOTES: :[[@LINE-2]]:8: note: all 32 lanes of the warp run this call
  // CHECK-FIXES: v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-4]]:8: note: witness: lanes 16..31 run it outside its mask
  // CHECK-NOTES: :[[@LINE-5]]:8: note: lanes: mask 0x0000ffff arrive 0xffffffff
  // CHECK-NOTES: :[[@LINE-6]]:8: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
  out[threadIdx.x] = v;
}

// --- The branch keeps more lanes than the mask names -----------------------

__global__ void branch_wider_than_mask(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 24)
    v = __shfl_sync(0xffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: lanes 16..23 run '__shfl_sync' but mask 0x0000ffff does not name them [warp-mask-excludes-caller]
    // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:9: note: witness: lanes 16..23 run it outside its mask
    // CHECK-NOTES: :[[@LINE-4]]:9: note: lanes: mask 0x0000ffff arrive 0x00ffffff
    // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
  out[threadIdx.x] = v;
}

// --- The branch keeps the other half ---------------------------------------

__global__ void branch_other_half(float *out, const float *in) {
  const int lane = threadIdx.x & 31;
  float v = in[threadIdx.x];
  if (lane >= 16)
    v += __shfl_down_sync(0xffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes 16..31 run '__shfl_down_sync' but mask 0x0000ffff does not name them [warp-mask-excludes-caller]
    // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: lanes 16..31 run it outside its mask
    // CHECK-NOTES: :[[@LINE-4]]:10: note: lanes: mask 0x0000ffff arrive 0xffff0000
    // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
  out[threadIdx.x] = v;
}

// --- A mask computed from the lane id that leaves the caller out -----------

__global__ void lane_mask_excludes_self(unsigned *out, const int *in) {
  const unsigned lane = threadIdx.x % 32;
  unsigned others = ~(1u << lane);
  out[threadIdx.x] = __ballot_sync(others, in[threadIdx.x] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: lanes 0..31 run '__ballot_sync' but mask 'others' does not name them [warp-mask-excludes-caller]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: all 32 lanes of the warp run this call
  // CHECK-NOTES: :[[@LINE-3]]:22: note: witness: lanes 0..31 run it outside its mask
  // CHECK-NOTES: :[[@LINE-4]]:22: note: lanes: mask 0xfffffffe arrive 0xffffffff
  // CHECK-NOTES: :[[@LINE-5]]:22: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
}

// --- A data-dependent branch, but every lane that may reach is outside -----

__global__ void data_branch_all_outside(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 16 && v > 0.0f)
    v = __shfl_sync(0xffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: lanes 16..31 run '__shfl_sync' but mask 0x0000ffff does not name them [warp-mask-excludes-caller]
    // CHECK-NOTES: :[[@LINE-3]]:23: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: lanes 16..31 run it outside its mask
    // CHECK-NOTES: :[[@LINE-5]]:9: note: lanes: mask 0x0000ffff arrive 0xffff0000
    // CHECK-NOTES: :[[@LINE-6]]:9: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
  out[threadIdx.x] = v;
}

// --- A later warp of the block: threadIdx.x, not the lane, is compared ------

__global__ void second_warp_upper_half(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.x >= 48 && threadIdx.x < 64)
    v = __shfl_sync(0xffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: lanes 16..31 run '__shfl_sync' but mask 0x0000ffff does not name them [warp-mask-excludes-caller]
    // CHECK-NOTES: :[[@LINE-2]]:9: note: in the warp of threads 32..63
    // CHECK-NOTES: :[[@LINE-4]]:19: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-5]]:19: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-5]]:9: note: witness: lanes 16..31 run it outside its mask
    // CHECK-NOTES: :[[@LINE-6]]:9: note: lanes: mask 0x0000ffff arrive 0xffff0000
    // CHECK-NOTES: :[[@LINE-7]]:9: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
  out[threadIdx.x] = v;
}

// --- __syncwarp with a mask that leaves out lanes that run it ---------------

__global__ void syncwarp_narrow(float *out, volatile float *buf) {
  buf[threadIdx.x] = 1.0f;
  __syncwarp(0xff);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes 8..31 run '__syncwarp' but mask 0x000000ff does not name them [warp-mask-excludes-caller]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: all 32 lanes of the warp run this call
  // CHECK-FIXES: __syncwarp(0xffffffff);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: lanes 8..31 run it outside its mask
  // CHECK-NOTES: :[[@LINE-5]]:3: note: lanes: mask 0x000000ff arrive 0xffffffff
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: trap: an illegal instruction in -G builds; in -O3 builds the call runs silently or returns 0
  out[threadIdx.x] = buf[threadIdx.x ^ 1];
}

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

// The fixed cutlass form: the full mask.
__global__ void b2b_gemm_fixed(int *out) {
  int warp_idx = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  out[threadIdx.x] = warp_idx;
}

// The branch keeps exactly the mask's lanes.
__global__ void branch_keeps_mask_lanes(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(0xffff, v, 0);
  out[threadIdx.x] = v;
}

// Upper half with the upper half's mask.
__global__ void upper_half_upper_mask(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 16)
    v += __shfl_down_sync(0xffff0000, v, 1, 16);
  out[threadIdx.x] = v;
}

// Each half passes its own mask, computed from the lane id.
__global__ void per_half_mask(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(half, v, 1, 16);
  out[threadIdx.x] = v;
}

// Lanes 0..7 only, after an early exit of the others.
__global__ void early_exit_keeps_mask_lanes(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  if (lane >= 8)
    return;
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0xff, v, 1);
  out[threadIdx.x] = v;
}

// Which lanes reach is data-dependent: not provably outside.
__global__ void data_branch_unknown(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (v > 0.0f)
    v = __shfl_sync(0xffff, v, 0);
  out[threadIdx.x] = v;
}

// A mask that comes from a ballot: not known per lane.
__global__ void ballot_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned m = __ballot_sync(0xffffffff, v > 0.0f);
  if (v > 0.0f)
    v = __shfl_sync(m, v, __ffs(m) - 1);
  out[threadIdx.x] = v;
}

// The first warp only, all its lanes, mask full.
__global__ void first_warp_full(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.x < 32)
    v = __shfl_sync(0xffffffff, v, 0);
  out[threadIdx.x] = v;
}

// One lane alone with its own bit.
__global__ void own_bit(unsigned *out, const int *in) {
  const unsigned lane = threadIdx.x % 32;
  out[threadIdx.x] = __ballot_sync(1u << lane, in[threadIdx.x] > 0);
}

// A mask parameter: the callers decide.
__device__ float shuffle_with(unsigned mask, float v) {
  return __shfl_sync(mask, v, 0);
}
