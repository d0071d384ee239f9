// rt_harness.cpp - watchdog, child-process isolation and the generic runner.

#include "rt_harness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace rt {

namespace {

#ifdef RT_DEBUG_KERNELS
constexpr const char *kBuildKind = "kernels built with -G";
constexpr long kDefaultMaxN = 1191;
#else
constexpr const char *kBuildKind = "kernels built with -O3";
constexpr long kDefaultMaxN = 1L << 30;
#endif

struct ManifestEntry {
  const char *id, *check, *fixedBy, *designed;
};
#define RT_MANIFEST_ENTRY(Id, Check, FixedBy, Designed)                        \
  ManifestEntry{Id, Check, FixedBy, Designed},
const ManifestEntry Manifest[] = {
#include "rt_manifest.inc"
};
#undef RT_MANIFEST_ENTRY

std::vector<Pattern> &registry() {
  static std::vector<Pattern> R;
  return R;
}

/// Seconds one launch may run before it counts as hung (RT_WATCHDOG_S).
double watchdogSeconds() {
  if (const char *S = std::getenv("RT_WATCHDOG_S"))
    if (double V = std::atof(S); V > 0)
      return V;
  return 10.0;
}

/// Poisoned NaN whose payload says "never written".
float poisonF() {
  float F;
  const unsigned Bits = 0x7fdeadbeu;
  std::memcpy(&F, &Bits, sizeof F);
  return F;
}

/// Polls the stream until it drains, fails, or the deadline passes.
Outcome waitWithDeadline(cudaStream_t S, double Seconds, std::string &Detail) {
  const auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(Seconds);
  for (;;) {
    const cudaError_t E = cudaStreamQuery(S);
    if (E == cudaSuccess)
      return Outcome::Ok;
    if (E != cudaErrorNotReady) {
      Detail = std::string("kernel failed: ") + cudaGetErrorName(E) + ": " +
               cudaGetErrorString(E);
      return Outcome::CudaError;
    }
    if (std::chrono::steady_clock::now() > Deadline) {
      std::ostringstream OS;
      OS << "kernel still running after " << Seconds << " s (watchdog)";
      Detail = OS.str();
      return Outcome::Hang;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

#define RT_TRY(Expr)                                                           \
  do {                                                                         \
    const cudaError_t E_ = (Expr);                                             \
    if (E_ != cudaSuccess)                                                     \
      return CaseResult{Outcome::CudaError, std::string(#Expr) + ": " +        \
                                                cudaGetErrorName(E_) + ": " +  \
                                                cudaGetErrorString(E_)};       \
  } while (0)

template <typename T> struct DeviceBuf {
  T *p = nullptr;
  ~DeviceBuf() {
    if (p)
      cudaFree(p);
  }
};

template <typename T>
cudaError_t upload(DeviceBuf<T> &D, const std::vector<T> &H) {
  if (cudaError_t E = cudaMalloc(&D.p, H.size() * sizeof(T)))
    return E;
  return cudaMemcpy(D.p, H.data(), H.size() * sizeof(T),
                    cudaMemcpyHostToDevice);
}

template <typename T>
cudaError_t download(std::vector<T> &H, const DeviceBuf<T> &D) {
  return cudaMemcpy(H.data(), D.p, H.size() * sizeof(T),
                    cudaMemcpyDeviceToHost);
}

HostIO makeInputs(const Config &C) {
  HostIO H;
  H.cfg = C;
  H.grid = (C.n + C.block - 1) / C.block;
  const size_t Threads = size_t(H.grid) * C.block;
  H.in_i.resize(C.n);
  H.in_f.resize(C.n);
  for (int K = 0; K < C.n; ++K) {
    // Small integers in [-5, 9]: zeros, negatives and positives in every
    // warp, and float sums that are exact in any order.
    const unsigned Hash = unsigned(K) * 2654435761u;
    H.in_i[K] = int((Hash >> 11) % 15u) - 5;
    H.in_f[K] = float(H.in_i[K]);
  }
  const size_t OutSize = 2 * Threads + 64;
  H.out_f.assign(OutSize, poisonF());
  H.out_i.assign(OutSize, int(kPoison));
  H.out_u.assign(OutSize, kPoison);
  H.counter.assign(64, 0);
  return H;
}

} // namespace

const char *outcomeName(Outcome O) {
  switch (O) {
  case Outcome::Ok:
    return "ok";
  case Outcome::Wrong:
    return "wrong";
  case Outcome::Hang:
    return "hang";
  case Outcome::CudaError:
    return "cuda-error";
  }
  return "?";
}

bool isPoisonF(float F) {
  unsigned Bits;
  std::memcpy(&Bits, &F, sizeof Bits);
  return Bits == 0x7fdeadbeu;
}

std::vector<Config> defaultConfigs() {
  // n = 32k and 32k+7 (a partial last warp), tiny grids, and 1184/1191 that
  // leave the last block of 96 or 128 threads partly empty.
  // RT_MAX_N drops the larger sizes (sanitizer runs are 10-100x slower;
  // -G kernels, and the serialising spin locks in them, are too).
  long MaxN = kDefaultMaxN;
  if (const char *S = std::getenv("RT_MAX_N"))
    if (long V = std::atol(S); V > 0)
      MaxN = V;
  std::vector<Config> Cs;
  for (int Block : {32, 96, 128})
    for (int N : {7, 32, 39, 1184, 1191, 4096 * 8 + 7})
      if (N <= MaxN)
        Cs.push_back({N, Block});
  return Cs;
}

std::string describe(const Config &C) {
  std::ostringstream OS;
  OS << "n=" << C.n << " block=" << C.block;
  return OS.str();
}

PatternRegistrar::PatternRegistrar(const Pattern &P) {
  registry().push_back(P);
}

const Pattern *findPattern(const std::string &Id) {
  for (const Pattern &P : registry())
    if (Id == P.id)
      return &P;
  return nullptr;
}

std::string fixSource(const std::string &Id) {
  for (const ManifestEntry &E : Manifest)
    if (Id == E.id)
      return std::string(E.fixedBy) == "TOOL"
                 ? "tool-generated by warp-lint --fix"
                 : std::string("hand-written (designed fix: ") + E.designed +
                       ")";
  return "not in manifest";
}

std::string gpuUnavailableReason() {
  static std::string Reason = [] {
    int Count = 0;
    const cudaError_t E = cudaGetDeviceCount(&Count);
    if (E != cudaSuccess)
      return std::string("no CUDA device: ") + cudaGetErrorString(E);
    if (Count == 0)
      return std::string("no CUDA device: device count is 0");
    cudaDeviceProp Prop{};
    cudaGetDeviceProperties(&Prop, 0);
    int Driver = 0, Runtime = 0;
    cudaDriverGetVersion(&Driver);
    cudaRuntimeGetVersion(&Runtime);
    std::cout << "[ DEVICE   ] " << Prop.name << " sm_" << Prop.major
              << Prop.minor << ", driver " << Driver / 1000 << "."
              << (Driver % 1000) / 10 << ", runtime " << Runtime / 1000 << "."
              << (Runtime % 1000) / 10 << ", watchdog " << watchdogSeconds()
              << " s, " << kBuildKind << "\n";
    if (Prop.major < 9)
      std::cout << "[ DEVICE   ] note: kernels are built for sm_90 only\n";
    return std::string();
  }();
  return Reason;
}

CaseResult runCase(const Pattern &P, RtLauncher L, const Config &C,
                   bool ExitOnHang) {
  HostIO H = makeInputs(C);
  if (P.init)
    P.init(H);

  DeviceBuf<float> InF, OutF;
  DeviceBuf<int> InI, OutI, Counter, Lock;
  DeviceBuf<unsigned> OutU;
  RT_TRY(upload(InF, H.in_f));
  RT_TRY(upload(InI, H.in_i));
  RT_TRY(upload(OutF, H.out_f));
  RT_TRY(upload(OutI, H.out_i));
  RT_TRY(upload(OutU, H.out_u));
  RT_TRY(upload(Counter, H.counter));
  RT_TRY(upload(Lock, std::vector<int>{H.lock}));

  RtArgs A;
  A.n = C.n;
  A.block = C.block;
  A.grid = H.grid;
  A.in_f = InF.p;
  A.in_i = InI.p;
  A.out_f = OutF.p;
  A.out_i = OutI.p;
  A.out_u = OutU.p;
  A.counter = Counter.p;
  A.lock = Lock.p;

  cudaStream_t S;
  RT_TRY(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  L(A, S);
  RT_TRY(cudaGetLastError());
  std::string Detail;
  const Outcome O = waitWithDeadline(S, watchdogSeconds(), Detail);
  if (O == Outcome::Hang) {
    if (ExitOnHang) {
      std::cout << "[ HANG     ] " << P.id << " " << describe(C) << ": "
                << Detail
                << "; a hung CUDA context cannot be recovered in-process, "
                   "ending the test program (exit 124)"
                << std::endl;
      std::_Exit(124);
    }
    // cudaFree would wait for the hung kernel: the stream and the buffers
    // leak with the context.
    InF.p = OutF.p = nullptr;
    InI.p = OutI.p = Counter.p = Lock.p = nullptr;
    OutU.p = nullptr;
    return {O, Detail};
  }
  if (O != Outcome::Ok)
    return {O, Detail};
  cudaStreamDestroy(S);

  RT_TRY(download(H.out_f, OutF));
  RT_TRY(download(H.out_i, OutI));
  RT_TRY(download(H.out_u, OutU));
  RT_TRY(download(H.counter, Counter));
  std::string Why = P.verify(H);
  if (!Why.empty())
    return {Outcome::Wrong, Why};
  return {};
}

void runFixedTest(const char *Id) {
  const Pattern *P = findPattern(Id);
  ASSERT_NE(P, nullptr) << Id;
  if (std::string Why = gpuUnavailableReason(); !Why.empty())
    GTEST_SKIP() << Why;
  std::cout << "[ FIXED    ] " << Id << " (" << P->check << ") fix "
            << fixSource(Id) << "\n";
  int Passed = 0;
  const std::vector<Config> Cs = defaultConfigs();
  for (const Config &C : Cs) {
    const CaseResult R = runCase(*P, P->fixed, C, /*ExitOnHang=*/true);
    EXPECT_EQ(R.outcome, Outcome::Ok)
        << Id << " fixed, " << describe(C) << ": " << outcomeName(R.outcome)
        << ": " << R.detail;
    if (R.outcome == Outcome::CudaError)
      return; // the context may be poisoned; later configs prove nothing
    Passed += R.outcome == Outcome::Ok;
  }
  std::cout << "[ FIXED    ] " << Id << ": " << Passed << "/" << Cs.size()
            << " configs match the CPU reference\n";
}

namespace {

struct ChildRun {
  std::string output;
  bool finished = false; // printed RT-DONE
  bool killed = false;   // deadline passed before RT-DONE
  bool reaped = false;   // killed after RT-DONE: a hung or faulted context
                         // can keep the process from exiting for minutes
  int status = 0;
};

/// Seconds a child that printed RT-DONE gets to exit before it is killed.
constexpr double kExitGraceSeconds = 5.0;

/// Re-executes this binary in child mode; kills it at the deadline.
ChildRun spawnChild(const std::string &Id, double Seconds) {
  ChildRun Run;
  char Self[4096];
  const ssize_t Len = readlink("/proc/self/exe", Self, sizeof Self - 1);
  if (Len <= 0) {
    Run.output = "cannot find /proc/self/exe";
    return Run;
  }
  Self[Len] = 0;
  int Pipe[2];
  if (pipe(Pipe) != 0) {
    Run.output = "pipe failed";
    return Run;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&Actions, Pipe[0]);
  const std::string Arg = "--rt-child=" + Id;
  char *Argv[] = {Self, const_cast<char *>(Arg.c_str()), nullptr};
  pid_t Pid;
  const int Err = posix_spawn(&Pid, Self, &Actions, nullptr, Argv, environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  if (Err != 0) {
    close(Pipe[0]);
    Run.output = std::string("posix_spawn: ") + std::strerror(Err);
    return Run;
  }
  auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(Seconds);
  bool Done = false;
  char Buf[4096];
  for (;;) {
    const auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          Deadline - std::chrono::steady_clock::now())
                          .count();
    if (Left <= 0) {
      kill(Pid, SIGKILL);
      (Done ? Run.reaped : Run.killed) = true;
      break;
    }
    pollfd Fd{Pipe[0], POLLIN, 0};
    if (poll(&Fd, 1, int(std::min<long long>(Left, 1000))) > 0) {
      const ssize_t Got = read(Pipe[0], Buf, sizeof Buf);
      if (Got <= 0)
        break; // EOF: the child closed stdout (exited)
      Run.output.append(Buf, size_t(Got));
      if (!Done && Run.output.find("RT-DONE") != std::string::npos) {
        // Everything is reported; a child whose kernel hung cannot exit
        // until its context is torn down, so it gets a short grace.
        Done = true;
        Deadline = std::min(
            Deadline, std::chrono::steady_clock::now() +
                          std::chrono::duration<double>(kExitGraceSeconds));
      }
    }
  }
  close(Pipe[0]);
  waitpid(Pid, &Run.status, 0);
  Run.finished = Run.output.find("RT-DONE") != std::string::npos;
  return Run;
}

} // namespace

void runBuggyTest(const char *Id) {
  const Pattern *P = findPattern(Id);
  ASSERT_NE(P, nullptr) << Id;
  if (std::string Why = gpuUnavailableReason(); !Why.empty())
    GTEST_SKIP() << Why;
  const size_t NConfigs = defaultConfigs().size();
  // A hang ends the child at its first hung config; the margin covers
  // context creation and module loading.
  const double Deadline = 2 * watchdogSeconds() + 0.5 * NConfigs + 60;
  const ChildRun Run = spawnChild(Id, Deadline);

  std::map<std::string, int> Counts;
  std::string FirstBad;
  std::istringstream Lines(Run.output);
  for (std::string Line; std::getline(Lines, Line);) {
    if (Line.rfind("RT-CASE ", 0) != 0)
      continue;
    const size_t At = Line.find("outcome=");
    const std::string Rest = At == std::string::npos ? "" : Line.substr(At + 8);
    const std::string Name = Rest.substr(0, Rest.find(' '));
    ++Counts[Name];
    if (Name != "ok" && FirstBad.empty())
      FirstBad = Line.substr(8);
  }

  std::string Summary;
  if (Counts["hang"])
    Summary = "HANG observed: " + FirstBad;
  else if (Run.killed)
    Summary = "HANG observed: child killed after its deadline";
  else if (Counts["cuda-error"])
    Summary = "CUDA ERROR observed: " + FirstBad;
  else if (Counts["wrong"])
    Summary = "WRONG VALUES observed on " + std::to_string(Counts["wrong"]) +
              " of " + std::to_string(NConfigs) +
              " configs; first: " + FirstBad;
  else if (!Run.finished && WIFSIGNALED(Run.status))
    Summary = "child died of signal " + std::to_string(WTERMSIG(Run.status));
  else if (Run.finished && Counts["ok"] == int(NConfigs))
    Summary = "silent on this GPU: all " + std::to_string(NConfigs) +
              " configs match the CPU reference";
  else
    Summary = "incomplete run";

  std::cout << "[ BUGGY    ] " << Id << " (" << P->check << "): " << Summary
            << "\n";
  ::testing::Test::RecordProperty("buggy_outcome", Summary);
  // The buggy kernel may do anything; only a broken harness fails the test.
  EXPECT_TRUE(Run.finished || Run.killed || Run.reaped || Counts["hang"] ||
              Counts["cuda-error"] || WIFSIGNALED(Run.status))
      << "child produced no result; output:\n"
      << Run.output;
}

int childMain(const std::string &Id, bool Fixed) {
  const Pattern *P = findPattern(Id);
  if (!P) {
    std::cout << "RT-ERROR unknown pattern " << Id << std::endl;
    return 2;
  }
  if (std::string Why = gpuUnavailableReason(); !Why.empty()) {
    std::cout << "RT-ERROR " << Why << std::endl;
    return 2;
  }
  int Status = 0;
  for (const Config &C : defaultConfigs()) {
    const CaseResult R =
        runCase(*P, Fixed ? P->fixed : P->buggy, C, /*ExitOnHang=*/false);
    if (Fixed && R.outcome != Outcome::Ok)
      Status = 1;
    std::cout << "RT-CASE " << describe(C)
              << " outcome=" << outcomeName(R.outcome) << " " << R.detail
              << std::endl;
    if (R.outcome == Outcome::Hang || R.outcome == Outcome::CudaError) {
      // The context is lost; a kill is the only way out of a hung kernel.
      std::cout << "RT-DONE" << std::endl;
      std::_Exit(Fixed ? 1 : 0);
    }
  }
  std::cout << "RT-DONE" << std::endl;
  return Status;
}

} // namespace rt
