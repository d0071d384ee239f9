//===--- MaskProvenanceTest.cpp - where a lane mask was made --------------===//
//
// Each snippet uses a mask at one collective; the tests ask MaskProvenance
// which definition reaches it stale, and check the traps where the lanes
// diverged but the mask still names exactly the lanes that arrive.
//
//===----------------------------------------------------------------------===//

#include "analysis/MaskProvenance.h"
#include "AnalysisTestHarness.h"
#include "analysis/LockPatterns.h"

namespace clang::warp::test {
namespace {

class MaskProvenanceTest : public AnalysisTest {
protected:
  /// The \p Nth call of \p Callee in the function \p Fn, in source order.
  const CallExpr *call(llvm::StringRef Fn, llvm::StringRef Callee,
                       unsigned Nth = 0) {
    const FunctionDecl *FD = function(Fn);
    const CallExpr *Found = nullptr;
    walkStmts(FD ? FD->getBody() : nullptr, [&](const Stmt *S) {
      if (const auto *C = dyn_cast<CallExpr>(S);
          C && !Found && calleeName(C) == Callee && Nth-- == 0)
        Found = C;
    });
    EXPECT_TRUE(Found) << "no call of " << Callee.str() << " in " << Fn.str();
    return Found;
  }
  /// The mask argument of the collective \p Use.
  const Expr *maskOf(const CallExpr *Use) {
    std::optional<CollectiveUse> C = matchCollective(Use);
    EXPECT_TRUE(C && C->Mask);
    return C && C->Mask ? C->Mask : nullptr;
  }
  /// The stale definition of the local mask \p Use reads, as \p P sees it.
  std::optional<StaleMaskDef> staleOf(MaskProvenance &P, const CallExpr *Use) {
    return P.staleDefinition(localRead(maskOf(Use)), Use, nullptr, context());
  }
  /// The stale definition of the local mask read by the first \p Collective
  /// of \p Fn, in words: "<line of the definition> <source> +<branches>",
  /// or "fresh".
  std::string stale(llvm::StringRef Fn, llvm::StringRef Collective) {
    const FunctionUniformity *FU = uniformity(Fn);
    const CallExpr *Use = call(Fn, Collective);
    if (!FU || !Use)
      return "?";
    const VarDecl *VD = localRead(maskOf(Use));
    EXPECT_TRUE(VD) << "the mask is no local";
    MaskProvenance Provenance(*FU);
    std::optional<StaleMaskDef> S =
        Provenance.staleDefinition(VD, Use, nullptr, context());
    if (!S)
      return "fresh";
    return std::to_string(lineOf(S->Def->At)) + " " +
           calleeName(S->Source).str() + " +" +
           std::to_string(S->Further.Branches.size());
  }
};

TEST_F(MaskProvenanceTest, ActivemaskBeforeALaneBranchIsStale) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out) {
  const int lane = threadIdx.x % 32;
  unsigned m = __activemask();
  float v = out[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(m, v, 1);
  out[threadIdx.x] = v;
}
)cu"));
  EXPECT_EQ(stale("k", "__shfl_sync"), "4 __activemask +1");
  MaskProvenance Provenance(*uniformity("k"));
  const CallExpr *Use = call("k", "__shfl_sync");
  std::optional<StaleMaskDef> S = staleOf(Provenance, Use);
  ASSERT_TRUE(S);
  EXPECT_EQ(lineOf(S->Further.Branches[0].Terminator), 6u);
  // Not a ballot: no predicate to compare with the branch; a recomputed
  // ballot runs over the mask itself.
  EXPECT_FALSE(isBallotOfBranchTest(*S, context()));
  EXPECT_EQ(lanesThatMade(S->Source, maskOf(Use), context()), maskOf(Use));
}

TEST_F(MaskProvenanceTest, BallotUsedWhereItsPredicateFails) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, const float *in) {
  float v = in[threadIdx.x];
  const bool p = v > 0.0f;
  const unsigned pos = __ballot_sync(0xffffffff, p);
  if (p)
    v *= 2.0f;
  else
    v = __shfl_sync(pos, v, 0);
  out[threadIdx.x] = v;
}
)cu"));
  EXPECT_EQ(stale("k", "__shfl_sync"), "5 __ballot_sync +1");
  MaskProvenance Provenance(*uniformity("k"));
  const CallExpr *Use = call("k", "__shfl_sync");
  std::optional<StaleMaskDef> S = staleOf(Provenance, Use);
  ASSERT_TRUE(S);
  EXPECT_TRUE(isBallotOfBranchTest(*S, context()));
  EXPECT_TRUE(Provenance.namesNoCaller(*S, context()));
  // A recomputed ballot runs over the ballot's own (constant) mask.
  const Expr *Over = lanesThatMade(S->Source, maskOf(Use), context());
  ASSERT_TRUE(Over);
  EXPECT_EQ(lineOf(Over), 5u);
  EXPECT_NE(Over, maskOf(Use));
}

