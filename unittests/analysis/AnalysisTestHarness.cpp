//===--- AnalysisTestHarness.cpp - annotated CUDA snippets ----------------===//

#include "AnalysisTestHarness.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

namespace clang::warp::test {

using namespace clang::ast_matchers;

/// Declarations of the probes; `#line 1` makes snippet lines start at 1.
static const char Prelude[] = R"cu(
template <class T> __device__ void uniform(T);
template <class T> __device__ void varying(T);
template <class T> __device__ void lane_varying(T);
template <class T> __device__ void launch_shape_varying(T);
template <class T> __device__ void data_varying(T);
__device__ void converged();
__device__ void diverged();
__device__ void lane_diverged();
__device__ void data_diverged();
__device__ void exited();
__device__ void single_lane();
__device__ void not_single_lane();
#line 1
)cu";

std::string cudaPath() {
  const char *Env = std::getenv("CUDA_PATH");
  std::string Path = Env && *Env ? Env : "/usr/local/cuda";
  if (!llvm::sys::fs::exists(Path + "/include/cuda_runtime.h"))
    return "";
  return Path;
}

bool runKnownMisses() {
  const char *Env = std::getenv("WARP_LINT_RUN_KNOWN_MISSES");
  return Env && *Env && std::string(Env) != "0";
}

void AnalysisTest::SetUp() {
  if (cudaPath().empty())
    GTEST_SKIP() << "no CUDA installation (set CUDA_PATH)";
}

void AnalysisTest::TearDown() {
  // The analysis before the AST it points into.
  WA = nullptr;
  Owned.reset();
}

std::unique_ptr<ASTUnit> AnalysisTest::parse(llvm::StringRef Snippet) {
  std::string Cuda = cudaPath();
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-path=" + Cuda,
                                   "--cuda-gpu-arch=sm_90",
                                   "--cuda-device-only",
                                   "-nocudalib",
                                   "-Wno-unknown-cuda-version",
                                   "-isystem",
                                   Cuda + "/include/cccl",
                                   "-D_CG_CLUSTER_INTRINSICS_AVAILABLE",
                                   "-std=c++17",
                                   "-Xclang",
                                   "-target-sdk-version=13.0",
                                   "-resource-dir=" WARP_LINT_UT_RESOURCE_DIR,
                                   "-Wno-unused-value"};
  Args.insert(Args.end(), ExtraFlags.begin(), ExtraFlags.end());
  std::unique_ptr<ASTUnit> Unit = tooling::buildASTFromCodeWithArgs(
      std::string(Prelude) + Snippet.str(), Args, "input.cu");
  if (!Unit) {
    ADD_FAILURE() << "could not build an AST";
    return nullptr;
  }
  if (Unit->getDiagnostics().hasErrorOccurred()) {
    ADD_FAILURE() << "the snippet does not compile:\n" << Snippet.str();
    return nullptr;
  }
  return Unit;
}

bool AnalysisTest::analyze(llvm::StringRef Snippet, UniformityOptions Opts) {
  WA = nullptr;
  Owned.reset();
  Code = Snippet.str();
  AST = parse(Snippet);
  if (!AST)
    return false;
  // Every check's facts, as when all checks are enabled.
  Owned = std::make_unique<WarpAnalysis>(AST->getASTContext(), Opts);
  WA = Owned.get();
  return true;
}

unsigned AnalysisTest::lineOf(const Stmt *S) const {
  if (!S || !AST)
    return 0;
  return AST->getSourceManager().getPresumedLineNumber(S->getBeginLoc());
}

static const char *name(Variance V) {
  switch (V) {
  case Variance::Uniform:
    return "uniform";
  case Variance::Data:
    return "Data varying";
  case Variance::Lane:
    return "Lane varying";
  }
  return "?";
}

std::string AnalysisTest::describe(const WarpValue &V) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << name(V.V);
  static const char *Shapes[] = {"", " ThreadIndex", " LaneId",
                                 " WarpMultiple"};
  OS << Shapes[unsigned(V.S)];
  if (V.Single == OneLane::WhenTrue)
    OS << " one-lane-when-true";
  if (V.Single == OneLane::WhenFalse)
    OS << " one-lane-when-false";
  if (V.Params)
    OS << " params=0x" << llvm::utohexstr(V.Params.bits());
  if (V.Constant)
    OS << " const=" << *V.Constant;
  if (V.Origin)
    OS << " from line " << lineOf(V.Origin);
  return Out;
}

std::string AnalysisTest::describe(const Divergence &D) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (!D.isDiverged())
    OS << "converged";
  for (const DivergentBranch &B : D.Branches) {
    OS << "[" << name(B.Value.V) << " branch at line " << lineOf(B.Terminator)
       << " edge " << B.Edge;
    if (B.Exit)
      OS << ", exit at line " << lineOf(B.Exit);
    OS << "] ";
  }
  if (D.ParamConditions)
    OS << " param-conditions=0x" << llvm::utohexstr(D.ParamConditions.bits());
  return Out;
}

