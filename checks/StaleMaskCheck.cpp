//===--- StaleMaskCheck.cpp - warp-stale-mask -----------------------------===//

#include "StaleMaskCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warp {

/// A mask made before the lanes diverged further; a ballot on its wrong side.
static constexpr char DivergedFurther[] =
    "mask '%0' was computed before the lanes diverged further; '%1' may wait "
    "for lanes that no longer reach it";
static constexpr char GroupFormedBefore[] =
    "group '%0' was formed by coalesced_threads() before the lanes diverged "
    "further; '%1' waits for lanes of the group that no longer reach it";
static constexpr char WrongSide[] =
    "mask '%0' is the ballot of a condition but is used by '%1' where that "
    "condition is false; it names none of the lanes that reach this call";

void StaleMaskCheck::onEndOfTranslationUnit() {
  Names.clear();
  BranchMasks.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

void StaleMaskCheck::checkFunction(const FunctionDecl *FD,
                                   const FunctionUniformity &FU,
                                   WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  Provenance.emplace(FU);
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *Use) {
    if (Use) {
      if (Use->Mask)
        checkUse(S, Use->Mask, Use->Info->Name, FU, Ctx);
      checkLeaderAgreement(*Use);
      return;
    }
    const auto *Call = cast<CallExpr>(S);
    // A coalesced group names the lanes that formed it, as a mask from
    // __activemask() does; a tile's lanes are fixed.
    if (std::optional<GroupCollective> G = matchGroupCollective(Call)) {
      if (!G->TileWidth)
        checkUse(S, G->Group, G->Spelling, FU, Ctx, {}, /*Group=*/true);
      return;
    }
    // A mask handed to a helper that uses it for a collective.
    const FunctionDecl *Callee = calledDefinition(Call);
    const FunctionSummary *Summary =
        Callee && WA.mayMatter(Callee) ? WA.summary(Callee) : nullptr;
    if (!Summary)
      return;
    llvm::ArrayRef<const Expr *> Args = callArguments(Call);
    for (const MaskParam &M : Summary->facet<CollectiveFacet>()->MaskParams)
      if (M.Index < Args.size())
        checkUse(Call, Args[M.Index], Callee->getName(), FU, Ctx,
                 {WA.divergingArgument(Call, M.ParamConditions, M.Collective,
                                       FU, M.Via),
                  Callee, M.Collective, Call});
  });
  // It points into this function's CFG, which may not outlive the call.
  Provenance.reset();
}

