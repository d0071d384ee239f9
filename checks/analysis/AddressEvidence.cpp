//===--- AddressEvidence.cpp - why an address is the same in every lane ---===//

#include "AddressEvidence.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::warp {

namespace {

/// Whether the body of \p FD writes \p VD after its declaration, or lets
/// its address escape (`&v`, a non-const reference, a by-reference capture).
class Writes : public RecursiveASTVisitor<Writes> {
public:
  explicit Writes(const VarDecl *VD) : VD(VD) {}
  bool Found = false;

  bool names(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    return DRE && DRE->getDecl() == VD;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    Found |= BO->isAssignmentOp() && names(BO->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    Found |= (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
             names(UO->getSubExpr());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // A glvalue argument binds to a reference the callee may write.
    for (const Expr *Arg : Call->arguments())
      Found |= Arg->isGLValue() && names(Arg);
    return !Found;
  }
  bool VisitVarDecl(VarDecl *Ref) {
    // `T &r = v;` or `T *p = &v` (the latter is an address-of above).
    Found |= Ref->getType()->isReferenceType() &&
             !Ref->getType().getNonReferenceType().isConstQualified() &&
             Ref->getInit() && names(Ref->getInit());
    return !Found;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      Found |= C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
               C.getCapturedVar() == VD;
    return !Found;
  }

private:
  const VarDecl *VD;
};

class Evidence {
public:
  explicit Evidence(const FunctionUniformity &FU) : FU(FU) {}

  bool uniform(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 16)
      return false;
    E = E->IgnoreParens();
    if (E->isValueDependent())
      return false;
    if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
            FloatingLiteral, CXXNullPtrLiteralExpr, StringLiteral,
            UnaryExprOrTypeTraitExpr, SubstNonTypeTemplateParmExpr>(E))
      return true;
    if (std::optional<BuiltinRegister> R = matchBuiltinRegister(E))
      return R->Var != BuiltinRegister::ThreadIdx;
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return uniform(Cast->getSubExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return variable(DRE, Depth);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return isa<FieldDecl>(ME->getMemberDecl()) &&
             uniform(ME->getBase(), Depth + 1);
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return uniform(ASE->getBase(), Depth + 1) &&
             uniform(ASE->getIdx(), Depth + 1);
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return !UO->isIncrementDecrementOp() &&
             uniform(UO->getSubExpr(), Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
             uniform(BO->getLHS(), Depth + 1) &&
             uniform(BO->getRHS(), Depth + 1);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return uniform(CO->getCond(), Depth + 1) &&
             uniform(CO->getTrueExpr(), Depth + 1) &&
             uniform(CO->getFalseExpr(), Depth + 1);
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      return uniform(Default->getExpr(), Depth + 1);
    return false;
  }

private:
  bool variable(const DeclRefExpr *DRE, unsigned Depth) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    // A global or `__shared__` variable is one object for the whole warp.
    if (VD->hasGlobalStorage())
      return true;
    if (VD->getType()->isArrayType() || VD->getType()->isRecordType())
      return isa<ParmVarDecl>(VD) && !written(VD); // a kernel's argument
    if (written(VD))
      return false;
    if (isa<ParmVarDecl>(VD))
      return true; // what the callers pass (the analysis' Params)
    return VD->getInit() && uniform(VD->getInit(), Depth + 1);
  }

  bool written(const VarDecl *VD) {
    auto [It, New] = Written.try_emplace(VD, false);
    if (New) {
      Writes W(VD);
      if (const Stmt *Body = FU.decl()->getBody())
        W.TraverseStmt(const_cast<Stmt *>(Body));
      It->second = W.Found;
    }
    return It->second;
  }

  const FunctionUniformity &FU;
  llvm::DenseMap<const VarDecl *, bool> Written;
};

} // namespace

bool isUniformByConstruction(const Expr *E, const FunctionUniformity &FU) {
  return FU.valueOf(E).isUniform() && Evidence(FU).uniform(E);
}

} // namespace clang::warp
