// Reproducer for the warp tail of mumax3's reduction macro (cuda/reduce.h):
// after the block-wide tree, the first warp finishes the reduction through a
// volatile pointer to shared memory with no __syncwarp() between the steps,
// relying on the warp running in lockstep. Written from the shape of that
// code for this report; see docs/field-reports.md.
//
//   field-mumax3-reduce [--form=original|steps|fixed|all] [--n=N]
//
// original: the volatile tail as it is; steps: __syncwarp() after each step
// (the smallest change); fixed: each step reads into a register,
// __syncwarp(), writes, __syncwarp() (the CUDA Programming Guide's form).
// Every form computes a sum and a max-abs over n elements with the launch
// mumax3 uses (8 blocks of 512 threads, grid-stride loop, one atomic per
// block) and compares them with the CPU. Exit status: 0 when every form that
// must be right (steps, fixed) is right, 1 otherwise, 77 without a GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kBlock = 512;
constexpr int kGrid = 8;

enum Form { Original, Steps, Fixed };
const char *const FormNames[] = {"original", "steps", "fixed"};

struct Sum {
  static __device__ float load(float x) { return x; }
  static __device__ float op(float a, float b) { return a + b; }
  static __device__ void atomic(float *dst, float v) { atomicAdd(dst, v); }
};

struct MaxAbs {
  static __device__ float load(float x) { return fabsf(x); }
  static __device__ float op(float a, float b) { return fmaxf(a, b); }
  // Non-negative floats order like their bit patterns.
  static __device__ void atomic(float *dst, float v) {
    atomicMax(reinterpret_cast<int *>(dst), __float_as_int(v));
  }
};

template <Form F, typename R>
__global__ void reduce(const float *src, float *dst, float init, int n) {
  __shared__ float sdata[kBlock];
  const int tid = threadIdx.x;
  float mine = init;
  for (int i = blockIdx.x * blockDim.x + tid; i < n;
       i += gridDim.x * blockDim.x)
    mine = R::op(mine, R::load(src[i]));
  sdata[tid] = mine;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = R::op(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid < 32) {
    if (F == Original) {
      volatile float *smem = sdata;
      smem[tid] = R::op(smem[tid], smem[tid + 32]);
      smem[tid] = R::op(smem[tid], smem[tid + 16]);
      smem[tid] = R::op(smem[tid], smem[tid + 8]);
      smem[tid] = R::op(smem[tid], smem[tid + 4]);
      smem[tid] = R::op(smem[tid], smem[tid + 2]);
      smem[tid] = R::op(smem[tid], smem[tid + 1]);
    } else if (F == Steps) {
      volatile float *smem = sdata;
      for (int s = 32; s > 0; s >>= 1) {
        smem[tid] = R::op(smem[tid], smem[tid + s]);
        __syncwarp();
      }
    } else {
      float v = sdata[tid];
      for (int s = 32; s > 0; s >>= 1) {
        v = R::op(v, sdata[tid + s]);
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
      }
    }
  }
  if (tid == 0)
    R::atomic(dst, sdata[0]);
}

#define CHECK(Expr)                                                            \
  do {                                                                         \
    const cudaError_t E_ = (Expr);                                             \
    if (E_ != cudaSuccess) {                                                   \
      std::printf("CUDA ERROR %s: %s (%s)\n", #Expr, cudaGetErrorName(E_),     \
                  cudaGetErrorString(E_));                                     \
      return false;                                                            \
    }                                                                          \
  } while (0)

template <Form F> bool runForm(const std::vector<float> &Host, bool &Right) {
  const int N = int(Host.size());
  float *Src = nullptr, *Dst = nullptr;
  CHECK(cudaMalloc(&Src, N * sizeof(float)));
  CHECK(cudaMalloc(&Dst, 2 * sizeof(float)));
  CHECK(
      cudaMemcpy(Src, Host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  const float Init[2] = {0.0f, 0.0f};
  CHECK(cudaMemcpy(Dst, Init, sizeof Init, cudaMemcpyHostToDevice));
  reduce<F, Sum><<<kGrid, kBlock>>>(Src, Dst, 0.0f, N);
  CHECK(cudaGetLastError());
  reduce<F, MaxAbs><<<kGrid, kBlock>>>(Src, Dst + 1, 0.0f, N);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float Got[2];
  CHECK(cudaMemcpy(Got, Dst, sizeof Got, cudaMemcpyDeviceToHost));
  cudaFree(Src);
  cudaFree(Dst);
  double WantSum = 0;
  float WantMax = 0;
  for (float X : Host) {
    WantSum += X;
    WantMax = std::fmax(WantMax, std::fabs(X));
  }
  Right = Got[0] == float(WantSum) && Got[1] == WantMax;
  std::printf("FORM %s n=%d: sum %s (got %.1f, want %.1f), maxabs %s (got "
              "%.1f, want %.1f)\n",
              FormNames[F], N, Got[0] == float(WantSum) ? "ok" : "WRONG",
              Got[0], WantSum, Got[1] == WantMax ? "ok" : "WRONG", Got[1],
              WantMax);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string Which = "all";
  int N = 1 << 20;
  for (int I = 1; I < argc; ++I) {
    if (std::strncmp(argv[I], "--form=", 7) == 0)
      Which = argv[I] + 7;
    else if (std::strncmp(argv[I], "--n=", 4) == 0)
      N = std::atoi(argv[I] + 4);
  }
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp Prop{};
  cudaGetDeviceProperties(&Prop, 0);
  std::printf("DEVICE %s sm_%d%d\n", Prop.name, Prop.major, Prop.minor);
  // Small integers in [-5, 9]: sums are exact in any order.
  std::vector<float> Host(N);
  for (int K = 0; K < N; ++K)
    Host[K] = float(int((unsigned(K) * 2654435761u >> 11) % 15u) - 5);
  bool Ok = true, Right = false;
  if (Which == "all" || Which == "fixed") {
    Ok = runForm<Fixed>(Host, Right) && Right && Ok;
  }
  if (Which == "all" || Which == "steps") {
    Ok = runForm<Steps>(Host, Right) && Right && Ok;
  }
  if (Which == "all" || Which == "original") {
    // The buggy form: its outcome is recorded, not required.
    if (!runForm<Original>(Host, Right))
      std::printf("FORM original: CUDA error\n");
  }
  std::printf("RESULT %s\n", Ok ? "fixed forms right" : "FIXED FORM WRONG");
  return Ok ? 0 : 1;
}
