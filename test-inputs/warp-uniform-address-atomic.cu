// Tests of warp-uniform-address-atomic: every lane of a warp performs an
// atomic read-modify-write on one warp-uniform address, so the warp
// serializes on that address (floating point: never aggregated by the
// compiler; integer: aggregated by ptxas at -O3 only).
//
// Part 1: true positives, one kernel or device function each: every atomic,
// every value type, every way an address is the same in all lanes.
// Part 2: code that must stay silent, each with the reason it is correct.
// Directives: see run_test.py (clang-tidy lit style). Both the input and the
// file after --fix must compile with nvcc -arch=sm_90.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda/atomic>
#include <cuda/std/tuple>

namespace cg = cooperative_groups;

#define ADD_TO(p, v) atomicAdd((p), (v))

struct Counters {
  int count;
  float sum;
};

struct Stats {
  float sum;
  unsigned long long events;
};

struct StatsRef {
  float *sum;
};

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Adds `v` to `*p` from the calling lane: fine for a per-lane `p`, a
/// serialization when every lane passes the same `p`.
__device__ void add(float *p, float v) {
  atomicAdd(p, v);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'atomicAdd' on an address that is the same in every lane runs here
}

/// Two-level chain: the atomic is one call further down.
__device__ void add_twice(float *p, float v) { add(p, 2.0f * v); }
// CHECK-NOTES: :[[@LINE-1]]:48: note: {{.*}}'add'{{.*}}

/// Integer max through a helper.
__device__ void raise_to(int *p, int v) {
  atomicMax(p, v);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'atomicMax' on an address that is the same in every lane runs here
}

/// Returns whether this thread is lane 0 of its warp.
__device__ bool is_warp_leader() { return threadIdx.x % 32 == 0; }

/// Returns this thread's lane from the %laneid register.
__device__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- Sums with an unused result in converged code: reduce, then one atomic --

__global__ void float_sum_global(float *total, const float *in) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(total, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}  {
  // CHECK-FIXES: {{^}}    unsigned warp_lane;
  // CHECK-FIXES: {{^}}    asm("mov.u32 %0, %%laneid;" : "=r"(warp_lane));
  // CHECK-FIXES: {{^}}    float warp_value = v;
  // CHECK-FIXES: {{^}}    for (int warp_offset = 16; warp_offset > 0; warp_offset /= 2)
  // CHECK-FIXES: {{^}}      warp_value += __shfl_down_sync(0xffffffff, warp_value, warp_offset);
  // CHECK-FIXES: {{^}}    if (warp_lane == 0)
  // CHECK-FIXES: {{^}}      atomicAdd(total, warp_value);
  // CHECK-FIXES: {{^}}  }
  // CHECK-NOTES: :[[@LINE-11]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-12]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void float_sum_shared(float *out, const float *in) {
  __shared__ float block_sum;
  if (threadIdx.x == 0)
    block_sum = 0.0f;
  __syncthreads();
  atomicAdd(&block_sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    float warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}    if (warp_lane == 0)
  // CHECK-FIXES: {{^}}      atomicAdd(&block_sum, warp_value);
  // CHECK-NOTES: :[[@LINE-5]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = block_sum;
}

