// Tests of warp-atomic-spinlock: a lock taken per lane by spinning on
// atomicCAS/atomicExch, with the critical section after the spin loop, where
// lanes of one warp can contend for the lock. Before Volta and on AMD GPUs the
// lane that wins waits at the reconvergence point for the lanes still
// spinning, which wait for it: a deadlock. With a warp collective or barrier in
// the critical section it hangs on every GPU.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style).
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

#include <cooperative_groups.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Takes `lock` by spinning; every caller lane spins on its own.
__device__ void acquire(int *lock) {
  while (atomicCAS(lock, 0, 1) != 0)
    ;
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the lock is taken by spinning here
}

/// Gives `lock` back, after making the critical section's writes visible.
__device__ void release(int *lock) {
  __threadfence();
  atomicExch(lock, 0);
}

/// Sums `v` over the whole warp: every lane must call it.
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

struct Bucket {
  int lock;
  float sum;
  int count;
};

struct Mutex {
  int flag;
};

/// Takes a mutex held in a struct, by spinning.
__device__ void lock_mutex(Mutex &m) {
  while (atomicExch(&m.flag, 1) != 0) {
  }
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the lock is taken by spinning here
}

__device__ void unlock_mutex(Mutex &m) {
  __threadfence();
  atomicExch(&m.flag, 0);
}

/// Tries once to take `lock`; returns whether it did.
__device__ bool try_lock(int *lock) { return atomicCAS(lock, 0, 1) == 0; }

/// A block-wide barrier in a helper.
__device__ void block_barrier(float *data) {
  __syncthreads();
  data[threadIdx.x] += 1.0f;
}

__device__ int g_lock;
__device__ int g_counter;
__device__ Mutex g_mutex;

//===----------------------------------------------------------------------===//
// Part 1: true positives
//===----------------------------------------------------------------------===//

// --- The spin-acquire loops ------------------------------------------------

__global__ void cas_while_empty_statement(int *lock, int *counter) {
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+8]]:3: note: if the critical section is a single read-modify-write, the matching atomic (atomicAdd, atomicMax, ...) replaces the lock
  // CHECK-NOTES: :[[@LINE+8]]:3: note: no __threadfence() before the release: writes of the critical section may not be visible to the next holder
  // CHECK-FIXES: {{^}}  for (bool warp_lock_done = false; !warp_lock_done;) {
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      *counter += 1;
  // CHECK-FIXES: {{^}}      atomicExch(lock, 0);
  // CHECK-NOTES: :[[@LINE-8]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-9]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter += 1;
  atomicExch(lock, 0);
  // CHECK-FIXES: {{^}}      warp_lock_done = true;
  // CHECK-FIXES: {{^}}    }
  // CHECK-FIXES: {{^}}  }
}

__global__ void exch_while_empty_block(int *lock, float *total, int *count, const float *in) {
  const float v = in[threadIdx.x];
  while (atomicExch(lock, 1) != 0) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicExch': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}  for (bool warp_lock_done = false; !warp_lock_done;) {
  // CHECK-FIXES: {{^}}    if (!(atomicExch(lock, 1) != 0)) {
  // CHECK-FIXES: {{^}}      *total += v;
  // CHECK-FIXES: {{^}}      *count += 1;
  // CHECK-FIXES: {{^}}      __threadfence();
  // CHECK-FIXES: {{^}}      atomicExch(lock, 0);
  // CHECK-FIXES: {{^}}      warp_lock_done = true;
  // CHECK-NOTES: :[[@LINE-9]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-10]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *total += v;
  *count += 1;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void cas_do_while(int *lock, float *total, const float *in) {
  const float v = in[threadIdx.x];
  do {
  } while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}  for (bool warp_lock_done = false; !warp_lock_done;) {
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      *total = *total * 0.5f + v;
  // CHECK-FIXES: {{^}}      __threadfence();
  // CHECK-FIXES: {{^}}      atomicExch(lock, 0);
  // CHECK-NOTES: :[[@LINE-7]]:12: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-8]]:12: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *total = *total * 0.5f + v;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void cas_implicit_nonzero_condition(int *lock, int *counter) {
  while (atomicCAS(lock, 0, 1))
    ;
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(lock, 0, 1))) {
  // CHECK-FIXES: {{^}}      *counter = *counter * 3 + 1;
  // CHECK-NOTES: :[[@LINE-5]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-6]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter * 3 + 1;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void cas_held_value_compared(int *lock, int *counter) {
  // Spins while the old value says "held" (1).
  while (atomicCAS(lock, 0, 1) == 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(lock, 0, 1) == 1)) {
  // CHECK-FIXES: {{^}}      *counter = *counter * 2;
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter * 2;
  __threadfence();
  *lock = 0;
}