/// Returns the text of snippet line \p Line.
static std::string sourceLine(llvm::StringRef Code, unsigned Line) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Code.split(Lines, '\n');
  return Line >= 1 && Line <= Lines.size() ? Lines[Line - 1].trim().str()
                                           : std::string();
}

unsigned AnalysisTest::checkProbes(bool InPatterns) {
  auto Matches = match(
      callExpr(callee(functionDecl(
                          hasAnyName("uniform", "varying", "lane_varying",
                                     "data_varying", "launch_shape_varying",
                                     "converged", "diverged", "lane_diverged",
                                     "data_diverged", "exited", "single_lane",
                                     "not_single_lane"))
                          .bind("probe")),
               forCallable(functionDecl().bind("fn")))
          .bind("call"),
      AST->getASTContext());
  unsigned Checked = 0;
  for (const BoundNodes &N : Matches) {
    const auto *Call = N.getNodeAs<CallExpr>("call");
    const auto *Fn = N.getNodeAs<FunctionDecl>("fn");
    if (Fn->isDependentContext() && !InPatterns)
      continue; // a template pattern: its instantiations are checked
    const FunctionUniformity *FU = WA->function(Fn);
    unsigned Line = lineOf(Call);
    std::string Probe = N.getNodeAs<FunctionDecl>("probe")->getName().str();
    std::string Where = "line " + std::to_string(Line) + " in " +
                        Fn->getQualifiedNameAsString() + ": `" +
                        sourceLine(Code, Line) + "`\n  " + Probe + ": ";
    if (!FU) {
      ADD_FAILURE() << Where << "function not analysed";
      continue;
    }
    ++Checked;
    if (Call->getNumArgs() == 1) {
      WarpValue V = FU->valueOf(Call->getArg(0));
      bool Ok = Probe == "uniform"        ? V.isUniform()
                : Probe == "varying"      ? V.isVarying()
                : Probe == "lane_varying" ? V.V == Variance::Lane
                : Probe == "launch_shape_varying"
                    ? V.isVarying() && V.LaunchShape
                    : V.V == Variance::Data;
      EXPECT_TRUE(Ok) << Where << "analysis says " << describe(V);
      continue;
    }
    if (Probe == "single_lane" || Probe == "not_single_lane") {
      bool Single = FU->isSingleLane(Call);
      EXPECT_EQ(Single, Probe == "single_lane")
          << Where << "isSingleLane is " << Single << "; "
          << describe(FU->divergenceAt(Call));
      continue;
    }
    Divergence D = FU->divergenceAt(Call);
    bool Ok = false;
    if (Probe == "converged")
      Ok = !D.isDiverged();
    else if (Probe == "diverged")
      Ok = D.isDiverged();
    else if (Probe == "lane_diverged")
      Ok = D.strongest() == Variance::Lane;
    else if (Probe == "data_diverged")
      Ok = D.strongest() == Variance::Data;
    else if (Probe == "exited")
      Ok = llvm::any_of(D.Branches,
                        [](const DivergentBranch &B) { return B.Exit; });
    EXPECT_TRUE(Ok) << Where << "analysis says " << describe(D);
  }
  EXPECT_GT(Checked, 0u) << "no probes in the snippet";
  return Checked;
}

const FunctionDecl *AnalysisTest::function(llvm::StringRef Name) {
  auto Matches = match(functionDecl(hasName(Name), isDefinition()).bind("fn"),
                       AST->getASTContext());
  for (const BoundNodes &N : Matches) {
    const auto *FD = N.getNodeAs<FunctionDecl>("fn");
    if (!FD->isDependentContext())
      return FD;
  }
  ADD_FAILURE() << "no definition of " << Name.str();
  return nullptr;
}

unsigned AnalysisTest::analyzeEveryDefinition() {
  unsigned N = 0;
  for (const BoundNodes &M :
       match(functionDecl(isDefinition()).bind("fn"), AST->getASTContext())) {
    const auto *FD = M.getNodeAs<FunctionDecl>("fn");
    if (!FD->getBody() ||
        AST->getSourceManager().isInSystemHeader(FD->getLocation()))
      continue;
    WA->function(FD);
    WA->summary(FD);
    ++N;
  }
  return N;
}

const FunctionUniformity *AnalysisTest::uniformity(llvm::StringRef Name) {
  const FunctionDecl *FD = function(Name);
  return FD ? WA->function(FD) : nullptr;
}

const FunctionSummary *AnalysisTest::summary(llvm::StringRef Name) {
  const FunctionDecl *FD = function(Name);
  return FD ? WA->summary(FD) : nullptr;
}

std::vector<const Stmt *>
AnalysisTest::stmtsIn(llvm::StringRef Name,
                      std::function<bool(const Stmt *)> Pred) {
  std::vector<const Stmt *> Out;
  if (const FunctionUniformity *FU = uniformity(Name))
    FU->forEachStmt([&](const Stmt *S) {
      if (Pred(S))
        Out.push_back(S);
    });
  return Out;
}

} // namespace clang::warp::test
