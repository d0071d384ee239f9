//===--- ExtentValuesTest.cpp - values of host-computed block extents -----===//
//
// Each snippet launches kernel `k` from host code; the test reads the values
// the launch's x extent can take (KernelLaunch::XValues), per expression
// kind: powers of two from loops, shifts, pow() and helpers; clamps, min and
// max on them; and the runtime values that bound nothing.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestHarness.h"
#include "analysis/KernelLaunches.h"

namespace clang::warp::test {
namespace {

class ExtentValuesTest : public AnalysisTest {
protected:
  /// The x-extent values of the only launch of `k` in \p Host (after a
  /// kernel `k` and a helper `next_pow2`).
  ExtentValues launchValues(llvm::StringRef Host) {
    std::string Code = R"cu(
#include <algorithm>
#include <cmath>
__global__ void k(int *p) { p[threadIdx.x] = 0; }
static int next_pow2(int x) {
  int p = 1;
  while (p < x)
    p <<= 1;
  return p;
}
)cu" + Host.str();
    if (!analyze(Code))
      return {};
    llvm::ArrayRef<KernelLaunch> Launches =
        analysis().launchesOf(function("k"));
    EXPECT_EQ(Launches.size(), 1u);
    return Launches.empty() ? ExtentValues() : Launches.front().XValues;
  }

