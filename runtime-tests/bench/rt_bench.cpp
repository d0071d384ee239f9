// rt_bench.cpp - naive vs fixed cost of each runtime-test pattern on one GPU.
//
// Times the same launchers the tests check (so a tool-generated fix is what
// gets measured), with CUDA events, warm-up runs and the median of N runs,
// and prints a markdown table. Each launch has a watchdog: a hang ends the
// program after printing the rows done so far.
//
//   warp-lint-runtime-bench [--runs=N] [--n-log2=26] [--spin-n-log2=14]
//                           [--only=SUBSTRING] [--block=256]

#include "rt_launch.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define RT_BENCH_PATTERNS(X)                                                   \
  X(dfm_early_return_reduce)                                                   \
  X(dfm_ballot_in_branch)                                                      \
  X(dfm_syncwarp_after_return)                                                 \
  X(dfm_helper_in_branch)                                                      \
  X(stale_activemask_before_branch)                                            \
  X(stale_ballot_wrong_side)                                                   \
  X(uaa_float_sum_global)                                                      \
  X(uaa_float_sum_shared)                                                      \
  X(uaa_int_slots_global)                                                      \
  X(uaa_int_slots_shared)                                                      \
  X(uaa_int_max_global)                                                        \
  X(uaa_int_max_shared)                                                        \
  X(spin_stats)                                                                \
  X(spin_single_rmw)
#define RT_DECLARE(Id) void Id(const RtArgs &, cudaStream_t);
namespace buggy {
RT_BENCH_PATTERNS(RT_DECLARE)
}
namespace fixed {
RT_BENCH_PATTERNS(RT_DECLARE)
}

