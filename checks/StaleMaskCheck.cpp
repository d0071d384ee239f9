//===--- StaleMaskCheck.cpp - warp-stale-mask -----------------------------===//

#include "StaleMaskCheck.h"
#include "analysis/LaneSets.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warp {

void StaleMaskCheck::onEndOfTranslationUnit() {
  Names.clear();
  BranchMasks.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

/// Returns the local variable \p E reads, if it is a plain local.
static const VarDecl *localRead(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
        return VD;
  return nullptr;
}

/// Records the definitions of every local of the function, initializers and
/// plain assignments, in \p Defs and \p Reaching (one walk per function,
/// not per use).
static void definitionsIn(const FunctionUniformity &FU, DefinitionMap &Defs,
                          ReachingDefinitions &Reaching) {
  auto Define = [&](const VarDecl *VD, const Expr *Value, const Stmt *At) {
    Defs[VD].push_back({Value, At});
    Reaching.define(VD, At);
  };
  FU.forEachStmt([&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          Define(VD, VD->getInit(), S);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (!BO->isAssignmentOp())
        return;
      if (const VarDecl *VD = localRead(BO->getLHS()))
        Define(VD, BO->getRHS(), S);
      else if (const ParmVarDecl *P = maskParameter(BO->getLHS()))
        Define(P, BO->getRHS(), S); // a reassigned parameter
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        if (const VarDecl *VD = localRead(UO->getSubExpr()))
          Define(VD, nullptr, S);
    }
  });
}

/// Returns the warp intrinsic call that makes \p E (`__activemask()`,
/// `__ballot_sync(m, p)`, `__match_any_sync`), looking through casts.
static const CallExpr *maskSource(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (!Call)
    return nullptr;
  return maskSourceKind(Call) ? Call : nullptr;
}

/// Returns whether \p Source is `__ballot_sync(m, p)` (so has the two).
static bool isBallot(const CallExpr *Source) {
  return maskSourceKind(Source) == MaskSourceKind::Ballot;
}

/// Returns whether \p E is the same in all lanes that passed the same value
/// \p Key to `__match_any_sync`: uniform parts and \p Key itself, combined by
/// operators (`key > 0`, `key % 4 == 1`).
static bool sameWithinPeerGroups(const Expr *E, const Expr *Key,
                                 const FunctionUniformity &FU,
                                 ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (FU.valueOf(E).isUniform() || sameExpr(E, Key, Ctx))
    return true;
  if (!isa<BinaryOperator, UnaryOperator, ConditionalOperator>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child);
        !C || !sameWithinPeerGroups(C, Key, FU, Ctx))
      return false;
  return true;
}

/// Returns the value \p Source groups lanes by, if it is __match_any_sync.
static const Expr *peerKey(const CallExpr *Source) {
  return maskSourceKind(Source) == MaskSourceKind::PeerGroup ? Source->getArg(1)
                                                             : nullptr;
}

/// Returns whether every branch in \p Extra keeps each peer group of a
/// `__match_any_sync(m, Key)` mask together: the groups stay whole.
static bool keepsPeerGroups(llvm::ArrayRef<DivergentBranch> Extra,
                            const Expr *Key, const FunctionUniformity &FU,
                            ASTContext &Ctx) {
  if (!Key)
    return false;
  for (const DivergentBranch &B : Extra)
    if (!B.Condition || !sameWithinPeerGroups(B.Condition, Key, FU, Ctx))
      return false;
  return true;
}

/// Returns whether the mask \p Source makes names every lane that runs it
/// (`__activemask()`, a ballot of `true`, a `__match_any_sync` group): such a
/// mask is stale wherever fewer lanes arrive, whatever the branch. A ballot
/// of a condition may name exactly the lanes that a helper lets through.
static bool namesEveryLaneHere(const CallExpr *Source, ASTContext &Ctx) {
  if (!Source)
    return false;
  if (!isBallot(Source))
    return true;
  bool Always = false;
  return !Source->getArg(1)->isValueDependent() &&
         Source->getArg(1)->EvaluateAsBooleanCondition(Always, Ctx) && Always;
}

