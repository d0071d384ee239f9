//===--- PostDominatorsTest.cpp - immediate post-dominators of a CFG ------===//
//
// PostDominators must give, block for block, what clang's CFGPostDomTree
// gives: the same blocks in the tree and the same immediate post-dominator
// (null for the virtual root). Each snippet's kernel `k` has a control-flow
// shape of its own.
//
//===----------------------------------------------------------------------===//

#include "analysis/PostDominators.h"
#include "AnalysisTestHarness.h"
#include "clang/Analysis/Analyses/Dominators.h"

namespace clang::warp::test {
namespace {

class PostDominatorsTest : public AnalysisTest {
protected:
  void expectSameAsClang(llvm::StringRef Code) {
    ASSERT_TRUE(analyze(Code));
    const FunctionUniformity *FU = uniformity("k");
    ASSERT_TRUE(FU);
    const CFG &Cfg = FU->cfg();
    PostDominators Ours(Cfg);
    CFGPostDomTree Clang(const_cast<CFG *>(&Cfg));
    for (const CFGBlock *B : Cfg) {
      auto *Node = Clang.getBase().getNode(const_cast<CFGBlock *>(B));
      EXPECT_EQ(Ours.contains(B), Node != nullptr)
          << "block B" << B->getBlockID();
      if (!Node || !Ours.contains(B))
        continue;
      const CFGBlock *Want =
          Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
      const CFGBlock *Got = Ours.immediate(B);
      EXPECT_EQ(Got, Want) << "ipdom of B" << B->getBlockID() << ": got B"
                           << (Got ? int(Got->getBlockID()) : -1) << ", want B"
                           << (Want ? int(Want->getBlockID()) : -1);
    }
  }
};

TEST_F(PostDominatorsTest, BranchesAndEarlyReturns) {
  expectSameAsClang(R"cu(
    __global__ void k(int *p, int n) {
      int t = threadIdx.x;
      if (t >= n) return;
      if (t % 2) p[t] = 1; else p[t] = 2;
      if (t < 4 && p[0] || n > 7) p[1] = t;
      p[2] = t ? 3 : 4;
    }
  )cu");
}

TEST_F(PostDominatorsTest, LoopsWithBreakAndContinue) {
  expectSameAsClang(R"cu(
    __global__ void k(int *p, int n) {
      for (int i = 0; i < n; ++i) {
        if (p[i] < 0) continue;
        for (int j = i; j < n; ++j) {
          if (p[j] == 7) break;
          p[j] += i;
        }
        while (p[i] > 10) p[i] /= 2;
        do { p[i]--; } while (p[i] > 3);
      }
    }
  )cu");
}

TEST_F(PostDominatorsTest, SwitchGotoAndPrunedBranch) {
  expectSameAsClang(R"cu(
    __global__ void k(int *p, int n) {
      switch (n) {
      case 0: p[0] = 1;
      case 1: p[1] = 2; break;
      case 2: goto out;
      default: p[2] = 3;
      }
      if (false) p[3] = 4;
      if (sizeof(int) == 4) p[4] = 5;
    out:
      p[5] = 6;
    }
  )cu");
}

TEST_F(PostDominatorsTest, NoReturnCalls) {
  expectSameAsClang(R"cu(
    __global__ void k(int *p, int n) {
      if (n < 0) __trap();
      if (n > 100) { p[0] = 1; __builtin_unreachable(); }
      p[1] = n;
    }
  )cu");
}

// Blocks that never reach the exit: the tree is LLVM's, with its own roots.
TEST_F(PostDominatorsTest, EndlessLoops) {
  expectSameAsClang(R"cu(
    __global__ void k(int *p, int n) {
      if (n == 3) {
        for (;;) { if (p[0]) p[1] = 2; else p[2] = 3; }
      }
      while (true) {
        if (p[3] == n) return;
        p[4]++;
      }
    }
  )cu");
  expectSameAsClang(R"cu(
    __global__ void k(volatile int *p) {
      while (p[0] == 0) {}
      for (;;) p[1] = 1;
    }
  )cu");
}

} // namespace
} // namespace clang::warp::test
