//===--- UniformityPrinterTest.cpp - the printer beside the analysis
//-------===//
//
// The printer reads what the analysis recorded and says it: the subject,
// the variance of its mask and where it entered, the branches on the way,
// the launches. Each fact is checked as text at its line.
//
//===----------------------------------------------------------------------===//

#include "analysis/UniformityPrinter.h"
#include "AnalysisTestHarness.h"

namespace clang::warp::test {
namespace {

class UniformityPrinterTest : public AnalysisTest {
protected:
  /// The subject and the facts the printer gives for \p Subject in \p Fn,
  /// as `line: message` strings (line 0: no place).
  std::vector<std::string> factsAt(const Stmt *Subject,
                                   llvm::StringRef Fn = "k") {
    UniformityOptions Flipped;
    Flipped.ThreadIdxYZUniform = true;
    WarpAnalysis Other(context(), Flipped);
    UniformityPrinter Printer(context(), analysis(), Other, false);
    Explanation E =
        Printer.explain(uniformity(Fn)->decl(), *uniformity(Fn), Subject);
    std::vector<std::string> Out{E.Subject};
    for (const ExplainFact &F : E.Facts)
      Out.push_back(std::to_string(F.Line) + ": " + F.Message);
    return Out;
  }
};

TEST_F(UniformityPrinterTest, SaysWhatTheAnalysisRecorded) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, int n) {
  const int lane = threadIdx.x % 32;
  const unsigned m = __activemask();
  float v = out[threadIdx.x];
  if (lane < n)
    v = __shfl_sync(m, v, 0);
  out[threadIdx.x] = v;
}
void launch(float *out, int n) { k<<<1, 64>>>(out, n); }
)cu"));
  std::vector<const Stmt *> Shuffles = stmtsIn(
      "k", [](const Stmt *S) { return matchCollective(S).has_value(); });
  ASSERT_EQ(Shuffles.size(), 1u);
  std::vector<std::string> Facts = factsAt(Shuffles[0]);
  // Lines count from the harness' one-line prelude.
  std::vector<std::string> Want = {
      "'__shfl_sync'",
      "7: the mask 'm' is uniform",
      "4: declared as m = __activemask()",
      "6: lanes diverge here: only some lanes take the branch that leads to "
      "the statement",
      "6: 'lane < n' is lane-varying",
      "6: 'lane' is lane-varying (the lane index)",
      "3: declared as lane = threadIdx.x % 32",
      "3: it varies from here: 'threadIdx.x'",
      "6: 'n' is a kernel parameter: the same in every thread of a launch",
      "10: launched with a block of (64, 1, 1): warps lie within one row",
      "0: every launch seen is warp-aligned: threadIdx.y/z count as uniform",
      "0: option WarpAlignedBlockDimX is false; true would give the same "
      "answer"};
  EXPECT_EQ(Facts, Want);
}

} // namespace
} // namespace clang::warp::test
