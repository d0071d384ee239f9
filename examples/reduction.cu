// Block-wide sums with warp shuffles and atomics: four classic warp-level
// bugs and the correct form. `warp-lint examples/reduction.cu` reports the
// four buggy kernels and stays silent on sum_correct.
//
// The first two are mask bugs that compute-sanitizer's synccheck does not
// report: a shuffle that reads lanes which have left the kernel (undefined
// values, 0 on an H100), and a full-mask shuffle in half a warp whose other
// half waits at __syncthreads() (the warp never meets: a hang).

#include <cuda_runtime.h>

constexpr unsigned kFullMask = 0xffffffffu;

/// Bug 1: the bounds check returns early, so in the last (partial) warp the
/// lanes with i >= n are gone when the others run the reduction, and the
/// shuffles read them: their values are undefined.
__global__ void sum_early_return(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}

/// Bug 2: only the lower half-warp sums its values, yet the mask names all
/// 32 lanes; the upper half waits at __syncthreads() instead, and the warp
/// never meets.
__global__ void sum_lower_half(const float *in, float *out) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32;
  float v = in[i];
  if (lane < 16) {
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xffffffff, v, offset);
    if (lane == 0)
      partial[threadIdx.x / 32] = v;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

/// Bug 3: every lane adds its float to the same address. Correct, but float
/// atomics are never aggregated by the compiler: 32 serialized updates per
/// warp (31.5x slower than a warp reduction on an H200).
__global__ void sum_per_lane_atomic(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(out, v);
}

/// Bug 4: a spin lock taken by each lane. Lanes of one warp contend for it:
/// it deadlocks before Volta and on AMD GPUs and serializes the warp on
/// newer ones.
__global__ void count_with_lock(int *lock, int *count) {
  while (atomicCAS(lock, 0, 1) != 0)
    ;
  *count = *count + 1;
  __threadfence();
  atomicExch(lock, 0);
}

/// Correct: every lane stays in the warp and contributes a neutral 0 when it
/// is out of range, so the full mask is true at the shuffle.
__global__ void sum_correct(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}

/// Host side, so that the file is a complete program nvcc can build.
int main() {
  const int n = 1000;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  int *counters;
  cudaMallocManaged(&out, 4 * sizeof(float));
  cudaMallocManaged(&counters, 2 * sizeof(int));
  counters[0] = counters[1] = 0;
  for (int i = 0; i < n; ++i)
    in[i] = 1.0f;
  out[0] = out[1] = out[2] = out[3] = 0.0f;
  sum_early_return<<<(n + 255) / 256, 256>>>(in, &out[0], n);
  sum_lower_half<<<1, 32>>>(in, &out[1]);
  sum_correct<<<(n + 255) / 256, 256>>>(in, &out[2], n);
  sum_per_lane_atomic<<<n / 200, 200>>>(in, &out[3]);
  count_with_lock<<<1, 64>>>(&counters[0], &counters[1]);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  cudaFree(counters);
  return 0;
}