TEST_F(MaskProvenanceTest, TestOfAValueChangedSinceTheBallotNamesCallers) {
  // The test reads `v` again after `v` changed: lanes that fail it now may
  // have passed it at the ballot, so the mask may name them.
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned pos = __ballot_sync(0xffffffff, v > 0.0f);
  v -= 1.0f;
  if (v > 0.0f)
    v *= 2.0f;
  else
    v = __shfl_sync(pos, v, 0);
  out[threadIdx.x] = v;
}
)cu"));
  MaskProvenance Provenance(*uniformity("k"));
  const CallExpr *Use = call("k", "__shfl_sync");
  std::optional<StaleMaskDef> S = staleOf(Provenance, Use);
  ASSERT_TRUE(S);
  EXPECT_TRUE(isBallotOfBranchTest(*S, context()));
  EXPECT_FALSE(Provenance.namesNoCaller(*S, context()));
}

TEST_F(MaskProvenanceTest, BallotOfAnotherConditionIsNoWrongSide) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, const float *in, unsigned over) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned pos = __ballot_sync(over + 1, v > 0.0f);
  if (lane < 16)
    v = __shfl_sync(pos, v, 0);
  out[threadIdx.x] = v;
}
)cu"));
  EXPECT_EQ(stale("k", "__shfl_sync"), "5 __ballot_sync +1");
  MaskProvenance Provenance(*uniformity("k"));
  const CallExpr *Use = call("k", "__shfl_sync");
  std::optional<StaleMaskDef> S = staleOf(Provenance, Use);
  ASSERT_TRUE(S);
  EXPECT_FALSE(isBallotOfBranchTest(*S, context()));
  EXPECT_FALSE(Provenance.namesNoCaller(*S, context()));
  // `over + 1` is neither a variable nor a constant: nothing to repeat.
  EXPECT_EQ(lanesThatMade(S->Source, maskOf(Use), context()), nullptr);
}

TEST_F(MaskProvenanceTest, BallotOfTheBranchConditionStaysFresh) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void then_side(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned low = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 16)
    v = __shfl_sync(low, v, 0);
  out[threadIdx.x] = v;
}
__global__ void else_side(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned high = __ballot_sync(0xffffffff, !(lane < 16));
  if (lane < 16)
    v *= 2.0f;
  else
    v = __shfl_sync(high, v, 16);
  out[threadIdx.x] = v;
}
__global__ void after_return(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned in_range = __ballot_sync(0xffffffff, i < n);
  if (!(i < n))
    return;
  out[i] = __shfl_sync(in_range, in[i], 0);
}
__global__ void split_condition(float *out, const float *in, int n) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  const unsigned both = __ballot_sync(0xffffffff, lane < 16 && lane > 2);
  if (lane < 16 && lane > 2)
    v = __shfl_sync(both, v, 3);
  out[threadIdx.x] = v;
}
)cu"));
  EXPECT_EQ(stale("then_side", "__shfl_sync"), "fresh");
  EXPECT_EQ(stale("else_side", "__shfl_sync"), "fresh");
  EXPECT_EQ(stale("after_return", "__shfl_sync"), "fresh");
  // && splits the condition into two branches of one `if`.
  EXPECT_EQ(stale("split_condition", "__shfl_sync"), "fresh");
}

TEST_F(MaskProvenanceTest, PeerGroupsStayWholeUnderABranchOnTheKey) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void on_key(int *out, const int *keys) {
  const int key = keys[threadIdx.x];
  int total = 0;
  const unsigned peers = __match_any_sync(0xffffffff, key);
  if (key % 4 == 1)
    total = __reduce_add_sync(peers, key);
  out[threadIdx.x] = total;
}
__global__ void on_lane(int *out, const int *keys) {
  const int lane = threadIdx.x % 32;
  const int key = keys[threadIdx.x];
  int total = 0;
  const unsigned peers = __match_any_sync(0xffffffff, key);
  if (lane & 1)
    total = __reduce_add_sync(peers, lane);
  out[threadIdx.x] = total;
}
)cu"));
  EXPECT_EQ(stale("on_key", "__reduce_add_sync"), "fresh");
  EXPECT_EQ(stale("on_lane", "__reduce_add_sync"), "14 __match_any_sync +1");
}

