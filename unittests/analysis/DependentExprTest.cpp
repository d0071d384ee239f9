//===--- DependentExprTest.cpp - template patterns never crash ------------===//
//
// Header-only libraries are mostly templates that a unit never instantiates;
// the checks analyse their patterns. Each test holds one kind of dependent
// (or error-recovery) expression in an uninstantiated template, runs the
// analysis and the summary of every definition, and checks that the lane
// index still flows through it.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestHarness.h"

namespace clang::warp::test {
namespace {

class DependentExprTest : public AnalysisTest {
protected:
  /// Analyses every definition of \p Code, patterns included, and checks the
  /// probes in the patterns.
  void analyzePatterns(llvm::StringRef Code) {
    ASSERT_TRUE(analyze(Code));
    EXPECT_GT(analyzeEveryDefinition(), 0u);
    checkProbes(/*InPatterns=*/true);
  }
};

// The crash of raft's select_warpsort.cuh: a paren-initialised local of
// dependent type is a ParenListExpr, which has no type at all.
TEST_F(DependentExprTest, ParenListInitOfDependentType) {
  analyzePatterns(R"cu(
template <class Q> __device__ void k(int *p) {
  Q q(p);
  Q r(threadIdx.x, 1);
  lane_varying(threadIdx.x);
}
)cu");
}

// Kokkos_Core.hpp: `CmplxType cbi0(1.0, 0.0);` inside a template.
TEST_F(DependentExprTest, ParenListOfConstants) {
  analyzePatterns(R"cu(
template <class C> __device__ void k() {
  C cbi0(1.0, 0.0);
  auto copy = cbi0;
  int lane = threadIdx.x % 32;
  lane_varying(lane);
}
)cu");
}

TEST_F(DependentExprTest, UnresolvedConstructExpr) {
  analyzePatterns(R"cu(
template <class T> __device__ void k(float *out) {
  auto v = T(threadIdx.x);
  auto w = T{1, 2};
  out[threadIdx.x] = 0;
  lane_varying(threadIdx.x + 1);
}
)cu");
}

TEST_F(DependentExprTest, DependentScopeMemberExpr) {
  analyzePatterns(R"cu(
template <class T> __device__ void k(T t, T *pt, int *p) {
  t.foo(p);
  pt->bar(threadIdx.x);
  p[t.x] = 1;
  int i = threadIdx.x;
  lane_varying(i);
}
)cu");
}

TEST_F(DependentExprTest, UnresolvedLookupAndDependentScopeDeclRef) {
  analyzePatterns(R"cu(
template <class T> __device__ T helper(T);
template <class T> __device__ void k(T v, int *p) {
  v = helper(v);
  p[T::value] = T::kWarps;
  unsigned m = __ballot_sync(0xffffffff, v > T::threshold);
  uniform(m);
  data_varying(p[threadIdx.x]);
}
)cu");
}

TEST_F(DependentExprTest, FoldAndPackExpansion) {
  analyzePatterns(R"cu(
template <class... A> __device__ int sum(A... a) { return (a + ... + 0); }
template <class... A> __device__ void k(int *out, A... a) {
  int n = sizeof...(A);
  uniform(n);
  out[threadIdx.x] = sum(a...) + (a * ... * 1);
  lane_varying(threadIdx.x);
}
)cu");
}

TEST_F(DependentExprTest, GenericLambdaInPattern) {
  analyzePatterns(R"cu(
template <class T> __device__ void k(T t, int *p) {
  auto f = [&](auto y) { return y + t; };
  p[threadIdx.x] = f(threadIdx.x);
  auto g = [=](auto... ys) { return (ys + ...); };
  lane_varying(threadIdx.x);
}
)cu");
}

TEST_F(DependentExprTest, DependentCollectiveArguments) {
  analyzePatterns(R"cu(
template <class T, int Width> __device__ T reduce(T v) {
  for (int o = Width / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, Width);
  converged();
  if (threadIdx.x % 32 < Width / 2)
    lane_diverged();
  return v;
}
)cu");
}

} // namespace
} // namespace clang::warp::test
