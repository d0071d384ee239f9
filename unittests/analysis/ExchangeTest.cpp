//===--- ExchangeTest.cpp - elements, steps and races between lanes -------===//

#include "AnalysisTestHarness.h"
#include "analysis/BarrierSteps.h"
#include "analysis/ElementAccesses.h"
#include "analysis/IndexTerms.h"
#include "analysis/WarpExchanges.h"

namespace clang::warp::test {
namespace {

class ExchangeTest : public AnalysisTest {
protected:
  /// The races of the function \p Name.
  std::vector<ExchangeRace> races(llvm::StringRef Name) {
    const FunctionUniformity *FU = uniformity(Name);
    if (!FU)
      return {};
    return findExchangeRaces(function(Name), *FU, analysis().laneReach(*FU),
                             analysis());
  }
  /// "line:col" of \p E in the snippet.
  std::string where(const Expr *E) {
    const SourceManager &SM = context().getSourceManager();
    return std::to_string(lineOf(E)) + ":" +
           std::to_string(SM.getPresumedColumnNumber(E->getBeginLoc()));
  }
};

TEST_F(ExchangeTest, ElementsThroughPointersAndMembers) {
  ASSERT_TRUE(analyze(R"cu(
struct Slots { float dist[32]; int idx[32]; };
struct Pair { float dist; int idx; };
__global__ void k(float *out) {
  __shared__ float s[4][32];
  __shared__ Slots sm;
  __shared__ Pair pairs[32];
  float local[4];
  const unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
  float *p = &s[w][0];
  p[lane] = 1.0f;
  out[0] = *(p + lane + 16) + sm.dist[lane ^ 1] + pairs[lane].dist;
  local[lane % 4] = out[1];
}
)cu"));
  ElementAccesses EA = elementAccesses(function("k"), context());
  std::vector<std::string> Seen;
  for (const ElementAccess &A : EA.Accesses) {
    std::string D = A.Address.name(A.Address.Constant) + " terms " +
                    std::to_string(A.Address.Terms.size()) +
                    (A.Writes ? " write" : " read");
    Seen.push_back(D);
  }
  // p[lane] is s[w][0] + lane: the terms w (times 32) and lane; out[...]
  // is the parameter's memory; the local array is no shared element.
  EXPECT_EQ(Seen, (std::vector<std::string>{
                      "s[0][0] terms 2 write", "out[0] terms 0 write",
                      "s[0][16] terms 2 read", "sm.dist[0] terms 1 read",
                      "pairs[0].dist terms 1 read", "out[1] terms 0 read"}));
}

TEST_F(ExchangeTest, StepsEndAtBarriersOnEveryPath) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, int n) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = 1.0f;
  out[0] = s[lane ^ 1];
  if (n > 4)
    __syncwarp();
  out[1] = s[lane ^ 2];
  __syncwarp();
  out[2] = s[lane ^ 3];
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ElementAccesses EA = elementAccesses(function("k"), context());
  BarrierSteps Steps(
      *FU, [&](const Stmt *S) { return ordersLanes(S, analysis()); },
      [](const ForStmt *) { return false; });
  auto At = [&](unsigned I) { return Steps.elementOf(EA.Accesses[I].E); };
  // Accesses: the write, then out[0], s[lane ^ 1], out[1], s[lane ^ 2], ...
  ASSERT_EQ(EA.Accesses.size(), 7u);
  EXPECT_TRUE(Steps.mayShareStep(At(0), At(2)));
  // The branch may skip its __syncwarp(): still one step on that path.
  EXPECT_TRUE(Steps.mayShareStep(At(0), At(4)));
  EXPECT_FALSE(Steps.mayShareStep(At(0), At(6)));
}

TEST_F(ExchangeTest, OnlyLoopsWithABarrierAreAskedWhetherTheyRunOnce) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  s[lane] = 1.0f;
  for (int i = 0; i < 4; ++i)
    out[i] = 2.0f;
  out[4] = s[lane ^ 1];
  for (int j = 0; j < 4; ++j)
    __syncwarp();
  out[5] = s[lane ^ 2];
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ElementAccesses EA = elementAccesses(function("k"), context());
  std::vector<std::string> Asked;
  BarrierSteps Steps(
      *FU, [&](const Stmt *S) { return ordersLanes(S, analysis()); },
      [&](const ForStmt *For) {
        const auto *Init = cast<DeclStmt>(For->getInit());
        Asked.push_back(
            cast<VarDecl>(Init->getSingleDecl())->getNameAsString());
        return true;
      });
  // The loop without a barrier hands back what entered it, run or not.
  EXPECT_EQ(Asked, std::vector<std::string>{"j"});
  auto At = [&](unsigned I) { return Steps.elementOf(EA.Accesses[I].E); };
  // Accesses: the write, out[i], out[4], s[lane ^ 1], out[5], s[lane ^ 2].
  ASSERT_EQ(EA.Accesses.size(), 6u);
  EXPECT_TRUE(Steps.mayShareStep(At(0), At(3)));
  // The counted loop runs its barrier at least once.
  EXPECT_FALSE(Steps.mayShareStep(At(0), At(5)));
}