TEST_F(MaskProvenanceTest, NoFurtherDivergenceIsFresh) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void inside(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16) {
    unsigned m = __activemask();
    v = __shfl_sync(m, v, 1);
  }
  out[threadIdx.x] = v;
}
__global__ void uniform_branch(float *out, const float *in, int mode) {
  float v = in[threadIdx.x];
  unsigned m = __activemask();
  if (mode > 2)
    v = __shfl_sync(m, v, 1);
  out[threadIdx.x] = v;
}
__global__ void refreshed(float *out, const float *in, int n) {
  unsigned m = __activemask();
  for (int i = threadIdx.x; i < n; i += 32) {
    m = __activemask();
    out[i] = __shfl_sync(m, in[i], 0);
  }
}
)cu"));
  EXPECT_EQ(stale("inside", "__shfl_sync"), "fresh");
  EXPECT_EQ(stale("uniform_branch", "__shfl_sync"), "fresh");
  EXPECT_EQ(stale("refreshed", "__shfl_sync"), "fresh");
}

TEST_F(MaskProvenanceTest, ArithmeticOrUnknownProvenanceIsNotJudged) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void arithmetic(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  unsigned m = __activemask() & 0xffff;
  if (lane < 16)
    v = __shfl_sync(m, v, 1);
  out[threadIdx.x] = v;
}
__global__ void one_of_two(float *out, const float *in, unsigned given) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  unsigned m = __activemask();
  if (v > 0.0f)
    m = given;
  if (lane < 16)
    v = __shfl_sync(m, v, 1);
  out[threadIdx.x] = v;
}
)cu"));
  EXPECT_EQ(stale("arithmetic", "__shfl_sync"), "fresh");
  // One reaching definition is not a mask intrinsic: not ours to judge.
  EXPECT_EQ(stale("one_of_two", "__shfl_sync"), "fresh");
  // `__activemask() & 0xffff` is arithmetic on a mask: no intrinsic made it.
  const VarDecl *M = localRead(maskOf(call("arithmetic", "__shfl_sync")));
  ASSERT_TRUE(M);
  EXPECT_EQ(maskSource(M->getInit()), nullptr);
  const CallExpr *Active = call("arithmetic", "__activemask");
  EXPECT_EQ(maskSource(Active), Active);
}

TEST_F(MaskProvenanceTest, ReassignedParametersAreLocals) {
  ASSERT_TRUE(analyze(R"cu(
__device__ float f(unsigned given, unsigned kept, float v) {
  given = __activemask();
  return __shfl_sync(given, v, 0) + __shfl_sync(kept, v, 0);
}
__global__ void k(float *out) { out[0] = f(1u, 2u, 3.0f); }
)cu"));
  const FunctionDecl *F = function("f");
  ASSERT_TRUE(F);
  MaskProvenance Provenance(*uniformity("f"));
  EXPECT_TRUE(Provenance.isReassigned(F->getParamDecl(0)));
  EXPECT_FALSE(Provenance.isReassigned(F->getParamDecl(1)));
  // Parameters are no plain locals.
  EXPECT_EQ(localRead(maskOf(call("f", "__shfl_sync", 1))), nullptr);
}

TEST_F(MaskProvenanceTest, HelperBranchingOnALaneArgumentSplitsTheMask) {
  ASSERT_TRUE(analyze(R"cu(
__device__ void use(unsigned m, int by);
__global__ void k(const int *keys) {
  const int lane = threadIdx.x % 32;
  const int key = keys[threadIdx.x];
  use(__activemask(), lane);
  use(__match_any_sync(0xffffffff, key), key + 1);
  use(__match_any_sync(0xffffffff, key), lane);
  use(__ballot_sync(0xffffffff, lane < 16), lane);
  use(__ballot_sync(0xffffffff, true), lane);
}
)cu"));
  const FunctionUniformity &FU = *uniformity("k");
  auto Splits = [&](unsigned Nth, bool WithArgument = true) {
    const CallExpr *Use = call("k", "use", Nth);
    return Use && helperSplits(WithArgument ? Use->getArg(1) : nullptr,
                               maskSource(Use->getArg(0)), FU, context());
  };
  EXPECT_TRUE(Splits(0));
  EXPECT_FALSE(Splits(0, /*WithArgument=*/false));
  // A condition on the key keeps each peer group whole; the lane does not.
  EXPECT_FALSE(Splits(1));
  EXPECT_TRUE(Splits(2));
  // A ballot of a condition may name exactly the lanes the helper lets
  // through; a ballot of `true` names them all.
  EXPECT_FALSE(Splits(3));
  EXPECT_TRUE(Splits(4));
}

TEST_F(MaskProvenanceTest, ShuffleOfTheSidesLeaderReadsWithinTheBranch) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, const float *in) {
  float v = in[threadIdx.x];
  const bool p = v > 0.0f;
  const unsigned pos = __ballot_sync(0xffffffff, p);
  if (p)
    v = __shfl_sync(0xffffffff, v, __ffs(pos) - 1);
  else
    v = __shfl_sync(0xffffffff, v, __ffs(~pos) - 1);
  if (p)
    v += __shfl_sync(0xffffffff, v, __ffs(~pos) - 1);
  if (p)
    v += __shfl_sync(0xffffffff, v, 0);
  if (p)
    v += __reduce_add_sync(0xffffffff, 1);
  out[threadIdx.x] = v;
}
)cu"));
  const FunctionUniformity &FU = *uniformity("k");
  MaskProvenance Provenance(FU);
  auto Within = [&](llvm::StringRef Collective, unsigned Nth) {
    const CallExpr *Use = call("k", Collective, Nth);
    Divergence D = FU.divergenceAt(Use);
    EXPECT_EQ(D.Branches.size(), 1u);
    return Use && !D.Branches.empty() &&
           Provenance.readsWithinBranch(Use, D.Branches[0], context());
  };
  EXPECT_TRUE(Within("__shfl_sync", 0));
  EXPECT_TRUE(Within("__shfl_sync", 1));
  // The leader of the other side, and a lane the predicate may fail for.
  EXPECT_FALSE(Within("__shfl_sync", 2));
  EXPECT_FALSE(Within("__shfl_sync", 3));
  // A vote reads no other lane.
  EXPECT_TRUE(Within("__reduce_add_sync", 0));
}

