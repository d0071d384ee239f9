//===--- LaneEvaluatorTest.cpp - values lane by lane, and witnesses -------===//
//
// The lane evaluator, one test per kind of expression, in an unknown block
// and in known ones; then the witness search and the fate of absent lanes
// built on it. Expressions are marked with `show(e)` calls in the snippet
// and evaluated in the test, lane by lane.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestHarness.h"
#include "analysis/AbsentLanes.h"
#include "analysis/IntegerOps.h"
#include "analysis/MovedLanes.h"
#include "analysis/Witness.h"
#include "clang/AST/ExprCXX.h"
#include <set>

namespace clang::warp::test {
namespace {

class LaneEvaluatorTest : public AnalysisTest {
protected:
  /// The argument of every `show(e)` call in \p Fn, in order.
  std::vector<const Expr *> shown(llvm::StringRef Fn = "k") {
    std::vector<const Expr *> Out;
    for (const Stmt *S : stmtsIn(Fn, [](const Stmt *S) {
           const auto *Call = dyn_cast<CallExpr>(S);
           const FunctionDecl *Callee =
               Call ? Call->getDirectCallee() : nullptr;
           return Callee && Callee->getName() == "show";
         }))
      Out.push_back(cast<CallExpr>(S)->getArg(0)->IgnoreImpCasts());
    return Out;
  }
  /// Every implicit integral conversion of an operator in \p Fn
  /// (`int g = bid * n + tid` with `tid` unsigned), in order.
  std::vector<const Expr *> convertedOperators(llvm::StringRef Fn = "k") {
    std::vector<const Expr *> Out;
    for (const Stmt *S : stmtsIn(Fn, [](const Stmt *S) {
           const auto *C = dyn_cast<ImplicitCastExpr>(S);
           return C && C->getCastKind() == CK_IntegralCast &&
                  isa<BinaryOperator>(C->getSubExpr()->IgnoreParens());
         }))
      Out.push_back(cast<Expr>(S));
    return Out;
  }
  /// The statement of \p Fn that calls \p Name (the first one).
  const Stmt *callOf(llvm::StringRef Name, llvm::StringRef Fn = "k") {
    std::vector<const Stmt *> S = stmtsIn(Fn, [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      return Callee && Callee->getName() == Name;
    });
    return S.empty() ? nullptr : S.front();
  }
  /// Expects \p E to be \p Want(lane) in every lane of warp \p Warp.
  template <typename Fn>
  void expectLanes(LaneEvaluator &Eval, const Expr *E, uint64_t Warp, Fn Want) {
    for (unsigned L = 0; L < 32; ++L) {
      std::optional<int64_t> V = Eval.valueIn(E, L, Warp);
      ASSERT_TRUE(V.has_value()) << "line " << lineOf(E) << " lane " << L;
      EXPECT_EQ(*V, int64_t(Want(L))) << "line " << lineOf(E) << " lane " << L;
    }
  }
};

static const char Prelude[] = "template <class T> __device__ void show(T);\n";

TEST_F(LaneEvaluatorTest, EveryOperatorKind) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
__device__ int my_lane() { return threadIdx.x & 31; }
__device__ int twice(int v) { return 2 * v; }
__global__ void k() {
  const int lane = threadIdx.x % 32;
  show(lane);                      // a read-only local: its initializer
  show(threadIdx.x / 32);          // the warp
  show(lane + 3 - 1);              // + -
  show(lane * 5 / 2 % 7);          // * / %
  show((lane << 2) >> 1);          // << >>
  show((lane & 6) | (lane ^ 1));   // & | ^
  show(-lane);                     // unary minus
  show(~lane);                     // complement
  show(!lane);                     // logical not
  show(lane < 8);                  // comparisons
  show(lane >= 8 && lane != 20);   // && and !=
  show(lane == 3 || lane > 29);    // || and ==
  show(lane < 16 ? lane : 100);    // ?:
  show((unsigned char)(lane * 16)); // a cast that wraps
  show(my_lane() + twice(lane));   // one-line helpers, inlined
  show(__ballot_sync(0xffffffffu, lane < 5)); // a ballot of a known predicate
  show(sizeof(int) + lane);        // a constant folded by clang
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneEvaluator Eval(*FU, context());
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 17u);
  unsigned W = 3;
  expectLanes(Eval, E[0], W, [](int L) { return L; });
  expectLanes(Eval, E[1], W, [&](int) { return W; });
  expectLanes(Eval, E[2], W, [](int L) { return L + 2; });
  expectLanes(Eval, E[3], W, [](int L) { return L * 5 / 2 % 7; });
  expectLanes(Eval, E[4], W, [](int L) { return (L << 2) >> 1; });
  expectLanes(Eval, E[5], W, [](int L) { return (L & 6) | (L ^ 1); });
  expectLanes(Eval, E[6], W, [](int L) { return -L; });
  expectLanes(Eval, E[7], W, [](int L) { return ~L; });
  expectLanes(Eval, E[8], W, [](int L) { return !L; });
  expectLanes(Eval, E[9], W, [](int L) { return L < 8; });
  expectLanes(Eval, E[10], W, [](int L) { return L >= 8 && L != 20; });
  expectLanes(Eval, E[11], W, [](int L) { return L == 3 || L > 29; });
  expectLanes(Eval, E[12], W, [](int L) { return L < 16 ? L : 100; });
  expectLanes(Eval, E[13], W, [](int L) { return (unsigned char)(L * 16); });
  expectLanes(Eval, E[14], W, [](int L) { return L + 2 * L; });
  expectLanes(Eval, E[15], W, [](int) { return 0x1f; });
  expectLanes(Eval, E[16], W, [](int L) { return 4 + L; });
}

TEST_F(LaneEvaluatorTest, KnownBlocksGiveEachRegister) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
__global__ void k() {
  show(threadIdx.x);
  show(threadIdx.y);
  show(blockDim.x);
  show(threadIdx.x + threadIdx.y * blockDim.x); // the linear index
  show(blockIdx.x);
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneEvaluator Eval(*FU, context());
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 5u);
  // An unknown block: threadIdx.x is 32 * W + L, threadIdx.y unknown.
  expectLanes(Eval, E[0], 2, [](int L) { return 64 + L; });
  EXPECT_FALSE(Eval.valueIn(E[1], 0, 0));
  // A 16x2 block: warp 0 holds two rows.
  Eval.setBlock(BlockExtents{16, 2, 1});
  expectLanes(Eval, E[0], 0, [](int L) { return L % 16; });
  expectLanes(Eval, E[1], 0, [](int L) { return L / 16; });
  expectLanes(Eval, E[2], 0, [](int) { return 16; });
  expectLanes(Eval, E[3], 0, [](int L) { return L; });
  // Warp 1 is the first warp of block 1.
  expectLanes(Eval, E[4], 1, [](int) { return 1; });
  // A 48-thread block: its second warp has 16 lanes.
  Eval.setBlock(BlockExtents{48, 1, 1});
  EXPECT_EQ(Eval.liveLanes(0), AllLanes);
  EXPECT_EQ(Eval.liveLanes(1), 0xffffu);
  EXPECT_EQ(Eval.liveLanes(2), AllLanes); // block 1, warp 0
}