TEST_F(ExchangeTest, ClassicTailNamesTheLanes) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  if (tid < 32) {
    volatile float *vs = s;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
  }
}
)cu"));
  std::vector<ExchangeRace> R = races("k");
  ASSERT_FALSE(R.empty());
  // Only the second step's read races (the first reads warp 1's half).
  for (const ExchangeRace &X : R)
    EXPECT_EQ(where(X.Read), "8:16");
  const ExchangeRace *Same = nullptr;
  for (const ExchangeRace &X : R)
    if (X.ReadStatement == X.WriteStatement)
      Same = &X;
  ASSERT_TRUE(Same && Same->Pair);
  EXPECT_EQ(Same->Tier, RaceTier::Proven);
  EXPECT_EQ(Same->Pair->Warp, 0u);
  EXPECT_EQ(Same->Pair->Writer, 16u);
  EXPECT_EQ(Same->Pair->Reader, 0u);
  EXPECT_EQ(Same->Pair->Element, "s[16]");
}

TEST_F(ExchangeTest, GuardedStepsRaceOnlyAcrossIterations) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void synced(float *s0) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  for (int o = 16; o > 0; o /= 2) {
    if (lane < o)
      s[lane] += s[lane + o];
    __syncwarp();
  }
}
__global__ void unsynced(float *s0) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  for (int o = 16; o > 0; o /= 2)
    if (lane < o)
      s[lane] += s[lane + o];
}
)cu"));
  EXPECT_TRUE(races("synced").empty());
  std::vector<ExchangeRace> R = races("unsynced");
  ASSERT_EQ(R.size(), 1u);
  ASSERT_TRUE(R[0].Pair);
  EXPECT_EQ(R[0].Tier, RaceTier::Proven);
  EXPECT_TRUE(R[0].NextIteration);
  EXPECT_EQ(R[0].WriteCount, 16);
  EXPECT_EQ(R[0].ReadCount, 8);
  EXPECT_EQ(R[0].Pair->Writer, 8u);
  EXPECT_EQ(R[0].Pair->Reader, 0u);
}

TEST_F(ExchangeTest, DataTiers) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void guarded(const float *in) {
  __shared__ float red[64];
  const unsigned tid = threadIdx.x;
  if (tid < 32) {
    if (red[tid] > red[tid + 16])
      red[tid] = red[tid + 16];
  }
}
__global__ void indexed(const unsigned *keys, unsigned *out) {
  __shared__ unsigned levels[32];
  const unsigned lane = threadIdx.x % 32;
  unsigned h = keys[threadIdx.x];
  levels[lane] = h;
  out[threadIdx.x] = levels[h % 32];
}
)cu"));
  std::vector<ExchangeRace> G = races("guarded");
  ASSERT_FALSE(G.empty());
  EXPECT_EQ(G[0].Tier, RaceTier::Data);
  ASSERT_TRUE(G[0].DataCause && G[0].Pair);
  EXPECT_EQ(G[0].Pair->Writer, 16u);
  std::vector<ExchangeRace> I = races("indexed");
  ASSERT_EQ(I.size(), 1u);
  EXPECT_EQ(I[0].Tier, RaceTier::Data);
  EXPECT_TRUE(I[0].DataIndex);
  EXPECT_FALSE(I[0].Pair);
}