void StaleMaskCheck::checkUse(const Stmt *Use, const Expr *Mask, StringRef What,
                              const FunctionUniformity &FU, ASTContext &Ctx,
                              const HelperDivergence &Helper, bool Group) {
  WarpAnalysis &WA = *CurrentAnalysis;
  auto SplitInHelper = [&] {
    return judgeOnPath(Helper.Call,
                       WA.divergencePath(Helper.Call, Helper.Collective, FU),
                       FU, WA);
  };
  if (const ParmVarDecl *P = maskParameter(Mask)) {
    // Which lanes the caller's mask names is unknown here (the ballot of
    // the helper's own test?): only divergence in this function counts.
    if (!Group)
      checkParameterUse(Use, P, What, FU);
    return;
  }
  const VarDecl *VD = localRead(Mask);
  if (!VD) {
    // A mask made right in the argument list is stale only if the helper
    // narrows the lanes before using it.
    std::optional<Judged> J;
    if (Group || !helperSplits(Helper.Argument, maskSource(Mask), FU, Ctx) ||
        !(J = SplitInHelper()) || !firstReportAt(Use->getBeginLoc()))
      return;
    diag(Use->getBeginLoc(), DivergedFurther) << shownText(Mask, Ctx) << What;
    noteHelperDivergence(Helper, FU);
    noteStaleLanes(Use, *J, "are named by the mask but do not reach it", Ctx);
    return;
  }
  std::optional<StaleMaskDef> Stale =
      Provenance->staleDefinition(VD, Use, Helper.Argument, Ctx);
  if (!Stale)
    return;
  const Divergence &Further = Stale->Further;
  llvm::ArrayRef<DivergentBranch> Extra = Further.Branches;
  bool NamesNoCaller = !Group && !Helper.Argument &&
                       reportsTier(Tier::Proven) &&
                       Provenance->namesNoCaller(*Stale, Ctx);
  // Stale lanes are named by the mask, live, and absent: lanes that left
  // the kernel are exempt, as for a full mask.
  auto MaskNames = [&](const LaneWitness &W,
                       LaneReach &Reach) -> std::optional<LaneSet> {
    return W.hasLanes()
               ? maskLanes(Reach, Stale->Def->At, Mask, W.Warp, W.Arrive)
               : AllLanes;
  };
  std::optional<CollectiveUse> Collective = matchCollective(Use);
  std::optional<Judged> J;
  if (!Extra.empty() && !NamesNoCaller)
    J = judge(FU, Use, Further, Collective ? &*Collective : nullptr, WA,
              nullptr, MaskNames);
  else if (Extra.empty() && Helper.Argument)
    J = SplitInHelper();
  if ((!J && !NamesNoCaller) || !firstReportAt(Use->getBeginLoc()))
    return;
  SharedName *Declared = nullptr;
  unsigned Hidden = hiddenSoFar();
  {
    auto Diag = diag(Use->getBeginLoc(), Group           ? GroupFormedBefore
                                         : NamesNoCaller ? WrongSide
                                                         : DivergedFurther);
    Diag << VD->getName() << What;
    // A helper that diverges the lanes further needs more than one ballot,
    // a shuffle that reads lanes outside the branch more than a mask, and
    // a group has no mask to recompute.
    if (!Group && Extra.size() == 1 && !Helper.Argument &&
        Provenance->readsWithinBranch(Use, Extra.front(), Ctx))
      Declared =
          addRecomputeFix(Diag, Extra.front(), Stale->Source, Mask, FU, Ctx);
  }
  if (Declared)
    declarationEmitted(*Declared, Hidden, Use->getBeginLoc());
  diag(Stale->Def->Value->getBeginLoc(),
       Group ? "group formed here" : "mask computed here", DiagnosticIDs::Note);
  noteDivergence(Further);
  noteHelperDivergence(Helper, FU);
  if (NamesNoCaller)
    noteNoCallerNamed(*this, Use->getBeginLoc(), VD->getName(), "its ballot");
  if (J)
    noteStaleLanes(Use, *J,
                   Group ? "are in the group but do not reach it"
                         : "are named by the mask but do not reach it",
                   Ctx);
  if (Group)
    diag(Use->getBeginLoc(),
         "form the group inside the branch (cooperative_groups::"
         "coalesced_threads() there), or split it before the branch with "
         "cooperative_groups::binary_partition(group, condition)",
         DiagnosticIDs::Note);
}

SharedName *StaleMaskCheck::addRecomputeFix(
    DiagnosticBuilder &Diag, const DivergentBranch &B, const CallExpr *Source,
    const Expr *Mask, const FunctionUniformity &FU, ASTContext &Ctx) {
  // Mechanical fix: ballot of the branch predicate over the lanes that made
  // the mask (lanesThatMade), computed right before the branch.
  const auto *If = dyn_cast_or_null<IfStmt>(B.Terminator);
  if (!If || If->getConditionVariable() || If->getInit() ||
      If->getBeginLoc().isMacroID() || !isRepeatable(If->getCond()) ||
      (B.Exit && !isa<ReturnStmt, ContinueStmt>(B.Exit)))
    return nullptr;
  const Expr *Over = lanesThatMade(Source, Mask, Ctx);
  std::optional<std::string> Indent =
      indentationAt(If->getBeginLoc(), Ctx.getSourceManager());
  CharSourceRange MaskRange = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Mask->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  if (!Over || !Indent || MaskRange.isInvalid())
    return nullptr;
  std::string Cond = fileText(If->getCond()->getSourceRange(), Ctx);
  std::string OverText = fileText(Over->getSourceRange(), Ctx);
  if (Cond.empty() || OverText.empty())
    return nullptr;
  bool Taken = B.Edge == 0 && !B.Exit;
  auto [It, Inserted] = BranchMasks.try_emplace({If, Taken, OverText});
  SharedName &Recomputed = It->second;
  if (Inserted)
    Recomputed.Name = Names.get("branch_mask", FU.decl(), Ctx);
  SharedName *Declared = nullptr;
  if (carriesDeclaration(Recomputed)) {
    Diag << FixItHint::CreateInsertion(
        If->getBeginLoc(),
        "const unsigned " + Recomputed.Name + " = __ballot_sync(" + OverText +
            ", " + (Taken ? Cond : "!(" + Cond + ")") + ");\n" + *Indent);
    Declared = &Recomputed;
  }
  Diag << FixItHint::CreateReplacement(MaskRange, Recomputed.Name);
  return Declared;
}

