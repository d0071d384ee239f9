// Reproducer for the Q4/Q8 KV-cache quantizer of exllamav2
// (exllamav2_ext/cuda/cache_q.cuh, fp16_to_q): every lane of the warp packs
// its neighbours' codes with __shfl_down_sync(0x55555555, ...) and
// __shfl_down_sync(0x11111111, ...), so lanes the mask leaves out call the
// shuffle too (and the named lanes read lanes outside the mask). Written
// from the shape of that code for this report; see docs/field-reports.md.
//
//   field-exllamav2-cache-q [--form=original|fixed|all]
//
// A block of 256 threads quantizes 512 values (two per thread) to 4 or 8
// bits with one scale per 32 values (the max-abs of a half-warp), packs the
// codes with the shuffles into 32-bit words and stores words and scales.
// original: the masks as written; fixed: 0xffffffff (every lane calls the
// shuffles; only the lanes that store use the result). The outputs are
// compared with a CPU quantizer. The fixed form runs first, because a trap
// in the original form ends the CUDA context. Exit status: 0 when the fixed
// form is right, 1 otherwise, 77 without a GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kValues = 512; // per block
constexpr int kThreads = kValues / 2;
constexpr int kBlocks = 64;

__device__ __host__ inline int clampCode(int Q, int Hi) {
  return Q < 0 ? 0 : Q > Hi ? Hi : Q;
}

// Code of W in [0, 2 * Half - 1] for the group's max-abs A.
__device__ __host__ inline int code(float W, float A, float Half) {
  return clampCode(int(rintf(W / A * Half + Half)), int(2 * Half - 1));
}

template <int Bits, unsigned Mask1, unsigned Mask2>
__global__ void quantize(const float2 *in, unsigned *words, float *scales) {
  constexpr int PerWord = 32 / Bits;
  __shared__ unsigned q_buffer[kValues / PerWord];
  __shared__ float s_buffer[kValues / 32];
  const int t = threadIdx.x;
  const float2 w = in[blockIdx.x * kThreads + t];

  // Max-abs of each half-warp (32 values).
  float absmax = fmaxf(fabsf(w.x), fabsf(w.y));
  for (int off = 8; off > 0; off >>= 1)
    absmax = fmaxf(absmax, __shfl_xor_sync(0xffffffff, absmax, off));

  if (Bits == 4) {
    const unsigned q0 = code(w.x, absmax, 8.0f);
    const unsigned q1 = code(w.y, absmax, 8.0f);
    unsigned q = q0 | (q1 << 4);
    q |= __shfl_down_sync(Mask1, q, 1) << 8;
    q |= __shfl_down_sync(Mask2, q, 2) << 16;
    if (t % 4 == 0)
      q_buffer[t / 4] = q;
    if (t % 16 == 0)
      s_buffer[t / 16] = absmax / 8.0f;
  } else {
    const unsigned q0 = code(w.x, absmax, 128.0f);
    const unsigned q1 = code(w.y, absmax, 128.0f);
    unsigned q = q0 | (q1 << 8);
    q |= __shfl_down_sync(Mask1, q, 1) << 16;
    if (t % 2 == 0)
      q_buffer[t / 2] = q;
    if (t % 16 == 0)
      s_buffer[t / 16] = absmax / 128.0f;
  }
  __syncthreads();
  for (int k = t; k < kValues / PerWord; k += kThreads)
    words[blockIdx.x * (kValues / PerWord) + k] = q_buffer[k];
  if (t < kValues / 32)
    scales[blockIdx.x * (kValues / 32) + t] = s_buffer[t];
}

