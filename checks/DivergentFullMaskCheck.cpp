//===--- DivergentFullMaskCheck.cpp - warp-divergent-full-mask ------------===//

#include "DivergentFullMaskCheck.h"
#include "FixItText.h"
#include "analysis/LaneSets.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warp {

void DivergentFullMaskCheck::onEndOfTranslationUnit() {
  BallotNames.clear();
  Names.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

void DivergentFullMaskCheck::checkFunction(const FunctionDecl *FD,
                                           const FunctionUniformity &FU,
                                           WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *Use) {
    if (Use)
      checkCollective(*Use, FU, Ctx);
    else
      checkCall(cast<CallExpr>(S), FU, WA);
  });
}

/// Whether the lanes past \p Branch are those where its condition holds
/// (its then-side), not those where it fails (its else-side, or the lanes
/// that stay when the then-side exits).
static bool reachesOnTrue(const DivergentBranch &Branch) {
  return Branch.Edge == 0 && !Branch.Exit;
}

/// Returns the `if` whose lanes a ballot before it can describe exactly:
/// the only divergent branch on the way to the point, itself converged.
static const IfStmt *ballotableIf(const Divergence &D,
                                  const FunctionUniformity &FU,
                                  ASTContext &Ctx) {
  if (D.Branches.size() != 1)
    return nullptr;
  const auto *If = dyn_cast_or_null<IfStmt>(D.Branches[0].Terminator);
  if (!If || If->getConditionVariable() || If->getInit() || If->isConstexpr())
    return nullptr;
  if (!isRepeatable(If->getCond()) || If->getBeginLoc().isMacroID())
    return nullptr;
  if (FU.divergenceAt(If).isDiverged())
    return nullptr;
  return If;
}

/// The number of full-mask `__syncwarp` calls \p S runs on every path
/// through it, or nullopt when that is not fixed: a warp barrier inside a
/// nested branch or loop, one with another mask, or a jump out of \p S.
static std::optional<unsigned>
fullBarriersOnEveryPath(const Stmt *S, const FunctionUniformity &FU,
                        ASTContext &Ctx) {
  if (!S)
    return 0;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
    return std::nullopt;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    unsigned N = 0;
    for (const Stmt *Child : CS->body()) {
      std::optional<unsigned> C = fullBarriersOnEveryPath(Child, FU, Ctx);
      if (!C)
        return std::nullopt;
      N += *C;
    }
    return N;
  }
  bool Nested =
      isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S);
  unsigned N = 0;
  bool Unknown = false;
  llvm::SmallVector<const Stmt *, 16> Work{S};
  while (!Work.empty()) {
    const Stmt *X = Work.pop_back_val();
    if (!X)
      continue;
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(X))
      Unknown |= Nested;
    if (std::optional<CollectiveUse> Use = matchCollective(X);
        Use && Use->Info->Kind == CollectiveKind::SyncWarp) {
      Unknown |= Nested || !hasFullMask(*Use, FU, Ctx);
      ++N;
    }
    for (const Stmt *Child : X->children())
      Work.push_back(Child);
  }
  if (Unknown || (Nested && N))
    return std::nullopt;
  return N;
}

/// Returns whether every divergent branch in \p D is an `if`/`else` whose
/// two arms run the same number of full-mask `__syncwarp` calls: since
/// sm_70 the lanes at different `__syncwarp` calls wait for each other, so
/// the warp meets at each pair (before sm_70 they had to be converged).
static bool syncwarpsPairUp(const Divergence &D, const FunctionUniformity &FU,
                            ASTContext &Ctx) {
  for (const DivergentBranch &B : D.Branches) {
    const auto *If = dyn_cast_or_null<IfStmt>(B.Terminator);
    if (!If || B.Exit)
      return false;
    std::optional<unsigned> Then =
        fullBarriersOnEveryPath(If->getThen(), FU, Ctx);
    std::optional<unsigned> Else =
        fullBarriersOnEveryPath(If->getElse(), FU, Ctx);
    if (!Then || !Else || *Then == 0 || *Then != *Else)
      return false;
  }
  return true;
}

