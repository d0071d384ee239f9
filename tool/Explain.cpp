//===--- Explain.cpp - why the analysis believes what it does -------------===//

#include "Explain.h"
#include "analysis/FunctionUniformity.h"
#include "analysis/KernelLaunches.h"
#include "analysis/WarpAnalysis.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
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

/// How well a statement answers "what is at this line": the collective or
/// atomic first, then a branch, a call, any expression.
enum class Rank { Collective, Atomic, Branch, Call, Expression, None };

/// The condition of a branch statement, or null.
const Expr *branchCondition(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return W->getCond();
  if (const auto *F = dyn_cast<ForStmt>(S))
    return F->getCond();
  if (const auto *D = dyn_cast<DoStmt>(S))
    return D->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Sw->getCond();
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(S))
    return C->getCond();
  return nullptr;
}

Rank rankOf(const Stmt *S) {
  if (matchCollective(S))
    return Rank::Collective;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (matchAtomic(Call))
      return Rank::Atomic;
    // A call into the user's code, not a builtin's getter (threadIdx.x).
    const FunctionDecl *Callee = calledDefinition(Call);
    if (Callee && !Callee->getASTContext().getSourceManager().isInSystemHeader(
                      Callee->getLocation()))
      return Rank::Call;
  }
  if (branchCondition(S))
    return Rank::Branch;
  if (isa<Expr>(S))
    return Rank::Expression;
  return Rank::None;
}

/// Explains one statement in one analysed function.
class Explainer {
public:
  Explainer(ASTContext &Ctx, WarpAnalysis &WA, WarpAnalysis &Flipped,
            bool WarpAligned)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), WA(WA), Flipped(Flipped),
        WarpAligned(WarpAligned) {}

  Explanation explain(const FunctionDecl *FD, const FunctionUniformity &FU,
                      const Stmt *Subject);

private:
  void fact(SourceLocation Loc, unsigned Depth, const Twine &Message);
  void fact(const Stmt *At, unsigned Depth, const Twine &Message) {
    fact(At ? At->getBeginLoc() : SourceLocation(), Depth, Message);
  }
  std::string text(const Stmt *S) const;
  std::string describe(const WarpValue &V) const;
  std::string paramNames(ParamSet Params) const;
  void explainValue(const Expr *E, unsigned Depth, StringRef Role);
  void explainOperands(const Expr *E, unsigned Depth,
                       DenseSet<const Decl *> &Seen);
  void explainLeaf(const Expr *E, unsigned Depth);
  /// Where a looked-up value comes from: a local's declaration, the place
  /// its variance entered.
  void explainSource(const Expr *E, unsigned Depth);
  void explainDivergence(const Stmt *S);
  void explainLaunches();
  void explainOption(const Stmt *Subject, const Expr *Condition);

  ASTContext &Ctx;
  const SourceManager &SM;
  WarpAnalysis &WA, &Flipped;
  bool WarpAligned;
  const FunctionDecl *FD = nullptr;
  const FunctionUniformity *FU = nullptr;
  Explanation *Out = nullptr;
};

void Explainer::fact(SourceLocation Loc, unsigned Depth, const Twine &Message) {
  ExplainFact F;
  if (Loc.isValid()) {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
    if (P.isValid()) {
      F.File = P.getFilename();
      F.Line = P.getLine();
      F.Column = P.getColumn();
    }
  }
  F.Depth = Depth;
  F.Message = Message.str();
  Out->Facts.push_back(std::move(F));
}

std::string Explainer::text(const Stmt *S) const {
  CharSourceRange R = SM.getExpansionRange(S->getSourceRange());
  std::string T = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  // One line, so that each fact stays one line.
  std::string Flat;
  bool Space = false;
  for (char C : T) {
    if (isspace(static_cast<unsigned char>(C))) {
      Space = !Flat.empty();
      continue;
    }
    if (Space)
      Flat += ' ';
    Space = false;
    Flat += C;
  }
  if (Flat.size() > 80)
    Flat = Flat.substr(0, 77) + "...";
  return Flat.empty() ? "this expression" : Flat;
}

std::string Explainer::paramNames(ParamSet Params) const {
  SmallVector<std::string, 2> Names;
  for (unsigned I = 0; I < 64; ++I)
    if (Params.contains(I))
      Names.push_back(I == ParamSet::ObjectIndex
                          ? std::string("the object it is called on")
                      : I < FD->getNumParams()
                          ? "'" + FD->getParamDecl(I)->getNameAsString() + "'"
                          : formatv("parameter {0}", I + 1).str());
  return join(Names, ", ");
}