__global__ void for_ever_break_on_cas_success(int *lock, int *counter) {
  for (;;) {
    if (atomicCAS(lock, 0, 1) == 0)
      break;
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:9: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter + 7;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void while_true_break_on_exch_success(int *lock, int *counter) {
  while (true) {
    if (atomicExch(lock, 1) == 0)
      break;
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:9: warning: spin lock taken per lane with 'atomicExch': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter ^= 5;
  __threadfence();
  atomicExch(lock, 0);
}

// --- libcu++ atomics: cuda::atomic, cuda::atomic_ref, atomic_flag ----------

__device__ cuda::atomic<int, cuda::thread_scope_device> g_cu_lock;

__global__ void libcuxx_exchange_lock(float *total, const float *in) {
  const float v = in[threadIdx.x];
  while (g_cu_lock.exchange(1, cuda::memory_order_acquire) != 0)
    ;
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: spin lock taken per lane with 'exchange': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+8]]:3: note: if the critical section is a single read-modify-write, the matching atomic (atomicAdd, atomicMax, ...) replaces the lock
  // CHECK-FIXES: {{^}}  for (bool warp_lock_done = false; !warp_lock_done;) {
  // CHECK-FIXES: {{^}}    if (!(g_cu_lock.exchange(1, cuda::memory_order_acquire) != 0)) {
  // CHECK-FIXES: {{^}}      *total = *total * 0.5f + v;
  // CHECK-FIXES: {{^}}      g_cu_lock.store(0, cuda::memory_order_release);
  // CHECK-FIXES: {{^}}      warp_lock_done = true;
  // CHECK-NOTES: :[[@LINE-9]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-10]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *total = *total * 0.5f + v;
  g_cu_lock.store(0, cuda::memory_order_release); // orders the section: no fence note
}

__global__ void libcuxx_atomic_ref_cas_lock(int *lock, float *total, const float *in) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(*lock);
  int expected = 0;
  while (!ref.compare_exchange_strong(expected, 1, cuda::memory_order_acquire)) {
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: spin lock taken per lane with 'compare_exchange_strong': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
    // CHECK-NOTES: :[[@LINE+5]]:3: note: if the critical section is a single read-modify-write, the matching atomic (atomicAdd, atomicMax, ...) replaces the lock
    // CHECK-NOTES: :[[@LINE-3]]:11: note: witness: every lane spins on the same lock word
    // CHECK-NOTES: :[[@LINE-4]]:11: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
    expected = 0;
  }
  *total = *total * 0.5f + in[threadIdx.x];
  ref.store(0, cuda::memory_order_relaxed);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: no __threadfence() before the release: writes of the critical section may not be visible to the next holder
}

__global__ void libcuxx_atomic_flag_lock(cuda::std::atomic_flag *flag, float *total, const float *in) {
  const float v = in[threadIdx.x];
  while (flag->test_and_set(cuda::std::memory_order_acquire))
    ;
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: spin lock taken per lane with 'test_and_set': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+6]]:3: note: if the critical section is a single read-modify-write, the matching atomic (atomicAdd, atomicMax, ...) replaces the lock
  // CHECK-FIXES: {{^}}    if (!(flag->test_and_set(cuda::std::memory_order_acquire))) {
  // CHECK-FIXES: {{^}}      *total = *total * 0.5f + v;
  // CHECK-FIXES: {{^}}      flag->clear(cuda::std::memory_order_release);
  // CHECK-NOTES: :[[@LINE-7]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-8]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *total = *total * 0.5f + v;
  flag->clear(cuda::std::memory_order_release);
}

// --- Where the lock lives --------------------------------------------------

