//===--- UnitAnalysesTest.cpp - the analysis as a value a unit owns -------===//
//
// No state outlives its owner: two units analysed in one process get the
// answers each gets alone, and a front end's facets are its own.
//
//===----------------------------------------------------------------------===//

#include "analysis/UnitAnalyses.h"
#include "AnalysisTestHarness.h"
#include "analysis/AtomicFacet.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::warp::test {
namespace {

class UnitAnalysesTest : public AnalysisTest {};

/// The definition named \p Name in \p Unit.
const FunctionDecl *definition(ASTUnit &Unit, llvm::StringRef Name) {
  for (const Decl *D : Unit.getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->getName() == Name && FD->hasBody())
        return FD;
  return nullptr;
}

/// Whether the branch of \p FD's first `if` diverges the warp.
bool firstBranchDiverges(WarpAnalysis &WA, const FunctionDecl *FD) {
  const FunctionUniformity *FU = WA.function(FD);
  const auto *Body = cast<CompoundStmt>(FD->getBody());
  for (const Stmt *S : Body->body())
    if (const auto *If = dyn_cast<IfStmt>(S))
      return FU && FU->divergenceAt(If->getThen()).isDiverged();
  return false;
}

constexpr char LaneBranch[] = R"cu(
__global__ void k(int *out) {
  if (threadIdx.x % 32 < 16)
    out[threadIdx.x] = 1;
}
)cu";
constexpr char BlockBranch[] = R"cu(
__device__ void add(int *p) { atomicAdd(p, 1); }
__global__ void k(int *out) {
  if (blockIdx.x == 0)
    out[threadIdx.x] = 1;
  add(out);
}
)cu";

TEST_F(UnitAnalysesTest, TwoUnitsInOneProcessGetTheirOwnAnswers) {
  std::unique_ptr<ASTUnit> A = parse(LaneBranch), B = parse(BlockBranch);
  ASSERT_TRUE(A && B);
  // Alone: each unit with an analysis of its own.
  bool AloneA, AloneB;
  {
    WarpAnalysis WA(A->getASTContext(), {});
    AloneA = firstBranchDiverges(WA, definition(*A, "k"));
  }
  {
    WarpAnalysis WB(B->getASTContext(), {});
    AloneB = firstBranchDiverges(WB, definition(*B, "k"));
  }
  EXPECT_TRUE(AloneA);
  EXPECT_FALSE(AloneB);
  // Together, through one front end's UnitAnalyses, interleaved.
  UnitAnalyses Shared;
  WarpAnalysis &SA = Shared.get(A->getASTContext(), {});
  WarpAnalysis &SB = Shared.get(B->getASTContext(), {});
  EXPECT_NE(&SA, &SB);
  EXPECT_EQ(&SA, &Shared.get(A->getASTContext(), {}));
  EXPECT_EQ(firstBranchDiverges(SB, definition(*B, "k")), AloneB);
  EXPECT_EQ(firstBranchDiverges(SA, definition(*A, "k")), AloneA);
  // Other options: another analysis of the same unit.
  UniformityOptions Aligned;
  Aligned.ThreadIdxYZUniform = true;
  EXPECT_NE(&SA, &Shared.get(A->getASTContext(), Aligned));
  // A unit's end frees its analyses only.
  Shared.release(A->getASTContext());
  EXPECT_EQ(&SB, &Shared.get(B->getASTContext(), {}));
  EXPECT_EQ(firstBranchDiverges(SB, definition(*B, "k")), AloneB);
}

TEST_F(UnitAnalysesTest, FacetsAreTheFrontEndsOwn) {
  std::unique_ptr<ASTUnit> B = parse(BlockBranch);
  ASSERT_TRUE(B);
  const FunctionDecl *Add = definition(*B, "add");
  ASSERT_TRUE(Add);
  UnitAnalyses WithAtomics, Without;
  WithAtomics.declareFacet(FacetKind::Atomics);
  const FunctionSummary *S1 =
      WithAtomics.get(B->getASTContext(), {}).summary(Add);
  const FunctionSummary *S2 = Without.get(B->getASTContext(), {}).summary(Add);
  ASSERT_TRUE(S1 && S2);
  ASSERT_TRUE(S1->facet<AtomicFacet>());
  EXPECT_EQ(S1->facet<AtomicFacet>()->Atomics.size(), 1u);
  EXPECT_EQ(S2->facet<AtomicFacet>(), nullptr);
}

} // namespace
} // namespace clang::warp::test
