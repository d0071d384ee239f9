//===--- ReachingDefinitionsTest.cpp - which assignments reach a use ------===//
//
// Snippets define one local, `m`, on lines of their own, and read it with
// `use(m)`; a `// reaches: L1 L2` comment on a use's line lists the lines of
// the definitions that must reach it (and no others). A compound assignment
// (`m |= x`) writes part of `m`. A second local, `n`, is defined alongside
// (solved together with `m`) and must never change what reaches `m`.
//
//===----------------------------------------------------------------------===//

#include "analysis/ReachingDefinitions.h"
#include "AnalysisTestHarness.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <set>

namespace clang::warp::test {
namespace {

class ReachingDefinitionsTest : public AnalysisTest {
protected:
  /// The expected definition lines of each annotated use line of \p Code.
  static std::map<unsigned, std::set<unsigned>> expected(llvm::StringRef Code) {
    std::map<unsigned, std::set<unsigned>> Out;
    llvm::SmallVector<llvm::StringRef> Lines;
    Code.split(Lines, '\n');
    for (unsigned I = 0; I < Lines.size(); ++I) {
      auto [Before, After] = Lines[I].split("// reaches:");
      if (Before.size() == Lines[I].size())
        continue;
      std::set<unsigned> &Defs = Out[I + 1];
      llvm::SmallVector<llvm::StringRef> Numbers;
      After.split(Numbers, ' ', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef N : Numbers)
        Defs.insert(std::stoi(N.str()));
    }
    return Out;
  }

  /// Checks every annotated use of `m` in the kernel `k` of \p Code.
  void check(llvm::StringRef Code) {
    ASSERT_TRUE(analyze(Code));
    const FunctionUniformity *FU = uniformity("k");
    ASSERT_TRUE(FU);
    ReachingDefinitions Reaching(FU->cfg(), FU->elements());
    const VarDecl *M = nullptr, *N = nullptr;
    FU->forEachStmt([&](const Stmt *S) {
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
          if (VD->getName() == "m")
            M = VD;
          if (VD->getName() == "n")
            N = VD;
        }
    });
    ASSERT_TRUE(M) << "no `m` in the snippet";
    std::vector<unsigned> DefLines;
    std::map<unsigned, const Stmt *> Uses;
    FU->forEachStmt([&](const Stmt *S) {
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        const Decl *D = DS->getSingleDecl();
        if (D == N)
          Reaching.define(N, S);
        if (D == M) {
          Reaching.define(M, S);
          DefLines.push_back(lineOf(S));
        }
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        const auto *Ref =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        if (!BO->isAssignmentOp() || !Ref)
          return;
        bool Kills = BO->getOpcode() == BO_Assign;
        if (Ref->getDecl() == N)
          Reaching.define(N, S, Kills);
        if (Ref->getDecl() == M) {
          Reaching.define(M, S, Kills);
          DefLines.push_back(lineOf(S));
        }
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        if (Callee && Callee->getName() == "use")
          Uses[lineOf(S)] = S;
      }
    });
    std::map<unsigned, std::set<unsigned>> Expected = expected(Code);
    ASSERT_FALSE(Expected.empty()) << "no `// reaches:` annotations";
    for (const auto &[Line, Defs] : Expected) {
      ASSERT_TRUE(Uses.count(Line)) << "line " << Line << ": no use(m)";
      std::set<unsigned> Got;
      for (unsigned Index : Reaching.reaching(M, Uses[Line]))
        Got.insert(DefLines[Index]);
      EXPECT_EQ(Got, Defs) << "line " << Line;
    }
  }
};

TEST_F(ReachingDefinitionsTest, BranchesJoinTheirDefinitions) {
  check(R"cu(
__device__ void use(unsigned);
__global__ void k(int *p) {
  unsigned m = __activemask();
  use(m); // reaches: 4
  if (p[0] > 0)
    m = __ballot_sync(m, p[1]);
  use(m); // reaches: 4 7
  if (threadIdx.x % 32 < 8)
    m = 1;
  else
    m = 2;
  use(m); // reaches: 10 12
}
)cu");
}

TEST_F(ReachingDefinitionsTest, LaterDefinitionInTheSameBlockDoesNotReach) {
  check(R"cu(
__device__ void use(unsigned);
__global__ void k(int *p) {
  unsigned m = __activemask();
  if (threadIdx.x % 32 < 16) {
    use(m); // reaches: 4
    m = __activemask();
    use(m); // reaches: 7
  }
  use(m); // reaches: 4 7
}
)cu");
}

TEST_F(ReachingDefinitionsTest, LoopCarriesItsDefinitionAround) {
  check(R"cu(
__device__ void use(unsigned);
__global__ void k(int *p, int n) {
  unsigned m = __activemask();
  for (int i = 0; i < n; ++i) {
    use(m); // reaches: 4 8
    if (p[i] > 0)
      m = __ballot_sync(m, p[i] > 1);
  }
  use(m); // reaches: 4 8
  while (p[0]) {
    m = __activemask();
    use(m); // reaches: 12
  }
}
)cu");
}

TEST_F(ReachingDefinitionsTest, ReadInItsOwnAssignmentSeesThePreviousValue) {
  check(R"cu(
__device__ void use(unsigned);
__device__ unsigned next(unsigned);
__global__ void k(int *p) {
  unsigned m = __activemask();
  m = next((use(m), m)); // reaches: 5
  use(m); // reaches: 6
}
)cu");
}

TEST_F(ReachingDefinitionsTest, PartialWriteKeepsWhatReachedIt) {
  check(R"cu(
__device__ void use(unsigned);
__global__ void k(int *p) {
  unsigned m = 0;
  if (p[0] > 0)
    m = 1u << (threadIdx.x % 32);
  m |= __activemask();
  use(m); // reaches: 4 6 7
  m = 2;
  m |= 4;
  use(m); // reaches: 9 10
}
)cu");
}

TEST_F(ReachingDefinitionsTest, AnotherVariableSolvedAlongsideChangesNothing) {
  check(R"cu(
__device__ void use(unsigned);
__global__ void k(int *p, int c) {
  unsigned n = 1;
  unsigned m = __activemask();
  for (int i = 0; i < c; ++i) {
    n = 2;
    use(m); // reaches: 5 10
    if (p[i] > 0)
      m = __ballot_sync(m, p[i] > 1);
    n = 3;
  }
  use(m); // reaches: 5 10
  n = 4;
  m = 5;
  use(m); // reaches: 15
}
)cu");
}

} // namespace
} // namespace clang::warp::test