void DivergentFullMaskCheck::checkCollective(const CollectiveUse &Use,
                                             const FunctionUniformity &FU,
                                             ASTContext &Ctx) {
  if (!hasFullMask(Use, FU, Ctx))
    return;
  Divergence D = FU.divergenceAt(Use.Site);
  if (!D.isDiverged())
    return;
  if (Use.Info->Kind == CollectiveKind::SyncWarp && syncwarpsPairUp(D, FU, Ctx))
    return;
  SourceLocation Loc = Use.Site->getBeginLoc();
  if (!firstReportAt(Loc))
    return;
  const DivergentBranch &Inner = D.Branches.front();
  bool IsShuffle = Use.Info->Kind == CollectiveKind::Shuffle;
  const IfStmt *If = ballotableIf(D, FU, Ctx);
  // After an early exit a narrower mask alone does not repair a shuffle:
  // values read from the exited lanes stay undefined.
  // A narrower mask repairs a shuffle only where every lane that reaches it
  // reads from one that reaches it too (`if (lane < 16)` with offsets 8..1):
  // values read from lanes that skipped the branch or left are undefined.
  bool ReadsWithin = !IsShuffle || shuffleReadsWithin(Use, D.Branches, FU, Ctx);
  bool Fixable = If && ReadsWithin &&
                 (!Inner.Exit || isa<ReturnStmt, ContinueStmt>(Inner.Exit));
  bool Fixed = false;
  SharedName *Declared = nullptr;
  unsigned Hidden = hiddenSoFar();
  {
    auto Diag = diag(Loc, "full warp mask passed to '%0' in %1divergent code")
                << Use.Info->Name << certainty(D);
    if (Fixable)
      Fixed = addBallotFix(Diag, Use, Inner, FU, Ctx, Declared);
  }
  if (Declared)
    declarationEmitted(*Declared, Hidden, Loc);
  noteDivergence(D);
  if (Use.MaskIsDefaultArg && Use.Mask)
    diag(Loc, "the full mask is the default argument of '%0'",
         DiagnosticIDs::Note)
        << Use.Info->Name;
  if (!Fixed)
    noteSuggestion(Use, Inner, ReadsWithin);
}

bool DivergentFullMaskCheck::addBallotFix(DiagnosticBuilder &Diag,
                                          const CollectiveUse &Use,
                                          const DivergentBranch &Branch,
                                          const FunctionUniformity &FU,
                                          ASTContext &Ctx,
                                          SharedName *&Declared) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *If = cast<IfStmt>(Branch.Terminator);
  std::string Cond = fileText(If->getCond()->getSourceRange(), Ctx);
  std::optional<std::string> Indent = indentationAt(If->getBeginLoc(), SM);
  if (Cond.empty() || !Indent)
    return false;
  // Where the mask goes: replace the written mask, or fill the empty
  // argument list of `__syncwarp()`.
  CharSourceRange MaskRange;
  SourceLocation InsertAt;
  if (Use.Mask && !Use.MaskIsDefaultArg) {
    MaskRange = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Use.Mask->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (MaskRange.isInvalid())
      return false;
  } else if (const auto *Call = dyn_cast<CallExpr>(Use.Site)) {
    InsertAt = Call->getRParenLoc();
    if (InsertAt.isMacroID())
      return false;
  } else {
    return false;
  }
  bool TakenSide = reachesOnTrue(Branch);
  auto Key = std::make_pair(static_cast<const Stmt *>(If), unsigned(TakenSide));
  auto [It, Inserted] = BallotNames.try_emplace(Key);
  SharedName &Mask = It->second;
  if (Inserted)
    Mask.Name = Names.get("warp_mask", FU.decl(), Ctx);
  if (carriesDeclaration(Mask)) {
    std::string Pred = TakenSide ? Cond : "!(" + Cond + ")";
    Diag << FixItHint::CreateInsertion(If->getBeginLoc(),
                                       "const unsigned " + Mask.Name +
                                           " = __ballot_sync(0xffffffff, " +
                                           Pred + ");\n" + *Indent);
    Declared = &Mask;
  }
  if (MaskRange.isValid())
    Diag << FixItHint::CreateReplacement(MaskRange, Mask.Name);
  else
    Diag << FixItHint::CreateInsertion(InsertAt, Mask.Name);
  return true;
}