namespace {

#define CHECK_CUDA(Expr)                                                       \
  do {                                                                         \
    const cudaError_t E_ = (Expr);                                             \
    if (E_ != cudaSuccess) {                                                   \
      fmt::print(stderr, "{}:{}: {}: {}\n", __FILE__, __LINE__, #Expr,         \
                 cudaGetErrorString(E_));                                      \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

enum class Size { Big, Spin };

struct Row {
  const char *check;
  const char *pattern;
  const char *naiveLabel; // what the buggy variant is
  RtLauncher naive;       // nullptr: not timed (it hangs)
  RtLauncher fixedL;
  Size size;
  bool minCounter; // counter[0] starts at a very negative value (atomicMax)
  const char *note;
};

const Row Rows[] = {
    {"warp-uniform-address-atomic", "float atomicAdd, global", "per-lane",
     buggy::uaa_float_sum_global, fixed::uaa_float_sum_global, Size::Big, false,
     "never aggregated by the compiler"},
    {"warp-uniform-address-atomic", "float atomicAdd, shared", "per-lane",
     buggy::uaa_float_sum_shared, fixed::uaa_float_sum_shared, Size::Big, false,
     ""},
    {"warp-uniform-address-atomic", "int atomicAdd(count,1) slots, global",
     "per-lane", buggy::uaa_int_slots_global, fixed::uaa_int_slots_global,
     Size::Big, false, "ptxas aggregates at -O3"},
    {"warp-uniform-address-atomic", "int atomicAdd(count,1) slots, shared",
     "per-lane", buggy::uaa_int_slots_shared, fixed::uaa_int_slots_shared,
     Size::Big, false, ""},
    {"warp-uniform-address-atomic", "int atomicMax, global", "per-lane",
     buggy::uaa_int_max_global, fixed::uaa_int_max_global, Size::Big, true, ""},
    {"warp-uniform-address-atomic", "int atomicMax, shared", "per-lane",
     buggy::uaa_int_max_shared, fixed::uaa_int_max_shared, Size::Big, true, ""},
    {"warp-atomic-spinlock", "CAS lock around 2-field update",
     "per-thread lock", buggy::spin_stats, fixed::spin_stats, Size::Spin, false,
     "fix keeps the lock (lane-safe loop)"},
    {"warp-atomic-spinlock", "CAS lock around counter += x", "per-thread lock",
     buggy::spin_single_rmw, fixed::spin_single_rmw, Size::Spin, false,
     "fix is atomicAdd"},
    {"warp-divergent-full-mask", "reduce after early return", "original",
     buggy::dfm_early_return_reduce, fixed::dfm_early_return_reduce, Size::Big,
     false, "fix: neutral value, no return"},
    {"warp-divergent-full-mask", "votes in if (lane < 16)", "original",
     buggy::dfm_ballot_in_branch, fixed::dfm_ballot_in_branch, Size::Big, false,
     "fix: ballot mask before the if"},
    {"warp-divergent-full-mask", "__syncwarp/ballot after return", "original",
     buggy::dfm_syncwarp_after_return, fixed::dfm_syncwarp_after_return,
     Size::Big, false, "fix: ballot of !cond before the return"},
    {"warp-divergent-full-mask", "helper warp_sum in branch", "original",
     nullptr, fixed::dfm_helper_in_branch, Size::Big, false,
     "original hangs on sm_90: not timed"},
    {"warp-stale-mask", "__activemask before if (lane % 2)", "original",
     buggy::stale_activemask_before_branch,
     fixed::stale_activemask_before_branch, Size::Big, false,
     "fix: ballot of the branch condition"},
    {"warp-stale-mask", "ballot of p used on !p side", "original", nullptr,
     fixed::stale_ballot_wrong_side, Size::Big, false,
     "fix: ~ballot; original faults on sm_90 (illegal instruction): not "
     "timed"},
};

struct Options {
  int runs = 21;
  int spinRuns = 5;
  int nLog2 = 26;
  // 2^18 threads of the naive per-thread lock outrun the watchdog on an
  // H200; 2^14 completes in seconds and still shows the serialization.
  int spinNLog2 = 14;
  int block = 256;
  double watchdog = 60;
  std::string only;
};

struct Buffers {
  RtArgs a;
  size_t capacity = 0;
};

/// Waits for `Stop` with a deadline; returns false when the kernel is still
/// running at the deadline (a hang: the context cannot be used again).
bool waitOrHang(cudaEvent_t Stop, double Seconds, const char *What) {
  const auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(Seconds);
  for (;;) {
    const cudaError_t E = cudaEventQuery(Stop);
    if (E == cudaSuccess)
      return true;
    if (E != cudaErrorNotReady) {
      fmt::print("\n{}: kernel failed: {}\n", What, cudaGetErrorString(E));
      std::fflush(stdout);
      std::_Exit(1);
    }
    if (std::chrono::steady_clock::now() > Deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

/// Median milliseconds of `Runs` timed launches after warm-up, or a negative
/// value when a launch hung.
double timeLauncher(RtLauncher L, Buffers &B, int N, bool MinCounter, int Runs,
                    const Options &O, const char *What, cudaStream_t S) {
  RtArgs A = B.a;
  A.n = N;
  A.block = O.block;
  A.grid = (N + O.block - 1) / O.block;
  cudaEvent_t Start, Stop;
  CHECK_CUDA(cudaEventCreate(&Start));
  CHECK_CUDA(cudaEventCreate(&Stop));
  std::vector<double> Ms;
  const int Warmup = Runs > 5 ? 3 : 1;
  for (int R = 0; R < Warmup + Runs; ++R) {
    CHECK_CUDA(
        cudaMemsetAsync(A.counter, MinCounter ? 0x80 : 0, 64 * sizeof(int), S));
    CHECK_CUDA(cudaMemsetAsync(A.out_f, 0, 64 * sizeof(float), S));
    CHECK_CUDA(cudaMemsetAsync(A.lock, 0, sizeof(int), S));
    CHECK_CUDA(cudaEventRecord(Start, S));
    L(A, S);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(Stop, S));
    if (!waitOrHang(Stop, O.watchdog, What))
      return -1;
    float Elapsed = 0;
    CHECK_CUDA(cudaEventElapsedTime(&Elapsed, Start, Stop));
    if (R >= Warmup)
      Ms.push_back(Elapsed);
  }
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  std::sort(Ms.begin(), Ms.end());
  return Ms[Ms.size() / 2];
}

void printDevice() {
  int Dev = 0, Driver = 0, Runtime = 0;
  CHECK_CUDA(cudaGetDevice(&Dev));
  cudaDeviceProp P{};
  CHECK_CUDA(cudaGetDeviceProperties(&P, Dev));
  CHECK_CUDA(cudaDriverGetVersion(&Driver));
  CHECK_CUDA(cudaRuntimeGetVersion(&Runtime));
  fmt::print("- GPU: {} (sm_{}{}, {} SMs, {:.1f} GiB)\n", P.name, P.major,
             P.minor, P.multiProcessorCount,
             double(P.totalGlobalMem) / (1 << 30));
  fmt::print("- CUDA driver API version: {}.{}; runtime: {}.{} (static)\n",
             Driver / 1000, (Driver % 1000) / 10, Runtime / 1000,
             (Runtime % 1000) / 10);
}

} // namespace

int main(int argc, char **argv) {
  Options O;
  for (int I = 1; I < argc; ++I) {
    const std::string Arg = argv[I];
    auto Value = [&](const char *Key) -> const char * {
      const size_t Len = std::strlen(Key);
      return Arg.compare(0, Len, Key) == 0 ? argv[I] + Len : nullptr;
    };
    if (const char *V = Value("--runs="))
      O.runs = std::atoi(V);
    else if (const char *V = Value("--n-log2="))
      O.nLog2 = std::atoi(V);
    else if (const char *V = Value("--spin-n-log2="))
      O.spinNLog2 = std::atoi(V);
    else if (const char *V = Value("--block="))
      O.block = std::atoi(V);
    else if (const char *V = Value("--only="))
      O.only = V;
    else {
      fmt::print(stderr,
                 "usage: {} [--runs=N] [--n-log2=K] [--spin-n-log2=K] "
                 "[--block=B] [--only=SUBSTRING]\n",
                 argv[0]);
      return 2;
    }
  }
  int Count = 0;
  if (cudaError_t E = cudaGetDeviceCount(&Count); E != cudaSuccess || !Count) {
    fmt::print("no CUDA device: {}\n", cudaGetErrorString(E));
    return 0;
  }

  const size_t N = size_t(1) << O.nLog2;
  const size_t Cap = N + 2 * size_t(O.block) + 64;
  Buffers B;
  float *InF, *OutF;
  int *InI, *OutI, *Counter, *Lock;
  unsigned *OutU;
  CHECK_CUDA(cudaMalloc(&InF, Cap * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&InI, Cap * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&OutF, Cap * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&OutI, Cap * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&OutU, Cap * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&Counter, 64 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&Lock, sizeof(int)));
  {
    std::vector<int> HI(Cap);
    std::vector<float> HF(Cap);
    for (size_t K = 0; K < Cap; ++K) {
      HI[K] = int(((unsigned(K) * 2654435761u) >> 11) % 15u) - 5;
      HF[K] = float(HI[K]);
    }
    CHECK_CUDA(
        cudaMemcpy(InI, HI.data(), Cap * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(InF, HF.data(), Cap * sizeof(float),
                          cudaMemcpyHostToDevice));
  }
  B.a.in_f = InF;
  B.a.in_i = InI;
  B.a.out_f = OutF;
  B.a.out_i = OutI;
  B.a.out_u = OutU;
  B.a.counter = Counter;
  B.a.lock = Lock;
  B.capacity = Cap;
  cudaStream_t S;
  CHECK_CUDA(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));

  fmt::print("# warp-lint runtime benchmark\n\n");
  printDevice();
  fmt::print("- block {}, median of {} runs ({} for spin locks) after "
             "warm-up, CUDA events; n = 2^{} (spin locks 2^{})\n\n",
             O.block, O.runs, O.spinRuns, O.nLog2, O.spinNLog2);
  fmt::print("| check | pattern | n | naive/original ms | fixed ms | "
             "naive/fixed | note |\n");
  fmt::print("|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  // The spin-lock rows last: a hang there leaves a context that cannot run
  // the others.
  std::vector<const Row *> Order;
  for (const Row &R : Rows)
    if (R.size != Size::Spin)
      Order.push_back(&R);
  for (const Row &R : Rows)
    if (R.size == Size::Spin)
      Order.push_back(&R);
  for (const Row *RP : Order) {
    const Row &R = *RP;
    const std::string Name = std::string(R.check) + " " + R.pattern;
    if (!O.only.empty() && Name.find(O.only) == std::string::npos)
      continue;
    const bool Spin = R.size == Size::Spin;
    const int RowN = int(size_t(1) << (Spin ? O.spinNLog2 : O.nLog2));
    const int Runs = Spin ? O.spinRuns : O.runs;
    const double Fixed =
        timeLauncher(R.fixedL, B, RowN, R.minCounter, Runs, O, Name.c_str(), S);
    const std::string Hung = fmt::format("hung (> {:.0f} s)", O.watchdog);
    std::string NaiveText = "n/a", Ratio = "n/a";
    double Naive = 0;
    if (Fixed >= 0 && R.naive) {
      Naive = timeLauncher(R.naive, B, RowN, R.minCounter, Runs, O,
                           Name.c_str(), S);
      if (Naive >= 0) {
        NaiveText = fmt::format("{:.3f} ({})", Naive, R.naiveLabel);
        Ratio = fmt::format("{:.2f}x", Naive / Fixed);
      } else {
        NaiveText = Hung;
      }
    }
    const std::string FixedText =
        Fixed >= 0 ? fmt::format("{:.3f}", Fixed) : Hung;
    fmt::print("| {} | {} | 2^{} | {} | {} | {} | {} |\n", R.check, R.pattern,
               Spin ? O.spinNLog2 : O.nLog2, NaiveText, FixedText, Ratio,
               R.note);
    std::fflush(stdout);
    if (Fixed < 0 || Naive < 0) {
      // A hang is a result (the row says so), not a failure of the run; the
      // hung context cannot run the rows after it.
      fmt::print("\nA kernel hung; a hung context cannot be recovered, so "
                 "the rows after it were not run.\n");
      std::fflush(stdout);
      std::_Exit(Fixed < 0 ? 124 : 0);
    }
  }
  fmt::print("\nFor the mask rows, naive/fixed below 1 is the fix's cost "
             "(expected within ~5%: ratio >= 0.95).\n");
  return 0;
}