// The CPU quantizer: the same codes, packed in element order.
void reference(int Bits, const std::vector<float> &In,
               std::vector<unsigned> &Words, std::vector<float> &Scales) {
  const float Half = Bits == 4 ? 8.0f : 128.0f;
  const int PerWord = 32 / Bits;
  Words.assign(In.size() / PerWord, 0);
  Scales.assign(In.size() / 32, 0);
  for (size_t G = 0; G < In.size() / 32; ++G) {
    float A = 0;
    for (int K = 0; K < 32; ++K)
      A = std::fmax(A, std::fabs(In[32 * G + K]));
    Scales[G] = A / Half;
    for (int K = 0; K < 32; ++K) {
      const size_t E = 32 * G + K;
      Words[E / PerWord] |= unsigned(code(In[E], A, Half))
                            << (Bits * (E % PerWord));
    }
  }
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

template <int Bits, unsigned Mask1, unsigned Mask2>
bool runForm(const char *Form, const std::vector<float> &In, bool &Right) {
  const int PerWord = 32 / Bits;
  const size_t NWords = In.size() / PerWord, NScales = In.size() / 32;
  float2 *DIn = nullptr;
  unsigned *DWords = nullptr;
  float *DScales = nullptr;
  CHECK(cudaMalloc(&DIn, In.size() * sizeof(float)));
  CHECK(cudaMalloc(&DWords, NWords * sizeof(unsigned)));
  CHECK(cudaMalloc(&DScales, NScales * sizeof(float)));
  CHECK(cudaMemcpy(DIn, In.data(), In.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemset(DWords, 0xEE, NWords * sizeof(unsigned)));
  CHECK(cudaMemset(DScales, 0xEE, NScales * sizeof(float)));
  quantize<Bits, Mask1, Mask2><<<kBlocks, kThreads>>>(DIn, DWords, DScales);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> Words(NWords), WantWords;
  std::vector<float> Scales(NScales), WantScales;
  CHECK(cudaMemcpy(Words.data(), DWords, NWords * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(Scales.data(), DScales, NScales * sizeof(float),
                   cudaMemcpyDeviceToHost));
  cudaFree(DIn);
  cudaFree(DWords);
  cudaFree(DScales);
  reference(Bits, In, WantWords, WantScales);
  size_t BadWords = 0, BadScales = 0, First = NWords;
  for (size_t K = 0; K < NWords; ++K)
    if (Words[K] != WantWords[K] && BadWords++ == 0)
      First = K;
  for (size_t K = 0; K < NScales; ++K)
    BadScales += Scales[K] != WantScales[K];
  Right = BadWords == 0 && BadScales == 0;
  std::printf("FORM %s Q%d: %s (%zu of %zu words, %zu of %zu scales differ",
              Form, Bits, Right ? "ok" : "WRONG", BadWords, NWords, BadScales,
              NScales);
  if (First < NWords)
    std::printf("; word %zu = 0x%08x, want 0x%08x", First, Words[First],
                WantWords[First]);
  std::printf(")\n");
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string Which = "all";
  for (int I = 1; I < argc; ++I)
    if (std::strncmp(argv[I], "--form=", 7) == 0)
      Which = argv[I] + 7;
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp Prop{};
  cudaGetDeviceProperties(&Prop, 0);
  std::printf("DEVICE %s sm_%d%d\n", Prop.name, Prop.major, Prop.minor);
  // Integers in [-7, 7] (no code lands on a rounding tie).
  std::vector<float> In(size_t(kBlocks) * kValues);
  for (size_t K = 0; K < In.size(); ++K)
    In[K] = float(int((unsigned(K) * 2654435761u >> 13) % 15u) - 7);
  bool Ok = true, Right = false;
  if (Which == "all" || Which == "fixed") {
    Ok = runForm<4, 0xffffffffu, 0xffffffffu>("fixed", In, Right) && Right;
    Ok =
        runForm<8, 0xffffffffu, 0xffffffffu>("fixed", In, Right) && Right && Ok;
  }
  if (Which == "all" || Which == "original") {
    // The buggy form last: a trap ends the context. Recorded, not required.
    if (runForm<4, 0x55555555u, 0x11111111u>("original", In, Right))
      runForm<8, 0x55555555u, 0x11111111u>("original", In, Right);
  }
  std::printf("RESULT %s\n", Ok ? "fixed form right" : "FIXED FORM WRONG");
  return Ok ? 0 : 1;
}
