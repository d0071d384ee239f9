//===--- DivergentFullMaskCheck.cpp - warp-divergent-full-mask ------------===//

#include "DivergentFullMaskCheck.h"
#include "FixItText.h"
#include "analysis/LaneSets.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include <functional>

namespace clang::tidy::warp {

void DivergentFullMaskCheck::onEndOfTranslationUnit() {
  BallotNames.clear();
  Names.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

void DivergentFullMaskCheck::checkFunction(const FunctionDecl *FD,
                                           const FunctionUniformity &FU,
                                           WarpAnalysis &WA) {
  Pending.clear();
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *Use) {
    if (Use)
      checkCollective(*Use, FU, WA);
    else if (std::optional<GroupCollective> T =
                 matchGroupCollective(cast<CallExpr>(S)))
      checkTileCollective(*T, FU, WA);
    else
      checkCall(cast<CallExpr>(S), FU, WA);
  });
  reportCollectives(FU, WA.context());
}

void DivergentFullMaskCheck::checkCollective(const CollectiveUse &Use,
                                             const FunctionUniformity &FU,
                                             WarpAnalysis &WA) {
  if (!hasFullMask(Use, FU, WA.context()))
    return;
  Divergence D = FU.divergenceAt(Use.Site);
  if (!D.isDiverged())
    return;
  if (std::optional<Judged> J = judge(FU, Use.Site, D, &Use, WA))
    Pending.push_back({Use, std::move(D), std::move(*J)});
}

