//===--- UniformityPrinter.cpp - what the analysis holds, as text --------===//

#include "UniformityPrinter.h"
#include "KernelLaunches.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace clang::warp {

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
  if (collectiveAt(S))
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

void UniformityPrinter::fact(SourceLocation Loc, unsigned Depth,
                             const Twine &Message) {
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

std::string UniformityPrinter::text(const Stmt *S) const {
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

std::string UniformityPrinter::paramNames(ParamSet Params) const {
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

std::string UniformityPrinter::describe(const WarpValue &V) const {
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

void UniformityPrinter::explainValue(const Expr *E, unsigned Depth,
                                     StringRef Role) {
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
void UniformityPrinter::explainOperands(const Expr *E, unsigned Depth,
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

void UniformityPrinter::explainLeaf(const Expr *E, unsigned Depth) {
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

void UniformityPrinter::explainSource(const Expr *E, unsigned Depth) {
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

void UniformityPrinter::explainDivergence(const Stmt *S) {
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

void UniformityPrinter::explainLaunches() {
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

void UniformityPrinter::explainOption(const Stmt *Subject,
                                      const Expr *Condition) {
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

Explanation UniformityPrinter::explain(const FunctionDecl *Fn,
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
  } else if (std::optional<GroupCollective> G =
                 Call ? matchGroupCollective(Call) : std::nullopt) {
    E.Subject = "'" + G->Spelling + "'";
    if (G->TileWidth)
      fact(Subject, 0,
           formatv("it runs '{0}' with the mask of its tile: {1}",
                   G->Use.Info->Name,
                   G->TileWidth == 32 ? std::string("the whole warp")
                                      : formatv("the {0} lanes of the calling "
                                                "lane's tile",
                                                G->TileWidth)
                                            .str()));
    else {
      fact(Subject, 0,
           "it runs '" + G->Use.Info->Name.str() +
               "' over the lanes that formed the group '" + text(G->Group) +
               "'");
      explainSource(G->Group->IgnoreParenImpCasts(), 1);
    }
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

} // namespace clang::warp