void DivergentFullMaskCheck::noteSuggestion(const CollectiveUse &Use,
                                            const DivergentBranch &Branch,
                                            bool ReadsWithin) {
  if (Branch.Exit && Use.Info->Kind == CollectiveKind::Shuffle) {
    diag(Branch.Exit->getBeginLoc(),
         "keep these lanes in the warp with a neutral value instead of "
         "leaving: with a narrower mask, values '%0' reads from exited lanes "
         "are undefined",
         DiagnosticIDs::Note)
        << Use.Info->Name;
    return;
  }
  if (!ReadsWithin) {
    diag(Use.Site->getBeginLoc(),
         "run '%0' where the lanes are together, with a neutral value in the "
         "lanes that skip the branch: with the mask of the lanes that take "
         "it, values read from the other lanes are undefined",
         DiagnosticIDs::Note)
        << Use.Info->Name;
    return;
  }
  diag(Use.Site->getBeginLoc(),
       "pass the mask of the lanes that reach this call, computed with "
       "__ballot_sync(0xffffffff, <condition>) before the lanes diverge",
       DiagnosticIDs::Note);
}

/// Notes the collective a helper runs with a full mask.
static void noteCollective(ClangTidyCheck &Check, const Stmt *Collective) {
  std::optional<CollectiveUse> Use = matchCollective(Collective);
  Check.diag(Collective->getBeginLoc(), "'%0' with a full mask runs here",
             DiagnosticIDs::Note)
      << (Use ? StringRef(Use->Info->Name) : StringRef("collective"));
}

void DivergentFullMaskCheck::checkCall(const CallExpr *Call,
                                       const FunctionUniformity &FU,
                                       WarpAnalysis &WA) {
  const FunctionDecl *Callee = calledDefinition(Call);
  if (!Callee || !WA.mayMatter(Callee))
    return;
  const FunctionSummary *S = WA.summary(Callee);
  if (!S)
    return;
  const CollectiveFacet &Needs = *S->facet<CollectiveFacet>();
  if (!reportFullWarpNeed(Call, Callee, Needs, FU, WA))
    reportFullMaskArgument(Call, Callee, Needs, FU, WA);
}

/// The argument of \p Call (in \p FU) that differs between lanes and, by
/// the call-site analysis, splits them inside the callee before
/// \p Collective; null when none does.
static const Expr *divergingArgumentToward(const CallExpr *Call,
                                           const Stmt *Collective,
                                           const FunctionUniformity &FU,
                                           WarpAnalysis &WA) {
  const FunctionDecl *Callee = calledDefinition(Call);
  const FunctionSummary *S = Callee ? WA.summary(Callee) : nullptr;
  if (!S)
    return nullptr;
  for (const FullWarpNeed &N : S->facet<CollectiveFacet>()->FullWarp)
    if (N.Collective == Collective)
      return WA.divergingArgument(Call, N.ParamConditions, Collective, FU);
  return nullptr;
}

