//===--- ActivemaskMaskCheck.cpp - warp-activemask-mask -------------------===//

#include "ActivemaskMaskCheck.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warp {

void ActivemaskMaskCheck::onEndOfTranslationUnit() {
  Rewritten.clear();
  Names.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

/// Returns the local \p E reads when it is a local that is only
/// initialized (a `const unsigned m = __activemask();`).
static const VarDecl *initializedLocal(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit())
    return nullptr;
  return VD;
}

/// The `__activemask()` call that \p Mask is (through casts and one local's
/// initializer).
static const CallExpr *activemaskCall(const Expr *Mask) {
  for (int Hop = 0; Mask && Hop < 2; ++Hop) {
    if (const auto *Call = dyn_cast<CallExpr>(Mask->IgnoreParenImpCasts()))
      if (lookupIntrinsicValue(calleeName(Call)) == IntrinsicValue::ActiveMask)
        return Call;
    const VarDecl *VD = initializedLocal(Mask);
    Mask = VD ? VD->getInit() : nullptr;
  }
  return nullptr;
}

/// Whether \p E reads \p VD, directly or through the initializers of
/// locals it reads (`leader = __ffs(active) - 1`).
static bool derivesFrom(const Stmt *E, const VarDecl *VD, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (DRE->getDecl() == VD)
      return true;
    if (const auto *Local = dyn_cast<VarDecl>(DRE->getDecl()))
      if (Local->isLocalVarDecl() && Local->getInit())
        return derivesFrom(Local->getInit(), VD, Depth + 1);
    return false;
  }
  for (const Stmt *Child : E->children())
    if (derivesFrom(Child, VD, Depth))
      return true;
  return false;
}

/// Whether \p Use is meant for exactly the lanes that run it together: a
/// broadcast from a lane chosen out of the same mask (the warp-aggregated
/// atomic's leader), or a reduction of a value that is the same in every
/// lane, which only counts the lanes as __popc of the mask would.
static bool meantForActiveLanes(const CollectiveUse &Use,
                                const FunctionUniformity &FU) {
  const auto *Call = dyn_cast<CallExpr>(Use.Site);
  if (!Call)
    return true;
  if (Use.Info->Kind == CollectiveKind::Reduce)
    return Call->getNumArgs() > CollectiveInfo::ValueArg &&
           FU.valueOf(Call->getArg(CollectiveInfo::ValueArg)).isUniform();
  if (Use.Info->Lane != ShuffleLane::Absolute ||
      Call->getNumArgs() <= CollectiveInfo::LaneArg)
    return false;
  const VarDecl *MaskVar = initializedLocal(Use.Mask);
  const Expr *Source = Call->getArg(CollectiveInfo::LaneArg);
  if (MaskVar && derivesFrom(Source, MaskVar))
    return true;
  // `__shfl_sync(__activemask(), v, __ffs(__activemask()) - 1)` and the like.
  return activemaskCall(Use.Mask) && FU.valueOf(Source).isUniform() &&
         !Source->isIntegerConstantExpr(FU.decl()->getASTContext());
}

/// Whether the mask \p Active is taken where the lanes are diverged and
/// used by \p Collective with no further divergence in between: the lanes
/// meant are those the branches let through, and __activemask() may name
/// fewer. Where the warp is converged it names every lane, as meant; after
/// further divergence the mask is stale, warp-stale-mask's finding.
static bool takenUnderDivergenceForUse(const CallExpr *Active,
                                       const Stmt *Collective,
                                       const FunctionUniformity &FU) {
  Divergence AtMask = FU.divergenceAt(Active);
  Divergence AtUse = FU.divergenceAt(Collective);
  if (!AtMask.isDiverged() || AtMask.Branches.size() != AtUse.Branches.size())
    return false;
  for (size_t I = 0; I < AtMask.Branches.size(); ++I)
    if (AtMask.Branches[I].Terminator != AtUse.Branches[I].Terminator ||
        AtMask.Branches[I].Edge != AtUse.Branches[I].Edge)
      return false;
  return true;
}

