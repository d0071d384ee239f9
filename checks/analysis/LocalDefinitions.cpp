//===--- LocalDefinitions.cpp - where each local gets its value -----------===//

#include "LocalDefinitions.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace clang::warp {

std::optional<LocalSlot> localSlot(const Expr *E, bool ForWrite) {
  // Walk from the lvalue to its root, remembering the field just above it.
  const FieldDecl *Field = nullptr;
  bool Partial = false, Subscripted = false;
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return std::nullopt;
      if (Field || Subscripted)
        Partial = true;
      Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!Field)
        return std::nullopt; // a static member: not this lane's storage
      E = ME->getBase();
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      // Only a local array is local storage; a pointer indexes memory.
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (Base->getType().isNull() || !Base->getType()->isArrayType())
        return std::nullopt;
      Partial = true;
      Subscripted = true;
      Field = nullptr; // an element of an array field: the field is the slot
      E = Base;
    } else {
      break;
    }
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage())
    return std::nullopt;
  if (VD->getType()->isReferenceType() && (ForWrite || Field || Partial))
    return std::nullopt;
  LocalSlot S;
  S.Var = VD;
  S.Field = Field;
  S.Partial = Partial;
  S.Root = DRE;
  return S;
}

LocalDefinitions::LocalDefinitions(const FunctionDecl *FD, const CFG &Cfg,
                                   const ElementPositions &Elements)
    : Reaching(Cfg, Elements) {
  collect(FD, Cfg);
  // Every assigned variable is read somewhere: defining all of them now
  // lets the first question solve them together.
  for (const auto &[Var, Indices] : ByVar)
    if (Indices.size() > 1)
      key(Var, nullptr);
}

void LocalDefinitions::add(Definition D) {
  unsigned I = Defs.size();
  Defs.push_back(D);
  if (D.Site)
    BySite[D.Site].push_back(I);
  ByVar[D.Var].push_back(I);
}

/// Returns whether argument \p Arg bound to parameter type \p Param lets the
/// callee write the caller's object: a reference to non-const, or a local
/// array decayed to a pointer.
/// Returns \p E without the casts that keep its address: implicit ones and
/// explicit pointer casts (`(char *)state`, `reinterpret_cast<T *>(&x)`),
/// through which a callee writes the same storage.
static const Expr *ignorePointerCasts(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast ||
        (Cast->getCastKind() != CK_BitCast && Cast->getCastKind() != CK_NoOp))
      return E;
    E = Cast->getSubExpr();
  }
}

static bool writableArgument(const Expr *Arg, QualType Param) {
  if (Param->isReferenceType())
    return !Param.getNonReferenceType().isConstQualified();
  QualType ArgType = Arg->IgnoreParenImpCasts()->getType();
  return Param->isPointerType() && !ArgType.isNull() && ArgType->isArrayType();
}

void LocalDefinitions::collect(const FunctionDecl *FD, const CFG &Cfg) {
  auto Write = [&](Kind K, const Stmt *Site, const Expr *LValue,
                   bool AlwaysPartial) -> Definition * {
    std::optional<LocalSlot> S = localSlot(LValue, /*ForWrite=*/true);
    if (!S)
      return nullptr;
    add({K, Site, S->Var, S->Field, S->Partial || AlwaysPartial});
    return &Defs.back();
  };
  for (const CFGBlock *B : Cfg)
    for (const CFGElement &E : *B) {
      std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D);
              VD && VD->hasLocalStorage())
            add({Kind::Init, S, VD});
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (BO->isAssignmentOp())
          Write(Kind::Assign, S, BO->getLHS(), false);
      } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->isIncrementDecrementOp())
          Write(Kind::IncDec, S, UO->getSubExpr(), false);
      } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
        for (const Expr *Out : Asm->outputs())
          if (Definition *D = Write(Kind::AsmOutput, S, Out, false))
            D->Operand = Out;
      } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
                 Op && Op->getNumArgs() >= 1 &&
                 (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
                  Op->getOperator() == OO_MinusMinus)) {
        // `s = t` on a record is a call of its operator=.
        Write(Op->isAssignmentOp() ? Kind::Assign : Kind::IncDec, S,
              Op->getArg(0), false);
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        // Arguments of a member operator start with the object.
        unsigned Skip = isa<CXXOperatorCallExpr>(Call) && Callee &&
                                isa<CXXMethodDecl>(Callee) &&
                                !cast<CXXMethodDecl>(Callee)->isStatic()
                            ? 1
                            : 0;
        for (unsigned I = Skip, N = Call->getNumArgs(); I < N; ++I) {
          const Expr *Arg = ignorePointerCasts(Call->getArg(I));
          unsigned Param = I - Skip;
          const Expr *Target = nullptr;
          if (const auto *UO = dyn_cast<UnaryOperator>(Arg);
              UO && UO->getOpcode() == UO_AddrOf)
            Target = UO->getSubExpr();
          else if (Callee && Param < Callee->getNumParams() &&
                   writableArgument(Arg,
                                    Callee->getParamDecl(Param)->getType()))
            Target = Arg;
          if (Target)
            if (Definition *D = Write(Kind::CallOut, S, Target, true))
              D->Arg = Param;
        }
      }
    }
  // A parameter that is assigned starts with the caller's value.
  for (const ParmVarDecl *P : FD->parameters())
    if (ByVar.count(P))
      add({Kind::Entry, nullptr, P});
}

llvm::ArrayRef<unsigned> LocalDefinitions::at(const Stmt *Site) const {
  auto It = BySite.find(Site);
  return It == BySite.end() ? llvm::ArrayRef<unsigned>() : It->second;
}

llvm::ArrayRef<unsigned> LocalDefinitions::of(const VarDecl *Var) const {
  auto It = ByVar.find(Var);
  return It == ByVar.end() ? llvm::ArrayRef<unsigned>() : It->second;
}

const void *LocalDefinitions::key(const VarDecl *Var, const FieldDecl *Field) {
  auto [It, New] = KeyOf.try_emplace({Var, Field}, nullptr);
  if (!New)
    return It->second;
  Keys.emplace_back(Var, Field);
  const void *K = &Keys.back();
  It->second = K;
  // A whole read sees every field written (each only in part); a field read
  // sees the writes of the whole and of that field.
  llvm::SmallVector<unsigned, 2> &M = Members[K];
  for (unsigned I : of(Var)) {
    const Definition &D = Defs[I];
    if (Field && D.Field && D.Field != Field)
      continue;
    bool Kills = !D.Partial && (!D.Field || D.Field == Field);
    Reaching.define(K, D.Site, Kills);
    M.push_back(I);
  }
  return K;
}

std::optional<llvm::SmallVector<unsigned, 2>>
LocalDefinitions::reaching(const VarDecl *Var, const FieldDecl *Field,
                           const Stmt *Use) {
  if (!Reaching.isElement(Use))
    return std::nullopt;
  if (of(Var).empty())
    return llvm::SmallVector<unsigned, 2>();
  const void *K = key(Var, Field);
  const llvm::SmallVector<unsigned, 2> &M = Members[K];
  llvm::SmallVector<unsigned, 2> Out;
  for (unsigned Index : Reaching.reaching(K, Use))
    Out.push_back(M[Index]);
  return Out;
}

} // namespace clang::warp
