//===--- ValueTest.cpp - sources of variance and of uniformity ------------===//

#include "AnalysisTestHarness.h"

namespace clang::warp::test {
namespace {

using ValueTest = AnalysisTest;

TEST_F(ValueTest, ThreadIdxXAndLaneIdsVaryByLane) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k() {
  int tid = threadIdx.x;
  lane_varying(tid);
  lane_varying(threadIdx.x + 7);
  int lane = threadIdx.x % 32;
  lane_varying(lane);
  lane_varying(threadIdx.x & 31);
  lane_varying(lane * 4);
  uniform(lane / 32); // 0 in every lane
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, PtxLaneIdAndCooperativeGroupsRankVaryByLane) {
  ASSERT_TRUE(analyze(R"cu(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  lane_varying(l);
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  lane_varying(tile.thread_rank());
  lane_varying(cg::this_thread_block().thread_rank());
  uniform(tile.size());           // sizes are the same in every lane
  uniform(tile.meta_group_rank()); // the warp's index in the block
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, LoadsThroughVaryingAddressesVaryByData) {
  ASSERT_TRUE(analyze(R"cu(
struct S { int a; };
__shared__ int smem[256];
__global__ void k(const int *p, const S *s) {
  data_varying(p[threadIdx.x]);
  data_varying(*(p + threadIdx.x % 32));
  data_varying(s[threadIdx.x].a);
  data_varying(smem[threadIdx.x]);
  // The same address in every lane loads the same value.
  uniform(p[blockIdx.x]);
  uniform(*p);
  uniform(s->a);
  uniform(smem[threadIdx.x / 32]);
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, AtomicResultsVary) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p, unsigned *q) {
  int old = atomicAdd(p, 1);
  data_varying(old);
  data_varying(atomicCAS(p, 0, 1));
  data_varying(atomicExch(p, 2));
  data_varying(atomicInc(q, 10u));
  data_varying(atomicAdd_block(p, 1));
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, MatchAnyAndClockVary) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(const int *p) {
  int key = p[blockIdx.x]; // uniform key: every lane's peers are the mask
  uniform(__match_any_sync(0xffffffff, key));
  varying(__match_any_sync(0xffffffff, p[threadIdx.x]));
  data_varying(clock());
  data_varying(clock64());
  int pred;
  uniform(__match_all_sync(0xffffffff, key, &pred));
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, ConstantsParametersAndBlockRegistersAreUniform) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int n, const float *p) {
  uniform(42);
  uniform(n);
  uniform(p);
  uniform(blockIdx.x);
  uniform(blockIdx.y);
  uniform(blockDim.x);
  uniform(blockDim.y);
  uniform(gridDim.x);
  uniform(warpSize);
  uniform(n * blockDim.x + blockIdx.x);
  constexpr int Tile = 128;
  uniform(Tile);
}
)cu"));
  checkProbes();
}

// The evaluator asks clang to fold an operator only when its integer
// operands fold; what clang folds through other operands must still fold.
TEST_F(ValueTest, ConstantsFoldThroughEveryKindOfOperand) {
  ASSERT_TRUE(analyze(R"cu(
__device__ constexpr int thirty_two() { return 32; }
constexpr int K = 32;
__global__ void k(int n) {
  const int &ref = K;
  uniform(threadIdx.x / (thirty_two() + 32));   // a constexpr call
  uniform(threadIdx.x / (int)64.5f);            // a floating operand
  uniform(threadIdx.x / (2.0f > 1.0f ? 32 : 3)); // a floating condition
  uniform(threadIdx.x / ref);                   // a reference to a constant
  uniform(threadIdx.x / ((0 && n) + 32));       // short-circuit
  uniform(threadIdx.x / (-(-K)));               // unary operators
  lane_varying(threadIdx.x / (n + 32));
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, WarpIndexIsUniform) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k() {
  int warp_id = threadIdx.x / 32;
  uniform(warp_id);
  uniform(threadIdx.x >> 5);
  uniform(threadIdx.x / 64);
  uniform((threadIdx.x + 32) / 32);
  uniform(threadIdx.x < 32);   // whole warps on each side
  uniform(threadIdx.x >= 64);
  uniform(threadIdx.x < blockDim.x);
  // Not warp-aligned: the warp is split.
  lane_varying(threadIdx.x / 16);
  lane_varying(threadIdx.x >> 4);
  lane_varying(threadIdx.x < 16);
  lane_varying((threadIdx.x + 1) / 32);
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, VoteAndReduceResultsAreUniform) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(const int *p) {
  int x = p[threadIdx.x];
  varying(x);
  uniform(__ballot_sync(0xffffffff, x > 0));
  uniform(__all_sync(0xffffffff, x));
  uniform(__any_sync(0xffffffff, x));
  uniform(__reduce_add_sync(0xffffffff, (unsigned)x));
  uniform(__reduce_max_sync(0xffffffff, (unsigned)x));
  uniform(__popc(__ballot_sync(0xffffffff, x > 0)));
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, ShuffleIsUniformOnlyFromAUniformSourceLane) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(const float *p, int src) {
  float v = p[threadIdx.x];
  int lane = threadIdx.x % 32;
  uniform(__shfl_sync(0xffffffff, v, 0));
  uniform(__shfl_sync(0xffffffff, v, src));
  uniform(__shfl_sync(0xffffffff, v, threadIdx.x / 32));
  varying(__shfl_sync(0xffffffff, v, lane ^ 1));
  varying(__shfl_xor_sync(0xffffffff, v, 16));
  varying(__shfl_down_sync(0xffffffff, v, 1));
  varying(__shfl_up_sync(0xffffffff, v, 1));
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, ThreadIdxYZVaryUnlessBlocksAreWarpAligned) {
  const char *Code = R"cu(
__global__ void k() {
  PROBE(threadIdx.y);
  PROBE(threadIdx.z);
  PROBE(threadIdx.y * 4 + threadIdx.z);
  lane_varying(threadIdx.x); // x varies either way
}
)cu";
  // y and z vary inside a warp only when blockDim.x is not a multiple of 32:
  // a potential (data-like) variance, not a lane-derived one.
  ASSERT_TRUE(analyze(std::string("#define PROBE data_varying\n") + Code));
  checkProbes();
  TearDown();
  UniformityOptions Opts;
  Opts.ThreadIdxYZUniform = true;
  ASSERT_TRUE(analyze(std::string("#define PROBE uniform\n") + Code, Opts));
  checkProbes();
}

// Warps are cut from the linear thread index in every block shape.
TEST_F(ValueTest, LinearThreadIndexIsLaneIndexedInEveryBlockShape) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k() {
  unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  lane_varying(tid);
  uniform(tid / 32);
  uniform((blockDim.x * threadIdx.y + threadIdx.x) >> 5);
  lane_varying(tid % 32);
  uniform(tid < 64);
  // Where a row starts: the warp's when blockDim.x divides 32 or is a
  // multiple of it.
  uniform((threadIdx.y * blockDim.x) / 32);
  // Not a row start: two rows of 16 share a warp.
  data_varying((threadIdx.y * 32) / 32);
  data_varying(threadIdx.y * blockDim.x);
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, RoundedAndZeroOffsetsStayWarpMultiples) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int n, bool extra) {
  int tid = threadIdx.x;
  uniform(tid < n - n % 32);           // n rounded down to whole warps
  uniform(tid < (extra ? 32 : 0) + 64); // 0 is a multiple of 32 too
  uniform(tid < (n & ~31));
  lane_varying(tid < n - n % 16);
  int group_size = n * 32;          // whole warps per group
  uniform(tid / group_size);        // the group index
  lane_varying(tid % group_size);   // the rank in the group
  uniform(tid % group_size < 32);
  lane_varying(tid / (n * 16));
  lane_varying(tid < (extra ? 16 : 0));
}
)cu"));
  checkProbes();
}

// The index of the warp's lane 0, however it is spelled, is the same in
// every lane (SlabHash's `tid - lane`, AMGX's `&s[threadIdx.x - lane_id]`).
TEST_F(ValueTest, WarpBaseIndexIsUniform) {
  ASSERT_TRUE(analyze(R"cu(
__device__ int laneid() { int id; asm("mov.u32 %0, %%laneid;" : "=r"(id)); return id; }
__global__ void k(int n, int *s) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned lane = threadIdx.x & 31;
  uniform(tid - lane);
  uniform(threadIdx.x - laneid());
  uniform(tid & ~31u);
  uniform(tid - tid % 32);
  uniform(&s[threadIdx.x - laneid()]);
  lane_varying(tid - lane + lane / 2);
  uniform(lane - tid);
  lane_varying(lane + tid);
  lane_varying((tid + n) & ~31u); // the warp may straddle a multiple of 32
}
)cu"));
  checkProbes();
}

// Values that are each a uniform value plus the lane index differ by a
// uniform amount: their difference and their comparison are uniform, also
// for loop counters stepped by uniform amounts (ginkgo's COO segments).
TEST_F(ValueTest, LaneAffineValuesCompareUniformly) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int num, int nnz) {
  const int start = blockIdx.x * 32 * num + threadIdx.x;
  const int end = start + (num - 1) * 32;
  for (int ind = start; ind < end; ind += 32) {
    uniform(ind < end);
    lane_varying(ind < nnz);
  }
  lane_varying(start < end * 2);
  const int a = min(blockIdx.x * 32, num * 64);
  uniform(threadIdx.x % 32 + a < num * 32); // a stays a multiple of 32
}
)cu"));
  checkProbes();
}