void StaleMaskCheck::noteStaleLanes(const Stmt *Use, const Judged &J,
                                    StringRef Absent, ASTContext &Ctx) {
  noteWitness(*this, Use->getBeginLoc(), J.Witness, Absent, Ctx);
  if (J.Witness.hasLanes())
    noteLanes(*this, Use->getBeginLoc(), J.Witness.Named, J.Witness.Arrive);
  noteAbsentLanes(Use->getBeginLoc(), J, Ctx);
}

void StaleMaskCheck::noteHelperDivergence(const HelperDivergence &Helper,
                                          const FunctionUniformity &FU) {
  if (!Helper.Argument)
    return;
  diag(Helper.Argument->getBeginLoc(), "this argument differs between lanes",
       DiagnosticIDs::Note);
  notePath(CurrentAnalysis->divergencePath(Helper.Call, Helper.Collective, FU));
  diag(Helper.Collective->getBeginLoc(), "the mask is used here",
       DiagnosticIDs::Note);
}

void StaleMaskCheck::checkParameterUse(const Stmt *Use, const ParmVarDecl *P,
                                       StringRef What,
                                       const FunctionUniformity &FU) {
  // Reassigned parameters are locals in disguise; leave them alone.
  bool Assigned = Provenance->isReassigned(P);
  Divergence D = FU.divergenceAt(Use);
  if (Assigned || !D.isDiverged() || P->getDeclContext() != FU.decl())
    return;
  std::optional<CollectiveUse> Collective = matchCollective(Use);
  std::optional<Judged> J =
      judge(FU, Use, D, Collective ? &*Collective : nullptr, *CurrentAnalysis);
  if (!J || !firstReportAt(Use->getBeginLoc()))
    return;
  diag(Use->getBeginLoc(), DivergedFurther) << P->getName() << What;
  noteDivergence(D);
  diag(P->getLocation(), "mask received here", DiagnosticIDs::Note);
  noteStaleLanes(Use, *J, "do not reach it", P->getASTContext());
}

void StaleMaskCheck::checkLeaderAgreement(const CollectiveUse &Use) {
  std::optional<std::pair<const CallExpr *, const CallExpr *>> Separate =
      Provenance->separateActivemasks(Use);
  if (!Separate || !firstReportAt(Use.Site->getBeginLoc()))
    return;
  diag(Use.Site->getBeginLoc(),
       "'%0' takes its source lane from one __activemask() and its mask from "
       "another; the two may differ, so the leader may not be in the mask")
      << Use.Info->Name;
  diag(Separate->first->getBeginLoc(),
       "source lane chosen from this __activemask()", DiagnosticIDs::Note);
  diag(Separate->second->getBeginLoc(), "mask taken from this __activemask()",
       DiagnosticIDs::Note);
  noteConsequence(*this, Use.Site->getBeginLoc(), Consequence::WrongValues,
                  "a leader outside the mask reads as undefined (0 on sm_90)");
}

} // namespace clang::tidy::warp
