//===--- IndexTerms.cpp - lane values of element index terms --------------===//

#include "IndexTerms.h"
#include "MovedLanes.h"
#include "WarpCollectives.h"

namespace clang::warp {

IndexTermValues::IndexTermValues(LaneReach &Reach,
                                 const llvm::DenseSet<const VarDecl *> &Written,
                                 llvm::ArrayRef<uint64_t> Warps)
    : Reach(Reach), Written(Written), Warps(Warps.begin(), Warps.end()) {}

bool IndexTermValues::sameWherever(const Expr *E) const {
  if (matchBuiltinRegister(E))
    return true;
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          SubstNonTypeTemplateParmExpr, SizeOfPackExpr,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(DRE->getDecl()))
      return true;
    // A local or parameter never assigned holds its first value; a global
    // only when it is constant.
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && !Written.contains(VD) &&
           (VD->hasLocalStorage() || VD->getType().isConstQualified());
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->isAssignmentOp() || BO->isCommaOp()))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf ||
             UO->getOpcode() == UO_Deref))
    return false;
  if (!isa<BinaryOperator, UnaryOperator, CastExpr, ParenExpr,
           ConditionalOperator, ConstantExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child); !C || !sameWherever(C))
      return false;
  return true;
}

IndexTermValues::Term &IndexTermValues::termOf(const Expr *E) {
  auto [It, New] = ByExpr.try_emplace(E, nullptr);
  if (!New)
    return *It->second;
  Term *T = nullptr;
  if (sameWherever(E)) {
    llvm::FoldingSetNodeID ID;
    E->Profile(ID, Reach.function().decl()->getASTContext(),
               /*Canonical=*/true);
    Term *&Shared = ByStructure[ID];
    if (!Shared) {
      Shared = &Terms.emplace_back();
      Shared->In = Reach.inputsOf({E});
    }
    T = Shared;
  } else {
    T = &Terms.emplace_back();
    T->In = Reach.inputsOf({E});
  }
  T->Uniform = Reach.function().valueOf(E).isUniform();
  It->second = T;
  return *T;
}

IndexTermValues::Lanes &IndexTermValues::rowOf(Term &T, uint64_t Warp) {
  LaneEvaluator &Eval = Reach.evaluator();
  if (T.SeenGeneration != Eval.generation()) {
    T.SeenGeneration = Eval.generation();
    std::pair<unsigned, LaneReach::Bindings> Now(Eval.blockGeneration(),
                                                 Reach.bindingsNow(T.In));
    auto It = llvm::find(T.Seen, Now);
    T.Now = unsigned(It - T.Seen.begin());
    if (It == T.Seen.end())
      T.Seen.push_back(std::move(Now));
  }
  return T.Rows[{T.Now, Warp}];
}

std::optional<int64_t> IndexTermValues::shiftOf(Term &T, const Expr *E,
                                                uint64_t Warp) {
  auto [It, New] = T.Shifts.try_emplace(T.Now);
  if (New)
    It->second = Reach.shiftsOf(E, Warps);
  auto At = llvm::find(Warps, Warp);
  return At == Warps.end() ? std::nullopt : It->second[At - Warps.begin()];
}

const IndexTermValues::Lanes &
IndexTermValues::lanesIn(const Expr *E, uint64_t Warp, LaneSet Wanted) {
  Term &T = termOf(E);
  Lanes &Row = rowOf(T, Warp);
  LaneSet Missing = Wanted & ~Row.Known;
  if (Missing && T.Uniform) {
    // The same in every lane of the warp: one lane stands for the rest.
    bool Read = false;
    std::optional<int64_t> V =
        Reach.evaluator().valueIn(E, llvm::countr_zero(Missing), Warp, Read);
    Row.Values.fill(V);
    Row.Known = AllLanes;
    Row.ReadWarp = Read ? AllLanes : 0;
    return Row;
  }
  if (Missing && Warp != Warps.front())
    if (std::optional<int64_t> D = shiftOf(T, E, Warp)) {
      // The first warp's lanes moved (Row may move as that row is added).
      Lanes First = lanesIn(E, Warps.front(), AllLanes);
      First.Values =
          moved(First.Values, *D, Reach.evaluator().intFormat(E->getType()));
      return rowOf(T, Warp) = First;
    }
  if (Missing) {
    // Every lane at once, from the lanes of the term's operands.
    bool Read = false;
    Row.Values = Reach.valuesOf(E, Warp, Read);
    Row.Known = AllLanes;
    Row.ReadWarp = Read ? AllLanes : 0;
  }
  return Row;
}

std::optional<int64_t> IndexTermValues::valueIn(const Expr *E, unsigned Lane,
                                                uint64_t Warp, bool &ReadWarp) {
  LaneSet Bit = LaneSet(1) << Lane;
  const Lanes &Row = lanesIn(E, Warp, Bit);
  ReadWarp |= bool(Row.ReadWarp & Bit);
  return Row.Values[Lane];
}

} // namespace clang::warp