TEST_F(ExchangeTest, HelperTakesItsCallersValues) {
  ASSERT_TRUE(analyze(R"cu(
__device__ void step(float *d, unsigned tid) {
  d[tid] = d[tid] + d[tid + 8];
}
__global__ void k(float *out) {
  __shared__ float s[64];
  if (threadIdx.x < 32)
    step(s, threadIdx.x);
}
__device__ void unknown_callers(float *d, unsigned tid) {
  d[tid] = d[tid] + d[tid + 8];
}
)cu"));
  std::vector<ExchangeRace> R = races("step");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Tier, RaceTier::Proven);
  ASSERT_TRUE(R[0].Pair && R[0].Via);
  EXPECT_EQ(R[0].Pair->Element, "d[8]");
  // Nothing says what an unknown caller passes: at most a potential race.
  for (const ExchangeRace &X : races("unknown_callers"))
    EXPECT_EQ(X.Tier, RaceTier::Potential);
}

TEST_F(ExchangeTest, SharedSymbolsAndCastBuffersCompare) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void global_rows(float *buf) {
  const unsigned lane = threadIdx.x % 32;
  buf[blockIdx.x * 32 + lane] = lane;
  float next = buf[blockIdx.x * 32 + (lane ^ 1)];
  __syncthreads();
  buf[blockIdx.x * 32 + lane] = next;
}
__global__ void dynamic_shared(float *out) {
  extern __shared__ char smem[];
  float *s = reinterpret_cast<float *>(smem);
  const unsigned lane = threadIdx.x % 32;
  s[lane] = out[threadIdx.x];
  out[threadIdx.x] = s[31 - lane];
}
)cu"));
  std::vector<ExchangeRace> G = races("global_rows");
  ASSERT_EQ(G.size(), 1u);
  ASSERT_TRUE(G[0].Pair);
  EXPECT_EQ(G[0].Tier, RaceTier::Proven);
  // blockIdx.x * 32 is a symbol both share: no number to name the element.
  EXPECT_EQ(G[0].Pair->Element, "");
  EXPECT_EQ(G[0].Pair->Writer, 1u);
  std::vector<ExchangeRace> D = races("dynamic_shared");
  ASSERT_EQ(D.size(), 1u);
  ASSERT_TRUE(D[0].Pair);
  EXPECT_EQ(D[0].Pair->Element, "s[31]");
}

TEST_F(ExchangeTest, CountedLoopsRunAtLeastOnce) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out) {
  __shared__ float s[32];
  const unsigned lane = threadIdx.x % 32;
  float v = s[lane ^ 1];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  s[lane] = v;
}
)cu"));
  // The shuffles of the loop's first iteration separate the read from the
  // write: no lane skips the loop.
  EXPECT_TRUE(races("k").empty());
}

TEST_F(ExchangeTest, ABarrierEndingEachIterationOrdersTheReadAfterTheLoop) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, float v) {
  __shared__ float red[128];
  const int d = threadIdx.x;
  red[d] = v;
  __syncthreads();
  for (int stride = 64; stride > 0; stride >>= 1) {
    if (d < stride)
      red[d] = fmaxf(red[d], red[d + stride]);
    __syncthreads();
  }
  out[d] = red[0];
}
)cu"));
  // The last write (stride 1, lane 0) is followed by the barrier on every
  // path to the read: the steps join the loop's iterations, the paths do not.
  EXPECT_TRUE(races("k").empty());
}

TEST_F(ExchangeTest, TwoArmsOfABranchAreNotOrdered) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *p) {
  const int tid = threadIdx.x;
  if (tid == 5)
    p[0] = 1.0f;
  else
    p[tid] = p[tid] + 1.0f;
}
)cu"));
  EXPECT_FALSE(races("k").empty());
}

TEST_F(ExchangeTest, OwnElementsAndOtherWarpsAreNoRace) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void own(float *out) {
  __shared__ float s[256];
  const unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
  s[w * 32 + lane] = out[threadIdx.x];
  s[w * 32 + lane] *= 2.0f;
  out[threadIdx.x] = s[w * 32 + lane];
}
__global__ void other_warp(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x < 32)
    out[threadIdx.x] = s[threadIdx.x + 32];
}
)cu"));
  EXPECT_TRUE(races("own").empty());
  EXPECT_TRUE(races("other_warp").empty());
}

