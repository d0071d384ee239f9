//===--- Explain.cpp - why the analysis believes what it does -------------===//

#include "Explain.h"
#include "analysis/FunctionUniformity.h"
#include "analysis/WarpAnalysis.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::warp;
using namespace llvm;

namespace warplint {

Expected<ExplainTarget> parseExplainTarget(StringRef Spec) {
  // FILE may hold colons itself: the numbers are the last one or two fields.
  auto Bad = [&] {
    return createStringError("--explain wants FILE:LINE[:COL], got '" + Spec +
                             "'");
  };
  auto [Rest, Last] = Spec.rsplit(':');
  unsigned A = 0, B = 0;
  if (Rest.empty() || Last.getAsInteger(10, A) || A == 0)
    return Bad();
  ExplainTarget T;
  auto [File, Middle] = Rest.rsplit(':');
  if (!File.empty() && !Middle.getAsInteger(10, B) && B > 0) {
    T.Line = B;
    T.Column = A;
  } else {
    File = Rest;
    T.Line = A;
  }
  T.Spelled = File.str();
  SmallString<256> Abs(File);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  T.File = std::string(Abs);
  return T;
}

namespace {

/// Finds the statements at the target in the device functions of a unit and
/// explains each.
class ExplainConsumer : public ASTConsumer {
public:
  ExplainConsumer(const ExplainTarget &Target, const UniformityOptions &Opts,
                  ExplainResult &Result)
      : Target(Target), Opts(Opts), Result(Result) {}

  void HandleTranslationUnit(ASTContext &Ctx) override;

private:
  const ExplainTarget &Target;
  const UniformityOptions &Opts;
  ExplainResult &Result;
};

/// Collects the device function definitions whose body holds the target
/// line, and the statements that start there.
class TargetFinder : public RecursiveASTVisitor<TargetFinder> {
public:
  TargetFinder(const SourceManager &SM, const ExplainTarget &Target)
      : SM(SM), Target(Target) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    consider(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    consider(L->getCallOperator());
    return true;
  }

  bool onTargetFile(SourceLocation Loc) const {
    Loc = SM.getExpansionLoc(Loc);
    OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(Loc));
    if (!F)
      return false;
    SmallString<256> Path(F->getName());
    sys::fs::make_absolute(Path);
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    return Path == Target.File || sys::fs::equivalent(Path, Target.File);
  }
  unsigned lineOf(SourceLocation Loc) const {
    return SM.getExpansionLineNumber(Loc);
  }
  /// Whether \p S starts at the target (and covers its column, if given).
  bool atTarget(const Stmt *S) const {
    SourceLocation B = SM.getExpansionLoc(S->getBeginLoc());
    if (lineOf(B) != Target.Line || !onTargetFile(B))
      return false;
    if (!Target.Column)
      return true;
    SourceLocation E = SM.getExpansionRange(S->getEndLoc()).getEnd();
    unsigned First = SM.getExpansionColumnNumber(B);
    unsigned Last =
        lineOf(E) == Target.Line ? SM.getExpansionColumnNumber(E) : ~0u;
    return First <= Target.Column && Target.Column <= Last;
  }

  /// Whether \p A comes first in the source: it starts earlier, or at the
  /// same place and ends later (it encloses \p B).
  bool before(const Stmt *A, const Stmt *B) const {
    unsigned AB = offsetOf(A->getBeginLoc()), BB = offsetOf(B->getBeginLoc());
    if (AB != BB)
      return AB < BB;
    return offsetOf(A->getEndLoc()) > offsetOf(B->getEndLoc());
  }

  std::vector<const FunctionDecl *> Functions;

private:
  unsigned offsetOf(SourceLocation Loc) const {
    return SM.getFileOffset(SM.getExpansionRange(Loc).getEnd());
  }
  void consider(const FunctionDecl *FD) {
    if (!FD || !FD->doesThisDeclarationHaveABody() || !FD->getBody() ||
        !(FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>()) ||
        !isAnalysedDefinition(FD))
      return;
    if (covers(FD->getBody()->getSourceRange()))
      Functions.push_back(FD);
  }
  /// Whether \p R holds the target line (and column, when given).
  bool covers(SourceRange R) const {
    SourceLocation B = SM.getExpansionLoc(R.getBegin());
    SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
    if (!onTargetFile(B))
      return false;
    unsigned First = lineOf(B), Last = lineOf(E);
    if (First > Target.Line || Last < Target.Line)
      return false;
    if (!Target.Column)
      return true;
    return (First < Target.Line ||
            SM.getExpansionColumnNumber(B) <= Target.Column) &&
           (Last > Target.Line ||
            SM.getExpansionColumnNumber(E) >= Target.Column);
  }

