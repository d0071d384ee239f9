// warp-divergent-full-mask across call chains: each finding shows its whole
// path in order (the argument that differs between lanes, the branch where
// the lanes split and on which parameter, each call taken, the collective),
// and lands in the frame the user wrote, not in a helper that only forwards.
// CHECK-NOTE-ORDER pins each path; the SARIF test (warp-lint-cli.sarif-paths)
// checks that these findings carry the same path as codeFlows.

/// Needs every lane of the warp.
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  // CHECK-NOTES: :[[@LINE-1]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-2]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-4]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-5]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-6]]:10: note: '__shfl_xor_sync' with a full mask runs here
  return v;
}

/// Middle frame: splits the lanes on its parameter, then needs them all.
__device__ float sum_low_half(float v, int lane) {
  if (lane < 16)
    v = warp_sum(v);
  // CHECK-NOTES: :[[@LINE-2]]:12: note: lanes diverge here in 'sum_low_half' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-3]]:12: note: lanes diverge here in 'sum_low_half' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here in 'sum_low_half' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-5]]:12: note: lanes diverge here in 'sum_low_half' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-5]]:9: note: 'warp_sum' is called here
  // CHECK-NOTES: :[[@LINE-6]]:9: note: 'warp_sum' is called here
  // CHECK-NOTES: :[[@LINE-7]]:9: note: 'warp_sum' is called here
  // CHECK-NOTES: :[[@LINE-8]]:9: note: 'warp_sum' is called here
  return v;
}

// --- 2 levels: the lanes split in the callee --------------------------------

