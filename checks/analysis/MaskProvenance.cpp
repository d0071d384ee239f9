//===--- MaskProvenance.cpp - where a lane mask was made ------------------===//

#include "MaskProvenance.h"
#include "WarpAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::warp {

const VarDecl *localRead(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
        return VD;
  return nullptr;
}

const CallExpr *maskSource(const Expr *E) {
  if (!E)
    return nullptr;
  // A group (`cg::coalesced_group g = cg::coalesced_threads()`) may be
  // copied from the call's temporary.
  E = E->IgnoreImplicit();
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1)
    E = Copy->getArg(0)->IgnoreImplicit();
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

bool helperSplits(const Expr *HelperArgument, const CallExpr *Source,
                  const FunctionUniformity &FU, ASTContext &Ctx) {
  if (!HelperArgument || !namesEveryLaneHere(Source, Ctx))
    return false;
  const Expr *Key = peerKey(Source);
  return !(Key && sameWithinPeerGroups(HelperArgument, Key, FU, Ctx));
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

bool isBallotOfBranchTest(const StaleMaskDef &Stale, ASTContext &Ctx) {
  if (!isBallot(Stale.Source) || Stale.Further.Branches.size() != 1)
    return false;
  const Expr *Pred = Stale.Source->getArg(1);
  const Expr *Cond = Stale.Further.Branches[0].Condition;
  return relation(Cond ? Cond : Pred, Pred, Ctx).has_value();
}

/// Whether \p E reads only values that \p Defs gives one definition at
/// most (constants, registers, locals set once, parameters never assigned).
static bool readsSettledValues(const Stmt *E, const MaskDefinitions &Defs) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Defs.find(VD) : Defs.end();
    return It == Defs.end() ||
           (It->second.size() == 1 && !isa<ParmVarDecl>(VD));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return false; // a pointer to it may change it
  for (const Stmt *Child : E->children())
    if (Child && !readsSettledValues(Child, Defs))
      return false;
  return true;
}

bool MaskProvenance::namesNoCaller(const StaleMaskDef &Stale,
                                   ASTContext &Ctx) const {
  return isBallotOfBranchTest(Stale, Ctx) &&
         Stale.Further.Branches[0].Condition &&
         readsSettledValues(Stale.Source->getArg(1), Defs);
}

const Expr *lanesThatMade(const CallExpr *Source, const Expr *Mask,
                          ASTContext &Ctx) {
  if (!isBallot(Source))
    return Mask;
  if ((isa<DeclRefExpr>(Source->getArg(0)->IgnoreParenImpCasts()) ||
       Source->getArg(0)->isEvaluatable(Ctx)))
    return Source->getArg(0);
  return nullptr;
}

LaneSet maskLanes(LaneReach &Reach, const Stmt *Def, const Expr *Mask,
                  uint64_t Warp, LaneSet Arrive) {
  LaneEvaluator &Eval = Reach.evaluator();
  LaneSet MaskLanes = Reach.mayReach(Def, Warp);
  bool ReadWarp = false;
  LaneValues Values = Eval.laneValues(Mask, Warp, ReadWarp);
  for (unsigned L = 0; L < 32; ++L)
    if ((Arrive >> L & 1) && Values[L]) {
      MaskLanes = LaneSet(*Values[L]);
      break;
    }
  return MaskLanes;
}

MaskProvenance::MaskProvenance(const FunctionUniformity &FU)
    : FU(FU), Reaching(FU.cfg(), FU.elements()) {
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

std::optional<StaleMaskDef>
MaskProvenance::staleDefinition(const VarDecl *VD, const Stmt *Use,
                                const Expr *HelperArgument, ASTContext &Ctx) {
  auto Found = Defs.find(VD);
  if (Found == Defs.end())
    return std::nullopt;
  std::optional<StaleMaskDef> Stale;
  for (unsigned Index : Reaching.reaching(VD, Use)) {
    const MaskDef &D = Found->second[Index];
    const CallExpr *Source = maskSource(D.Value);
    if (!Source)
      return std::nullopt; // arithmetic or unknown provenance
    llvm::SmallVector<DivergentBranch, 2> More =
        furtherDivergence(D.At, Use, FU);
    if ((isBallot(Source) && lanesMatchBallot(More, Source->getArg(1), Ctx)) ||
        keepsPeerGroups(More, peerKey(Source), FU, Ctx))
      More.clear();
    if (More.empty() && !helperSplits(HelperArgument, Source, FU, Ctx))
      return std::nullopt;
    if (!Stale) {
      Stale = StaleMaskDef{&D, Source, {}};
      Stale->Further.Branches = More;
    }
  }
  return Stale;
}

/// The predicate of the ballot \p E names the lanes of, through a local
/// defined once (`pos`), and whether \p E complements it (`~pos`).
static const Expr *ballotPredicate(const Expr *E, const MaskDefinitions &Defs,
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
                            const MaskDefinitions &Defs, ASTContext &Ctx) {
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

bool MaskProvenance::readsWithinBranch(const Stmt *Use,
                                       const DivergentBranch &Branch,
                                       ASTContext &Ctx) const {
  std::optional<CollectiveUse> C = matchCollective(Use);
  if (!C || C->Info->Kind != CollectiveKind::Shuffle)
    return true;
  if (readsSideLeader(cast<CallExpr>(Use), Branch, Defs, Ctx))
    return true;
  return shuffleReadsWithin(*C, Branch, FU, Ctx);
}

/// Adds to \p Out the `__activemask()` calls that \p E is computed from,
/// following locals with a single definition.
static void activemaskCalls(const Expr *E, const MaskDefinitions &Defs,
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
    auto Found = Defs.find(VD);
    if (Found != Defs.end() && Found->second.size() == 1)
      activemaskCalls(Found->second[0].Value, Defs, Out, Depth + 1);
    return;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      activemaskCalls(CE, Defs, Out, Depth + 1);
}

std::optional<std::pair<const CallExpr *, const CallExpr *>>
MaskProvenance::separateActivemasks(const CollectiveUse &Use) const {
  const auto *Call = dyn_cast<CallExpr>(Use.Site);
  int Src = Use.Info->SrcLaneArg;
  if (!Call || Src < 0 || unsigned(Src) >= Call->getNumArgs() || !Use.Mask)
    return std::nullopt;
  llvm::SmallPtrSet<const CallExpr *, 2> MaskCalls, LeaderCalls;
  activemaskCalls(Use.Mask, Defs, MaskCalls);
  activemaskCalls(Call->getArg(Src), Defs, LeaderCalls);
  if (MaskCalls.empty() || LeaderCalls.empty())
    return std::nullopt;
  for (const CallExpr *L : LeaderCalls)
    if (MaskCalls.contains(L))
      return std::nullopt;
  return std::pair(*LeaderCalls.begin(), *MaskCalls.begin());
}

} // namespace clang::warp