bool DivergentFullMaskCheck::reportFullWarpNeed(const CallExpr *Call,
                                                const FunctionDecl *Callee,
                                                const CollectiveFacet &Needs,
                                                const FunctionUniformity &FU,
                                                WarpAnalysis &WA) {
  // The callee needs every lane that entered it: the call is divergent, or
  // the callee branches on an argument that differs between lanes.
  Divergence D = FU.divergenceAt(Call);
  const FullWarpNeed *Need = nullptr;
  const Expr *VaryingArg = nullptr;
  if (D.isDiverged() && !Needs.FullWarp.empty())
    Need = &Needs.FullWarp.front();
  else
    for (const FullWarpNeed &N : Needs.FullWarp)
      if ((VaryingArg = WA.divergingArgument(Call, N.ParamConditions,
                                             N.Collective, FU, N.Via))) {
        Need = &N;
        break;
      }
  if (!Need)
    return false;
  DivergencePath Path =
      WA.divergencePath(Call, Need->Collective, FU, Need->Via);
  if (!VaryingArg) {
    if (!firstReportAt(Call->getBeginLoc()))
      return false;
    diag(Call->getBeginLoc(), "call to %0 in %1divergent code runs a warp "
                              "collective with a full mask")
        << Callee << certainty(D);
    noteDivergence(D);
    notePath(Path);
    noteCollective(*this, Need->Collective);
    return true;
  }
  // A generic helper that only forwards its lanes to the callable it was
  // given (a launch helper's `f(threadIdx.x, args...)`) is not code its user
  // can change: report in the first frame on the way that is not one, with
  // the forwarding calls as notes.
  unsigned From = 0;
  const CallExpr *At = Call;
  const Expr *AtArg = VaryingArg;
  const FunctionUniformity *AtFU = &FU;
  struct Forward {
    const CallExpr *Call;
    const Expr *Arg;
    const FunctionDecl *In;
  };
  llvm::SmallVector<Forward, 2> Forwarded;
  while (Path.found() && From < Path.DivergedFrame &&
         callsTemplateCallable(At)) {
    const PathFrame &F = Path.Frames[From];
    const auto *Next = dyn_cast<CallExpr>(F.Next);
    const Expr *NextArg =
        Next ? divergingArgumentToward(Next, Need->Collective, *F.FU, WA)
             : nullptr;
    if (!NextArg)
      break;
    Forwarded.push_back({At, AtArg, AtFU->decl()});
    At = Next;
    AtArg = NextArg;
    AtFU = F.FU;
    ++From;
  }
  if (!firstReportAt(At->getBeginLoc()))
    return false;
  bool Lane = AtFU->valueOf(AtArg).V == Variance::Lane;
  diag(At->getBeginLoc(),
       "call to %0 %1diverges the warp on an argument that differs "
       "between lanes before a warp collective with a full mask")
      << calledDefinition(At) << (Lane ? "" : "potentially ");
  for (const Forward &F : Forwarded)
    diag(F.Arg->getBeginLoc(),
         "%0 hands this argument, which differs between lanes, to %1",
         DiagnosticIDs::Note)
        << describe(F.In) << describe(calledDefinition(F.Call));
  diag(AtArg->getBeginLoc(), "this argument differs between lanes",
       DiagnosticIDs::Note);
  notePath(Path, From);
  noteCollective(*this, Need->Collective);
  return true;
}

void DivergentFullMaskCheck::reportFullMaskArgument(
    const CallExpr *Call, const FunctionDecl *Callee,
    const CollectiveFacet &Needs, const FunctionUniformity &FU,
    WarpAnalysis &WA) {
  // A full mask handed to a helper that uses it for a collective.
  Divergence D = FU.divergenceAt(Call);
  llvm::ArrayRef<const Expr *> Args = callArguments(Call);
  for (const MaskParam &M : Needs.MaskParams) {
    // The helper may branch on an argument that differs between lanes.
    const Expr *Diverging =
        WA.divergingArgument(Call, M.ParamConditions, M.Collective, FU, M.Via);
    if (M.Index >= Args.size() ||
        !(D.isDiverged() || M.DivergedInside || Diverging))
      continue;
    const Expr *Arg = Args[M.Index];
    Expr::EvalResult R;
    if (Arg->isValueDependent() || !Arg->EvaluateAsInt(R, WA.context()) ||
        !isFullMask(R.Val.getInt().getZExtValue()))
      continue;
    bool Default = isa<CXXDefaultArgExpr>(Arg);
    SourceLocation Loc = Default ? Call->getBeginLoc() : Arg->getBeginLoc();
    if (!firstReportAt(Loc))
      continue;
    std::optional<CollectiveUse> Use = matchCollective(M.Collective);
    StringRef Certainty = D.isDiverged() ? certainty(D) : "";
    if (!D.isDiverged() && !M.DivergedInside &&
        FU.valueOf(Diverging).V != Variance::Lane)
      Certainty = "potentially ";
    diag(Loc, "full warp mask passed to %0 in %1divergent code, which uses "
              "it as the mask of '%2'")
        << Callee << Certainty
        << (Use ? StringRef(Use->Info->Name) : StringRef("a collective"));
    noteDivergence(D);
    if (Default)
      diag(Callee->getParamDecl(M.Index)->getLocation(),
           "the full mask is this default argument", DiagnosticIDs::Note);
    if (Diverging)
      diag(Diverging->getBeginLoc(), "this argument differs between lanes",
           DiagnosticIDs::Note);
    DivergencePath Path = WA.divergencePath(Call, M.Collective, FU, M.Via);
    notePath(Path);
    if ((M.DivergedInside || Diverging) && !Path.found())
      diag(M.Collective->getBeginLoc(),
           "lanes have diverged inside %0 when this runs", DiagnosticIDs::Note)
          << M.Owner;
    else
      diag(M.Collective->getBeginLoc(), "the mask is used here",
           DiagnosticIDs::Note);
    return;
  }
}

} // namespace clang::tidy::warp