__global__ void two_levels_split_in_callee(float *out, const float *in) {
  out[threadIdx.x] = sum_low_half(in[threadIdx.x], threadIdx.x % 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'sum_low_half' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:52: note: this argument differs between lanes
  // CHECK-NOTE-ORDER: :[[@LINE-3]]:22: [[@LINE-3]]:52 [[@LINE-19]]:12 [[@LINE-18]]:9 [[@LINE-18]]:9 [[@LINE+3]]:3 [[@LINE-31]]:10
  // CHECK-NOTES: :[[@LINE-19]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- 3 levels: the lanes split in the middle frame --------------------------

__device__ float scaled_low_sum(float v, int tid) {
  return 2.0f * sum_low_half(v, tid % 32);
  // CHECK-NOTES: :[[@LINE-1]]:17: note: 'sum_low_half' is called here
}

__global__ void three_levels_split_in_middle(float *out, const float *in) {
  out[threadIdx.x] = scaled_low_sum(in[threadIdx.x], threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'scaled_low_sum' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:54: note: this argument differs between lanes
  // CHECK-NOTE-ORDER: :[[@LINE-3]]:22: [[@LINE-3]]:54 [[@LINE-8]]:17 [[@LINE-36]]:12 [[@LINE-35]]:9 [[@LINE-35]]:9 [[@LINE+3]]:3 [[@LINE-48]]:10
  // CHECK-NOTES: :[[@LINE-36]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- 3 levels: the lanes split in the leaf, next to the collective ----------

__device__ float lane0_broadcast(float v, int lane) {
  if (lane == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-NOTES: :[[@LINE-2]]:12: note: lanes diverge here in 'lane0_broadcast' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-2]]:9: note: '__shfl_sync' with a full mask runs here
  return v;
}

__device__ float forward_to_leaf(float v, int lane) {
  return lane0_broadcast(v, lane);
  // CHECK-NOTES: :[[@LINE-1]]:10: note: 'lane0_broadcast' is called here
}

__global__ void three_levels_split_in_leaf(float *out, const float *in) {
  out[threadIdx.x] = forward_to_leaf(in[threadIdx.x], threadIdx.x & 31);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'forward_to_leaf' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:55: note: this argument differs between lanes
  // CHECK-NOTE-ORDER: :[[@LINE-3]]:22: [[@LINE-3]]:55 [[@LINE-8]]:10 [[@LINE-16]]:12 [[@LINE-15]]:9 [[@LINE+3]]:3 [[@LINE-15]]:9
  // CHECK-NOTES: :[[@LINE-16]]:9: note: witness: in a 1-D block of whole warps, lanes 1..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 1..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- 3 levels: the split is in the first callee, the collective two below ---

__device__ float sum_through_wrapper(float v) {
  return warp_sum(v) / 32.0f;
  // CHECK-NOTES: :[[@LINE-1]]:10: note: 'warp_sum' is called here
}

__device__ float wrapped_sum_low_half(float v, int lane) {
  if (lane < 16)
    v = sum_through_wrapper(v);
  // CHECK-NOTES: :[[@LINE-2]]:12: note: lanes diverge here in 'wrapped_sum_low_half' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-2]]:9: note: 'sum_through_wrapper' is called here
  return v;
}

__global__ void three_levels_collective_below_split(float *out, const float *in) {
  out[threadIdx.x] = wrapped_sum_low_half(in[threadIdx.x], threadIdx.x % 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'wrapped_sum_low_half' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:60: note: this argument differs between lanes
  // CHECK-NOTE-ORDER: :[[@LINE-3]]:22: [[@LINE-3]]:60 [[@LINE-11]]:12 [[@LINE-10]]:9 [[@LINE-16]]:10 [[@LINE-10]]:9 [[@LINE+3]]:3 [[@LINE-98]]:10
  // CHECK-NOTES: :[[@LINE-11]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- Through a lambda: the generic helper only forwards ---------------------

/// Runs `f` with each thread's lane, as device-side launch helpers do.
template <typename F> __device__ void with_lane(F f) {
  f(threadIdx.x % 32);
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'with_lane<(lambda)>' hands this argument, which differs between lanes, to the lambda
}

__global__ void through_lambda(float *out, const float *in) {
  float v = in[threadIdx.x];
  with_lane([&](int lane) { v = sum_low_half(v, lane); });
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: call to 'sum_low_half' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:49: note: this argument differs between lanes
  // CHECK-NOTE-ORDER: :[[@LINE-3]]:33: [[@LINE-9]]:5 [[@LINE-3]]:49 [[@LINE-105]]:12 [[@LINE-104]]:9 [[@LINE-104]]:9 [[@LINE+4]]:3 [[@LINE-117]]:10
  // CHECK-NOTES: :[[@LINE-105]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  out[threadIdx.x] = v;
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- Through a functor given to a generic kernel ----------------------------

template <typename Op> __global__ void launch_per_thread(Op op, float *out) {
  op(threadIdx.x, out);
  // CHECK-NOTES: :[[@LINE-1]]:6: note: 'launch_per_thread<LowHalfSum>' hands this argument, which differs between lanes, to 'operator()'
  __syncthreads(); // the lanes that skipped the collective wait here
}

struct LowHalfSum {
  __device__ void operator()(int tid, float *out) const {
    out[tid] = sum_low_half(out[tid], tid % 32);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: call to 'sum_low_half' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
    // CHECK-NOTES: :[[@LINE-2]]:39: note: this argument differs between lanes
    // CHECK-NOTE-ORDER: :[[@LINE-3]]:16: [[@LINE-10]]:6 [[@LINE-3]]:39 [[@LINE-125]]:12 [[@LINE-124]]:9 [[@LINE-124]]:9 [[@LINE-8]]:3 [[@LINE-137]]:10
    // CHECK-NOTES: :[[@LINE-125]]:9: note: witness: in a 1-D block of whole warps, lanes 16..31 of the warp of threads 0..31 do not reach it
    // CHECK-NOTES: :[[@LINE-10]]:3: note: consequence: hang: lanes 16..31 wait at a block barrier and the warp never meets
  }
};

void launch_low_half_sum(float *out) {
  launch_per_thread<<<1, 64>>>(LowHalfSum{}, out);
}

// --- Through a template: the instantiation's constant decides ---------------

template <int Lanes> __device__ float sum_first_lanes(float v, int lane) {
  if (lane < Lanes)
    v = warp_sum(v);
  // CHECK-NOTES: :[[@LINE-2]]:12: note: lanes diverge here in 'sum_first_lanes<8>' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-2]]:9: note: 'warp_sum' is called here
  return v;
}

__global__ void through_template(float *out, const float *in) {
  out[threadIdx.x] = sum_first_lanes<8>(in[threadIdx.x], threadIdx.x % 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'sum_first_lanes<8>' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:58: note: this argument differs between lanes
  // CHECK-NOTE-ORDER: :[[@LINE-3]]:22: [[@LINE-3]]:58 [[@LINE-11]]:12 [[@LINE-10]]:9 [[@LINE-10]]:9 [[@LINE+3]]:3 [[@LINE-161]]:10
  // CHECK-NOTES: :[[@LINE-11]]:9: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

// With 32 the same branch keeps every lane: nothing to report.
__global__ void template_constant_keeps_all_lanes(float *out, const float *in) {
  out[threadIdx.x] = sum_first_lanes<32>(in[threadIdx.x], threadIdx.x % 32);
}

// --- A full mask handed down a chain ----------------------------------------

__device__ float xor_neighbour(float v, unsigned mask) {
  return v + __shfl_xor_sync(mask, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:14: note: the mask is used here
}

__device__ float xor_if_low(float v, int lane, unsigned mask) {
  if (lane < 8)
    v = xor_neighbour(v, mask);
  // CHECK-NOTES: :[[@LINE-2]]:12: note: lanes diverge here in 'xor_if_low' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-2]]:9: note: 'xor_neighbour' is called here
  return v;
}

__global__ void full_mask_down_a_chain(float *out, const float *in) {
  out[threadIdx.x] = xor_if_low(in[threadIdx.x], threadIdx.x % 32, 0xffffffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:68: warning: full warp mask passed to 'xor_if_low' in divergent code, which uses it as the mask of '__shfl_xor_sync' [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:50: note: this argument differs between lanes
  // CHECK-NOTE-ORDER: :[[@LINE-3]]:68: [[@LINE-3]]:50 [[@LINE-11]]:12 [[@LINE-10]]:9 [[@LINE-3]]:68 [[@LINE+3]]:3 [[@LINE-16]]:14
  // CHECK-NOTES: :[[@LINE-4]]:68: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

//===----------------------------------------------------------------------===//
// Traps: no finding
//===----------------------------------------------------------------------===//

// The argument is the same in every lane of a warp.
__global__ void uniform_argument(float *out, const float *in) {
  out[threadIdx.x] = scaled_low_sum(in[threadIdx.x], blockIdx.x);
}

// The lane index, but the branch keeps every lane (lane < 32).
__device__ float sum_if_in_warp(float v, int lane) {
  if (lane < 32)
    v = warp_sum(v);
  return v;
}
__global__ void branch_keeps_every_lane(float *out, const float *in) {
  out[threadIdx.x] = sum_if_in_warp(in[threadIdx.x], threadIdx.x % 32);
}

// The forwarding helper hands on the warp index: the same in every lane.
template <typename F> __device__ void with_warp(F f) { f(threadIdx.x / 32); }
__global__ void forwarded_warp_index(float *out, const float *in) {
  float v = in[threadIdx.x];
  with_warp([&](int warp) { v = sum_low_half(v, warp); });
  out[threadIdx.x] = v;
}

// The branch on the parameter is dead for this instantiation.
template <bool Partial> __device__ float maybe_partial_sum(float v, int lane) {
  if (Partial && lane < 16)
    return v;
  return warp_sum(v);
}
__global__ void dead_branch_for_instantiation(float *out, const float *in) {
  out[threadIdx.x] = maybe_partial_sum<false>(in[threadIdx.x], threadIdx.x % 32);
}

// --- Two nested splits in the callee: outermost first -----------------------

__device__ float sum_middle_lanes(float v, int lane) {
  if (lane < 24) {
    if (lane > 4)
      v = warp_sum(v);
  }
  // CHECK-NOTES: :[[@LINE-4]]:12: note: lanes diverge here in 'sum_middle_lanes' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-4]]:14: note: lanes diverge here in 'sum_middle_lanes' on parameter 'lane'
  // CHECK-NOTES: :[[@LINE-4]]:11: note: 'warp_sum' is called here
  return v;
}

__global__ void nested_splits(float *out, const float *in) {
  out[threadIdx.x] = sum_middle_lanes(in[threadIdx.x], threadIdx.x % 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'sum_middle_lanes' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:56: note: this argument differs between lanes
  // CHECK-NOTES: :[[@LINE-251]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTE-ORDER: :[[@LINE-4]]:22: [[@LINE-4]]:56 [[@LINE-15]]:12 [[@LINE-14]]:14 [[@LINE-13]]:11 [[@LINE-13]]:11 [[@LINE+3]]:3 [[@LINE-252]]:10
  // CHECK-NOTES: :[[@LINE-14]]:11: note: witness: in a 1-D block of whole warps, lanes 0..4, 24..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 0..4, 24..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}

// --- One helper run twice: whole, then under a split on a parameter ----------

// The first warp_sum runs with every lane (fine); the second under
// `tid < 8`, where the caller's per-lane tid leaves 24 lanes out (OpenCV's
// block scan, moderngpu's segmented scan).
__device__ float scan_then_fold(float v, float *partials, unsigned tid) {
  const float total = warp_sum(v);
  if (tid < 8)
    partials[tid] = warp_sum(partials[tid]);
  // CHECK-NOTES: :[[@LINE-2]]:11: note: lanes diverge here in 'scan_then_fold' on parameter 'tid'
  // CHECK-NOTES: :[[@LINE-2]]:21: note: 'warp_sum' is called here
  // CHECK-FIXES: {{^}}  __syncwarp();
  return total + partials[tid / 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: lane 0 writes 'partials[0]' while lane 1 reads it in the same step (offset -1): without __syncwarp() between the write and the read the lanes of a warp race (they do not run in lockstep since Volta) [warp-implicit-synchronous]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: written here
  // CHECK-NOTES: :[[@LINE+7]]:22: note: the parameters hold what this call passes
  // CHECK-NOTES: :[[@LINE-4]]:18: note: witness: through the call in 'helper_run_twice', in warp 0, lane 0 writes 'partials[0]' and lane 1 reads it with offset -1
  // CHECK-NOTES: :[[@LINE-5]]:18: note: consequence: race: lane 1 may read 'partials[0]' before or after lane 0 writes it; the lanes of a warp are scheduled independently since Volta, so the value read depends on their timing
}

__global__ void helper_run_twice(float *out, const float *in) {
  __shared__ float partials[32];
  out[threadIdx.x] = scan_then_fold(in[threadIdx.x], partials, threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'scan_then_fold' diverges the warp on an argument that differs between lanes before a warp collective with a full mask [warp-divergent-full-mask]
  // CHECK-NOTES: :[[@LINE-2]]:64: note: this argument differs between lanes
  // CHECK-NOTES: :[[@LINE-283]]:10: note: '__shfl_xor_sync' with a full mask runs here
  // CHECK-NOTES: :[[@LINE-18]]:21: note: witness: in a 1-D block of whole warps, lanes 8..31 of the warp of threads 0..31 do not reach it
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: lanes 8..31 wait at a block barrier and the warp never meets
  __syncthreads(); // the lanes that skipped the collective wait here
}
