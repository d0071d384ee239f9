// warp-atomic-spinlock, libcu++ spelling, fixed: the lane-safe loop with the
// critical section inside, so no lane leaves the loop holding the lock.
// Outputs: counter[0] = n, counter[1] = sum of in_i.
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
  for (bool done = false; !done;) {
    if (guard.exchange(1, cuda::memory_order_acquire) == 0) {
      vstats[0] = vstats[0] + 1;
      vstats[1] = vstats[1] + in[i];
      guard.store(0, cuda::memory_order_release);
      done = true;
    }
  }
}

void spin_libcuxx_stats(const RtArgs &a, cudaStream_t s) {
  libcuxx_locked_stats<<<a.grid, a.block, 0, s>>>(a.in_i, a.counter, a.lock,
                                                  a.n);
}

} // namespace RT_NS