TEST_F(MaskProvenanceTest, LeaderAndMaskFromTwoActivemaskCalls) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void two_calls(float *out, const float *in) {
  float v = in[threadIdx.x];
  const int leader = __ffs(__activemask()) - 1;
  v = __shfl_sync(__activemask(), v, leader);
  out[threadIdx.x] = v;
}
__global__ void one_local(float *out, const float *in) {
  float v = in[threadIdx.x];
  const unsigned active = __activemask();
  const int leader = __ffs(active) - 1;
  v = __shfl_sync(active, v, leader);
  out[threadIdx.x] = v;
}
__global__ void full_mask(float *out, const float *in) {
  float v = in[threadIdx.x];
  const int leader = __ffs(__activemask()) - 1;
  v = __shfl_sync(0xffffffff, v, leader);
  out[threadIdx.x] = v;
}
)cu"));
  auto Separate = [&](llvm::StringRef Fn) {
    MaskProvenance Provenance(*uniformity(Fn));
    std::optional<CollectiveUse> Use = matchCollective(call(Fn, "__shfl_sync"));
    EXPECT_TRUE(Use);
    return Use ? Provenance.separateActivemasks(*Use) : std::nullopt;
  };
  std::optional<std::pair<const CallExpr *, const CallExpr *>> Two =
      Separate("two_calls");
  ASSERT_TRUE(Two);
  EXPECT_EQ(Two->first, call("two_calls", "__activemask", 0));
  EXPECT_EQ(Two->second, call("two_calls", "__activemask", 1));
  EXPECT_FALSE(Separate("one_local"));
  EXPECT_FALSE(Separate("full_mask"));
}

TEST_F(MaskProvenanceTest, MaskLanesAreItsValueOrTheLanesThatMadeIt) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(float *out, const float *in) {
  const int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 8)
    return;
  const unsigned active = __activemask();
  const unsigned low = 0x0000ffffu;
  if (lane < 16) {
    v += __shfl_sync(active, v, 9);
    v += __shfl_sync(low, v, 9);
  }
  out[threadIdx.x] = v;
}
)cu"));
  const FunctionUniformity &FU = *uniformity("k");
  LaneReach &Reach = analysis().laneReach(FU);
  auto Lanes = [&](unsigned Nth, unsigned DeclLine) {
    const CallExpr *Use = call("k", "__shfl_sync", Nth);
    std::vector<const Stmt *> Decl = stmtsIn("k", [&](const Stmt *S) {
      return isa<DeclStmt>(S) && lineOf(S) == DeclLine;
    });
    EXPECT_EQ(Decl.size(), 1u);
    return Use && Decl.size() == 1
               ? maskLanes(Reach, Decl[0], maskOf(Use), 0, 0x0000ff00u)
               : LaneSet(0);
  };
  // __activemask() names the lanes that ran it: those that did not return.
  EXPECT_EQ(Lanes(0, 7), 0xffffff00u);
  EXPECT_EQ(Lanes(1, 8), 0x0000ffffu);
}

} // namespace
} // namespace clang::warp::test