TEST_F(ExchangeTest, IndexTermsAssignedOnceShareTheirLaneValues) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *out, int n) {
  __shared__ int s[96];
  const int i = threadIdx.x % 32;
  int pos = 2 * i - (i & 1);
  int moved = i;
  if (n > 3)
    moved = i + 1;
  for (int o = 1; o < 4; o *= 2)
    s[pos + o] = s[pos];
  s[moved] = s[moved + 2];
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  ElementAccesses EA = elementAccesses(function("k"), context());
  LaneReach Reach(*FU, context());
  IndexTermValues Values(Reach, EA.Written, {0, 2});
  // The term of each access, by the variable it names.
  std::map<std::string, std::vector<const Expr *>> Terms;
  for (const ElementAccess &A : EA.Accesses)
    for (const ElementAddress::Term &T : A.Address.Terms)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(T.E->IgnoreParenImpCasts()))
        Terms[DRE->getDecl()->getNameAsString()].push_back(T.E);
  ASSERT_EQ(Terms["pos"].size(), 2u);
  ASSERT_EQ(Terms["o"].size(), 1u);
  ASSERT_EQ(Terms["moved"].size(), 2u);
  // `pos` is assigned once: its reads are the same value anywhere; `moved`
  // is assigned on one path, `o` in every iteration.
  EXPECT_TRUE(Values.sameWherever(Terms["pos"][0]));
  EXPECT_FALSE(Values.sameWherever(Terms["moved"][0]));
  EXPECT_FALSE(Values.sameWherever(Terms["o"][0]));
  bool ReadWarp = false;
  for (const Expr *E : Terms["pos"]) {
    EXPECT_EQ(Values.valueIn(E, 3, 0, ReadWarp), 5);
    EXPECT_EQ(Values.valueIn(E, 4, 2, ReadWarp), 8);
  }
  // A counter's value is the binding of the iteration asked in.
  const Expr *O = Terms["o"][0];
  EXPECT_EQ(Values.valueIn(O, 0, 0, ReadWarp), std::nullopt);
  const auto *Counter =
      cast<VarDecl>(cast<DeclRefExpr>(O->IgnoreParenImpCasts())->getDecl());
  Reach.evaluator().bind(Counter, 2);
  EXPECT_EQ(Values.valueIn(O, 0, 0, ReadWarp), 2);
  Reach.evaluator().bind(Counter, 4);
  EXPECT_EQ(Values.valueIn(O, 0, 0, ReadWarp), 4);
  Reach.evaluator().bind(Counter, 2);
  EXPECT_EQ(Values.valueIn(O, 0, 0, ReadWarp), 2);
}

TEST_F(ExchangeTest, OnlyWarpsTheLaunchesHoldAreSampled) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void any_block(float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x >= 160 && threadIdx.x < 192)
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}
__global__ void small_block(float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x >= 160 && threadIdx.x < 192)
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}
void launch(float *out) { small_block<<<4, 128>>>(out); }
)cu"));
  // Warp 5 (threads 160..191) races in a block of any size; launched with
  // 128 threads it does not exist.
  std::vector<ExchangeRace> Any = races("any_block");
  ASSERT_EQ(Any.size(), 1u);
  ASSERT_TRUE(Any[0].Pair);
  EXPECT_EQ(Any[0].Pair->Warp, 5u);
  EXPECT_TRUE(races("small_block").empty());
}

TEST_F(ExchangeTest, WarpsMovedFromTheFirstAreSkippedOthersCompared) {
  // Warps 0 and 1 write and read their own elements (warp 1's are warp
  // 0's moved by 32); from warp 2 on, lanes 2i and 2i + 1 share one.
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out) {
  __shared__ float s[512];
  const unsigned tid = threadIdx.x;
  const unsigned e = tid >= 64 ? tid / 2 : tid;
  s[e] = float(tid);
  out[tid] = s[e];
}
__global__ void shifted(float *out) {
  __shared__ float s[512];
  const unsigned tid = threadIdx.x;
  s[tid + 7] = float(tid);
  out[tid] = s[tid + 7];
}
)cu"));
  std::vector<ExchangeRace> R = races("k");
  ASSERT_EQ(R.size(), 1u);
  ASSERT_TRUE(R[0].Pair);
  EXPECT_EQ(R[0].Pair->Warp, 2u);
  EXPECT_EQ(R[0].Pair->Reader / 2, R[0].Pair->Writer / 2);
  EXPECT_NE(R[0].Pair->Reader, R[0].Pair->Writer);
  EXPECT_TRUE(races("shifted").empty());
}

} // namespace
} // namespace clang::warp::test