TEST_F(LaneEvaluatorTest, CooperativeGroupsRanksAndCollectives) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(float *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(cg::this_thread_block());
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(cg::this_thread_block());
  show(warp.thread_rank());
  show(half.thread_rank());
  show(quad.thread_rank());
  cg::coalesced_group active = cg::coalesced_threads();
  show(active.thread_rank());
  float v = out[threadIdx.x];
  v += half.shfl_down(v, 3);
  v += cg::reduce(quad, v, cg::plus<float>());
  v += active.shfl(v, 0);
  warp.sync();
  out[threadIdx.x] = v;
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneEvaluator Eval(*FU, context());
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 4u);
  // A tile's rank is the lane's within its tile; a coalesced group's
  // counts the lanes that formed it, which the lane does not tell.
  expectLanes(Eval, E[0], 0, [](int L) { return L; });
  expectLanes(Eval, E[1], 0, [](int L) { return L % 16; });
  expectLanes(Eval, E[2], 0, [](int L) { return L % 4; });
  EXPECT_FALSE(Eval.valueIn(E[3], 5, 0));
  // The collectives, as the intrinsics they run on the group's lanes.
  std::vector<GroupCollective> Groups;
  for (const Stmt *S : stmtsIn("k", [](const Stmt *S) {
         const auto *Call = dyn_cast<CallExpr>(S);
         return Call && matchGroupCollective(Call);
       }))
    Groups.push_back(*matchGroupCollective(cast<CallExpr>(S)));
  ASSERT_EQ(Groups.size(), 4u);
  EXPECT_EQ(Groups[0].Spelling, "thread_block_tile<16>::shfl_down");
  EXPECT_EQ(Groups[0].TileWidth, 16u);
  EXPECT_EQ(Groups[0].Use.Info->Name, "__shfl_down_sync");
  EXPECT_FALSE(Groups[0].Use.ImmediateMask); // the mask of its own tile
  EXPECT_EQ(lineOf(collectiveOperand(Groups[0].Use, CollectiveInfo::LaneArg)),
            lineOf(Groups[0].Use.Site));
  EXPECT_FALSE(collectiveOperand(Groups[0].Use, CollectiveInfo::WidthArg));
  EXPECT_EQ(Groups[1].Spelling, "cooperative_groups::reduce");
  EXPECT_EQ(Groups[1].TileWidth, 4u);
  EXPECT_FALSE(collectiveOperand(Groups[1].Use, CollectiveInfo::LaneArg));
  EXPECT_EQ(Groups[2].Spelling, "coalesced_group::shfl");
  EXPECT_EQ(Groups[2].TileWidth, 0u);
  EXPECT_EQ(Groups[3].Spelling, "thread_block_tile<32>::sync"); // static
  EXPECT_EQ(Groups[3].Use.ImmediateMask, 0xffffffffu);
  // The segments a tile's lanes belong to.
  EXPECT_EQ(segmentsOf(0x00ff00ffu, 16), 0xffffffffu);
  EXPECT_EQ(segmentsOf(0x0000000fu, 8), 0x000000ffu);
  EXPECT_EQ(segmentsOf(0x00010000u, 4), 0x000f0000u);
  EXPECT_EQ(segmentsOf(0u, 4), 0u);
}