  static std::vector<int64_t> powersOfTwo(int64_t From, int64_t To) {
    std::vector<int64_t> V;
    for (int64_t X = From; X <= To; X *= 2)
      V.push_back(X);
    return V;
  }
};

TEST_F(ExtentValuesTest, LoopDoublingUntilARuntimeValue) {
  ExtentValues V = launchValues(R"cu(
void run(int *p, int n) {
  int t = 1;
  while (t < n && t < 1024)
    t *= 2;
  k<<<1, t>>>(p);
}
)cu");
  ASSERT_TRUE(V.bounded());
  EXPECT_EQ(*V.Values, powersOfTwo(1, 1024));
  EXPECT_EQ(V.Source, "n");
  EXPECT_EQ(V.How, "a power of two");
}

TEST_F(ExtentValuesTest, LoopHalvingInTheStepOfAFor) {
  ExtentValues V = launchValues(R"cu(
void run(int *p, int n) {
  int t;
  for (t = 512; t > n; t >>= 1) {}
  k<<<1, t>>>(p);
}
)cu");
  ASSERT_TRUE(V.bounded());
  EXPECT_EQ(*V.Values, powersOfTwo(1, 512));
  EXPECT_EQ(V.Source, "n");
}

TEST_F(ExtentValuesTest, LoopUntilAConstantStopsAtOneValue) {
  ExtentValues V = launchValues(R"cu(
void run(int *p) {
  int t = 1;
  while (t < 200)
    t *= 2;
  k<<<1, t>>>(p);
}
)cu");
  ASSERT_TRUE(V.bounded());
  EXPECT_EQ(*V.Values, std::vector<int64_t>{256});
  EXPECT_EQ(V.Source, "");
}

TEST_F(ExtentValuesTest, OtherLoopWritesAreUnbounded) {
  // The loop test does not compare t: how often it doubles is not followed.
  ExtentValues V = launchValues(R"cu(
void run(int *p, int n) {
  int t = 1;
  for (int i = 0; i < 5; ++i)
    t *= 2;
  k<<<1, t>>>(p);
}
)cu");
  EXPECT_FALSE(V.bounded());
}

TEST_F(ExtentValuesTest, HelperReturnsWithItsArgument) {
  ExtentValues V = launchValues(R"cu(
void run(int *p, int rows) { k<<<1, next_pow2(rows)>>>(p); }
)cu");
  ASSERT_TRUE(V.bounded());
  EXPECT_EQ(*V.Values, powersOfTwo(1, 1024));
  EXPECT_EQ(V.Source, "rows");
}

TEST_F(ExtentValuesTest, ShiftsAndPowOfTwo) {
  ExtentValues Shift = launchValues(R"cu(
void run(int *p, int log_n) { k<<<1, 4 << log_n>>>(p); }
)cu");
  ASSERT_TRUE(Shift.bounded());
  EXPECT_EQ(*Shift.Values, powersOfTwo(4, 1024));
  EXPECT_EQ(Shift.Source, "log_n");
  ExtentValues Pow = launchValues(R"cu(
void run(int *p, float rate) {
  int t = (int)std::pow(2.0f, std::ceil(std::log2(rate)));
  k<<<1, t>>>(p);
}
)cu");
  ASSERT_TRUE(Pow.bounded());
  EXPECT_EQ(*Pow.Values, powersOfTwo(1, 1024));
  EXPECT_EQ(Pow.Source, "rate");
}

TEST_F(ExtentValuesTest, ClampsMinAndMaxOnBoundedValues) {
  ExtentValues Raised = launchValues(R"cu(
void run(int *p, int n) {
  int t = next_pow2(n);
  if (t < 32)
    t = 32;
  k<<<1, t>>>(p);
}
)cu");
  ASSERT_TRUE(Raised.bounded());
  EXPECT_EQ(*Raised.Values, powersOfTwo(32, 1024));
  ExtentValues Max = launchValues(R"cu(
void run(int *p, int n) { k<<<1, std::max(64, next_pow2(n))>>>(p); }
)cu");
  ASSERT_TRUE(Max.bounded());
  EXPECT_EQ(*Max.Values, powersOfTwo(64, 1024));
  ExtentValues Min = launchValues(R"cu(
void run(int *p, int n) {
  int t = next_pow2(n);
  k<<<1, t < 128 ? t : 128>>>(p);
}
)cu");
  ASSERT_TRUE(Min.bounded());
  EXPECT_EQ(*Min.Values, powersOfTwo(1, 128));
}

TEST_F(ExtentValuesTest, ArithmeticOnConstantsAndBoundedSets) {
  ExtentValues V = launchValues(R"cu(
void run(int *p, int n) {
  int warps = next_pow2(n) / 32;
  int t = (warps + 1) * 32;
  k<<<1, t>>>(p);
}
)cu");
  ASSERT_TRUE(V.bounded());
  EXPECT_TRUE(llvm::all_of(*V.Values, [](int64_t X) { return X % 32 == 0; }));
  ExtentValues Picked = launchValues(R"cu(
void run(int *p, bool big) { k<<<1, big ? 256 : 64>>>(p); }
)cu");
  ASSERT_TRUE(Picked.bounded());
  EXPECT_EQ(*Picked.Values, (std::vector<int64_t>{64, 256}));
}

TEST_F(ExtentValuesTest, RuntimeValuesAndCapsOnThemAreUnbounded) {
  // A cap bounds nothing: n may well be whole warps.
  EXPECT_FALSE(launchValues(R"cu(
void run(int *p, int n) { k<<<1, n>>>(p); }
)cu")
                   .bounded());
  EXPECT_FALSE(launchValues(R"cu(
void run(int *p, int n) { k<<<1, std::min(n, 256)>>>(p); }
)cu")
                   .bounded());
  EXPECT_FALSE(launchValues(R"cu(
void run(int *p, int n) {
  int t = n;
  if (t > 128)
    t = 128;
  k<<<1, t>>>(p);
}
)cu")
                   .bounded());
  // Arms chosen by a runtime test, one of them runtime: unbounded.
  EXPECT_FALSE(launchValues(R"cu(
void run(int *p, int n) { k<<<1, n < 32 ? 32 : next_pow2(n)>>>(p); }
)cu")
                   .bounded());
}

TEST_F(ExtentValuesTest, WritesAfterTheLaunchAndOpaqueWritesAreNotFollowed) {
  ExtentValues After = launchValues(R"cu(
void run(int *p, int n) {
  int t = 64;
  k<<<1, t>>>(p);
  t = next_pow2(n);
}
)cu");
  ASSERT_TRUE(After.bounded());
  EXPECT_EQ(*After.Values, std::vector<int64_t>{64});
  EXPECT_FALSE(launchValues(R"cu(
void set(int &t);
void run(int *p) {
  int t = 64;
  set(t);
  k<<<1, t>>>(p);
}
)cu")
                   .bounded());
}

} // namespace
} // namespace clang::warp::test
