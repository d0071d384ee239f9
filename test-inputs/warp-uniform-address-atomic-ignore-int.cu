// Tests of warp-uniform-address-atomic with IgnoreIntegerAtomics: integer
// atomics (which ptxas aggregates at -O3) are not reported; floating-point
// ones (never aggregated by any compiler) still are.
// WARP-LINT-CONFIG: {CheckOptions: {warp-uniform-address-atomic.IgnoreIntegerAtomics: true}}

#include <cuda_fp16.h>

/// Integer max through a helper.
__device__ void raise_to(int *p, int v) { atomicMax(p, v); }

/// Float add through a helper.
__device__ void add(float *p, float v) {
  atomicAdd(p, v);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'atomicAdd' on an address that is the same in every lane runs here
}

//===----------------------------------------------------------------------===//
// Still reported: floating point
//===----------------------------------------------------------------------===//

__global__ void float_sum(float *total, const float *in) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    float warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}    if (warp_lane == 0)
  // CHECK-FIXES: {{^}}      atomicAdd(total, warp_value);
  // CHECK-NOTES: :[[@LINE-5]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void double_sum_in_grid_stride_loop(double *total, const double *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(total, in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-4]]:57: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: condition: how many lanes get here depends on 'n': with 'n' = 17, lanes 0..16 of a warp get here, and the address is the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void half2_sum_shared(__half2 *out, const __half2 *in) {
  __shared__ __half2 block_sum;
  if (threadIdx.x == 0)
    block_sum = __floats2half2_rn(0.0f, 0.0f);
  __syncthreads();
  atomicAdd(&block_sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    __half2 warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicAdd(&block_sum, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = block_sum;
}

__global__ void float_helper(float *total, const float *in) {
  add(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'add' makes every lane perform 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-3]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

//===----------------------------------------------------------------------===//
// Silenced by the option: integer atomics
//===----------------------------------------------------------------------===//

// Integer sum: ptxas aggregates it at -O3; the option accepts that.
__global__ void int_sum(int *total, const int *in) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// Per-lane slots from a counter: integer, ignored by the option.
__global__ void slot_from_counter(int *count, int *out) {
  int slot = atomicAdd(count, 1);
  out[slot] = threadIdx.x;
}

// 64-bit integer counter: still an integer atomic, ignored.
__global__ void unsigned_long_long_count(unsigned long long *events) {
  atomicAdd(events, 1ull);
}

// Integer min/max/and/or/xor/sub/inc/dec: integer, ignored.
__global__ void integer_family(int *lo, int *hi, unsigned *bits, int *budget, unsigned *ring, const int *in) {
  const int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicMin(lo, x);
  atomicMax(hi, x);
  atomicAnd(bits, static_cast<unsigned>(x));
  atomicOr(bits, static_cast<unsigned>(x));
  atomicXor(bits, static_cast<unsigned>(x));
  atomicSub(budget, x);
  atomicInc(ring, 1023u);
  atomicDec(ring, 1023u);
}

// Scoped integer variants: integer, ignored.
__global__ void integer_scoped(int *total, unsigned *flags, const int *in) {
  atomicAdd_block(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  atomicOr_system(flags, 1u);
}

// Integer atomic inside a helper called with a uniform pointer: ignored.
__global__ void integer_helper(int *best, const int *in) {
  raise_to(best, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// Integer counter in a grid-stride loop: ignored like every integer atomic.
__global__ void integer_in_grid_stride_loop(int *hits, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (in[i] > 0.5f)
      atomicAdd(hits, 1);
}