TEST_F(LaneEvaluatorTest, RuntimeValuesAndDataAreNamedAndBindable) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
struct Args { int n; };
__global__ void k(const int *in, int n, Args a) {
  const int lane = threadIdx.x % 32;
  show(lane < n);
  show(lane < a.n);
  show(in[threadIdx.x] > 0);
  show((threadIdx.x < n ? in[threadIdx.x] : 0) > 0);
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneEvaluator Eval(*FU, context());
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 4u);
  for (const Expr *X : E)
    EXPECT_FALSE(Eval.valueIn(X, 0, 0));
  EvaluationGaps G = Eval.gapsOf(E[0], 0, 0);
  ASSERT_EQ(G.Runtime.size(), 1u);
  EXPECT_TRUE(G.Data.empty());
  Eval.bindRuntimeValue(G.Runtime[0].Key, 7);
  expectLanes(Eval, E[0], 0, [](int L) { return L < 7; });
  // A member of a parameter read the same way twice is one value.
  EvaluationGaps M = Eval.gapsOf(E[1], 0, 0);
  ASSERT_EQ(M.Runtime.size(), 1u);
  EXPECT_NE(M.Runtime[0].Key, G.Runtime[0].Key);
  // A per-lane load is data, not a runtime value.
  EvaluationGaps D = Eval.gapsOf(E[2], 0, 0);
  EXPECT_TRUE(D.Runtime.empty());
  ASSERT_EQ(D.Data.size(), 1u);
  // A ?: whose test is unknown: why is in the test and in its arms.
  Eval.bindRuntimeValue(G.Runtime[0].Key, std::nullopt);
  EvaluationGaps C = Eval.gapsOf(E[3], 0, 0);
  EXPECT_EQ(C.Runtime.size(), 1u);
  EXPECT_EQ(C.Data.size(), 1u);
}