std::string Explainer::describe(const WarpValue &V) const {
  std::string D;
  if (V.isUniform()) {
    if (V.Constant)
      return formatv(*V.Constant > 255 ? "uniform: the constant {0} ({0:x})"
                                       : "uniform: the constant {0}",
                     *V.Constant)
          .str();
    D = "uniform";
    if (!V.Params.empty())
      D += " if each caller's argument for " + paramNames(V.Params) + " is";
  } else if (V.LaunchShape) {
    D = "varying only when blockDim.x is not a multiple of 32 (then "
        "threadIdx.y/z differ inside a warp)";
  } else if (V.V == Variance::Lane) {
    D = "lane-varying";
    if (V.S == Shape::ThreadIndex)
      D += " (a thread index: distinct in every lane)";
    else if (V.S == Shape::LaneId)
      D += " (the lane index)";
  } else {
    D = "data-varying (it depends on memory or results that may differ "
        "between lanes)";
  }
  if (V.Single == OneLane::WhenTrue)
    D += "; true in at most one lane";
  else if (V.Single == OneLane::WhenFalse)
    D += "; false in at most one lane";
  return D;
}

/// Whether \p E computes its value from operands explainOperands descends
/// into, rather than looking it up.
static bool isComposite(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() != UO_Deref;
  return isa<BinaryOperator, AbstractConditionalOperator, ExplicitCastExpr>(E);
}

void Explainer::explainValue(const Expr *E, unsigned Depth, StringRef Role) {
  fact(E, Depth, Role + "'" + text(E) + "' is " + describe(FU->valueOf(E)));
  if (!isComposite(E)) {
    explainSource(E->IgnoreParenImpCasts(), Depth + 1);
    return;
  }
  DenseSet<const Decl *> Seen;
  explainOperands(E, Depth + 1, Seen);
}

/// Descends through arithmetic, comparisons, casts and ?: to the operands
/// whose values the analysis looked up: variables, calls, members, builtins.
void Explainer::explainOperands(const Expr *E, unsigned Depth,
                                DenseSet<const Decl *> &Seen) {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          FloatingLiteral>(E))
    return;
  auto Descend = [&](const Expr *Sub) {
    if (Sub)
      explainOperands(Sub, Depth, Seen);
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    Descend(BO->getLHS());
    Descend(BO->getRHS());
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() != UO_Deref) {
    Descend(UO->getSubExpr());
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    Descend(CO->getCond());
    Descend(CO->getTrueExpr());
    Descend(CO->getFalseExpr());
    return;
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    Descend(Cast->getSubExpr());
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (!Seen.insert(DRE->getDecl()).second)
      return;
  explainLeaf(E, Depth);
}

void Explainer::explainLeaf(const Expr *E, unsigned Depth) {
  WarpValue V = FU->valueOf(E);
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr) {
    const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
    if (Owner && Owner != FD)
      fact(E, Depth,
           "'" + text(E) + "' is captured from '" + Owner->getNameAsString() +
               "': " + describe(V));
    else if (FD->hasAttr<CUDAGlobalAttr>() && V.isUniform())
      fact(E, Depth,
           "'" + text(E) +
               "' is a kernel parameter: the same in every thread of a "
               "launch");
    else
      fact(E, Depth,
           "'" + text(E) + "' is a parameter, " + describe(V) +
               (V.isUniform() ? "" : " (as the callers in this unit pass it)"));
    return;
  }
  fact(E, Depth, "'" + text(E) + "' is " + describe(V));
  explainSource(E, Depth + 1);
}

void Explainer::explainSource(const Expr *E, unsigned Depth) {
  WarpValue V = FU->valueOf(E);
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr)
    if (VD->isLocalVarDecl() && VD->getInit())
      fact(VD->getLocation(), Depth,
           "declared as " + VD->getNameAsString() + " = " +
               text(VD->getInit()));
  // Where the variance entered, when that is elsewhere in the user's code
  // (not the CUDA headers' definition of threadIdx).
  if (!V.isVarying() || !V.Origin || V.Origin == E)
    return;
  SourceLocation Origin = SM.getExpansionLoc(V.Origin->getBeginLoc());
  if (Origin != SM.getExpansionLoc(E->getBeginLoc()) &&
      !SM.isInSystemHeader(Origin))
    fact(V.Origin, Depth, "it varies from here: '" + text(V.Origin) + "'");
}