void ActivemaskMaskCheck::checkFunction(const FunctionDecl *FD,
                                        const FunctionUniformity &FU,
                                        WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  FU.forEachCollective([&](const CollectiveUse &Use) {
    const Stmt *S = Use.Site;
    if (!Use.Mask || !expectsParticularLanes(*Use.Info))
      return;
    if (FU.valueOf(Use.Mask).S != Shape::ActiveMask)
      return;
    if (meantForActiveLanes(Use, FU))
      return;
    const CallExpr *Active = activemaskCall(Use.Mask);
    if (!Active || !takenUnderDivergenceForUse(Active, S, FU))
      return;
    SourceLocation Loc = Use.Mask->getBeginLoc();
    if (!firstReportAt(Loc))
      return;
    bool Fixed = false;
    {
      auto Diag = diag(Loc, "__activemask() as the mask of '%0' names the "
                            "lanes that happen to run together, not those "
                            "that are meant to take part")
                  << Use.Info->Name;
      if (!Rewritten.contains(Active))
        Fixed = addFix(Diag, Active, S, FU, Ctx);
    }
    if (Fixed)
      Rewritten.insert(Active);
    if (Active != Use.Mask->IgnoreParenImpCasts())
      diag(Active->getBeginLoc(), "the mask is taken here",
           DiagnosticIDs::Note);
    if (!Fixed && !Rewritten.contains(Active))
      diag(Loc,
           "compute the mask of the lanes meant with __ballot_sync(0xffffffff, "
           "<condition>) where the warp is converged, or use "
           "cooperative_groups::coalesced_threads()",
           DiagnosticIDs::Note);
    Divergence D = FU.divergenceAt(Active);
    noteTier(*this, Loc, D.hasDataBranch() ? Tier::Data : Tier::Proven,
             "__activemask() is taken where the lanes may have diverged, so "
             "it names whichever lanes the scheduler ran together");
    noteConsequence(*this, Loc, Consequence::WrongValues,
                    "lanes that arrive later are left out of the result");
  });
}

/// The `if` whose condition says which lanes reach \p S: the only branch
/// that splits the lanes on the way there, itself reached by the whole
/// warp.
static const IfStmt *onlyDivergentIf(const Divergence &D,
                                     const FunctionUniformity &FU) {
  if (D.Branches.size() != 1 || D.Branches[0].Exit)
    return nullptr;
  const auto *If = dyn_cast_or_null<IfStmt>(D.Branches[0].Terminator);
  if (!If || If->getConditionVariable() || If->getInit() || If->isConstexpr() ||
      If->getBeginLoc().isMacroID() || !isRepeatable(If->getCond()) ||
      FU.divergenceAt(If).isDiverged())
    return nullptr;
  return If;
}

bool ActivemaskMaskCheck::addFix(DiagnosticBuilder &Diag,
                                 const CallExpr *Active, const Stmt *Collective,
                                 const FunctionUniformity &FU,
                                 ASTContext &Ctx) {
  // Only a kernel is known to start with whole warps.
  if (!FU.decl()->hasAttr<CUDAGlobalAttr>())
    return false;
  // A broadcast from a fixed lane: the lanes the ballot names may not
  // include that lane (warp-shuffle-source-outside-mask), so a ballot
  // mask alone does not repair it.
  std::optional<CollectiveUse> Use = matchCollective(Collective);
  if (Use && Use->Info->Lane == ShuffleLane::Absolute) {
    const auto *Call = cast<CallExpr>(Collective);
    Expr::EvalResult Source;
    if (Call->getNumArgs() > CollectiveInfo::LaneArg &&
        !Call->getArg(CollectiveInfo::LaneArg)->isValueDependent() &&
        Call->getArg(CollectiveInfo::LaneArg)->EvaluateAsInt(Source, Ctx))
      return false;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Active->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid() || Active->getBeginLoc().isMacroID())
    return false;
  // The mask and its use are under the same branches (see
  // takenUnderDivergenceForUse): one `if` whose condition names the lanes.
  Divergence AtMask = FU.divergenceAt(Active);
  const IfStmt *If = onlyDivergentIf(AtMask, FU);
  if (!If)
    return false;
  std::string Cond = fileText(If->getCond()->getSourceRange(), Ctx);
  std::optional<std::string> Indent = indentationAt(If->getBeginLoc(), SM);
  if (Cond.empty() || !Indent)
    return false;
  bool Taken = AtMask.Branches[0].Edge == 0;
  std::string Name = Names.get("lanes_mask", FU.decl(), Ctx);
  Diag << FixItHint::CreateInsertion(
              If->getBeginLoc(),
              "const unsigned " + Name + " = __ballot_sync(0xffffffff, " +
                  (Taken ? Cond : "!(" + Cond + ")") + ");\n" + *Indent)
       << FixItHint::CreateReplacement(Range, Name);
  return true;
}

} // namespace clang::tidy::warp