TEST_F(LaneEvaluatorTest, KeptLanesFollowTheBindingsTheyRead) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
__device__ void low();
__device__ void first();
__global__ void k(int n, int m) {
  const int t = threadIdx.x;
  show(t < n);
  show(t + m < n);
  const int g = blockIdx.x * n + t;
  show(g < n * m);
  show((t + m) * 3 - (n & 7) > 40);
  const unsigned u = threadIdx.x;
  show<int>(n * 2 - u); // an unsigned operator converted to int
  if (t < 40)
    first();
}
__global__ void lanes() {
  if (threadIdx.x % 32 < 20)
    low();
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneReach Reach(*FU, context());
  LaneEvaluator &Eval = Reach.evaluator();
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 5u);
  // The operators converted to another integer type (g's initializer, the
  // last show's argument and its `n * 2`) are asked as they are,
  // conversion and all.
  llvm::append_range(E, convertedOperators());
  ASSERT_EQ(E.size(), 8u);
  EvaluationGaps OfN = Eval.gapsOf(E[0], 0, 0), Both = Eval.gapsOf(E[1], 0, 0);
  ASSERT_EQ(OfN.Runtime.size(), 1u);
  ASSERT_EQ(Both.Runtime.size(), 2u);
  uint64_t N = OfN.Runtime[0].Key;
  uint64_t M = Both.Runtime[Both.Runtime[0].Key == N ? 1 : 0].Key;
  // Each comparison's lanes as the evaluator gives them, asked again and
  // again as the witness search does: a kept answer is reused only while
  // what the comparison reads is bound as it was, and an operand's lanes
  // (an operator's, a read-only local's initializer's) only while what
  // that operand reads is.
  auto Expected = [&](const Expr *C, uint64_t Warp) {
    LaneReach::Outcomes O;
    for (unsigned L = 0; L < 32; ++L)
      if (std::optional<int64_t> V = Eval.valueIn(C, L, Warp))
        (*V ? O.True : O.False) |= 1u << L;
    return O;
  };
  // In a block of 64 threads blockIdx.x is known too (warps 2 and 3 are
  // block 1's).
  for (std::optional<BlockExtents> B :
       {std::optional<BlockExtents>(), std::optional(BlockExtents{64, 1, 1})}) {
    Eval.setBlock(B);
    for (int64_t NV : {7, 40, 7, 100})
      for (int64_t MV : {0, 3, 0})
        for (uint64_t Warp : {0, 1, 3}) {
          Eval.bindRuntimeValue(N, NV);
          Eval.bindRuntimeValue(M, MV);
          for (const Expr *C : E) {
            LaneReach::Outcomes Want = Expected(C, Warp);
            LaneReach::Outcomes Got = Reach.outcomesOf(C, Warp);
            EXPECT_EQ(Got.True, Want.True)
                << lineOf(C) << ": " << NV << " " << MV << " " << Warp;
            EXPECT_EQ(Got.False, Want.False)
                << lineOf(C) << ": " << NV << " " << MV << " " << Warp;
            LaneValues Lanes = Reach.valuesOf(C, Warp);
            for (unsigned L = 0; L < 32; ++L)
              EXPECT_EQ(Lanes[L], Eval.valueIn(C, L, Warp))
                  << lineOf(C) << ": " << NV << " " << MV << " " << Warp
                  << " lane " << L;
          }
        }
  }
  Eval.bindRuntimeValue(N, std::nullopt);
  Eval.bindRuntimeValue(M, std::nullopt);
  // In a block of 48 threads warp 1 holds lanes 0..15. A branch that reads
  // threadIdx.x beyond the lane is followed in each warp; where none does,
  // a warp's lanes are another's, cut to those that exist.
  Eval.setBlock(BlockExtents{48, 1, 1});
  EXPECT_EQ(Reach.mayReach(callOf("first"), 0), AllLanes);
  EXPECT_EQ(Reach.mayReach(callOf("first"), 1), 0xffu);
  const FunctionUniformity *Lanes = uniformity("lanes");
  ASSERT_TRUE(Lanes);
  LaneReach ByLane(*Lanes, context());
  ByLane.evaluator().setBlock(BlockExtents{48, 1, 1});
  EXPECT_EQ(ByLane.mayReach(callOf("low", "lanes"), 1), 0xffffu);
  EXPECT_EQ(ByLane.mayReach(callOf("low", "lanes"), 0), 0xfffffu);
  ByLane.evaluator().setBlock(BlockExtents{4, 1, 1});
  EXPECT_EQ(ByLane.mayReach(callOf("low", "lanes"), 0), 0xfu);
  EXPECT_EQ(ByLane.mayReach(callOf("low", "lanes"), 1), 0xfu);
}