void Explainer::explainDivergence(const Stmt *S) {
  Divergence D = FU->divergenceAt(S);
  if (!D.isDiverged()) {
    std::string Whole =
        "every lane that enters '" + Out->Function + "' reaches this";
    if (!D.ParamConditions.empty())
      Whole += "; lanes split before it when a caller's argument for " +
               paramNames(D.ParamConditions) + " differs between lanes";
    fact(S, 0, Whole);
    return;
  }
  for (const DivergentBranch &B : D.Branches) {
    if (B.Exit) {
      fact(B.Exit, 0,
           "lanes leave here: only the lanes that did not take this exit "
           "reach the statement");
      if (B.Condition)
        explainValue(B.Condition, 1, "the exit is taken when ");
      continue;
    }
    fact(B.Condition ? static_cast<const Stmt *>(B.Condition) : B.Terminator, 0,
         "lanes diverge here: only some lanes take the branch that leads "
         "to the statement");
    if (B.Condition)
      explainValue(B.Condition, 1, "");
  }
}

void Explainer::explainLaunches() {
  if (!FD->hasAttr<CUDAGlobalAttr>()) {
    fact(nullptr, 0,
         "launches: '" + Out->Function +
             "' is a device function; the block shape is that of the "
             "kernels that call it");
    return;
  }
  llvm::ArrayRef<KernelLaunch> Launches = WA.launchesOf(FD);
  if (Launches.empty())
    fact(nullptr, 0,
         "launches: none of '" + Out->Function +
             "' in this unit, so its block shape is unknown");
  auto Extent = [](std::optional<int64_t> E) {
    return E ? std::to_string(*E) : std::string("?");
  };
  for (const KernelLaunch &L : Launches)
    fact(L.Site, 0,
         formatv("launched with a block of ({0}, {1}, {2}){3}",
                 Extent(L.Block.X), Extent(L.Block.Y), Extent(L.Block.Z),
                 L.Block.warpAligned() ? ": warps lie within one row" : "")
             .str());
  if (WA.launchedWarpAligned(FD))
    fact(nullptr, 0,
         "every launch seen is warp-aligned: threadIdx.y/z count as uniform");
}

void Explainer::explainOption(const Stmt *Subject, const Expr *Condition) {
  const FunctionUniformity *Other = Flipped.function(FD);
  if (!Other)
    return;
  bool Same = Other->divergenceAt(Subject).isDiverged() ==
              FU->divergenceAt(Subject).isDiverged();
  if (Condition)
    Same = Same && Other->valueOf(Condition).V == FU->valueOf(Condition).V;
  fact(nullptr, 0,
       formatv("option WarpAlignedBlockDimX is {0}; {1} would {2}",
               WarpAligned ? "true" : "false", WarpAligned ? "false" : "true",
               Same ? "give the same answer"
                    : "change the answer (threadIdx.y/z decide it)")
           .str());
}

Explanation Explainer::explain(const FunctionDecl *Fn,
                               const FunctionUniformity &Uniformity,
                               const Stmt *Subject) {
  Explanation E;
  FD = Fn;
  FU = &Uniformity;
  Out = &E;
  llvm::raw_string_ostream Name(E.Function);
  FD->getNameForDiagnostic(Name, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Subject->getBeginLoc()));
  E.File = P.getFilename();
  E.Line = P.getLine();
  E.Column = P.getColumn();

  const Expr *Condition = nullptr;
  const auto *Call = dyn_cast<CallExpr>(Subject);
  if (std::optional<CollectiveUse> Use = matchCollective(Subject)) {
    E.Subject = "'" + Use->Info->Name.str() + "'";
    if (Use->Mask)
      explainValue(Use->Mask, 0, "the mask ");
    else if (Use->ImmediateMask)
      fact(Subject, 0,
           formatv("the mask is the immediate {0:x}", *Use->ImmediateMask));
  } else if (Call && matchAtomic(Call)) {
    std::optional<AtomicInfo> A = matchAtomic(Call);
    E.Subject = "atomic '" + atomicName(Call) + "'";
    WarpValue Address = FU->atomicAddress(*A);
    fact(A->Address, 0,
         "the address '" + text(A->Address) + "' is " + describe(Address) +
             (Address.isUniform() ? ": the lanes that run this use one address"
                                  : ""));
    DenseSet<const Decl *> Seen;
    explainOperands(A->Address, 1, Seen);
  } else if ((Condition = branchCondition(Subject))) {
    E.Subject = "branch";
    explainValue(Condition, 0, "the condition ");
  } else if (const FunctionDecl *Callee =
                 Call ? calledDefinition(Call) : nullptr) {
    // What the callee decides with: its arguments.
    E.Subject = "call to '" + Callee->getNameAsString() + "'";
    for (const Expr *Arg : callArguments(Call))
      explainValue(Arg, 0, "the argument ");
  } else {
    E.Subject = "expression";
    explainValue(cast<Expr>(Subject), 0, "");
  }
  explainDivergence(Subject);
  explainLaunches();
  explainOption(Subject, Condition);
  return E;
}

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
  Explainer E(Ctx, WA, Flipped, Opts.ThreadIdxYZUniform);
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
