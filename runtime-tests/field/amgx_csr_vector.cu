// Reproducer for the vector CSR SpMV kernel that AMGX vendors from CUSP
// (include/cusp/detail/device/spmv/csr_vector.h, spmv_csr_vector_kernel):
// THREADS_PER_VECTOR lanes share one row; two lanes stage the row bounds in
// volatile shared memory that the others read, and the partial sums are
// reduced through volatile shared memory, each lane reading a slot that
// another lane of the same warp writes in the same step, with no
// __syncwarp() anywhere. Written from the shape of that code for this
// report; see docs/field-reports.md.
//
//   field-amgx-csr-vector [--form=original|syncwarp|fixed|all] [--tpv=N]
//
// original: as written; syncwarp: __syncwarp(vector mask) after the bounds
// are staged, between each step's read and its write, and at the end of the
// row (the smallest change; the upper lanes still read slots of the next
// vector, as the padded original does); fixed: the same, with only the lanes
// whose sum is used reading and writing. The vector mask, not the full
// warp: vectors of one warp leave the row loop at different trips.
// Each form runs with 2, 4, 8, 16 and 32 threads per vector (or --tpv) on a
// 1000-row matrix with 0..2*tpv entries a row, 4 blocks of 128 threads, and
// is compared with the CPU product. Exit status: 0 when the syncwarp and
// fixed forms are right, 1 otherwise, 77 without a GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

enum Form { Original, Syncwarp, Fixed };
const char *const FormNames[] = {"original", "syncwarp", "fixed"};

constexpr int kThreadsPerBlock = 128;
constexpr int kBlocks = 4;

template <Form F, int TPV>
__global__ void csr_vector(int num_rows, const int *Ap, const int *Aj,
                           const float *Ax, const float *x, float *y) {
  constexpr int VPB = kThreadsPerBlock / TPV; // vectors per block
  __shared__ volatile float sdata[VPB * TPV + TPV / 2];
  __shared__ volatile int ptrs[VPB][2];
  const int thread_id = kThreadsPerBlock * blockIdx.x + threadIdx.x;
  const int thread_lane = threadIdx.x & (TPV - 1);
  const int vector_id = thread_id / TPV;
  const int vector_lane = threadIdx.x / TPV;
  const int num_vectors = VPB * gridDim.x;
  // The lanes of this thread's vector within its warp.
  const unsigned vmask = TPV == 32 ? 0xffffffffu
                                   : ((1u << TPV) - 1)
                                         << ((threadIdx.x % 32) & ~(TPV - 1));

  for (int row = vector_id; row < num_rows; row += num_vectors) {
    if (thread_lane < 2)
      ptrs[vector_lane][thread_lane] = Ap[row + thread_lane];
    if (F != Original)
      __syncwarp(vmask);
    const int row_start = ptrs[vector_lane][0];
    const int row_end = ptrs[vector_lane][1];

    float sum = 0;
    for (int jj = row_start + thread_lane; jj < row_end; jj += TPV)
      sum += Ax[jj] * x[Aj[jj]];

    sdata[threadIdx.x] = sum;
    if (F == Original) {
      if (TPV > 16)
        sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x + 16];
      if (TPV > 8)
        sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x + 8];
      if (TPV > 4)
        sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x + 4];
      if (TPV > 2)
        sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x + 2];
      if (TPV > 1)
        sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x + 1];
    } else {
      __syncwarp(vmask);
      for (int off = TPV / 2; off > 0; off /= 2) {
        const bool used = F == Syncwarp || thread_lane < off;
        const float other = used ? sdata[threadIdx.x + off] : 0.0f;
        __syncwarp(vmask);
        if (used)
          sdata[threadIdx.x] = sum = sum + other;
        __syncwarp(vmask);
      }
    }
    if (thread_lane == 0)
      y[row] = sdata[threadIdx.x];
    if (F != Original)
      __syncwarp(vmask);
  }
}

struct Csr {
  int rows = 0;
  std::vector<int> ap, aj;
  std::vector<float> ax, x;
};

