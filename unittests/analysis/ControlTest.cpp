//===--- ControlTest.cpp - divergence, joins, exits, single lanes ---------===//

#include "AnalysisTestHarness.h"

namespace clang::warp::test {
namespace {

using ControlTest = AnalysisTest;

TEST_F(ControlTest, LaneBranchDivergesUntilTheJoin) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  int lane = threadIdx.x % 32;
  converged();
  if (lane < 16) {
    lane_diverged();
    not_single_lane();
    if (blockIdx.x == 0)
      lane_diverged(); // a uniform branch inside keeps the outer divergence
  } else {
    lane_diverged();
  }
  converged(); // the immediate post-dominator of the branch
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, ConditionalOperatorAndShortCircuitDiverge) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  int lane = threadIdx.x % 32;
  int v = lane < 4 ? (lane_diverged(), 1) : (lane_diverged(), 2);
  bool a = lane < 8 && (lane_diverged(), p[0] > 0);
  bool b = lane < 8 || (lane_diverged(), p[1] > 0);
  converged();
  int u = blockIdx.x ? (converged(), 1) : 2; // uniform condition
  p[0] = v + a + b + u;
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, SwitchOnLaneDiverges) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  switch (threadIdx.x % 4) {
  case 0:
    lane_diverged();
    break;
  case 1:
    lane_diverged();
    break;
  default:
    lane_diverged();
  }
  converged();
  switch (blockIdx.x) { // uniform selector
  case 0:
    converged();
    break;
  default:
    break;
  }
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, VaryingTripCountLoopDivergesInside) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p, int n) {
  int lane = threadIdx.x % 32;
  for (int i = lane; i < n; i += 32) {
    lane_diverged();
    p[i] = 0;
  }
  converged();
  int j = 0;
  while (p[j * 32 + lane] != 0) { // data-dependent trip count
    data_diverged();
    ++j;
  }
  converged();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, LaneStridedLoopWithTheSameTripCountStaysConverged) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p, int n) {
  int lane = threadIdx.x % 32;
  for (int k = lane; k < 128; k += 32)
    converged(); // 4 iterations in every lane
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    converged(); // warp-aligned bound and stride
  for (int j = 0; j < n; ++j)
    converged(); // uniform trip count
  for (int k = lane; k < 100; k += 32)
    lane_diverged(); // lanes 4..31 stop one iteration early
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, EarlyReturnLeavesAPartialWarp) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  converged();
  if (i >= n)
    return;
  exited();
  lane_diverged();
  p[i] = 0;
  lane_diverged(); // to the end of the function
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, ReturnInsideALoopLeavesAPartialWarp) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  int lane = threadIdx.x % 32;
  for (int j = 0; j < 4; ++j)
    if (p[lane + j] == 0)
      return;
  exited();
  data_diverged();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, GotoPastCodeLeavesAPartialWarpUntilTheLabel) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  int lane = threadIdx.x % 32;
  if (lane < 3)
    goto done;
  exited();
  lane_diverged();
  p[lane] = 0;
done:
  converged();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, ReturnFromASwitchCaseLeavesAPartialWarp) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  switch (threadIdx.x % 4) {
  case 0:
    p[0] = 1;
    return;
  case 1:
    lane_diverged(); // inside the switch: diverged, but nobody left yet
    break;
  default:
    break;
  }
  lane_diverged();
  exited();
}