TEST_F(LaneEvaluatorTest, WarpsMovedFromTheFirstHoldItsLanesMovedExactly) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
__global__ void k(int n) {
  const int t = threadIdx.x;
  const unsigned u = threadIdx.x;
  show(2 * t - (t & (n - 1))); // a bitonic step's position
  show((t + n) & 63);          // carries out of the mask in some lanes
  show((t | 5) ^ n);
  show(t & ~31);
  show(t * n + 7);
  show(t << 3);
  show(u - 40u);
  show(u << 26);
  show(3 << t);
  show(t * t);
  show(t / 3);
  show(t % 48);
  long long wide = u * 100000000u; // widened after wrapping in 32 bits
  show(wide);
  short narrow = t * 1000;
  show(narrow);
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneReach Reach(*FU, context());
  LaneEvaluator &Eval = Reach.evaluator();
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 14u);
  // The initializers of wide and narrow, conversions and all.
  llvm::append_range(E, convertedOperators());
  ASSERT_EQ(E.size(), 16u);
  // n, and n - 1 (a runtime value of its own), are given each value.
  std::set<uint64_t> Runtime;
  for (const Expr *X : E)
    for (const auto &Gap : Eval.gapsOf(X, 0, 0).Runtime)
      Runtime.insert(Gap.Key);
  ASSERT_EQ(Runtime.size(), 2u);
  const std::vector<uint64_t> Warps = {0, 1, 2, 3, 7, 15, uint64_t(1) << 20};
  const int64_t Values[] = {1, 16, 32, 64, 0, 40, -3};
  // Every move claimed is checked against the warp's own lanes; Claims
  // counts them by expression, in the unknown block.
  std::vector<unsigned> Claims(E.size());
  for (std::optional<BlockExtents> B :
       {std::optional<BlockExtents>(), std::optional(BlockExtents{64, 1, 1}),
        std::optional(BlockExtents{32, 4, 1})}) {
    Eval.setBlock(B);
    for (int64_t NV : Values) {
      for (uint64_t Key : Runtime)
        Eval.bindRuntimeValue(Key, NV);
      for (size_t X = 0; X < E.size(); ++X) {
        LaneReach::WarpShifts Shifts = Reach.shiftsOf(E[X], Warps);
        ASSERT_EQ(Shifts.size(), Warps.size());
        LaneValues First = Reach.valuesOf(E[X], 0);
        for (size_t K = 1; K < Warps.size(); ++K) {
          if (!Shifts[K])
            continue;
          Claims[X] += !B;
          LaneValues Want =
              moved(First, *Shifts[K], Eval.intFormat(E[X]->getType()));
          LaneValues Got = Reach.valuesOf(E[X], Warps[K]);
          for (unsigned L = 0; L < 32; ++L)
            EXPECT_EQ(Got[L], Want[L])
                << lineOf(E[X]) << ": n " << NV << " warp " << Warps[K]
                << " lane " << L << " moved by " << *Shifts[K];
        }
      }
    }
  }
  // In the unknown block sample warp W is threads 32W... of dimension x,
  // so threadIdx.x moves by 32W. Of 6 warps and 7 values of n:
  // - the mask n - 1 (given each value too) keeps or drops every bit the
  //   move touches, but for 32 and 64 (a bit at or above the move's
  //   lowest) only where the move is a multiple of 64 or 128, for 40 of 64;
  // - & 63 moves where the move is a multiple of 64 (warps 2 and 1 << 20),
  //   and elsewhere where no lane carries into bit 6 (n = 0, 64) or every
  //   lane does (n = 32);
  // - ^ n where n has no bit at or above the move's lowest.
  const unsigned Want[] = {
      6 * 4 + 2 + 1 + 2, 7 * 2 + 3 * 4, 3 * 6 + 2 + 1 + 2, 42, 42, 42, 42, 42,
      // a moving shift amount, a product of two moving values, a division
      // and a remainder are not followed
      0, 0, 0, 0,
      // wide: the 32-bit product wraps in some lanes of warps 1 and 2 and
      // in none of the others; narrow: a 16-bit value moves, wrapped
      28, 42,
      // the same two initializers, as conversions of their operators
      28, 42};
  for (size_t X = 0; X < E.size(); ++X)
    EXPECT_EQ(Claims[X], Want[X]) << lineOf(E[X]);
}

