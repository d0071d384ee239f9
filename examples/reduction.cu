// Block-wide sums with warp shuffles: two classic warp-synchronization bugs
// and the correct form. `warp-lint examples/reduction.cu` reports the first
// two kernels and stays silent on the third.
//
// Both bugs pass a full mask (all 32 lanes) to a shuffle that not all 32
// lanes reach. On Volta and later this is undefined behaviour: it may return
// garbage from exited lanes, complete by luck, or hang once the missing lanes
// wait at a __syncthreads(); compute-sanitizer's synccheck reports none of it.

#include <cuda_runtime.h>

constexpr unsigned kFullMask = 0xffffffffu;

/// Bug 1: the bounds check returns early, so in the last (partial) warp the
/// lanes with i >= n are gone when the others run the full-mask reduction.
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
/// 32 lanes; the upper half never arrives at the shuffles.
__global__ void sum_lower_half(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32;
  float v = in[i];
  if (lane < 16) {
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xffffffff, v, offset);
    out[i] = v;
  }
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
  cudaMallocManaged(&out, 3 * sizeof(float));
  for (int i = 0; i < n; ++i)
    in[i] = 1.0f;
  out[0] = out[1] = out[2] = 0.0f;
  sum_early_return<<<(n + 255) / 256, 256>>>(in, &out[0], n);
  sum_lower_half<<<1, 32>>>(in, &out[1]);
  sum_correct<<<(n + 255) / 256, 256>>>(in, &out[2], n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