  const SourceManager &SM;
  const ExplainTarget &Target;
};

/// The statement of \p FD's body that best answers the target: the lowest
/// rank, then the innermost one for the column given, else the first.
const Stmt *subjectIn(const FunctionDecl *FD, const TargetFinder &Finder) {
  const Stmt *Best = nullptr;
  Rank BestRank = Rank::None;
  SmallVector<const Stmt *, 32> Work{FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    // Lambdas are functions of their own.
    if (isa<LambdaExpr>(S))
      continue;
    if (Finder.atTarget(S)) {
      // Of equal rank: the first on the line, then the outermost.
      Rank R = rankOf(S);
      if (R < BestRank ||
          (R == BestRank && R != Rank::None && Finder.before(S, Best))) {
        Best = S;
        BestRank = R;
      }
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Best;
}

void ExplainConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  // The device pass answers; a host pass of the same command adds nothing.
  if (Ctx.getLangOpts().CUDA && !Ctx.getLangOpts().CUDAIsDevice)
    return;
  if (!Result.Explanations.empty())
    return;
  TargetFinder Finder(Ctx.getSourceManager(), Target);
  Finder.TraverseAST(Ctx);
  // The innermost function holding the line: a lambda rather than the kernel
  // around it. Instantiations of one template hold it alike.
  auto Size = [&](const FunctionDecl *FD) {
    SourceRange R = FD->getBody()->getSourceRange();
    return Ctx.getSourceManager().getFileOffset(
               Ctx.getSourceManager().getExpansionLoc(R.getEnd())) -
           Ctx.getSourceManager().getFileOffset(
               Ctx.getSourceManager().getExpansionLoc(R.getBegin()));
  };
  unsigned Smallest = ~0u;
  for (const FunctionDecl *FD : Finder.Functions)
    Smallest = std::min(Smallest, Size(FD));
  UniformityOptions Other = Opts;
  Other.ThreadIdxYZUniform = !Opts.ThreadIdxYZUniform;
  WarpAnalysis WA(Ctx, Opts);
  WarpAnalysis Flipped(Ctx, Other);
  UniformityPrinter E(Ctx, WA, Flipped, Opts.ThreadIdxYZUniform);
  for (const FunctionDecl *FD : Finder.Functions) {
    if (Size(FD) != Smallest)
      continue;
    const Stmt *Subject = subjectIn(FD, Finder);
    const FunctionUniformity *FU = Subject ? WA.function(FD) : nullptr;
    if (FU)
      Result.Explanations.push_back(E.explain(FD, *FU, Subject));
  }
}

class ExplainAction : public ASTFrontendAction {
public:
  ExplainAction(const ExplainTarget &Target, const UniformityOptions &Opts,
                ExplainResult &Result)
      : Target(Target), Opts(Opts), Result(Result) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ExplainConsumer>(Target, Opts, Result);
  }

private:
  const ExplainTarget &Target;
  const UniformityOptions &Opts;
  ExplainResult &Result;
};

class ExplainActionFactory : public tooling::FrontendActionFactory {
public:
  ExplainActionFactory(const ExplainTarget &Target,
                       const UniformityOptions &Opts, ExplainResult &Result)
      : Target(Target), Opts(Opts), Result(Result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ExplainAction>(Target, Opts, Result);
  }

private:
  const ExplainTarget &Target;
  const UniformityOptions &Opts;
  ExplainResult &Result;
};

} // namespace

ExplainResult explain(const tooling::CompilationDatabase &Database,
                      const ExplainTarget &Target,
                      const UniformityOptions &Opts) {
  ExplainResult Result;
  DiagnosticConsumer Errors; // Counts; the lint run shows the messages.
  tooling::ClangTool Tool(Database, {Target.File});
  Tool.setPrintErrorMessage(false);
  Tool.setDiagnosticConsumer(&Errors);
  ExplainActionFactory Factory(Target, Opts, Result);
  Tool.run(&Factory);
  Result.CompileErrors = Errors.getNumErrors();
  return Result;
}

void printExplanations(raw_ostream &OS, const ExplainResult &R) {
  for (const Explanation &E : R.Explanations) {
    OS << E.File << ":" << E.Line << ":" << E.Column << ": " << E.Subject
       << " in '" << E.Function << "'\n";
    for (const ExplainFact &F : E.Facts) {
      OS.indent(2 + 2 * F.Depth);
      if (!F.File.empty())
        OS << F.File << ":" << F.Line << ":" << F.Column << ": ";
      OS << F.Message << "\n";
    }
  }
  if (R.CompileErrors)
    OS << "note: the unit has " << R.CompileErrors
       << " compile error(s); this is what parsed\n";
}

json::Value explanationsToJson(const ExplainResult &R) {
  json::Array List;
  for (const Explanation &E : R.Explanations) {
    json::Array Facts;
    for (const ExplainFact &F : E.Facts) {
      json::Object O{{"depth", F.Depth}, {"message", F.Message}};
      if (!F.File.empty()) {
        O["file"] = F.File;
        O["line"] = F.Line;
        O["column"] = F.Column;
      }
      Facts.push_back(std::move(O));
    }
    List.push_back(json::Object{{"function", E.Function},
                                {"subject", E.Subject},
                                {"file", E.File},
                                {"line", E.Line},
                                {"column", E.Column},
                                {"facts", std::move(Facts)}});
  }
  return json::Object{{"explanations", std::move(List)},
                      {"compileErrors", R.CompileErrors}};
}

} // namespace warplint
