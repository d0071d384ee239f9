// warp-atomic-spinlock: two per-lane locks in one kernel, each rewritten
// into its own lane-safe loop.
__global__ void two_locks(int *lock, int *counter, int *other_lock, int *other) {
  while (atomicCAS(lock, 0, 1) != 0); // SITE(warp-atomic-spinlock)
  *counter += 1;
  __threadfence();
  atomicExch(lock, 0);
  while (atomicCAS(other_lock, 0, 1) != 0); // SITE(warp-atomic-spinlock)
  *other += 2;
  __threadfence();
  atomicExch(other_lock, 0);
}
