//===--- AnalysisTestHarness.h - annotated CUDA snippets --------*- C++ -*-===//
//
// Unit tests of the warp-uniformity analysis in the style of clang's
// FlowSensitive unittests: a small CUDA snippet, with the expected facts
// written next to the code as calls of probe functions (declared in a prelude
// that the harness prepends):
//
//   uniform(x)       x is the same in every lane (given uniform arguments)
//   varying(x)       x may differ between lanes
//   lane_varying(x)  ... by construction (Variance::Lane)
//   data_varying(x)  ... only through data (Variance::Data)
//   launch_shape_varying(x)  ... only where a warp spans two rows of the
//                    block (threadIdx.y/z differ in it)
//   converged()      no varying branch controls this point
//   diverged()       some varying branch controls this point
//   lane_diverged()  ... and the strongest one is lane-derived
//   data_diverged()  ... and the strongest one is data-dependent
//   exited()         diverged because some lanes left (DivergentBranch::Exit)
//   single_lane()    at most one lane of a warp runs this point
//   not_single_lane()
//
// Snippet line numbers start at 1 (the prelude ends with `#line 1`), and each
// failure names the line and the probe.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_UNITTESTS_ANALYSIS_HARNESS_H
#define WARP_LINT_UNITTESTS_ANALYSIS_HARNESS_H

#include "analysis/WarpAnalysis.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang::warp::test {

/// The CUDA installation the snippets compile against, empty if none.
std::string cudaPath();

/// Whether WARP_LINT_RUN_KNOWN_MISSES is set: known misses then run (and
/// fail) instead of being skipped, to check a fix of the analysis.
bool runKnownMisses();

/// Skips a test that documents a confirmed analysis miss (see the
/// `// KNOWN MISS:` comment above it).
#define KNOWN_MISS(Reason)                                                     \
  if (!::clang::warp::test::runKnownMisses())                                  \
  GTEST_SKIP() << "KNOWN MISS: " << Reason

class AnalysisTest : public ::testing::Test {
public:
  /// The snippet line of \p S.
  unsigned lineOf(const Stmt *S) const;
  /// A readable description of \p V ("Lane varying (LaneId) from line 3").
  std::string describe(const WarpValue &V) const;
  std::string describe(const Divergence &D) const;

protected:
  void SetUp() override;
  void TearDown() override;

  /// Parses \p Code (after the probe prelude) as CUDA device code; a compile
  /// error fails the test and returns false.
  bool analyze(llvm::StringRef Code, UniformityOptions Opts = {});
  /// Parses \p Code (after the probe prelude) as analyze does, into a unit
  /// of its own; null (and a failure) when it does not compile.
  std::unique_ptr<ASTUnit> parse(llvm::StringRef Code);
  /// Compiler flags added to the next analyze (`-fgpu-rdc` for device-side
  /// launches).
  std::vector<std::string> ExtraFlags;
  /// Checks every probe call in every analysed function; returns how many
  /// probes were checked (a snippet without probes fails). Template patterns
  /// are checked only when \p InPatterns (their instantiations otherwise).
  unsigned checkProbes(bool InPatterns = false);
  /// Runs the analysis and the summary of every function definition,
  /// template patterns included (as the checks do for uninstantiated
  /// templates); returns how many were analysed.
  unsigned analyzeEveryDefinition();

  WarpAnalysis &analysis() { return *WA; }
  ASTContext &context() { return AST->getASTContext(); }
  /// The definition of the function named \p Name (the first instantiation
  /// of a template), failing the test if there is none.
  const FunctionDecl *function(llvm::StringRef Name);
  const FunctionUniformity *uniformity(llvm::StringRef Name);
  const FunctionSummary *summary(llvm::StringRef Name);
  /// The statements of \p FD's CFG that satisfy \p Pred, in CFG order.
  std::vector<const Stmt *> stmtsIn(llvm::StringRef Name,
                                    std::function<bool(const Stmt *)> Pred);

private:
  std::string Code;
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<WarpAnalysis> Owned;
  WarpAnalysis *WA = nullptr;
};

} // namespace clang::warp::test

#endif