TEST_F(LaneEvaluatorTest, LanesAShapeAnswersAreKeptAcrossItsCounters) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
__global__ void k(int n) {
  for (int loop = 0; loop < 4; ++loop) {
    const int tid = loop * 64 + threadIdx.x;
    show(2 * tid + 1);
    show(tid < n);
  }
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneReach Reach(*FU, context());
  LaneEvaluator &Eval = Reach.evaluator();
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 2u);
  // `tid` is a thread index moved by whole warps: the evaluator answers it
  // by that shape where the block has whole warps in x, whatever `loop`
  // is, so `loop` is an input only in other blocks.
  LaneReach::Inputs In = Reach.inputsOf({E[0]});
  auto Names = [](llvm::ArrayRef<const VarDecl *> Vars) {
    std::set<std::string> Out;
    for (const VarDecl *VD : Vars)
      Out.insert(VD->getNameAsString());
    return Out;
  };
  EXPECT_EQ(Names(In.Vars), std::set<std::string>{});
  EXPECT_EQ(Names(In.ShapedVars),
            (std::set<std::string>{"tid", "loop", "threadIdx"}));
  EvaluationGaps Gaps = Eval.gapsOf(E[1], 0, 0);
  ASSERT_EQ(Gaps.Runtime.size(), 1u);
  const VarDecl *Loop = nullptr;
  for (const VarDecl *VD : In.ShapedVars)
    if (VD->getName() == "loop")
      Loop = VD;
  // Kept answers stay right as the counter moves, in blocks where the
  // shape answers and where the initializer does.
  for (std::optional<BlockExtents> B :
       {std::optional<BlockExtents>(), std::optional(BlockExtents{64, 1, 1}),
        std::optional(BlockExtents{48, 1, 1}),
        std::optional(BlockExtents{32, 2, 1})}) {
    Eval.setBlock(B);
    for (int64_t L : {0, 1, 3, 1})
      for (int64_t N : {10, 70})
        for (uint64_t Warp : {0, 1, 2}) {
          Eval.bind(Loop, L);
          Eval.bindRuntimeValue(Gaps.Runtime[0].Key, N);
          for (const Expr *X : E) {
            LaneValues Lanes = Reach.valuesOf(X, Warp);
            LaneReach::Outcomes O = Reach.outcomesOf(X, Warp);
            for (unsigned Lane = 0; Lane < 32; ++Lane) {
              std::optional<int64_t> Want = Eval.valueIn(X, Lane, Warp);
              EXPECT_EQ(Lanes[Lane], Want)
                  << lineOf(X) << ": loop " << L << " n " << N << " warp "
                  << Warp << " lane " << Lane;
              EXPECT_EQ(bool(O.True >> Lane & 1), Want && *Want)
                  << lineOf(X) << ": loop " << L << " n " << N;
            }
          }
        }
  }
}

