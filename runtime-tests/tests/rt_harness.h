// rt_harness.h - runs one pattern's kernel on the GPU under a watchdog and
// checks its outputs against a CPU reference.
//
// A hung kernel cannot be cancelled and a hung or faulted CUDA context cannot
// be recovered in-process, so:
//  - fixed kernels run in the test process; on a hang the watchdog reports it
//    and ends the process (exit 124) instead of waiting forever;
//  - buggy kernels, which may hang or fault, run in a child process
//    (this binary re-executed with --rt-child=<pattern>) that the test
//    kills when its deadline passes.
#pragma once

#include "rt_launch.h"

#include <string>
#include <vector>

namespace rt {

/// How one launch ended.
enum class Outcome { Ok, Wrong, Hang, CudaError };
const char *outcomeName(Outcome O);

struct Config {
  int n;
  int block;
};
/// Full and partial warps, block sizes 32/96/128 and a partial last block.
std::vector<Config> defaultConfigs();

/// Host mirror of every RtArgs buffer for one config. Outputs start poisoned.
struct HostIO {
  Config cfg{};
  int grid = 0;
  std::vector<float> in_f;
  std::vector<int> in_i;
  std::vector<float> out_f;
  std::vector<int> out_i;
  std::vector<unsigned> out_u;
  std::vector<int> counter;
  int lock = 0;
  int warps() const { return (cfg.n + 31) / 32; } // warps holding elements
};

constexpr unsigned kPoison = 0xDEADBEEFu;
bool isPoisonF(float F);

/// One pattern: its buggy and fixed launchers and its value-level oracle.
struct Pattern {
  const char *id;    // the launcher's name
  const char *check; // warp-<id>
  RtLauncher buggy;
  RtLauncher fixed;
  void (*init)(HostIO &); // outputs that must not arrive poisoned
  std::string (*verify)(const HostIO &); // "" when outputs match the reference
};

struct PatternRegistrar {
  explicit PatternRegistrar(const Pattern &P);
};
const Pattern *findPattern(const std::string &Id);

/// Where a pattern's fixed source came from: "tool" (warp-lint --fix at build
/// time) or "hand" (kernels/<check>/fixed/), and the designed fix kind.
std::string fixSource(const std::string &Id);

struct CaseResult {
  Outcome outcome = Outcome::Ok;
  std::string detail;
};
/// Runs `L` on `C` with the watchdog; never returns on a hang when
/// `exitOnHang` (the context is lost), else returns Outcome::Hang.
CaseResult runCase(const Pattern &P, RtLauncher L, const Config &C,
                   bool exitOnHang);

/// Empty when a device is usable, else the reason; prints the device once.
std::string gpuUnavailableReason();

void runFixedTest(const char *Id);
void runBuggyTest(const char *Id);
/// Child mode (`--rt-child=<id>`, or `--rt-child-fixed=<id>` when `Fixed`):
/// runs the buggy (fixed) variant on every config, one `RT-CASE` line each,
/// then `RT-DONE`. Returns the process exit code: 0, or 1 when a fixed
/// variant does not match its reference.
int childMain(const std::string &Id, bool Fixed);

std::string describe(const Config &C);

} // namespace rt

/// Registers a pattern and its two tests, <Suite>.<Name>Fixed (in-process,
/// must be correct on every config) and <Suite>.<Name>Buggy (child process,
/// records what the bug does on this GPU).
#define RT_PATTERN(Suite, Name, Id, Check, Init, Verify)                       \
  namespace buggy {                                                            \
  void Id(const RtArgs &, cudaStream_t);                                       \
  }                                                                            \
  namespace fixed {                                                            \
  void Id(const RtArgs &, cudaStream_t);                                       \
  }                                                                            \
  static const ::rt::PatternRegistrar rt_registrar_##Id(                       \
      ::rt::Pattern{#Id, Check, &buggy::Id, &fixed::Id, Init, Verify});        \
  TEST(Suite, Name##Fixed) { ::rt::runFixedTest(#Id); }                        \
  TEST(Suite, Name##Buggy) { ::rt::runBuggyTest(#Id); }