__global__ void shared_memory_lock(float *out, const float *in) {
  __shared__ int lock;
  __shared__ float acc;
  if (threadIdx.x == 0) {
    lock = 0;
    acc = 0.0f;
  }
  __syncthreads();
  while (atomicCAS(&lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+8]]:3: note: no __threadfence() before the release: writes of the critical section may not be visible to the next holder
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(&lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      acc = acc * 0.5f + in[threadIdx.x];
  // CHECK-FIXES: {{^}}      atomicExch(&lock, 0);
  // CHECK-NOTES: :[[@LINE-6]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-7]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  acc = acc * 0.5f + in[threadIdx.x];
  __threadfence_block();
  atomicExch(&lock, 0);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc;
}

__global__ void lock_in_struct_member(Bucket *buckets, const int *keys, const float *in) {
  Bucket *b = &buckets[keys[threadIdx.x] % 64];
  while (atomicCAS(&b->lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp may contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(&b->lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      b->sum += in[threadIdx.x];
  // CHECK-FIXES: {{^}}      b->count += 1;
  // CHECK-FIXES: {{^}}      atomicExch(&b->lock, 0);
  // CHECK-NOTES: :[[@LINE-6]]:10: note: data: lanes whose lock words coincide contend for the lock
  // CHECK-NOTES: :[[@LINE-7]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  b->sum += in[threadIdx.x];
  b->count += 1;
  __threadfence();
  atomicExch(&b->lock, 0);
}

__global__ void lock_array_indexed_by_data(int *locks, float *sums, const int *keys, const float *in) {
  const int k = keys[blockIdx.x * blockDim.x + threadIdx.x] & 255;
  while (atomicExch(&locks[k], 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicExch': lanes of one warp may contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicExch(&locks[k], 1) != 0)) {
  // CHECK-FIXES: {{^}}      sums[k] = sums[k] * 0.9f + in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-4]]:10: note: data: lanes whose lock words coincide contend for the lock
  // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  sums[k] = sums[k] * 0.9f + in[threadIdx.x];
  __threadfence();
  atomicExch(&locks[k], 0);
}

__global__ void global_device_variable_lock(const int *in) {
  while (atomicCAS(&g_lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(&g_lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      g_counter = g_counter * 2 + in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  g_counter = g_counter * 2 + in[threadIdx.x];
  __threadfence();
  atomicExch(&g_lock, 0);
}

__global__ void lock_taken_per_item_in_loop(int *lock, float *hist, const int *bins, int items) {
  for (int k = 0; k < items; ++k) {
    const int bin = bins[k * blockDim.x + threadIdx.x];
    while (atomicCAS(lock, 0, 1) != 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
    // CHECK-FIXES: {{^}}    for (bool warp_lock_done = false; !warp_lock_done;) {
    // CHECK-FIXES: {{^}}      if (!(atomicCAS(lock, 0, 1) != 0)) {
    // CHECK-FIXES: {{^}}        hist[bin] = hist[bin] + 1.0f;
    // CHECK-FIXES: {{^}}        atomicExch(lock, 0);
    // CHECK-FIXES: {{^}}        warp_lock_done = true;
    // CHECK-NOTES: :[[@LINE-7]]:12: note: witness: every lane spins on the same lock word
    // CHECK-NOTES: :[[@LINE-8]]:12: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
    hist[bin] = hist[bin] + 1.0f;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// --- Through lock helpers --------------------------------------------------

__global__ void acquire_helper(int *lock, int *counter) {
  acquire(lock);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: take the lock once per warp instead: one lane acquires, __syncwarp(), the warp runs the section, __syncwarp(), that lane releases
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter + 1;
  release(lock);
}

__global__ void mutex_helper_on_struct(float *out, const float *in) {
  lock_mutex(g_mutex);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: spin lock taken per lane with 'atomicExch': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: take the lock once per warp instead: one lane acquires, __syncwarp(), the warp runs the section, __syncwarp(), that lane releases
  // CHECK-NOTES: :[[@LINE-3]]:3: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-4]]:3: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  out[0] += in[threadIdx.x];
  unlock_mutex(g_mutex);
}

// --- Definite hangs: the critical section synchronizes ---------------------

__global__ void syncwarp_in_critical_section(int *lock, float *data) {
  __shared__ float tile[32];
  const int lane = threadIdx.x % 32;
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS' hangs: lanes of one warp contend for it and the critical section waits for lanes that are still spinning [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+4]]:3: note: this synchronizes lanes while others of the warp spin on the lock
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: the section waits for lanes that spin on the lock
  tile[lane] = data[lane];
  __syncwarp();
  data[lane] = tile[(lane + 1) % 32];
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void syncthreads_in_critical_section(int *lock, float *data) {
  while (atomicExch(lock, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicExch' hangs: lanes of one warp contend for it and the critical section waits for lanes that are still spinning [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+4]]:3: note: this synchronizes lanes while others of the warp spin on the lock
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: the section waits for lanes that spin on the lock
  data[threadIdx.x] += 1.0f;
  __syncthreads();
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void shuffle_in_critical_section(int *lock, float *out, const float *in) {
  float v = in[threadIdx.x];
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS' hangs: lanes of one warp contend for it and the critical section waits for lanes that are still spinning [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+3]]:7: note: this synchronizes lanes while others of the warp spin on the lock
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE+1]]:7: note: consequence: hang: the section waits for lanes that spin on the lock
  v = __shfl_sync(0xffffffff, v, 0);
  *out += v;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void collective_helper_in_critical_section(int *lock, float *out, const float *in) {
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS' hangs: lanes of one warp contend for it and the critical section waits for lanes that are still spinning [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+3]]:11: note: this synchronizes lanes while others of the warp spin on the lock
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE+1]]:11: note: consequence: hang: the section waits for lanes that spin on the lock
  *out += warp_sum(in[threadIdx.x]);
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void nested_lock_in_critical_section(int *outer, int *inner, int *counter) {
  while (atomicCAS(outer, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS' hangs: lanes of one warp contend for it and the critical section waits for lanes that are still spinning [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+3]]:10: note: this synchronizes lanes while others of the warp spin on the lock
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE+1]]:10: note: consequence: hang: the section waits for lanes that spin on the lock
  while (atomicCAS(inner, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(inner, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      *counter = *counter + 1;
  // CHECK-FIXES: {{^}}      atomicExch(inner, 0);
  // CHECK-NOTES: :[[@LINE-5]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-6]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter + 1;
  __threadfence();
  atomicExch(inner, 0);
  atomicExch(outer, 0);
}

__global__ void acquire_helper_then_syncwarp(int *lock, float *data) {
  acquire(lock);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: spin lock taken per lane with 'atomicCAS' hangs: lanes of one warp contend for it and the critical section waits for lanes that are still spinning [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+5]]:3: note: this synchronizes lanes while others of the warp spin on the lock
  // CHECK-NOTES: :[[@LINE-399]]:3: note: the lock is taken by spinning here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE+2]]:3: note: consequence: hang: the section waits for lanes that spin on the lock
  data[threadIdx.x] *= 2.0f;
  __syncwarp();
  release(lock);
}

// --- More ways lanes of one warp meet at the lock ---------------------------

__global__ void spin_with_backoff_body(int *lock, int *counter) {
  while (atomicCAS(lock, 0, 1) != 0)
    __nanosleep(32);
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-4]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter + 1;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void spin_on_try_lock_helper(int *lock, int *counter) {
  while (!try_lock(lock))
    ;
  // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-3]]:11: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-4]]:11: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter + 1;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void first_warp_still_contends(int *lock, int *counter) {
  // threadIdx.x < 32 is warp-uniform: all 32 lanes of warp 0 spin together.
  if (threadIdx.x < 32) {
    while (atomicCAS(lock, 0, 1) != 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
    // CHECK-FIXES: {{^}}    for (bool warp_lock_done = false; !warp_lock_done;) {
    // CHECK-FIXES: {{^}}      if (!(atomicCAS(lock, 0, 1) != 0)) {
    // CHECK-FIXES: {{^}}        *counter = *counter + 3;
    // CHECK-NOTES: :[[@LINE-5]]:12: note: witness: every lane spins on the same lock word
    // CHECK-NOTES: :[[@LINE-6]]:12: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
    *counter = *counter + 3;
    __threadfence();
    atomicExch(lock, 0);
  }
}

__global__ void half_warp_contends(int *lock, int *counter) {
  const int lane = threadIdx.x % 32;
  // 16 lanes still meet at the lock.
  if (lane < 16) {
    while (atomicExch(lock, 1) != 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: spin lock taken per lane with 'atomicExch': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
    // CHECK-FIXES: {{^}}      if (!(atomicExch(lock, 1) != 0)) {
    // CHECK-FIXES: {{^}}        *counter = *counter * 5;
    // CHECK-NOTES: :[[@LINE-4]]:12: note: witness: every lane spins on the same lock word
    // CHECK-NOTES: :[[@LINE-5]]:12: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
    *counter = *counter * 5;
    __threadfence();
    atomicExch(lock, 0);
  }
}

__global__ void per_warp_lock_shared_by_its_lanes(int *locks, int *counters) {
  const int warp = threadIdx.x / 32;
  // threadIdx.x / 32 is the same for all lanes of a warp: they all take one lock.
  while (atomicCAS(&locks[warp], 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(&locks[warp], 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      counters[warp] = counters[warp] * 2 + 1;
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  counters[warp] = counters[warp] * 2 + 1;
  __threadfence();
  atomicExch(&locks[warp], 0);
}

__global__ void lock_shared_by_lane_pairs(int *locks, int *counters) {
  const int pair = threadIdx.x / 2;
  // Lanes 2k and 2k+1 take the same lock.
  while (atomicCAS(&locks[pair], 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp {{(may )?}}contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(&locks[pair], 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      counters[pair] = counters[pair] * 3;
  // CHECK-NOTES: :[[@LINE-4]]:10: note: potential: lanes whose lock words coincide contend for the lock
  // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  counters[pair] = counters[pair] * 3;
  __threadfence();
  atomicExch(&locks[pair], 0);
}

__global__ void volatile_store_release(int *lock, int *counter) {
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      *counter = *counter - 1;
  // CHECK-FIXES: {{^}}      *(volatile int *)lock = 0;
  // CHECK-NOTES: :[[@LINE-5]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-6]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter - 1;
  __threadfence();
  *(volatile int *)lock = 0;
}

template <typename T>
__global__ void templated_lock(int *lock, T *total, const T *in) {
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      *total = *total * 2 + in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *total = *total * 2 + in[threadIdx.x];
  __threadfence();
  atomicExch(lock, 0);
}
template __global__ void templated_lock<float>(int *, float *, const float *);
template __global__ void templated_lock<double>(int *, double *, const double *);

__global__ void activemask_collective_in_section_does_not_hang(int *lock, unsigned *out, const float *in) {
  // __activemask() names only the lanes here (the holder), so the ballot does not wait for spinning lanes:
  // a per-lane lock, not a definite hang.
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-FIXES: {{^}}    if (!(atomicCAS(lock, 0, 1) != 0)) {
  // CHECK-FIXES: {{^}}      *out |= __ballot_sync(__activemask(), in[threadIdx.x] > 0.0f);
  // CHECK-NOTES: :[[@LINE-4]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *out |= __ballot_sync(__activemask(), in[threadIdx.x] > 0.0f);
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void barrier_helper_in_critical_section(int *lock, float *data) {
  while (atomicCAS(lock, 0, 1) != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: spin lock taken per lane with 'atomicCAS' hangs: lanes of one warp contend for it and the critical section waits for lanes that are still spinning [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE+3]]:3: note: this synchronizes lanes while others of the warp spin on the lock
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE+1]]:3: note: consequence: hang: the section waits for lanes that spin on the lock
  block_barrier(data);
  __threadfence();
  atomicExch(lock, 0);
}

//===----------------------------------------------------------------------===//
// Part 2: must stay silent
//===----------------------------------------------------------------------===//

/// The CUDA Programming Guide's double atomicAdd: a lock-free CAS retry loop
/// (the expected value is the last one read, never a constant "free").
__device__ double atomic_add_double(double *address, double val) {
  unsigned long long *address_as_ull = (unsigned long long *)address;
  unsigned long long old = *address_as_ull, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_ull, assumed,
                    __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__global__ void double_add_emulation(double *sum, const double *in) {
  // Lock-free: a lane whose CAS fails retries with the value it read; no lane waits on another.
  atomic_add_double(&sum[blockIdx.x], in[blockIdx.x * blockDim.x + threadIdx.x]);
}

/// Float atomicMax through the integer CAS: lock-free.
__device__ float atomic_max_float(float *address, float val) {
  int *address_as_int = (int *)address;
  int old = *address_as_int;
  while (val > __int_as_float(old)) {
    const int assumed = old;
    old = atomicCAS(address_as_int, assumed, __float_as_int(val));
    if (old == assumed)
      break;
  }
  return __int_as_float(old);
}

__global__ void float_max_emulation(float *result, const float *in) {
  // Lock-free retry loop: some lane's CAS always succeeds, so the warp makes progress.
  atomic_max_float(&result[blockIdx.x], in[blockIdx.x * blockDim.x + threadIdx.x]);
}

__global__ void cas_push_onto_list(int *head, int *next) {
  const int me = blockIdx.x * blockDim.x + threadIdx.x;
  // A lock-free push: the CAS compares with the head this lane read.
  int old = *head;
  int seen;
  do {
    next[me] = old;
    seen = old;
    old = atomicCAS(head, seen, me);
  } while (old != seen);
}

__global__ void capped_increment(int *counter, int cap) {
  // A lock-free bounded increment: expected value is the last one seen.
  int old = *counter;
  while (old < cap) {
    const int prev = atomicCAS(counter, old, old + 1);
    if (prev == old)
      break;
    old = prev;
  }
}

__global__ void try_lock_without_spinning(int *lock, int *counter, int *skipped) {
  // A try-lock: a lane that loses does other work instead of waiting.
  if (atomicCAS(lock, 0, 1) == 0) {
    *counter = *counter + 1;
    __threadfence();
    atomicExch(lock, 0);
  } else {
    skipped[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  }
}

__global__ void lane_safe_loop_with_section_inside(int *lock, int *counter) {
  // The winner runs the section and releases inside the loop: the losers keep looping, no lane waits on a holder.
  for (bool warp_lock_done = false; !warp_lock_done;) {
    if (!(atomicCAS(lock, 0, 1) != 0)) {
      *counter += 1;
      __threadfence();
      atomicExch(lock, 0);
      warp_lock_done = true;
    }
  }
}

__global__ void lane_safe_while_not_done(int *lock, float *total, const float *in) {
  bool done = false;
  // Section and release inside the spin loop (the documented lane-safe form).
  while (!done) {
    if (atomicExch(lock, 1) == 0) {
      *total += in[threadIdx.x];
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    }
  }
}

__global__ void lane_zero_lock_then_syncwarp(int *lock, float *total, const float *in) {
  const int lane = threadIdx.x % 32;
  const float s = in[threadIdx.x];
  // Only lane 0 takes the lock: no lane of its warp competes with it.
  if (lane == 0) {
    while (atomicCAS(lock, 0, 1) != 0);
    *total += s;
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncwarp();
}

__global__ void thread_zero_lock_then_syncthreads(int *lock, int *counter) {
  // One thread per block takes the lock; the rest wait at the barrier.
  if (threadIdx.x == 0) {
    while (atomicExch(lock, 1) != 0);
    *counter = *counter + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncthreads();
}

__global__ void leader_per_warp_lock(int *lock, float *data) {
  const int lane = threadIdx.x % 32;
  // The leader-per-warp form: one lane acquires, the whole warp runs the section, the lane releases.
  if (lane == 0)
    acquire(lock);
  __syncwarp();
  data[lane] += 1.0f;
  __syncwarp();
  if (lane == 0)
    release(lock);
}

__global__ void tile_leader_lock(int *lock, int *counter) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  // thread_rank() == 0 is one lane of the tile.
  if (tile.thread_rank() == 0) {
    while (atomicCAS(lock, 0, 1) != 0);
    *counter = *counter + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
  tile.sync();
}

__global__ void grid_barrier_spin_by_one_thread(unsigned *arrived, int *data) {
  data[blockIdx.x * blockDim.x + threadIdx.x] += 1;
  __syncthreads();
  // One thread per block spins on a counter other blocks publish; no lane of its warp competes.
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(arrived, 1u);
    while (atomicCAS(arrived, gridDim.x, gridDim.x) != gridDim.x);
  }
  __syncthreads();
}

__global__ void decoupled_look_back_by_lane_zero(volatile int *flags, int *values, int *prefix) {
  const int lane = threadIdx.x % 32;
  // Lane 0 waits for the predecessor block's flag; the other lanes wait at __syncwarp.
  if (lane == 0 && blockIdx.x > 0) {
    while (flags[blockIdx.x - 1] == 0)
      ;
    prefix[blockIdx.x] = values[blockIdx.x - 1];
  }
  __syncwarp();
}

__global__ void per_lane_lock_indexed_by_thread(int *locks, int *slots) {
  // Each lane has its own lock: no two lanes of a warp compete.
  while (atomicCAS(&locks[threadIdx.x], 0, 1) != 0);
  slots[threadIdx.x] = slots[threadIdx.x] + 1;
  __threadfence();
  atomicExch(&locks[threadIdx.x], 0);
}

__global__ void per_lane_lock_indexed_by_global_id(int *locks, int *slots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // One lock per global thread index: distinct for the lanes of a warp.
  while (atomicExch(&locks[i], 1) != 0);
  slots[i] = slots[i] * 2;
  __threadfence();
  atomicExch(&locks[i], 0);
}

__global__ void acquire_helper_called_by_lane_zero(int *lock, int *counter) {
  const int lane = threadIdx.x & 31;
  // Only lane 0 of each warp calls the spinning helper.
  if (lane == 0) {
    acquire(lock);
    *counter = *counter + 1;
    release(lock);
  }
  __syncwarp();
}

__global__ void acquire_helper_on_per_lane_lock(int *locks, int *slots) {
  // The helper spins on a lock of this lane alone.
  acquire(&locks[threadIdx.x]);
  slots[threadIdx.x] += 1;
  release(&locks[threadIdx.x]);
}

__global__ void lane_safe_loop_with_release_helper(int *lock, int *counter) {
  bool done = false;
  // The release is inside the loop, through the helper: no lane leaves the loop holding the lock.
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) {
      *counter = *counter + 1;
      release(lock);
      done = true;
    }
  }
}

__global__ void lane_safe_loop_with_volatile_release(int *lock, int *counter) {
  bool done = false;
  // Released inside the loop by a volatile store after a fence.
  while (!done) {
    if (atomicExch(lock, 1) == 0) {
      *counter = *counter + 1;
      __threadfence();
      *(volatile int *)lock = 0;
      done = true;
    }
  }
}

__global__ void lock_by_activemask_leader(int *lock, int *counter) {
  const int lane = threadIdx.x % 32;
  const int leader = __ffs(__activemask()) - 1;
  // One lane (the lowest active one) takes the lock for the warp.
  if (lane == leader) {
    while (atomicCAS(lock, 0, 1) != 0);
    *counter = *counter + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncwarp(__activemask());
}

__global__ void coalesced_group_leader_lock(int *lock, int *counter, const int *flags) {
  if (flags[threadIdx.x]) {
    cg::coalesced_group g = cg::coalesced_threads();
    // thread_rank() == 0 is one lane of the group.
    if (g.thread_rank() == 0) {
      while (atomicCAS(lock, 0, 1) != 0);
      *counter = *counter + g.size();
      __threadfence();
      atomicExch(lock, 0);
    }
    g.sync();
  }
}

__global__ void lane_indexed_lock_by_lane_id(int *locks, int *slots) {
  const int lane = threadIdx.x % 32;
  // Indexed by the lane id: 32 distinct locks for the 32 lanes.
  while (atomicCAS(&locks[lane], 0, 1) != 0);
  slots[lane] = slots[lane] + 1;
  __threadfence();
  atomicExch(&locks[lane], 0);
}

/// Takes the block's lock from thread 0 only, then lets the block through.
__device__ void block_lock_by_thread_zero(int *lock) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
  }
  __syncthreads();
}

__global__ void block_lock_helper(int *lock, int *counter) {
  // Thread 0 alone spins inside the helper.
  block_lock_by_thread_zero(lock);
  if (threadIdx.x == 0) {
    *counter = *counter + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// libcu++: the lane-safe loop (the release is inside the loop).
__global__ void libcuxx_lane_safe_lock(float *total, const float *in) {
  const float v = in[threadIdx.x];
  for (bool done = false; !done;) {
    if (g_cu_lock.exchange(1, cuda::memory_order_acquire) == 0) {
      *total = *total * 0.5f + v;
      g_cu_lock.store(0, cuda::memory_order_release);
      done = true;
    }
  }
}

// libcu++: one lane per warp takes the lock.
__global__ void libcuxx_leader_lock(float *total, const float *in) {
  const float v = in[threadIdx.x];
  if (threadIdx.x % 32 == 0) {
    while (g_cu_lock.exchange(1, cuda::memory_order_acquire) != 0)
      ;
    *total += v;
    g_cu_lock.store(0, cuda::memory_order_release);
  }
  __syncwarp();
}

// libcu++: a lock-free retry loop writes a computed value, it takes no lock.
__global__ void libcuxx_cas_retry_loop(float *total, const float *in) {
  cuda::atomic_ref<float, cuda::thread_scope_device> ref(*total);
  float old = ref.load(cuda::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, old * 0.5f + in[threadIdx.x]))
    ;
}

// --- Claims that are not spin locks: each lock is tried once ---------------

// Each lane claims the first free row; a taken row is skipped, never waited
// for, so no lane spins on a lock another lane of its warp holds.
__global__ void claim_first_free_row(int *row_locks, int *owner, int rows) {
  for (int row = 0; row < rows; ++row) {
    if (atomicCAS(&row_locks[row], 0, 1) == 0) {
      owner[row] = blockIdx.x * blockDim.x + threadIdx.x;
      break;
    }
  }
}

__global__ void claim_slots_by_exchange(int *slots, int *claimed, int n) {
  int mine = -1;
  for (int s = threadIdx.x % 32; s < n && mine < 0; s += 32)
    if (atomicExch(&slots[s], 1) == 0)
      mine = s;
  claimed[blockIdx.x * blockDim.x + threadIdx.x] = mine;
}

// --- A bounded retry of one lock is still a spin lock ------------------------

__global__ void bounded_retry_same_lock(int *lock, int *counter) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    if (atomicCAS(lock, 0, 1) == 0)
      break;
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:9: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-4]]:9: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-5]]:9: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *counter = *counter + 1;
  __threadfence();
  atomicExch(lock, 0);
}

// The callers take turns, one lane per iteration (mallocMC's page-based
// allocation): no two lanes of a warp ever wait for the lock together.
__device__ unsigned turn_lock;
__device__ int *take_slot(int *pool) {
  while (atomicExch(&turn_lock, 1u) != 0u)
    ;
  int *slot = pool + pool[0]++;
  __threadfence();
  atomicExch(&turn_lock, 0u);
  return slot;
}
__global__ void lanes_take_turns(int *pool, int **out) {
  const unsigned mask = __activemask();
  unsigned below;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  const unsigned count = __popc(mask), rank = __popc(below & mask);
  int *mine = nullptr;
  for (unsigned turn = 0; turn < count; ++turn)
    if (turn == rank)
      mine = take_slot(pool);
  out[blockIdx.x * blockDim.x + threadIdx.x] = mine;
}

// A test-and-set lock: atomicOr sets the bit, the loop waits while it was
// already set; atomicAnd clears it (desul's lock array, Kokkos #4377).
__global__ void test_and_set_lock(unsigned *locks, float *sums, const float *in) {
  const unsigned slot = blockIdx.x % 8;
  while (atomicOr(&locks[slot], 1u) & 1u)
    ;
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: spin lock taken per lane with 'atomicOr': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-4]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  sums[slot] += in[blockIdx.x * blockDim.x + threadIdx.x];
  __threadfence();
  atomicAnd(&locks[slot], ~1u);
  // CHECK-FIXES: {{^}}  for (bool warp_lock_done = false; !warp_lock_done;) {
  // CHECK-FIXES: {{^}}    if (!(atomicOr(&locks[slot], 1u) & 1u)) {
  // CHECK-FIXES: {{^}}      atomicAnd(&locks[slot], ~1u);
  // CHECK-FIXES: {{^}}      warp_lock_done = true;
}

// A compare-and-swap behind a one-line wrapper (the OpenMP device runtime's
// lock): the constants come from the wrapper's call.
__device__ unsigned cas_word(unsigned *word, unsigned expected, unsigned desired) {
  return atomicCAS(word, expected, desired);
}
__global__ void lock_through_cas_wrapper(unsigned *lock, int *count) {
  while (cas_word(lock, 0u, 1u) != 0u)
    ;
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: spin lock taken per lane with 'atomicCAS': lanes of one warp contend for it, which deadlocks before Volta and on AMD GPUs and serializes the warp on Volta and later [warp-atomic-spinlock]
  // CHECK-NOTES: :[[@LINE-3]]:10: note: witness: every lane spins on the same lock word
  // CHECK-NOTES: :[[@LINE-4]]:10: note: consequence: portability: deadlocks before Volta and on AMD GPUs; on Volta and later the lanes take the lock one by one (about 45,000x slower than an atomic, measured on an H200)
  *count += 1;
  __threadfence();
  atomicExch(lock, 0u);
  // CHECK-FIXES: {{^}}    if (!(cas_word(lock, 0u, 1u) != 0u)) {
  // CHECK-FIXES: {{^}}      atomicExch(lock, 0u);
}

// Waiting for another thread's flag bit while setting one's own is no lock.
__global__ void wait_for_flag_bit(unsigned *flags, int *out) {
  while (atomicOr(flags, 2u) & 1u)
    ;
  out[threadIdx.x] = 1;
}

// An atomic whose result the loop ignores does not spin: an overflow flag
// set in a loop over elements (flashinfer's top-k refinement).
__global__ void overflow_flag_in_element_loop(unsigned *overflow, const int *in, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (in[i] > 255)
      atomicOr(overflow, 1u);
}

// A lock taken by a kernel run one thread per block: no lane of the same warp
// contends for it.
__global__ void append_under_lock_one_thread(int *lock, int *count) {
  while (atomicCAS(lock, 0, 1) != 0)
    ;
  *count = *count + 1;
  __threadfence();
  atomicExch(lock, 0);
}
void append_serially(int *lock, int *count, int blocks) {
  append_under_lock_one_thread<<<blocks, 1>>>(lock, count);
}