TEST_F(LaneEvaluatorTest, LanesAskedInAnyOrderGetTheirOwnValues) {
  ASSERT_TRUE(analyze(std::string(Prelude) + R"cu(
__global__ void k(int n) {
  const int lane = threadIdx.x % 32;
  const int w = threadIdx.x / 32;
  show(w * n + lane);
  show(((1u << lane) - 1) & __ballot_sync(0xffffffffu, lane < 9));
}
)cu"));
  const FunctionUniformity *FU = uniformity("k");
  ASSERT_TRUE(FU);
  LaneEvaluator Eval(*FU, context());
  std::vector<const Expr *> E = shown();
  ASSERT_EQ(E.size(), 2u);
  uint64_t N = Eval.gapsOf(E[0], 0, 0).Runtime.front().Key;
  // `w * n` is computed once per warp and binding and shared by the
  // lanes; the ballot evaluates its predicate in every lane, and the lane
  // asked next must not get the value of the lane that asked before.
  for (int64_t NV : {5, 9})
    for (uint64_t Warp : {2, 3, 2}) {
      Eval.bindRuntimeValue(N, NV);
      for (unsigned L : {7u, 0u, 31u, 7u, 16u}) {
        EXPECT_EQ(Eval.valueIn(E[0], L, Warp), int64_t(Warp) * NV + L)
            << "lane " << L << " warp " << Warp << " n " << NV;
        EXPECT_EQ(Eval.valueIn(E[1], L, Warp),
                  int64_t(((1ull << L) - 1) & 0x1ffu))
            << "lane " << L;
      }
    }
}

TEST(IntegerOpsTest, SumsSplitIntoScaledTerms) {
  EXPECT_EQ(additiveScales(BO_Add), std::make_pair(int64_t(1), int64_t(1)));
  EXPECT_EQ(additiveScales(BO_Sub), std::make_pair(int64_t(1), int64_t(-1)));
  EXPECT_EQ(additiveScales(BO_Mul), std::nullopt);
  EXPECT_EQ(additiveScales(BO_Shl), std::nullopt);
}

TEST(IntegerOpsTest, ReductionOperatorsFoldInAnyOrder) {
  for (BinaryOperatorKind Op : {BO_Add, BO_Mul, BO_And, BO_Or, BO_Xor})
    EXPECT_TRUE(isReductionOperator(Op));
  for (BinaryOperatorKind Op : {BO_Sub, BO_Div, BO_Shl, BO_LT, BO_Assign})
    EXPECT_FALSE(isReductionOperator(Op));
  // A compound assignment folds with the operator it applies.
  EXPECT_TRUE(isReductionOperator(underlyingOperator(BO_XorAssign)));
  EXPECT_FALSE(isReductionOperator(underlyingOperator(BO_SubAssign)));
}

/// The witness of the first call to \p Name in \p Fn, accepting the first.
static std::optional<LaneWitness> witnessAt(WarpAnalysis &WA,
                                            const FunctionUniformity &FU,
                                            const Stmt *At,
                                            std::vector<BlockExtents> Shapes) {
  LaneReach Reach(FU, WA.context());
  WitnessSearch Search(Reach, Shapes);
  return Search.find(At, FU.divergenceAt(At),
                     [](const LaneWitness &) { return true; });
}

TEST_F(LaneEvaluatorTest, WitnessesByTier) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void proven(float *out) {
  const int lane = threadIdx.x % 32;
  if (lane < 16)
    out[0] = __ballot_sync(0xffffffff, 1);
}
__global__ void conditional(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[0] = __ballot_sync(0xffffffff, 1);
}
__global__ void data(float *out, const float *in) {
  if (in[threadIdx.x] > 0)
    out[0] = __ballot_sync(0xffffffff, 1);
}
__global__ void launched(float *out) {
  if (threadIdx.x < 48)
    out[0] = __ballot_sync(0xffffffff, 1);
}
__global__ void whole_warps(float *out) {
  if (threadIdx.x < 64) // whole warps in every block
    out[0] = __ballot_sync(0xffffffff, 1);
}
void host() { launched<<<1, 64>>>(nullptr); }
)cu"));
  WarpAnalysis &WA = analysis();
  auto At = [&](llvm::StringRef Fn) {
    return stmtsIn(Fn,
                   [](const Stmt *S) { return matchCollective(S).has_value(); })
        .front();
  };
  std::optional<LaneWitness> P =
      witnessAt(WA, *uniformity("proven"), At("proven"), {});
  ASSERT_TRUE(P);
  EXPECT_EQ(P->T, Tier::Proven);
  EXPECT_EQ(P->Arrive, 0xffffu);

  std::optional<LaneWitness> C =
      witnessAt(WA, *uniformity("conditional"), At("conditional"), {});
  ASSERT_TRUE(C);
  EXPECT_EQ(C->T, Tier::Conditional);
  EXPECT_EQ(C->Condition, "is not a multiple of 32");

  std::optional<LaneWitness> D =
      witnessAt(WA, *uniformity("data"), At("data"), {});
  ASSERT_TRUE(D);
  EXPECT_EQ(D->T, Tier::Data);
  EXPECT_TRUE(D->DataLoad);

  // In a 64-thread block, threadIdx.x < 48 splits warp 1.
  std::optional<LaneWitness> L =
      witnessAt(WA, *uniformity("launched"), At("launched"), {{64, 1, 1}});
  ASSERT_TRUE(L);
  EXPECT_EQ(L->T, Tier::Proven);
  EXPECT_EQ(L->Arrive, 0xffffu);

  // No lane arithmetic splits a warp at threadIdx.x < 64: only a potential
  // witness is left.
  std::optional<LaneWitness> U =
      witnessAt(WA, *uniformity("whole_warps"), At("whole_warps"), {});
  ASSERT_TRUE(U);
  EXPECT_EQ(U->T, Tier::Potential);
}

