// warp-atomic-spinlock, libcu++ spelling: every thread spins on
// cuda::atomic_ref::exchange for a global lock, with the critical section
// after the spin loop. warp-lint's fix-it moves the section into the
// lane-safe loop, as for atomicCAS.
// Outputs: counter[0] = n, counter[1] = sum of in_i (both updated together
// under the lock, so no single atomic can replace the section).
#include "rt_launch.h"

#include <cuda/atomic>

namespace RT_NS {

__global__ void libcuxx_locked_stats(const int *in, int *stats, int *lock,
                                     int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  volatile int *vstats = stats;
  cuda::atomic_ref<int, cuda::thread_scope_device> guard(*lock);
  while (guard.exchange(1, cuda::memory_order_acquire) != 0)
    ;
  vstats[0] = vstats[0] + 1;
  vstats[1] = vstats[1] + in[i];
  guard.store(0, cuda::memory_order_release);
}

void spin_libcuxx_stats(const RtArgs &a, cudaStream_t s) {
  libcuxx_locked_stats<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.lock,
                                                  a.n);
}

} // namespace RT_NS