void DivergentFullMaskCheck::checkTileCollective(const GroupCollective &T,
                                                 const FunctionUniformity &FU,
                                                 WarpAnalysis &WA) {
  // A tile's collectives run with the mask of its lanes: every lane of the
  // tile must reach them, as with the intrinsics spelled with 0xffffffff.
  const Stmt *Site = T.Use.Site;
  if (!T.TileWidth)
    return;
  Divergence D = FU.divergenceAt(Site);
  if (!D.isDiverged())
    return;
  // A smaller tile waits only for its own lanes, which only a witness of
  // lanes shows.
  auto OwnTiles = [&](const LaneWitness &W,
                      LaneReach &) -> std::optional<LaneSet> {
    if (T.TileWidth == 32)
      return AllLanes;
    if (!W.hasLanes())
      return std::nullopt;
    return segmentsOf(W.Arrive, T.TileWidth);
  };
  std::optional<Judged> J = judge(FU, Site, D, &T.Use, WA, nullptr, OwnTiles);
  SourceLocation Loc = Site->getBeginLoc();
  if (!J || !firstReportAt(Loc))
    return;
  ASTContext &Ctx = WA.context();
  diag(Loc, "'%0' on a tile of %1 threads in %2divergent code: every lane of "
            "the tile must call it")
      << T.Spelling << T.TileWidth << certainty(J->Witness);
  noteDivergence(D);
  noteWitness(*this, Loc, J->Witness, "do not reach it", Ctx);
  if (J->Witness.hasLanes())
    noteLanes(*this, Loc, J->Witness.Named, J->Witness.Arrive);
  noteAbsentLanes(Loc, *J, Ctx);
  diag(Loc,
       "call it where the tile's %0 lanes are together, or use the group "
       "of the lanes that take the branch (cooperative_groups::"
       "coalesced_threads())",
       DiagnosticIDs::Note)
      << T.TileWidth;
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
                                  const FunctionUniformity &FU) {
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

/// The cause two collectives share when one finding covers both: the
/// branch (or exit) that split the lanes before them.
static const Stmt *causeOf(const Divergence &D) {
  const DivergentBranch &B = D.Branches.front();
  return B.Exit ? B.Exit : B.Terminator;
}

void DivergentFullMaskCheck::reportCollectives(const FunctionUniformity &FU,
                                               ASTContext &Ctx) {
  // One finding per cause: the collectives under one divergence point (and
  // one mask, the full one) are reported at the first.
  llvm::SmallPtrSet<const Stmt *, 4> Done;
  for (size_t I = 0; I < Pending.size(); ++I) {
    const Stmt *Cause = causeOf(Pending[I].D);
    if (!Done.insert(Cause).second)
      continue;
    llvm::SmallVector<const FullMaskSite *, 4> Others;
    for (size_t J = I + 1; J < Pending.size(); ++J)
      if (causeOf(Pending[J].D) == Cause)
        Others.push_back(&Pending[J]);
    report(Pending[I], Others, FU, Ctx);
  }
  Pending.clear();
}

void DivergentFullMaskCheck::report(const FullMaskSite &F,
                                    llvm::ArrayRef<const FullMaskSite *> Others,
                                    const FunctionUniformity &FU,
                                    ASTContext &Ctx) {
  const CollectiveUse &Use = F.Use;
  SourceLocation Loc = Use.Site->getBeginLoc();
  if (!firstReportAt(Loc))
    return;
  for (const FullMaskSite *O : Others)
    firstReportAt(O->Use.Site->getBeginLoc());
  const DivergentBranch &Inner = F.D.Branches.front();
  bool IsShuffle = Use.Info->Kind == CollectiveKind::Shuffle;
  const IfStmt *If = ballotableIf(F.D, FU);
  // A narrower mask repairs a shuffle only where every lane that reaches it
  // reads from one that reaches it too (`if (lane < 16)` with offsets 8..1):
  // values read from lanes that skipped the branch or left are undefined.
  bool ReadsWithin =
      !IsShuffle || shuffleReadsWithin(Use, F.D.Branches, FU, Ctx);
  // One fix for the cause: one ballot before the branch, its name in every
  // collective under it, so each must be repairable the same way.
  auto Repairable = [&](const FullMaskSite &S) {
    return ballotableIf(S.D, FU) == If &&
           (S.Use.Info->Kind != CollectiveKind::Shuffle ||
            shuffleReadsWithin(S.Use, S.D.Branches, FU, Ctx));
  };
  bool Fixable = If && ReadsWithin &&
                 (!Inner.Exit || isa<ReturnStmt, ContinueStmt>(Inner.Exit)) &&
                 llvm::all_of(Others, [&](const FullMaskSite *O) {
                   return Repairable(*O);
                 });
  bool Fixed = false;
  SharedName *Declared = nullptr;
  unsigned Hidden = hiddenSoFar();
  {
    std::string More;
    if (!Others.empty())
      More = " (and " + std::to_string(Others.size()) +
             " more under the same divergence)";
    auto Diag = diag(Loc, "full warp mask passed to '%0' in %1divergent code%2")
                << Use.Info->Name << certainty(F.J.Witness) << More;
    if (Fixable) {
      Fixed = addBallotFix(Diag, Use, Inner, FU, Ctx, Declared);
      for (const FullMaskSite *O : Others)
        Fixed = Fixed && addBallotFix(Diag, O->Use, O->D.Branches.front(), FU,
                                      Ctx, Declared);
    }
  }
  if (Declared)
    declarationEmitted(*Declared, Hidden, Loc);
  noteDivergence(F.D);
  noteWitness(*this, Loc, F.J.Witness, "do not reach it", Ctx);
  if (F.J.Witness.hasLanes())
    noteLanes(*this, Loc, AllLanes, F.J.Witness.Arrive);
  noteAbsentLanes(Loc, F.J, Ctx);
  if (Use.MaskIsDefaultArg && Use.Mask)
    diag(Loc, "the full mask is the default argument of '%0'",
         DiagnosticIDs::Note)
        << Use.Info->Name;
  for (const FullMaskSite *O : Others)
    diag(O->Use.Site->getBeginLoc(),
         "also here: '%0' under the same divergence", DiagnosticIDs::Note)
        << O->Use.Info->Name;
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
  // One declaration, however many collectives of this finding use it.
  if (Declared != &Mask && carriesDeclaration(Mask)) {
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
  ASTContext &Ctx = WA.context();
  DivergencePath Path =
      WA.divergencePath(Call, Need->Collective, FU, Need->Via);
  if (!VaryingArg) {
    std::optional<Judged> J = judge(FU, Call, D, nullptr, WA);
    if (!J || !firstReportAt(Call->getBeginLoc()))
      return J.has_value();
    diag(Call->getBeginLoc(), "call to %0 in %1divergent code runs a warp "
                              "collective with a full mask")
        << Callee << certainty(J->Witness);
    noteDivergence(D);
    noteWitness(*this, Call->getBeginLoc(), J->Witness, "do not reach the call",
                Ctx);
    noteAbsentLanes(Call->getBeginLoc(), *J, Ctx);
    notePath(Path);
    noteCollective(*this, Need->Collective);
    return true;
  }
  std::optional<Judged> J = judgeOnPath(Call, Path, FU, WA);
  if (!J)
    return true; // the need is met: nothing else to say about this call
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
  while (From < Path.DivergedFrame && callsTemplateCallable(At)) {
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
    return true;
  diag(At->getBeginLoc(),
       "call to %0 %1diverges the warp on an argument that differs "
       "between lanes before a warp collective with a full mask")
      << calledDefinition(At) << certainty(J->Witness);
  for (const Forward &F : Forwarded)
    diag(F.Arg->getBeginLoc(),
         "%0 hands this argument, which differs between lanes, to %1",
         DiagnosticIDs::Note)
        << describe(F.In) << describe(calledDefinition(F.Call));
  diag(AtArg->getBeginLoc(), "this argument differs between lanes",
       DiagnosticIDs::Note);
  notePath(Path, From);
  const Stmt *Point = Path.Frames[Path.DivergedFrame].Next;
  noteWitness(*this, Point->getBeginLoc(), J->Witness, "do not reach it", Ctx);
  noteAbsentLanes(Point->getBeginLoc(), *J, Ctx);
  noteCollective(*this, Need->Collective);
  return true;
}

void DivergentFullMaskCheck::reportFullMaskArgument(
    const CallExpr *Call, const FunctionDecl *Callee,
    const CollectiveFacet &Needs, const FunctionUniformity &FU,
    WarpAnalysis &WA) {
  // A full mask handed to a helper that uses it for a collective.
  ASTContext &Ctx = WA.context();
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
    if (Arg->isValueDependent() || !Arg->EvaluateAsInt(R, Ctx) ||
        !isFullMask(R.Val.getInt().getZExtValue()))
      continue;
    DivergencePath Path = WA.divergencePath(Call, M.Collective, FU, M.Via);
    std::optional<Judged> J = D.isDiverged() ? judge(FU, Call, D, nullptr, WA)
                                             : judgeOnPath(Call, Path, FU, WA);
    if (!J)
      continue;
    bool Default = isa<CXXDefaultArgExpr>(Arg);
    SourceLocation Loc = Default ? Call->getBeginLoc() : Arg->getBeginLoc();
    if (!firstReportAt(Loc))
      continue;
    std::optional<CollectiveUse> Use = matchCollective(M.Collective);
    diag(Loc, "full warp mask passed to %0 in %1divergent code, which uses "
              "it as the mask of '%2'")
        << Callee << certainty(J->Witness)
        << (Use ? StringRef(Use->Info->Name) : StringRef("a collective"));
    noteDivergence(D);
    if (Default)
      diag(Callee->getParamDecl(M.Index)->getLocation(),
           "the full mask is this default argument", DiagnosticIDs::Note);
    if (Diverging)
      diag(Diverging->getBeginLoc(), "this argument differs between lanes",
           DiagnosticIDs::Note);
    notePath(Path);
    noteWitness(*this, Loc, J->Witness, "do not reach it", Ctx);
    noteAbsentLanes(Loc, *J, Ctx);
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