__global__ void k2(int *p) {
  for (int i = 0; i < 4; ++i) {
    switch (threadIdx.x % 4) {
    case 2:
      continue;
    default:
      break;
    }
    exited(); // the other lanes went on to the next iteration
  }
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, UniformEarlyReturnDoesNotDiverge) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *p, int n) {
  if (blockIdx.x >= n)
    return;
  if (threadIdx.x / 32 != 0)
    return; // whole warps leave
  converged();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, VaryingBreakAndContinueDivergeTheRestOfTheLoop) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  int lane = threadIdx.x % 32;
  for (int j = 0; j < 8; ++j) {
    if (p[lane * 8 + j] == 0)
      break;
    exited();
    data_diverged();
  }
  converged(); // every lane leaves the loop eventually
  for (int j = 0; j < 8; ++j) {
    if (lane == j)
      continue;
    exited();
    lane_diverged();
  }
  converged();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, DataDependentBranchIsDataDivergence) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(const int *p) {
  if (p[threadIdx.x] > 0) {
    data_diverged();
    if (threadIdx.x % 32 < 4)
      lane_diverged(); // the strongest controlling branch
  }
  converged();
  if (p[blockIdx.x] > 0)
    converged(); // a uniform address loads a uniform value
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, NoReturnBranchesDoNotDiverge) {
  ASSERT_TRUE(analyze(R"cu(
#include <assert.h>
__device__ __attribute__((noreturn)) void fail();
__global__ void k(const int *p) {
  int lane = threadIdx.x % 32;
  if (p[lane] < 0)
    fail();
  converged(); // lanes that took the branch are gone for good
  if (lane > 40)
    __builtin_trap();
  converged();
  assert(p[lane] != 7);
  converged();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, WarpUniformGuardsStayConverged) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  int warp_id = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (warp_id == 0)
    converged();
  if (threadIdx.x < 32)
    converged();
  if (threadIdx.x >= 64 && blockIdx.x == 0)
    converged();
  if (lane < 32)
    converged(); // always true
  if (threadIdx.x < blockDim.x)
    converged();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, AssignmentsUnderDivergenceVaryAfterTheJoin) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p, int n) {
  int lane = threadIdx.x % 32;
  int x = 0;
  if (lane < 4)
    x = 1;
  varying(x); // 1 in lanes 0..3, 0 elsewhere
  if (lane < 4) {
    int y = 5;
    uniform(y); // declared and used inside: every lane there has 5
  }
  int z = 0;
  if (threadIdx.x / 32 == 0)
    z = 1;
  uniform(z); // the branch is uniform
  int count = 0;
  for (int i = lane; i < n; i += 32)
    ++count;
  varying(count); // lanes leave the loop after different iterations
  int found = -1;
  for (int j = 0; j < 32; ++j)
    if (p[j] == 7)
      found = j;
  uniform(found); // uniform loads and branches
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, SingleLaneRegions) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p) {
  int lane = threadIdx.x % 32;
  if (lane == 0)
    single_lane();
  if (threadIdx.x == 0)
    single_lane();
  if (lane == 0 && p[0] > 0)
    single_lane();
  if (!(lane != 5))
    single_lane();
  if (lane < 4)
    not_single_lane();
  not_single_lane();
  if (lane != 0)
    return;
  single_lane();
}
)cu"));
  checkProbes();
}

TEST_F(ControlTest, OutlineKnowsTheLoopAroundEachCall) {
  ASSERT_TRUE(analyze(R"cu(
__device__ int take(int *l) { return atomicCAS(l, 0, 1); }
__global__ void k(int *p, int n) {
  p[0] = 0;
  for (int i = 0; i < n; ++i) {
    while (take(p + i) != 0) {
    }
    do {
      p[i] = 1;
    } while (i < 0);
  }
  take(p);
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  const FunctionUniformity::BodyOutline &O = FU->outline();
  ASSERT_EQ(O.LoopsAndCalls.size(), O.EnclosingLoop.size());
  // for, while, take (in the while's condition), do, take.
  ASSERT_EQ(O.LoopsAndCalls.size(), 5u);
  EXPECT_TRUE(isa<ForStmt>(O.LoopsAndCalls[0]));
  EXPECT_TRUE(isa<WhileStmt>(O.LoopsAndCalls[1]));
  EXPECT_TRUE(isa<CallExpr>(O.LoopsAndCalls[2]));
  EXPECT_TRUE(isa<DoStmt>(O.LoopsAndCalls[3]));
  EXPECT_TRUE(isa<CallExpr>(O.LoopsAndCalls[4]));
  EXPECT_EQ(O.EnclosingLoop, (std::vector<int>{-1, 0, 1, 0, -1}));
}

} // namespace
} // namespace clang::warp::test