TEST_F(LaneEvaluatorTest, AbsentLanesExitWaitOrPairUp) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void exits(unsigned *out) {
  const int lane = threadIdx.x % 32;
  if (lane < 16)
    out[0] = __ballot_sync(0xffffffff, 1);
  out[1] = 0;
}
__global__ void barrier(unsigned *out) {
  const int lane = threadIdx.x % 32;
  if (lane < 16)
    out[0] = __ballot_sync(0xffffffff, 1);
  __syncthreads();
}
__global__ void pairs(unsigned *out) {
  const int lane = threadIdx.x % 32;
  if (lane < 16)
    out[0] = __ballot_sync(0xffffffff, 1);
  else
    out[1] = __ballot_sync(0xffffffff, 0);
}
__device__ void helper(unsigned *out, int n) {
  if (threadIdx.x >= n)
    return;
  out[0] = __ballot_sync(0xffffffff, 1);
}
__global__ void caller_syncs(unsigned *out, int n) {
  helper(out, n);
  __syncthreads();
}
)cu"));
  WarpAnalysis &WA = analysis();
  auto FateIn = [&](llvm::StringRef Fn) {
    const FunctionUniformity *FU = uniformity(Fn);
    const Stmt *At = stmtsIn(Fn, [](const Stmt *S) {
                       return matchCollective(S).has_value();
                     }).front();
    std::optional<CollectiveUse> Use = matchCollective(At);
    return fateOf(
        *FU, At, FU->divergenceAt(At), &*Use, std::nullopt, WA,
        [&](const FunctionDecl *FD) { return WA.fateAfterReturn(FD); });
  };
  EXPECT_EQ(FateIn("exits").F, AbsentFate::Exits);
  EXPECT_EQ(FateIn("barrier").F, AbsentFate::WaitAtBarrier);
  EXPECT_EQ(FateIn("pairs").F, AbsentFate::PairsUp);
  // Lanes that return from the helper wait at the caller's barrier.
  EXPECT_EQ(FateIn("helper").F, AbsentFate::WaitAtBarrier);
}

} // namespace
} // namespace clang::warp::test