/// Returns whether the helper of \p Helper, branching on its lane-varying
/// argument, leaves fewer lanes at its collective than the mask made by
/// \p Source names.
static bool helperSplits(const HelperDivergence &Helper, const CallExpr *Source,
                         const FunctionUniformity &FU, ASTContext &Ctx) {
  if (!Helper.Argument || !namesEveryLaneHere(Source, Ctx))
    return false;
  const Expr *Key = peerKey(Source);
  return !(Key && sameWithinPeerGroups(Helper.Argument, Key, FU, Ctx));
}

/// Strips parentheses, casts and logical negations; returns how many
/// negations were stripped, modulo 2.
static const Expr *stripNot(const Expr *E, bool &Negated) {
  Negated = false;
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || UO->getOpcode() != UO_LNot)
      return E;
    Negated = !Negated;
    E = UO->getSubExpr();
  }
}

/// Returns the comparison \p Op becomes when its operands swap sides.
static BinaryOperatorKind swapped(BinaryOperatorKind Op) {
  return BinaryOperator::isRelationalOp(Op)
             ? BinaryOperator::reverseComparisonOp(Op)
             : Op;
}

/// Returns whether \p A and \p B test the same thing (false) or opposite
/// things (true) in any spelling: `!(i < n)`, `i >= n` and `n <= i` are all
/// the negation of `i < n`. Nullopt when they are unrelated.
static std::optional<bool> relation(const Expr *A, const Expr *B,
                                    ASTContext &Ctx) {
  bool NegA, NegB;
  A = stripNot(A, NegA);
  B = stripNot(B, NegB);
  bool Negated = NegA != NegB;
  if (sameExpr(A, B, Ctx))
    return Negated;
  const auto *CA = dyn_cast<BinaryOperator>(A);
  const auto *CB = dyn_cast<BinaryOperator>(B);
  if (!CA || !CB || !CA->isComparisonOp() || !CB->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind OpB = CB->getOpcode();
  if (sameExpr(CA->getLHS(), CB->getRHS(), Ctx) &&
      sameExpr(CA->getRHS(), CB->getLHS(), Ctx))
    OpB = swapped(OpB);
  else if (!sameExpr(CA->getLHS(), CB->getLHS(), Ctx) ||
           !sameExpr(CA->getRHS(), CB->getRHS(), Ctx))
    return std::nullopt;
  if (CA->getOpcode() == OpB)
    return Negated;
  if (CA->getOpcode() == BinaryOperator::negateComparisonOp(OpB))
    return !Negated;
  return std::nullopt;
}

/// Returns whether lanes taking \p Branch satisfy exactly the predicate
/// \p Pred of the ballot that made the mask (the pattern that
/// warp-divergent-full-mask's fix produces).
static bool branchMatchesBallot(const DivergentBranch &Branch, const Expr *Pred,
                                ASTContext &Ctx) {
  if (!Branch.Condition || !Pred)
    return false;
  std::optional<bool> Negated = relation(Branch.Condition, Pred, Ctx);
  if (!Negated)
    return false;
  // Lanes here satisfy the condition when they took the true edge, and the
  // predicate when that is the same test (or the false edge of its negation).
  bool LanesSatisfyCond = Branch.Edge == 0;
  return LanesSatisfyCond != *Negated;
}

/// Returns whether \p Inner is \p Outer or lies inside it.
static bool contains(const Stmt *Outer, const Stmt *Inner) {
  if (Outer == Inner)
    return true;
  for (const Stmt *Child : Outer->children())
    if (Child && contains(Child, Inner))
      return true;
  return false;
}

/// Returns whether the lanes past the branches \p Extra are exactly those
/// for which the ballot predicate \p Pred holds: the branches all belong to
/// one `if` (its condition may be split into several blocks by && and ||)
/// and the lanes took its then side, or left through its then side.
static bool lanesMatchBallot(llvm::ArrayRef<DivergentBranch> Extra,
                             const Expr *Pred, ASTContext &Ctx) {
  const IfStmt *If = nullptr;
  for (const DivergentBranch &B : Extra)
    if (const auto *I = dyn_cast_or_null<IfStmt>(B.Terminator))
      If = I;
  if (!If || !Pred)
    return false;
  const DivergentBranch *AtIf = nullptr;
  for (const DivergentBranch &B : Extra) {
    if (B.Terminator == If)
      AtIf = &B;
    else if (!B.Terminator || !contains(If->getCond(), B.Terminator))
      return false;
  }
  if (!AtIf)
    return false;
  DivergentBranch Whole = *AtIf;
  Whole.Condition = If->getCond();
  return branchMatchesBallot(Whole, Pred, Ctx);
}

/// Returns the divergent branches at \p Use that the lanes at \p Def had not
/// taken yet.
static llvm::SmallVector<DivergentBranch, 2>
furtherDivergence(const Stmt *Def, const Stmt *Use,
                  const FunctionUniformity &FU) {
  Divergence AtDef = FU.divergenceAt(Def);
  Divergence AtUse = FU.divergenceAt(Use);
  llvm::SmallVector<DivergentBranch, 2> Extra;
  for (const DivergentBranch &B : AtUse.Branches) {
    bool Known = false;
    for (const DivergentBranch &D : AtDef.Branches)
      Known |= D.Terminator == B.Terminator && D.Edge == B.Edge;
    if (!Known)
      Extra.push_back(B);
  }
  return Extra;
}

void StaleMaskCheck::checkFunction(const FunctionDecl *FD,
                                   const FunctionUniformity &FU,
                                   WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  Definitions.clear();
  Reaching.emplace(FU.cfg(), FU.elements());
  definitionsIn(FU, Definitions, *Reaching);
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *Use) {
    if (Use) {
      if (Use->Mask)
        checkUse(S, Use->Mask, Use->Info->Name, FU, Ctx);
      checkLeaderAgreement(*Use, FU, Ctx);
      return;
    }
    // A mask handed to a helper that uses it for a collective.
    const auto *Call = cast<CallExpr>(S);
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
  // Both point into this function's CFG, which may not outlive the call.
  Reaching.reset();
  Definitions.clear();
}

/// The predicate of the ballot \p E names the lanes of, through a local
/// defined once (`pos`), and whether \p E complements it (`~pos`).
static const Expr *ballotPredicate(const Expr *E, const DefinitionMap &Defs,
                                   bool &Complement) {
  E = E->IgnoreParenImpCasts();
  Complement = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Not) {
    Complement = true;
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  const CallExpr *Source = maskSource(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = Defs.find(dyn_cast<VarDecl>(DRE->getDecl()));
    if (It == Defs.end() || It->second.size() != 1)
      return nullptr;
    Source = maskSource(It->second.front().Value);
  }
  return isBallot(Source) ? Source->getArg(1) : nullptr;
}

/// Whether shuffle \p Call reads the lowest lane that passes \p Branch:
/// `__ffs(pos) - 1` on the side where `pos`'s predicate holds, `__ffs(~pos)
/// - 1` where it fails (a side's leader).
static bool readsSideLeader(const CallExpr *Call, const DivergentBranch &Branch,
                            const DefinitionMap &Defs, ASTContext &Ctx) {
  if (Call->getNumArgs() <= CollectiveInfo::LaneArg)
    return false;
  const auto *Sub = dyn_cast<BinaryOperator>(
      Call->getArg(CollectiveInfo::LaneArg)->IgnoreParenImpCasts());
  if (!Sub || Sub->getOpcode() != BO_Sub || Sub->getRHS()->isValueDependent())
    return false;
  std::optional<llvm::APSInt> One = Sub->getRHS()->getIntegerConstantExpr(Ctx);
  if (!One || *One != 1)
    return false;
  const auto *Ffs = dyn_cast<CallExpr>(Sub->getLHS()->IgnoreParenImpCasts());
  if (!Ffs || calleeName(Ffs) != "__ffs" || Ffs->getNumArgs() != 1)
    return false;
  bool Complement;
  const Expr *Pred = ballotPredicate(Ffs->getArg(0), Defs, Complement);
  if (!Pred || !Branch.Condition)
    return false;
  std::optional<bool> Negated = relation(Branch.Condition, Pred, Ctx);
  bool LanesSatisfyCond = Branch.Edge == 0 && !Branch.Exit;
  return Negated && (LanesSatisfyCond != *Negated) != Complement;
}

bool StaleMaskCheck::readsWithinBranch(const Stmt *Use,
                                       const DivergentBranch &Branch,
                                       const FunctionUniformity &FU,
                                       ASTContext &Ctx) const {
  std::optional<CollectiveUse> C = matchCollective(Use);
  if (!C || C->Info->Kind != CollectiveKind::Shuffle)
    return true;
  if (readsSideLeader(cast<CallExpr>(Use), Branch, Definitions, Ctx))
    return true;
  return shuffleReadsWithin(*C, Branch, FU, Ctx);
}

void StaleMaskCheck::checkUse(const Stmt *Use, const Expr *Mask, StringRef What,
                              const FunctionUniformity &FU, ASTContext &Ctx,
                              const HelperDivergence &Helper) {
  if (const ParmVarDecl *P = maskParameter(Mask)) {
    // Which lanes the caller's mask names is unknown here (it may be the
    // ballot of the very condition the helper branches on), so only
    // divergence in this function counts.
    checkParameterUse(Use, P, What, FU);
    return;
  }
  const VarDecl *VD = localRead(Mask);
  if (!VD) {
    // A mask made right in the argument list is stale only if the helper
    // narrows the lanes before using it.
    if (helperSplits(Helper, maskSource(Mask), FU, Ctx) &&
        firstReportAt(Use->getBeginLoc())) {
      diag(Use->getBeginLoc(), "mask '%0' was computed before the lanes "
                               "diverged further; '%1' may wait for lanes "
                               "that no longer reach it")
          << shownText(Mask, Ctx) << What;
      noteHelperDivergence(Helper, FU);
    }
    return;
  }
  auto Defs = Definitions.find(VD);
  if (Defs == Definitions.end())
    return;
  // Stale only if no definition reaching this use is fresh for it (a mask
  // refreshed inside a loop is fresh).
  const MaskDef *Stale = nullptr;
  llvm::SmallVector<DivergentBranch, 2> Extra;
  for (unsigned Index : Reaching->reaching(VD, Use)) {
    const MaskDef &D = Defs->second[Index];
    const CallExpr *Source = maskSource(D.Value);
    if (!Source)
      return; // arithmetic or unknown provenance: not ours to judge
    llvm::SmallVector<DivergentBranch, 2> More =
        furtherDivergence(D.At, Use, FU);
    if ((isBallot(Source) && lanesMatchBallot(More, Source->getArg(1), Ctx)) ||
        keepsPeerGroups(More, peerKey(Source), FU, Ctx))
      More.clear();
    if (More.empty() && !helperSplits(Helper, Source, FU, Ctx))
      return;
    if (!Stale) {
      Stale = &D;
      Extra = More;
    }
  }
  if (!Stale)
    return;
  const CallExpr *Source = maskSource(Stale->Value);
  Divergence Further;
  Further.Branches.append(Extra.begin(), Extra.end());
  std::optional<Judged> J = Extra.empty()
                                ? std::nullopt
                                : judgeStale(Use, Stale->At, Mask, Further, FU);
  if ((!Extra.empty() && !J) || !firstReportAt(Use->getBeginLoc()))
    return;
  bool WrongSide = false;
  if (isBallot(Source) && Extra.size() == 1 && !Helper.Argument) {
    WrongSide =
        relation(Extra[0].Condition ? Extra[0].Condition : Source->getArg(1),
                 Source->getArg(1), Ctx)
            .has_value();
  }
  SharedName *Declared = nullptr;
  unsigned Hidden = hiddenSoFar();
  {
    auto Diag =
        WrongSide
            ? diag(Use->getBeginLoc(),
                   "mask '%0' is the ballot of a condition but is used by "
                   "'%1' where that condition is false; it names none of the "
                   "lanes that reach this call")
            : diag(Use->getBeginLoc(),
                   "mask '%0' was computed before the lanes diverged further; "
                   "'%1' may wait for lanes that no longer reach it");
    Diag << VD->getName() << What;
    // A helper that diverges the lanes further needs more than one ballot,
    // and a shuffle that reads lanes outside the branch more than a mask.
    if (Extra.size() == 1 && !Helper.Argument &&
        readsWithinBranch(Use, Extra.front(), FU, Ctx))
      Declared = addRecomputeFix(Diag, Extra.front(), Source, Mask, FU, Ctx);
  }
  if (Declared)
    declarationEmitted(*Declared, Hidden, Use->getBeginLoc());
  diag(Stale->Value->getBeginLoc(), "mask computed here", DiagnosticIDs::Note);
  noteDivergence(Further);
  noteHelperDivergence(Helper, FU);
  if (J) {
    noteWitness(*this, Use->getBeginLoc(), J->Witness,
                "are named by the mask but do not reach it", Ctx);
    if (J->Witness.hasLanes())
      noteLanes(*this, Use->getBeginLoc(), J->Witness.Named, J->Witness.Arrive);
    noteAbsentLanes(Use->getBeginLoc(), *J, Ctx);
  }
}

std::optional<WarpCheckBase::Judged>
StaleMaskCheck::judgeStale(const Stmt *Use, const Stmt *Def, const Expr *Mask,
                           const Divergence &Further,
                           const FunctionUniformity &FU) {
  // Stale lanes are named by the mask, live, and absent: lanes that left
  // the kernel are exempt, as for a full mask.
  WarpAnalysis &WA = *CurrentAnalysis;
  std::optional<CollectiveUse> Collective = matchCollective(Use);
  auto Callers = [&WA](const FunctionDecl *FD) {
    return WA.fateAfterReturn(FD);
  };
  Fate Structural =
      fateOf(FU, Use, Further, Collective ? &*Collective : nullptr,
             std::nullopt, WA, Callers);
  if (!Structural.isBug())
    return std::nullopt;
  LaneReach &Reach = WA.laneReach(FU);
  std::vector<BlockExtents> Shapes = launchShapes(FU.decl(), WA);
  WitnessSearch Search(Reach, Shapes);
  Fate Found;
  LaneSet Named = AllLanes;
  std::optional<LaneWitness> W =
      Search.find(Use, Further, [&](const LaneWitness &W) {
        if (!reportsTier(W.T))
          return false;
        if (!W.hasLanes()) {
          Found = Structural;
          return true;
        }
        // The lanes the mask names: its value where known, else the lanes
        // that ran the definition together.
        LaneEvaluator &Eval = Reach.evaluator();
        LaneSet MaskLanes = Reach.mayReach(Def, W.Warp);
        bool ReadWarp = false;
        LaneValues Values = Eval.laneValues(Mask, W.Warp, ReadWarp);
        for (unsigned L = 0; L < 32; ++L)
          if ((W.Arrive >> L & 1) && Values[L]) {
            MaskLanes = LaneSet(*Values[L]);
            break;
          }
        LaneSet Stale = MaskLanes & W.absent();
        Named = MaskLanes;
        if (!Stale)
          return false;
        Found = fateOf(FU, Use, Further, Collective ? &*Collective : nullptr,
                       KnownLanes{&Reach, W.Warp, Stale}, WA, Callers);
        return Found.isBug();
      });
  if (!W)
    return std::nullopt;
  if (W->hasLanes())
    W->Named = Named;
  return Judged{*W, Found};
}

SharedName *StaleMaskCheck::addRecomputeFix(
    DiagnosticBuilder &Diag, const DivergentBranch &B, const CallExpr *Source,
    const Expr *Mask, const FunctionUniformity &FU, ASTContext &Ctx) {
  // Mechanical fix: ballot of the branch predicate over the lanes that made
  // the mask, computed right before the branch. The recomputed ballot runs
  // over the lanes that made the old mask: the mask itself for
  // __activemask()/__match_any_sync (each peer group passes its own), the
  // ballot's own mask for __ballot_sync.
  const auto *If = dyn_cast_or_null<IfStmt>(B.Terminator);
  if (!If || If->getConditionVariable() || If->getInit() ||
      If->getBeginLoc().isMacroID() || !isRepeatable(If->getCond()) ||
      (B.Exit && !isa<ReturnStmt, ContinueStmt>(B.Exit)))
    return nullptr;
  const Expr *Over = nullptr;
  if (!isBallot(Source))
    Over = Mask;
  else if ((isa<DeclRefExpr>(Source->getArg(0)->IgnoreParenImpCasts()) ||
            Source->getArg(0)->isEvaluatable(Ctx)))
    Over = Source->getArg(0);
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
  bool Assigned = Definitions.count(P) != 0;
  Divergence D = FU.divergenceAt(Use);
  if (Assigned || !D.isDiverged() || P->getDeclContext() != FU.decl())
    return;
  std::optional<CollectiveUse> Collective = matchCollective(Use);
  WarpAnalysis &WA = *CurrentAnalysis;
  std::optional<Judged> J =
      judge(FU, Use, D, Collective ? &*Collective : nullptr, WA,
            [&WA](const FunctionDecl *FD) { return WA.fateAfterReturn(FD); });
  if (!J || !firstReportAt(Use->getBeginLoc()))
    return;
  diag(Use->getBeginLoc(), "mask '%0' was computed before the lanes diverged "
                           "further; '%1' may wait for lanes that no longer "
                           "reach it")
      << P->getName() << What;
  noteDivergence(D);
  diag(P->getLocation(), "mask received here", DiagnosticIDs::Note);
  noteWitness(*this, Use->getBeginLoc(), J->Witness, "do not reach it",
              P->getASTContext());
  noteAbsentLanes(Use->getBeginLoc(), *J, P->getASTContext());
}

/// Returns the `__activemask()` calls that \p E is computed from, following
/// locals with a single definition.
static void activemaskCalls(const Expr *E, const DefinitionMap &Definitions,
                            llvm::SmallPtrSetImpl<const CallExpr *> &Out,
                            unsigned Depth = 0) {
  if (!E || Depth > 4)
    return;
  E = E->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E);
      maskSourceKind(Call) == MaskSourceKind::ActiveLanes) {
    Out.insert(Call);
    return;
  }
  if (const VarDecl *VD = localRead(E)) {
    auto Defs = Definitions.find(VD);
    if (Defs != Definitions.end() && Defs->second.size() == 1)
      activemaskCalls(Defs->second[0].Value, Definitions, Out, Depth + 1);
    return;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      activemaskCalls(CE, Definitions, Out, Depth + 1);
}