// The same over a base read from the row (threadIdx.y): the difference then
// varies only where a warp spans two rows, by the launch shape.
TEST_F(ValueTest, LaneAffineValuesOverRowBasesVaryByLaunchShape) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int num, int nnz) {
  const int start = threadIdx.y * 32 * num + threadIdx.x;
  const int end = start + (num - 1) * 32;
  lane_varying(start);
  for (int ind = start; ind < end; ind += 32) {
    launch_shape_varying(ind < end);
    lane_varying(ind < nnz);
  }
  launch_shape_varying(end - start);
  lane_varying(start * 2 - end);
}
)cu"));
  checkProbes();
}

// A local's value is joined over all its assignments (flow-insensitive per
// variable, as FunctionUniformity::valueOf(const VarDecl *) documents).
TEST_F(ValueTest, LocalsTakeTheDefinitionsThatReachEachRead) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(const int *p) {
  int a = 1;
  uniform(a); // before the varying assignment
  a = threadIdx.x;
  lane_varying(a);
  a = blockIdx.x;
  uniform(a); // overwritten with a uniform value
  int b = blockIdx.x;
  b += 3;
  uniform(b);
  int arr[4] = {0, 1, 2, 3};
  uniform(arr[2]);
  int brr[2] = {0, 1};
  brr[1] = p[threadIdx.x];
  varying(brr[0]); // an array is one slot: one varying element taints it
  varying(arr[threadIdx.x % 4]); // a per-lane index
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, AssignmentUnderDivergenceVariesOnlyWhereLanesMeet) {
  ASSERT_TRUE(analyze(R"cu(
__device__ int f(int);
__global__ void k(const int *p, int *out) {
  int t = 0;
  if (threadIdx.x == 0) {
    t = p[blockIdx.x];
    uniform(t); // every lane here wrote it
  }
  lane_varying(t); // lanes that skipped the write kept 0
  __syncthreads();
  t = blockIdx.x * 2;
  uniform(t); // overwritten by every lane
  int u = 0;
  if (p[threadIdx.x] > 0)
    u = 1;
  else
    u = 1;
  data_varying(u); // the two sides are different writes
  int w = 5;
  for (int i = threadIdx.x; i < 100; i += 32)
    w = i / 32 * 0 + 7;
  lane_varying(w); // lanes leave the loop after different trips
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, LoopCarriedWritesUnderDivergenceVary) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(const int *p, int n) {
  int x = 0;
  for (int i = 0; i < n; ++i) {
    if (p[threadIdx.x * n + i] > 0) {
      data_varying(x); // written here by some lanes in an earlier trip
      x = i;
      uniform(x);
    }
  }
  int y = 0;
  do {
    y = y + 1;
  } while (p[threadIdx.x + y] != 0);
  data_varying(y); // lanes leave after different trips
}
)cu"));
  checkProbes();
}

// Each sweep of the fixpoint carries the lane index one link further along
// the chain a -> b -> c, and only then does the branch on c vary: the
// definitions and branches whose reads changed are evaluated again, the
// assignment under that branch included.
TEST_F(ValueTest, ValuesSettleAcrossSeveralSweeps) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *p, int n) {
  int a = 0, b = 0, c = 0, d = 0;
  for (int i = 0; i < n; ++i) {
    if (c > 5)
      d = 1;
    c = b;
    b = a;
    a = threadIdx.x;
  }
  lane_varying(c);
  varying(d);
  uniform(n);
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, RecordLocalsAreTrackedPerField) {
  ASSERT_TRUE(analyze(R"cu(
struct Work { int tile; int block; int head; };
struct Pair { Work w; int n; };
__global__ void k(const int *p) {
  Work work = {(int)blockIdx.x, (int)blockIdx.y, 0};
  if (threadIdx.x % 32 == 0)
    work.tile = p[blockIdx.x];
  lane_varying(work.tile); // written by lane 0 only
  uniform(work.block);     // the other fields keep their uniform value
  uniform(work.head);
  lane_varying(work);      // the whole record holds the varying field
  work = Work{1, 2, 3};
  uniform(work.tile);      // the whole record overwritten
  Pair pr;
  pr.n = blockIdx.x;
  pr.w.tile = threadIdx.x;
  lane_varying(pr.w.block); // a nested field write is part of field `w`
  uniform(pr.n);
  Work copy = work;
  uniform(copy.tile);
  copy = pr.w;
  lane_varying(copy.head); // record assignment copies the whole value
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, ParametersAssignedInTheBodyAreFlowSensitive) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int n, const int *p) {
  uniform(n);
  n = threadIdx.x;
  lane_varying(n); // a kernel parameter overwritten per lane
}
__device__ void f(int m) {
  m = 4;
  uniform(m);
}
)cu"));
  checkProbes();
}

TEST_F(ValueTest, RecordAssignedFromItselfInALoop) {
  // `c = {c.x + a[i].x, c.y}` reaches its own source through the loop: the
  // field read there takes the whole record's value instead of recursing.
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(const float2 *a) {
  float2 c = {0.f, 0.f};
  for (int i = 0; i < 4; i++)
    c = {c.x + a[i].x, c.y};
  uniform(c.x);
  c = {c.x + a[threadIdx.x].x, c.y};
  varying(c.x);
}
)cu"));
  checkProbes();
}

} // namespace
} // namespace clang::warp::test