__global__ void double_sum(double *total, const double *in) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    double warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      warp_value += __shfl_down_sync(0xffffffff, warp_value, warp_offset);
  // CHECK-FIXES: {{^}}      atomicAdd(total, warp_value);
  // CHECK-NOTES: :[[@LINE-5]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void half2_sum(__half2 *total, const __half2 *in) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    __half2 warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicAdd(total, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void bfloat162_sum(__nv_bfloat162 *total, const __nv_bfloat162 *in) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    __nv_bfloat162 warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicAdd(total, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void half_sum(__half *total, const __half *in) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    __half warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicAdd(total, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void int_sum(int *total, const int *in) {
  const int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(total, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    int warp_value = x;
  // CHECK-FIXES: {{^}}    if (warp_lane == 0)
  // CHECK-FIXES: {{^}}      atomicAdd(total, warp_value);
  // CHECK-NOTES: :[[@LINE-5]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void unsigned_long_long_count(unsigned long long *events) {
  atomicAdd(events, 1ull);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    unsigned long long warp_value = 1ull;
  // CHECK-FIXES: {{^}}      atomicAdd(events, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void int_sub(int *budget, const int *cost) {
  atomicSub(budget, cost[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicSub' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    int warp_value = cost[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicSub(budget, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// --- Integer min/max/and/or/xor: __reduce_*_sync, then one atomic ----------

__global__ void int_min(int *lowest, const int *in) {
  atomicMin(lowest, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicMin' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    const int warp_value = __reduce_min_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-FIXES: {{^}}    if (warp_lane == 0)
  // CHECK-FIXES: {{^}}      atomicMin(lowest, warp_value);
  // CHECK-NOTES: :[[@LINE-5]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void unsigned_max(unsigned *highest, const unsigned *in) {
  atomicMax(highest, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicMax' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    const unsigned int warp_value = __reduce_max_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-FIXES: {{^}}      atomicMax(highest, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void unsigned_and(unsigned *flags, const unsigned *in) {
  atomicAnd(flags, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAnd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    const unsigned int warp_value = __reduce_and_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-FIXES: {{^}}      atomicAnd(flags, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void unsigned_or(unsigned *flags, const unsigned *in) {
  atomicOr(flags, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicOr' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    const unsigned int warp_value = __reduce_or_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-FIXES: {{^}}      atomicOr(flags, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void unsigned_xor(unsigned *parity, const unsigned *in) {
  atomicXor(parity, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicXor' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    const unsigned int warp_value = __reduce_xor_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-FIXES: {{^}}      atomicXor(parity, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// Signed and/or have no __reduce_*_sync overload: reported, no fix.
__global__ void int_or_no_fix(int *flags, const int *in) {
  atomicOr(flags, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicOr' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// Wrapping counters cannot be combined into one operand: reported, no fix.
__global__ void unsigned_inc(unsigned *ring_head, unsigned ring_size) {
  atomicInc(ring_head, ring_size - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicInc' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void unsigned_dec(unsigned *ring_tail, unsigned ring_size) {
  atomicDec(ring_tail, ring_size - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicDec' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// --- Scoped variants ---------------------------------------------------------

__global__ void float_sum_block_scope(float *out, const float *in) {
  __shared__ float partial[4];
  if (threadIdx.x < 4)
    partial[threadIdx.x] = 0.0f;
  __syncthreads();
  atomicAdd_block(&partial[blockIdx.y], in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd_block' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    float warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicAdd_block(&partial[blockIdx.y], warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  __syncthreads();
  if (threadIdx.x < 4)
    out[blockIdx.x * 4 + threadIdx.x] = partial[threadIdx.x];
}

__global__ void float_sum_system_scope(float *host_visible_total, const float *in) {
  atomicAdd_system(host_visible_total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd_system' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd_system(host_visible_total, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void int_max_block_scope(int *out, const int *in) {
  __shared__ int best;
  if (threadIdx.x == 0)
    best = 0;
  __syncthreads();
  atomicMax_block(&best, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicMax_block' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    const int warp_value = __reduce_max_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-FIXES: {{^}}      atomicMax_block(&best, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = best;
}

__global__ void unsigned_or_system_scope(unsigned *host_flags, const unsigned *in) {
  atomicOr_system(host_flags, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicOr_system' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicOr_system(host_flags, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void int_sub_block_scope(int *out, const int *in) {
  __shared__ int remaining;
  if (threadIdx.x == 0)
    remaining = 1 << 20;
  __syncthreads();
  atomicSub_block(&remaining, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicSub_block' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicSub_block(&remaining, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = remaining;
}

// --- Per-lane slots from a counter: ballot + popc + leader + broadcast -------

__global__ void slot_from_counter(int *count, int *out, const int *in) {
  int slot = atomicAdd(count, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}  unsigned warp_lane;
  // CHECK-FIXES: {{^}}  asm("mov.u32 %0, %%laneid;" : "=r"(warp_lane));
  // CHECK-FIXES: {{^}}  const unsigned warp_ballot = __ballot_sync(0xffffffff, 1);
  // CHECK-FIXES: {{^}}  int warp_base = 0;
  // CHECK-FIXES: {{^}}  if (warp_lane == 0)
  // CHECK-FIXES: {{^}}    warp_base = atomicAdd(count, __popc(warp_ballot));
  // CHECK-FIXES: {{^}}  int slot = __shfl_sync(0xffffffff, warp_base, 0) + __popc(warp_ballot & ((1u << warp_lane) - 1));
  // CHECK-NOTES: :[[@LINE-9]]:14: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-10]]:14: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  out[slot] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

__global__ void unsigned_slot_in_shared_queue(unsigned *out, const unsigned *in) {
  __shared__ unsigned queue_tail;
  __shared__ unsigned queue[1024];
  if (threadIdx.x == 0)
    queue_tail = 0;
  __syncthreads();
  const unsigned slot = atomicAdd(&queue_tail, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}  const unsigned warp_ballot = __ballot_sync(0xffffffff, 1);
  // CHECK-FIXES: {{^}}  unsigned int warp_base = 0;
  // CHECK-FIXES: {{^}}    warp_base = atomicAdd(&queue_tail, __popc(warp_ballot));
  // CHECK-FIXES: {{^}}  const unsigned int slot = __shfl_sync(0xffffffff, warp_base, 0) + __popc(warp_ballot & ((1u << warp_lane) - 1));
  // CHECK-NOTES: :[[@LINE-6]]:25: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-7]]:25: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  queue[slot % 1024] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = queue[threadIdx.x % 1024];
}

// --- Every way an address is the same in all lanes ---------------------------

__global__ void struct_member_through_pointer(Counters *s, const float *in) {
  atomicAdd(&s->sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(&s->sum, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void struct_member_count(Counters *s) {
  atomicAdd(&s->count, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    int warp_value = 1;
  // CHECK-FIXES: {{^}}      atomicAdd(&s->count, warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void shared_struct_member(Stats *out, const float *in) {
  __shared__ Stats stats;
  if (threadIdx.x == 0)
    stats.sum = 0.0f;
  __syncthreads();
  atomicAdd(&stats.sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(&stats.sum, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = stats;
}

__global__ void pointer_member_of_kernel_parameter(StatsRef stats, const float *in) {
  atomicAdd(stats.sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(stats.sum, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void per_block_bucket(float *block_sums, const float *in) {
  atomicAdd(&block_sums[blockIdx.x], in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(&block_sums[blockIdx.x], warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void per_warp_bucket(float *warp_sums, const float *in) {
  const int warp = threadIdx.x / 32;
  atomicAdd(warp_sums + warp % 8, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(warp_sums + warp % 8, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void per_warp_histogram_slot(int *warps_per_slot) {
  atomicAdd(&warps_per_slot[threadIdx.x / 32], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}    int warp_value = 1;
  // CHECK-FIXES: {{^}}      atomicAdd(&warps_per_slot[threadIdx.x / 32], warp_value);
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void uniform_conditional_address(float *a, float *b, bool first, const float *in) {
  atomicAdd(first ? a : b, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(first ? a : b, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void through_reference_to_member(Counters *s) {
  int &c = s->count;
  atomicAdd(&c, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(&c, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// Reported at the expansion; never fixed inside a macro.
__global__ void through_macro(float *total, const float *in) {
  ADD_TO(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-417]]:22: note: expanded from macro 'ADD_TO'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-419]]:22: note: expanded from macro 'ADD_TO'
  // CHECK-FIXES: {{^}}  ADD_TO(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-NOTES: :[[@LINE-6]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-7]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  // CHECK-NOTES: :[[@LINE-423]]:22: note: expanded from macro 'ADD_TO'
  // CHECK-NOTES: :[[@LINE-424]]:22: note: expanded from macro 'ADD_TO'
}

// The result feeds an index directly: reported, no fix.
__global__ void result_used_as_index(int *count, int *out) {
  out[atomicAdd(count, 1)] = blockIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:7: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:7: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:7: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__global__ void inside_device_lambda(float *total, const float *in) {
  auto accumulate = [&](float v) { atomicAdd(total, v); };
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:36: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:36: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:36: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  accumulate(in[blockIdx.x * blockDim.x + threadIdx.x]);
}

__global__ void uniform_local_pointer(float *sums, int row, const float *in) {
  float *dst = sums + row * gridDim.x + blockIdx.x;
  atomicAdd(dst, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(dst, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__device__ float device_global_total;

__global__ void device_global_variable(const float *in) {
  atomicAdd(&device_global_total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}      atomicAdd(&device_global_total, warp_value);
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

// A uniform loop keeps the warp converged: the body still gets the fix.
__global__ void uniform_loop_over_bins(float *bins, const float *in, int nbins) {
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int b = 0; b < nbins; ++b) {
    atomicAdd(&bins[b], v * b);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
    // CHECK-FIXES: {{^}}      float warp_value = v * b;
    // CHECK-FIXES: {{^}}        atomicAdd(&bins[b], warp_value);
    // CHECK-NOTES: :[[@LINE-4]]:5: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
    // CHECK-NOTES: :[[@LINE-5]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  }
}

// An unbraced body of a uniform branch or loop: the block replaces the body.
__global__ void unbraced_uniform_branch(float *total, const float *in, bool enabled) {
  if (enabled)
    atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}  if (enabled)
  // CHECK-FIXES: {{^}}    {
  // CHECK-FIXES: {{^}}      float warp_value = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-FIXES: {{^}}      if (warp_lane == 0)
  // CHECK-FIXES: {{^}}        atomicAdd(total, warp_value);
  // CHECK-FIXES: {{^}}    }
  // CHECK-NOTES: :[[@LINE-8]]:5: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-9]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void unbraced_uniform_loop(unsigned *flags, const unsigned *in, int rounds) {
  for (int r = 0; r < rounds; ++r)
    atomicOr(&flags[r], in[blockIdx.x * blockDim.x + threadIdx.x] >> r);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane performs 'atomicOr' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-FIXES: {{^}}  for (int r = 0; r < rounds; ++r)
  // CHECK-FIXES: {{^}}      const unsigned int warp_value = __reduce_or_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x] >> r);
  // CHECK-FIXES: {{^}}        atomicOr(&flags[r], warp_value);
  // CHECK-NOTES: :[[@LINE-5]]:5: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-6]]:5: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

template <typename T>
__global__ void templated_sum(T *total, const T *in) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  // The pattern serves every instantiation: a fix would spell one
  // instantiation's type (float) for all of them, so there is none.
  // KNOWN MISS: a fix spelling T.
  // CHECK-FIXES: {{^}}  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
}
template __global__ void templated_sum<float>(float *, const float *);
template __global__ void templated_sum<double>(double *, const double *);

// --- Divergent code: reported with a note, no fix ----------------------------

__global__ void grid_stride_loop(float *total, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(total, in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-4]]:57: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  // CHECK-NOTES: :[[@LINE-5]]:5: note: condition: how many lanes get here depends on 'n': with 'n' = 17, lanes 0..16 of a warp get here, and the address is the same in every lane
}

__global__ void grid_stride_loop_counter(int *hits, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    // How many lanes pass a data-dependent test, each lane's data says: the
    // data tier. ptxas combines the lanes' integer atomics on one address
    // in release builds, which the message says; -G and clang builds do not.
    if (in[i] > 0.5f)
      atomicAdd(hits, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
    // CHECK-NOTES: :[[@LINE-3]]:15: note: lanes may diverge here on a data-dependent condition
    // CHECK-NOTES: :[[@LINE-8]]:57: note: lanes diverge here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: data: which lanes get here depends on 'in[i]', which each lane loads from its own address
    // CHECK-NOTES: :[[@LINE-5]]:7: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
    // CHECK-NOTES: :[[@LINE-6]]:7: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  }
}

__global__ void after_bounds_return(float *total, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(total, in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-4]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  // CHECK-NOTES: :[[@LINE-5]]:3: note: condition: how many lanes get here depends on 'n': with 'n' = 17, lanes 0..16 of a warp get here, and the address is the same in every lane
}

__global__ void under_data_dependent_branch(double *total, const double *in) {
  const double v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0.0) {
    atomicAdd(total, v); // the data tier: a data-dependent branch, see above
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
    // CHECK-NOTES: :[[@LINE-3]]:9: note: lanes may diverge here on a data-dependent condition
    // CHECK-NOTES: :[[@LINE-3]]:5: note: data: which lanes get here depends on 'in[blockIdx.x * blockDim.x + threadIdx.x]', which each lane loads from its own address
    // CHECK-NOTES: :[[@LINE-4]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
    // CHECK-NOTES: :[[@LINE-5]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  }
}

__global__ void lower_half_warp(float *total, const float *in) {
  if (threadIdx.x % 32 < 16)
    atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-4]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: witness: in a 1-D block of whole warps, lanes 0..15 of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

// Each lane runs 32 - lane iterations: the warp is diverged in the body, and a
// full-mask shuffle there would be wrong, so no fix.
__global__ void lane_dependent_trip_count(float *total, const float *in) {
  for (int k = threadIdx.x % 32; k < 32; ++k) {
    atomicAdd(total, in[k]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
    // CHECK-NOTES: :[[@LINE-4]]:36: note: lanes diverge here
    // CHECK-FIXES: {{^}}  for (int k = threadIdx.x % 32; k < 32; ++k) {
    // CHECK-FIXES: {{^}}    atomicAdd(total, in[k]);
    // CHECK-NOTES: :[[@LINE-6]]:5: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
    // CHECK-NOTES: :[[@LINE-7]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  }
}

// --- Helpers: reported at the call site, with a note at the atomic -----------

__global__ void helper_with_uniform_pointer(float *total, const float *in) {
  add(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'add' makes every lane perform 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-3]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void helper_chain_with_uniform_pointer(float *block_sums, const float *in) {
  add_twice(&block_sums[blockIdx.x], in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'add_twice' makes every lane perform 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-584]]:3: note: 'atomicAdd' on an address that is the same in every lane runs here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void integer_helper_with_shared_pointer(int *out, const int *in) {
  __shared__ int best;
  if (threadIdx.x == 0)
    best = 0;
  __syncthreads();
  raise_to(&best, in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'raise_to' makes every lane perform 'atomicMax' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-3]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = best;
}

// --- libcu++ atomics: reported with a note (the rewrite would drop the -----
// --- memory order and scope they carry) --------------------------------------

__global__ void libcuxx_atomic_ref_fetch_add(float *total, const float *in) {
  cuda::atomic_ref<float, cuda::thread_scope_device> sum(*total);
  sum.fetch_add(in[blockIdx.x * blockDim.x + threadIdx.x], cuda::memory_order_relaxed);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'fetch_add' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

__global__ void libcuxx_atomic_pointer_operators(cuda::atomic<int, cuda::thread_scope_device> *count, const int *in) {
  *count += in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: every lane performs 'operator+=' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:10: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  count->fetch_max(in[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'fetch_max' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

__device__ cuda::atomic<unsigned, cuda::thread_scope_device> g_cu_flags;

__global__ void libcuxx_global_atomic_fetch_or(const unsigned *in) {
  g_cu_flags.fetch_or(in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'fetch_or' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: aggregate first: reduce the operand across the warp (a shuffle loop, __reduce_*_sync or cooperative_groups::reduce), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

//===----------------------------------------------------------------------===//
// Part 2: must stay silent
//===----------------------------------------------------------------------===//

// A histogram: each lane's address depends on its own data.
__global__ void histogram(unsigned *hist, const unsigned char *in) {
  atomicAdd(&hist[in[blockIdx.x * blockDim.x + threadIdx.x]], 1u);
}

// A scatter: each lane adds to its own element.
__global__ void scatter_add(float *out, const float *in, const int *index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&out[index[i]], in[i]);
}

// Each thread owns its element: the address includes threadIdx.x.
__global__ void per_thread_element(float *out, const float *in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&out[i], in[i]);
}

// One lane per warp, by lane id.
__global__ void lane_zero_guard(float *total, const float *in) {
  const int lane = threadIdx.x % 32;
  if (lane == 0)
    atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// One lane per warp, lane id by masking.
__global__ void lane_mask_guard(int *warps_seen) {
  if ((threadIdx.x & 31) == 0)
    atomicAdd(warps_seen, 1);
}

// One lane per warp, lane id from warpSize.
__global__ void lane_warpsize_guard(int *warps_seen) {
  if (threadIdx.x % warpSize == 0)
    atomicAdd(warps_seen, 1);
}

// One thread per block.
__global__ void thread_zero_guard(unsigned *blocks_done) {
  if (threadIdx.x == 0)
    atomicInc(blocks_done, 0xffffffffu);
}

// One thread in the whole grid.
__global__ void first_thread_of_grid(float *total, float v) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(total, v);
}

// Every lane but lane 0 has returned: one lane per warp is left.
__global__ void non_leaders_return(float *total, const float *in) {
  const unsigned lane = threadIdx.x % 32;
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane != 0)
    return;
  atomicAdd(total, v);
}

// One lane per warp, elected by a helper.
__global__ void helper_leader_guard(float *total, const float *in) {
  if (is_warp_leader())
    atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// One thread per block, by cooperative-groups rank.
__global__ void block_rank_guard(float *total, const float *in) {
  if (cg::this_thread_block().thread_rank() == 0)
    atomicAdd(total, in[blockIdx.x]);
}

// One lane per warp, lane id from %laneid.
__global__ void laneid_register_guard(float *total, const float *in) {
  if (lane_id() == 0)
    atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// The leader of the lanes with `pred`, elected by __ffs of their ballot.
__global__ void ffs_ballot_leader(int *count, const float *in) {
  const int lane = threadIdx.x % 32;
  const bool pred = in[blockIdx.x * blockDim.x + threadIdx.x] > 0.0f;
  const unsigned active = __ballot_sync(0xffffffff, pred);
  const int leader = __ffs(active) - 1;
  if (lane == leader)
    atomicAdd(count, __popc(active));
}

// Warp shuffle reduction first, then one atomic from lane 0.
__global__ void after_warp_shuffle_reduction(float *total, const float *in) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0)
    atomicAdd(total, v);
}

// __reduce_max_sync first, then one atomic from lane 0.
__global__ void after_reduce_sync(int *best, const int *in) {
  const int m = __reduce_max_sync(0xffffffff, in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    atomicMax(best, m);
}

// Block reduction through shared memory first, then one atomic per block.
__global__ void after_block_reduction(float *total, const float *in) {
  __shared__ float partial[256];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, partial[0]);
}

// Classic warp-aggregated increment: ballot, popc, leader, shuffle broadcast.
__global__ void warp_aggregated_increment(int *count, int *out, const float *in) {
  const int lane = threadIdx.x % 32;
  const unsigned mask = __ballot_sync(0xffffffff, 1);
  const int leader = __ffs(mask) - 1;
  int base = 0;
  if (lane == leader)
    base = atomicAdd(count, __popc(mask));
  base = __shfl_sync(0xffffffff, base, leader);
  out[base + __popc(mask & ((1u << lane) - 1))] = lane;
}

// Peers with the same key elect one leader with __match_any_sync; the
// address depends on the key, so lanes with different keys differ anyway.
__global__ void match_any_peers(unsigned *hist, const unsigned *keys) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  const unsigned peers = __match_any_sync(0xffffffff, key);
  const unsigned leader = __ffs(peers) - 1;
  if (lane == leader)
    atomicAdd(&hist[key], __popc(peers));
}

// The CUDA blog's atomicAggInc: the lanes are grouped by the pointer itself
// (__match_any_sync on it), and only each group's leader adds the group's
// size. Every lane passes the same pointer, so there is one group and one
// atomic: already aggregated.
__device__ __forceinline__ unsigned lane_from_ptx() {
  unsigned id;
  asm("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}
__device__ int agg_inc_by_pointer(int *ptr) {
  const int mask = __match_any_sync(__activemask(), (unsigned long long)ptr);
  const int leader = __ffs(mask) - 1;
  int res = 0;
  if (lane_from_ptx() == leader)
    res = atomicAdd(ptr, __popc(mask));
  res = __shfl_sync(mask, res, leader);
  return res + __popc(mask & ((1 << lane_from_ptx()) - 1));
}
__global__ void filter_by_pointer_groups(int *dst, int *nres, const int *src, int n) {
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0)
    dst[agg_inc_by_pointer(nres)] = src[i];
}

// A lambda run by a generic helper captures its owner's parameter: the
// owner's callers decide the address, and this one passes a per-lane key
// (stdgpu's insert through warp_convergent_execute).
template <typename F> __device__ void run_now(F &&f) { f(); }
__device__ void count_key(int *counts, const int &key) {
  run_now([&]() { atomicAdd(&counts[key], 1); });
}
__global__ void histogram_through_lambda(int *counts, const int *keys) {
  const int key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  count_key(counts, key);
}

// Aggregation over whatever lanes are active, with coalesced_threads().
__global__ void coalesced_threads_increment(int *count, int *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f) {
    cg::coalesced_group g = cg::coalesced_threads();
    int base = 0;
    if (g.thread_rank() == 0)
      base = atomicAdd(count, g.size());
    base = g.shfl(base, 0) + g.thread_rank();
    out[base] = i;
  }
}

// Reduction over a 32-lane tile, then the tile's first thread.
__global__ void tile_reduce_then_leader(float *total, const float *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const float sum = cg::reduce(tile, in[blockIdx.x * blockDim.x + threadIdx.x], cg::plus<float>());
  if (tile.thread_rank() == 0)
    atomicAdd(total, sum);
}

// coalesced_threads() reduction under divergence, then its first thread.
__global__ void coalesced_reduce_in_grid_stride_loop(float *total, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    cg::coalesced_group g = cg::coalesced_threads();
    const float sum = cg::reduce(g, in[i], cg::plus<float>());
    if (g.thread_rank() == 0)
      atomicAdd(total, sum);
  }
}

// Per-thread accumulation in the loop, one reduced atomic per warp after it.
__global__ void accumulate_then_one_atomic(float *total, const float *in, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    acc += in[i];
  for (int offset = 16; offset > 0; offset /= 2)
    acc += __shfl_down_sync(0xffffffff, acc, offset);
  if (threadIdx.x % 32 == 0)
    atomicAdd(total, acc);
}

// A warp-uniform branch taken by whole warps, then lane 0 of warp 0.
__global__ void first_warp_then_lane_zero(float *total, const float *in) {
  if (threadIdx.x < 32) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0)
      atomicAdd(total, v);
  }
}

// atomicCAS retry loop (double add emulation): warp-atomic-spinlock's
// territory, and lock-free besides.
__global__ void cas_retry_loop(unsigned long long *bits, double v) {
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __double_as_longlong(__longlong_as_double(assumed) + v));
  } while (assumed != old);
}

// atomicExch publishes a flag: an exchange, not an accumulating RMW.
__global__ void exch_publish_flag(int *ready) {
  atomicExch(ready, 1);
}

// The helper gets a per-lane pointer: each lane has its own address.
__global__ void helper_with_per_lane_pointer(float *out, const float *in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  add(&out[i], in[i]);
}

// The helper is called by one lane per warp only.
__global__ void helper_from_lane_zero(float *total, const float *in) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0)
    add(total, v);
}

// threadIdx.y may differ within a warp unless blockDim.x is a multiple of 32
// (WarpAlignedBlockDimX, off by default): the address may be per lane.
__global__ void row_sums_by_thread_y(float *row_sums, const float *in) {
  atomicAdd(&row_sums[threadIdx.y], in[threadIdx.y * blockDim.x + threadIdx.x]);
}

// The exact code the fix-it writes: one atomic per warp from lane 0.
__global__ void fixed_form_is_clean(float *total, const float *in) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  {
    unsigned warp_lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(warp_lane));
    float warp_value = v;
    for (int warp_offset = 16; warp_offset > 0; warp_offset /= 2)
      warp_value += __shfl_down_sync(0xffffffff, warp_value, warp_offset);
    if (warp_lane == 0)
      atomicAdd(total, warp_value);
  }
}

// libcu++: each lane's atomic_ref is bound to its own element.
__global__ void libcuxx_atomic_ref_per_lane(float *out, const float *in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<float, cuda::thread_scope_device> mine(out[i]);
  mine.fetch_add(in[i]);
}

// libcu++: one lane per warp adds the warp's sum.
__global__ void libcuxx_leader_fetch_add(cuda::atomic<float, cuda::thread_scope_device> *total, const float *in) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0)
    total->fetch_add(v);
}

// --- One-lane guards in every spelling (silent) -----------------------------

__global__ void not_tid_guard(int *blocks) {
  const int tid = threadIdx.x;
  if (!tid)
    atomicAdd(blocks, 1);
}

__global__ void not_lane_guard(int *warps) {
  const unsigned lane = threadIdx.x & 31;
  if (!lane)
    atomicAdd(warps, 1);
}

__global__ void ternary_guard(unsigned *ticket, unsigned *out) {
  const int tid = threadIdx.x;
  const unsigned mine = tid ? 0u : atomicInc(ticket, 1000u);
  out[blockIdx.x * blockDim.x + tid] = mine;
}

// threadIdx.x % 64: 32 consecutive lanes stay distinct modulo 64.
__global__ void every_other_warp_guard(int *count) {
  if (threadIdx.x % 64 == 0)
    atomicAdd(count, 1);
}

template <int Group> __global__ void template_group_guard(int *count) {
  if (threadIdx.x % Group == 0)
    atomicAdd(count, 1);
}
template __global__ void template_group_guard<128>(int *);

// The guard is on the helper's parameter: judged with the caller's argument.
__device__ void count_if_first(int tid, int *count) {
  if (tid == 0)
    atomicAdd(count, 1);
}
__global__ void guard_on_helper_parameter(int *count) {
  count_if_first(threadIdx.x, count);
}

__global__ void guard_on_lambda_parameter(int *count) {
  auto bump = [&](int lane) {
    if (lane == 0)
      atomicAdd(count, 1);
  };
  bump(threadIdx.x % 32);
}

struct ThreadInfo {
  int tid;
  int lane;
  __device__ ThreadInfo() : tid(threadIdx.x), lane(threadIdx.x % 32) {}
};
__global__ void guard_on_constructed_member(int *count) {
  ThreadInfo me;
  if (me.lane == 0)
    atomicAdd(count, 1);
}

__device__ unsigned lanes_below() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
// The first active lane: its rank among the active lanes is 0.
__global__ void rank_among_active_guard(int *count, const float *in) {
  if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0.0f) {
    const unsigned active = __activemask();
    if (__popc(active & lanes_below()) == 0)
      atomicAdd(count, __popc(active));
  }
}

__global__ void coalesced_rank_guard(int *count, const float *in) {
  if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0.0f) {
    cg::coalesced_group active = cg::coalesced_threads();
    if (active.thread_rank() == 0)
      atomicAdd(count, active.size());
  }
}

__global__ void leader_flag_in_local(int *count) {
  const bool leader = threadIdx.x % 32 == 0;
  const int step = 2;
  if (leader)
    atomicAdd(count, step);
}

// --- Guards that let every lane through (reported) --------------------------

// blockIdx.x is the same in every lane: all of them pass the helper's guard.
__global__ void helper_guard_on_uniform_argument(int *count) {
  count_if_first(blockIdx.x, count);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'count_if_first' makes every lane perform 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-60]]:5: note: 'atomicAdd' on an address that is the same in every lane runs here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// threadIdx.x % 16 == 0 holds in two lanes of every warp.
__global__ void sub_warp_group_guard(float *total, const float *in) {
  if (threadIdx.x % 16 == 0)
    atomicAdd(total, in[blockIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: lanes diverge here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-4]]:5: note: witness: in a 1-D block of whole warps, lanes 0, 16 of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:5: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

// --- Views: a method reads the object it is called on (silent) ---------------

// A view sliced at the lane's row: its operator() and slot() read the
// view's own pointer, so each lane gets its own address.
struct RowView {
  float *p;
  int stride;
  __device__ float &operator()(int i) const { return p[i * stride]; }
  __device__ float *slot(int i) const { return p + i; }
};
__device__ RowView row_of(RowView v, int row) {
  return RowView{v.p + row, v.stride};
}
__global__ void per_lane_view(float *out, float x) {
  RowView base{out, 4};
  RowView mine = row_of(base, threadIdx.x % 32);
  if (threadIdx.x % 32 < 8)
    atomicAdd(&mine(0), x);
  atomicAdd(mine.slot(1), x);
}

// A helper fills a local array through a cast pointer: the array holds
// per-lane data, so the branch on it is data-dependent: the data tier,
// naming the load.
__device__ void fill_bytes(unsigned char *out, const unsigned *in) {
  for (int i = 0; i < 16; ++i)
    out[i] = (unsigned char)in[i];
}
__global__ void count_hits(const unsigned *data, unsigned *count,
                           unsigned target) {
  unsigned hash[4];
  fill_bytes((unsigned char *)hash, data + threadIdx.x * 4);
  if (hash[3] < target)
    atomicInc(count, 0xffffffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicInc' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: lanes may diverge here on a data-dependent condition
  // CHECK-NOTES: :[[@LINE-3]]:5: note: data: which lanes get here depends on 'in[i]', which each lane loads from its own address
  // CHECK-NOTES: :[[@LINE-4]]:5: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  // CHECK-NOTES: :[[@LINE-5]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
}

// Code a template constant makes dead runs in no lane of that instantiation:
// it is not reported there, and the live instantiation's message (after the
// early exit, "every lane that gets here") is the one printed.
template <int Algo>
__global__ void count_found(int n, unsigned *count, const unsigned *found) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (Algo == 0) {
    if (found[i] < 16u)
      atomicAdd(count, 1u);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
    // CHECK-NOTES: :[[@LINE-3]]:18: note: lanes may diverge here on a data-dependent condition
    // CHECK-NOTES: :[[@LINE-6]]:5: note: lanes exit here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: data: which lanes get here depends on 'found[i]', which each lane loads from its own address
    // CHECK-NOTES: :[[@LINE-5]]:7: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
    // CHECK-NOTES: :[[@LINE-6]]:7: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  } else {
    atomicAdd(count + 1, 1u);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
    // CHECK-NOTES: :[[@LINE-13]]:5: note: lanes exit here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
    // CHECK-NOTES: :[[@LINE-4]]:5: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
    // CHECK-NOTES: :[[@LINE-5]]:5: note: condition: how many lanes get here depends on 'n': with 'n' = 17, lanes 0..16 of a warp get here, and the address is the same in every lane
  }
}
template __global__ void count_found<0>(int, unsigned *, const unsigned *);
template __global__ void count_found<1>(int, unsigned *, const unsigned *);

// Structured bindings take the value of what they bind: a member of the
// decomposed struct, or get<N>() of a tuple. A per-lane slice gives per-lane
// offsets; a per-block one gives the same offset in every lane.
struct RowSlice {
  int stride, offset;
};
__device__ RowSlice slice_row(int row, int stride) { return {stride, row * stride}; }
__device__ cuda::std::tuple<int, int> slice_row_tuple(int row, int stride) {
  return {stride, row * stride};
}
__global__ void max_per_slice(int *out, int stride) {
  const int lane = threadIdx.x % 32;
  auto [s1, lane_offset] = slice_row(lane, stride);
  atomicMax(&out[lane_offset], s1);
  auto [s2, tuple_offset] = slice_row_tuple(lane, stride);
  atomicMax(&out[tuple_offset], s2);
  auto [s3, block_offset] = slice_row(blockIdx.x, stride);
  atomicMax(&out[block_offset], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane performs 'atomicMax' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-3]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// A method's atomic on a member address depends on the object it is called
// on: one built from a per-lane argument (a role set in its constructor
// from the lane's index) may hold per-lane state, one built from uniform
// arguments holds the same state in every lane.
struct RoleCounter {
  int *total;
  int role;
  __device__ RoleCounter(int tid, int *p) : total(p) {
    role = 0;
    if (tid == 0)
      role = 1;
  }
  __device__ void count(int v) {
    if (role == 1)
      atomicMax(total, v);
  }
};
struct BlockCounter {
  int *total;
  __device__ explicit BlockCounter(int *p) : total(p) {}
  __device__ void add() { atomicAdd(total, 1); }
};
__global__ void count_by_role(int *p, int v) {
  RoleCounter per_lane(threadIdx.x, p);
  per_lane.count(v);
  BlockCounter shared_counter(p + blockIdx.x);
  shared_counter.add();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'add' makes every lane perform 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-8]]:27: note: 'atomicAdd' on an address that is the same in every lane runs here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}

// --- A three-level chain: each call on the way is a note, in order ---------

__device__ void add_half(float *p, float v) { add_twice(p, 0.5f * v); }
// CHECK-NOTES: :[[@LINE-1]]:47: note: 'add_twice' is called here

__global__ void three_level_helper_chain(float *block_sums, const float *in) {
  add_half(&block_sums[blockIdx.x], in[blockIdx.x * blockDim.x + threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'add_half' makes every lane perform 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-1176]]:48: note: 'add' is called here
  // CHECK-NOTES: :[[@LINE-1182]]:3: note: 'atomicAdd' on an address that is the same in every lane runs here
  // CHECK-NOTE-ORDER: :[[@LINE-4]]:3: [[@LINE-4]]:3 [[@LINE-4]]:3 [[@LINE-8]]:47 [[@LINE-1178]]:48 [[@LINE-1183]]:3
  // CHECK-NOTES: :[[@LINE-5]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-6]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
}

// --- Through a helper that decides inside which lanes perform the atomic ----
// At the call every lane of the warp is there, but `close_open_run` performs
// the atomic only where `open` is set: the message says "every lane that gets
// there" (to the atomic), and the advice aggregates over the lanes that
// reach it, as in divergent code.

__device__ void count_item(const unsigned *items, unsigned &open, unsigned i) {
  if (items[i] > 16)
    open = 0;
  else
    ++open;
}

__device__ void close_open_run(unsigned *warp_hist, unsigned open) {
  if (open)
    atomicAdd(&warp_hist[0], 1u);
}

__global__ void pack_partial_tile(const unsigned *in, unsigned *out,
                                  unsigned tile_size) {
  __shared__ unsigned hist[8 * 32];
  unsigned *warp_hist = &hist[8 * (threadIdx.x / 32)];
  unsigned items[4];
  for (int i = 0; i < 4; ++i)
    items[i] = in[threadIdx.x * 4 + i];
  int run = int(tile_size) - int(threadIdx.x) * 4;
  run = run > 4 ? 4 : (run < 0 ? 0 : run);
  unsigned open = 0;
  for (unsigned i = 0; i < unsigned(run); ++i)
    count_item(items, open, i);
  close_open_run(warp_hist, open);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'close_open_run' makes every lane that gets there perform 'atomicAdd' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-17]]:5: note: 'atomicAdd' on an address that is the same in every lane runs here
  // CHECK-NOTES: :[[@LINE-18]]:5: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
  // CHECK-NOTES: :[[@LINE-5]]:3: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
  out[threadIdx.x] = warp_hist[0];
}

// The lanes that a helper's result sends away leave the others to the
// atomic: the helper's returns each hand over a constant, but which one a
// lane takes depends on its index.
__device__ bool past_tail(int i, int n) {
  if (i >= n)
    return true;
  return false;
}
__global__ void count_after_helper_exit(float *total, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (past_tail(i, n))
    return;
  atomicAdd(total, in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: every lane that gets here performs 'atomicAdd' on the same address, serializing the warp; floating-point atomics are never aggregated by the compiler [warp-uniform-address-atomic]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: lanes exit here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: aggregate over the lanes that reach it: reduce with cooperative_groups::coalesced_threads() (or accumulate per thread and reduce once after the loop), then one lane performs the atomic
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: slow: the lanes' atomics serialize: about 32x slower than a warp reduction and one atomic per warp, measured on an H200
  // CHECK-NOTES: :[[@LINE-5]]:3: note: condition: how many lanes get here depends on 'n': with 'n' = 17, lanes 0..16 of a warp get here, and the address is the same in every lane
}

// A bookkeeping kernel run as one thread per block: each warp has one lane,
// nothing to aggregate.
__global__ void add_block_totals(const float *partials, float *total, int n) {
  for (int b = 0; b < n; ++b)
    atomicAdd(total, partials[b]);
}
void finish_total(const float *partials, float *total, int n,
                  cudaStream_t stream) {
  add_block_totals<<<1, 1, 0, stream>>>(partials, total, n);
}

// Per-block bookkeeping: nothing in the kernel depends on the lane, and the
// only launch takes its block from the caller. Such kernels are run one
// thread per block as often as not: no evidence of a second lane (the
// potential tier, silent by default).
__global__ void lower_bounds(int *lo, const int *v, int n) {
  for (int i = blockIdx.y; i < n; i += gridDim.y)
    atomicMin(&lo[i], v[i]);
}
void run_lower_bounds(dim3 grid, dim3 block, int *lo, const int *v, int n) {
  lower_bounds<<<grid, block>>>(lo, v, n);
}

// The same kernel launched with 256 threads per block: every lane repeats
// the atomic.
__global__ void lower_bounds_wide(int *lo, const int *v, int n) {
  for (int i = blockIdx.y; i < n; i += gridDim.y)
    atomicMin(&lo[i], v[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: every lane performs 'atomicMin' on the same address, serializing the warp; ptxas aggregates integer atomics at -O3, but not in -G, clang or HIP builds [warp-uniform-address-atomic]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: witness: all 32 lanes of a warp get here, and the address is built only from values that are the same in every lane
    // CHECK-NOTES: :[[@LINE-3]]:5: note: consequence: slow: the lanes' atomics serialize where the compiler does not aggregate them (-G builds: about 30x slower than one atomic per warp on an H200)
}
void run_lower_bounds_wide(dim3 grid, int *lo, const int *v, int n) {
  lower_bounds_wide<<<grid, 256>>>(lo, v, n);
}

// A helper's atomic behind a guard that lets only thread (0, 0) through
// (x plus 32 times y is 0 only there): no second lane to serialize against.
__device__ void grab_batch(int *counter, int *slot) {
  const int t = threadIdx.x + threadIdx.y * 32;
  if (t == 0)
    *slot = atomicAdd(counter, 1);
}
__global__ void batches(int *counter, int *out) {
  __shared__ int s_batch;
  grab_batch(counter, &s_batch);
  __syncthreads();
  out[blockIdx.x * blockDim.x * blockDim.y + threadIdx.x] = s_batch;
}