void StaleMaskCheck::checkLeaderAgreement(const CollectiveUse &Use,
                                          const FunctionUniformity &FU,
                                          ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(Use.Site);
  int Src = Use.Info->SrcLaneArg;
  if (!Call || Src < 0 || unsigned(Src) >= Call->getNumArgs() || !Use.Mask)
    return;
  llvm::SmallPtrSet<const CallExpr *, 2> MaskCalls, LeaderCalls;
  activemaskCalls(Use.Mask, Definitions, MaskCalls);
  activemaskCalls(Call->getArg(Src), Definitions, LeaderCalls);
  if (MaskCalls.empty() || LeaderCalls.empty())
    return;
  for (const CallExpr *L : LeaderCalls)
    if (MaskCalls.contains(L))
      return;
  if (!firstReportAt(Call->getBeginLoc()))
    return;
  diag(Call->getBeginLoc(),
       "'%0' takes its source lane from one __activemask() and its mask from "
       "another; the two may differ, so the leader may not be in the mask")
      << Use.Info->Name;
  diag((*LeaderCalls.begin())->getBeginLoc(),
       "source lane chosen from this "
       "__activemask()",
       DiagnosticIDs::Note);
  diag((*MaskCalls.begin())->getBeginLoc(),
       "mask taken from this "
       "__activemask()",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::warp