Csr makeMatrix(int Rows, int MaxPerRow) {
  Csr A;
  A.rows = Rows;
  A.x.resize(Rows);
  for (int R = 0; R < Rows; ++R)
    A.x[R] = float(int((unsigned(R) * 40503u >> 7) % 9u) - 4);
  A.ap.push_back(0);
  unsigned Seed = 12345;
  auto Next = [&Seed] { return Seed = Seed * 1103515245u + 12345u; };
  for (int R = 0; R < Rows; ++R) {
    const int Len = int((Next() >> 16) % unsigned(MaxPerRow + 1));
    for (int K = 0; K < Len; ++K) {
      A.aj.push_back(int((Next() >> 8) % unsigned(Rows)));
      A.ax.push_back(float(int((Next() >> 16) % 7u) - 3));
    }
    A.ap.push_back(int(A.aj.size()));
  }
  return A;
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

template <typename T> bool upload(T *&D, const std::vector<T> &H) {
  CHECK(cudaMalloc(&D, (H.size() + 1) * sizeof(T)));
  if (!H.empty())
    CHECK(
        cudaMemcpy(D, H.data(), H.size() * sizeof(T), cudaMemcpyHostToDevice));
  return true;
}

template <Form F, int TPV> bool runOne(bool &Right) {
  const Csr A = makeMatrix(1000, 2 * TPV);
  int *Ap, *Aj;
  float *Ax, *X, *Y;
  if (!upload(Ap, A.ap) || !upload(Aj, A.aj) || !upload(Ax, A.ax) ||
      !upload(X, A.x))
    return false;
  CHECK(cudaMalloc(&Y, A.rows * sizeof(float)));
  CHECK(cudaMemset(Y, 0xEE, A.rows * sizeof(float)));
  csr_vector<F, TPV><<<kBlocks, kThreadsPerBlock>>>(A.rows, Ap, Aj, Ax, X, Y);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> Got(A.rows);
  CHECK(cudaMemcpy(Got.data(), Y, A.rows * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (void *P : {(void *)Ap, (void *)Aj, (void *)Ax, (void *)X, (void *)Y})
    cudaFree(P);
  int Bad = 0, First = -1;
  float FirstGot = 0, FirstWant = 0;
  for (int R = 0; R < A.rows; ++R) {
    float Want = 0;
    for (int K = A.ap[R]; K < A.ap[R + 1]; ++K)
      Want += A.ax[K] * A.x[A.aj[K]];
    if (Got[R] != Want && Bad++ == 0) {
      First = R;
      FirstGot = Got[R];
      FirstWant = Want;
    }
  }
  Right = Bad == 0;
  std::printf("FORM %s tpv=%d: %s (%d of %d rows differ", FormNames[F], TPV,
              Right ? "ok" : "WRONG", Bad, A.rows);
  if (First >= 0)
    std::printf("; y[%d] = %g, want %g", First, FirstGot, FirstWant);
  std::printf(")\n");
  return true;
}

template <Form F> bool runForm(int OnlyTpv, bool &AllRight) {
  bool Ok = true, Right = false;
  AllRight = true;
  auto One = [&](int Tpv, bool (*Fn)(bool &)) {
    if (OnlyTpv && OnlyTpv != Tpv)
      return;
    Ok = Fn(Right) && Ok;
    AllRight = AllRight && Right;
  };
  One(2, runOne<F, 2>);
  One(4, runOne<F, 4>);
  One(8, runOne<F, 8>);
  One(16, runOne<F, 16>);
  One(32, runOne<F, 32>);
  return Ok;
}

} // namespace

int main(int argc, char **argv) {
  std::string Which = "all";
  int Tpv = 0;
  for (int I = 1; I < argc; ++I) {
    if (std::strncmp(argv[I], "--form=", 7) == 0)
      Which = argv[I] + 7;
    else if (std::strncmp(argv[I], "--tpv=", 6) == 0)
      Tpv = std::atoi(argv[I] + 6);
  }
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp Prop{};
  cudaGetDeviceProperties(&Prop, 0);
  std::printf("DEVICE %s sm_%d%d\n", Prop.name, Prop.major, Prop.minor);
  bool Ok = true, Right = false;
  if (Which == "all" || Which == "fixed")
    Ok = runForm<Fixed>(Tpv, Right) && Right && Ok;
  if (Which == "all" || Which == "syncwarp")
    Ok = runForm<Syncwarp>(Tpv, Right) && Right && Ok;
  if (Which == "all" || Which == "original")
    runForm<Original>(Tpv, Right); // recorded, not required
  std::printf("RESULT %s\n", Ok ? "fixed forms right" : "FIXED FORM WRONG");
  return Ok ? 0 : 1;
}
