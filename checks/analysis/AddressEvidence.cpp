//===--- AddressEvidence.cpp - why an address is the same in every lane ---===//

#include "AddressEvidence.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

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

/// Every value \p VD is given in \p Body: its initializer, the right-hand
/// sides of assignments to it, and null for `++v`/`--v`; nullopt when its
/// address escapes or it is written in a way that is not followed.
std::optional<llvm::SmallVector<const Expr *, 4>> writesOf(const VarDecl *VD,
                                                           const Stmt *Body) {
  struct Collect : RecursiveASTVisitor<Collect> {
    const VarDecl *VD;
    llvm::SmallVector<const Expr *, 4> Values;
    bool Escapes = false;
    bool names(const Expr *E) const {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
      return DRE && DRE->getDecl() == VD;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp() && names(BO->getLHS()))
        Values.push_back(BO->getRHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->isIncrementDecrementOp() && names(UO->getSubExpr()))
        Values.push_back(nullptr);
      Escapes |= UO->getOpcode() == UO_AddrOf && names(UO->getSubExpr());
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      for (const Expr *Arg : Call->arguments())
        Escapes |= Arg->isGLValue() && names(Arg);
      return true;
    }
    bool VisitVarDecl(VarDecl *Ref) {
      Escapes |= Ref->getType()->isReferenceType() &&
                 !Ref->getType().getNonReferenceType().isConstQualified() &&
                 Ref->getInit() && names(Ref->getInit());
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *L) {
      for (const LambdaCapture &C : L->captures())
        Escapes |= C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
                   C.getCapturedVar() == VD;
      return true;
    }
  } C;
  C.VD = VD;
  if (Body)
    C.TraverseStmt(const_cast<Stmt *>(Body));
  if (C.Escapes)
    return std::nullopt;
  if (VD->getInit())
    C.Values.push_back(VD->getInit());
  return C.Values;
}

class Evidence {
public:
  Evidence(const FunctionUniformity &FU, LaneEvaluator *Lanes)
      : FU(FU), Lanes(Lanes) {}

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
    // threadIdx.y and z are a warp's when blocks are warp-aligned (the
    // option, or every launch the unit shows).
    if (std::optional<BuiltinRegister> R = matchBuiltinRegister(E))
      return R->Var != BuiltinRegister::ThreadIdx ||
             (R->Dim > 0 && FU.valueOf(E).isUniform());
    // Lane arithmetic the evaluator computes to one value in every lane
    // (`threadIdx.x / 32`, `lane - lane`).
    if (sameInEveryLane(E))
      return true;
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
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return call(Call, Depth);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      return llvm::all_of(Construct->arguments(),
                          [&](const Expr *A) { return uniform(A, Depth + 1); });
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      return uniform(MTE->getSubExpr(), Depth + 1);
    return false;
  }

private:
  bool sameInEveryLane(const Expr *E) {
    if (!Lanes || !E->getType()->isIntegralOrEnumerationType())
      return false;
    for (uint64_t Warp : {0, 1, 5}) {
      std::optional<std::vector<int64_t>> V = Lanes->valuesIn(E, Warp);
      if (!V || llvm::any_of(*V, [&](int64_t X) { return X != V->front(); }))
        return false;
    }
    return true;
  }

  /// A call whose callee, object and arguments the analysis can follow: its
  /// result is what the callee makes of them.
  bool call(const CallExpr *Call, unsigned Depth) {
    if (!Call->getDirectCallee() || !FU.valueOf(Call).isUniform())
      return false;
    if (const Expr *Object = callObject(Call);
        Object && !uniform(Object, Depth + 1))
      return false;
    return llvm::all_of(callArguments(Call),
                        [&](const Expr *A) { return uniform(A, Depth + 1); });
  }

  bool variable(const DeclRefExpr *DRE, unsigned Depth) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    // `auto [a, b] = f(x)`: the binding is part of what its initializer is.
    if (const auto *B = dyn_cast<BindingDecl>(DRE->getDecl())) {
      const auto *Holder = dyn_cast_or_null<VarDecl>(B->getDecomposedDecl());
      return Holder && Holder->getInit() && !Holder->isInitCapture() &&
             writesOf(Holder, FU.decl()->getBody()).has_value() &&
             writesOf(Holder, FU.decl()->getBody())->size() == 1 &&
             uniform(Holder->getInit(), Depth + 1);
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    // A global or `__shared__` variable is one object for the whole warp.
    if (VD->hasGlobalStorage())
      return true;
    // A reference names what it was bound to, for good.
    if (VD->getType()->isReferenceType() && !isa<ParmVarDecl>(VD))
      return VD->getInit() && uniform(VD->getInit(), Depth + 1);
    if (VD->getType()->isArrayType())
      return isa<ParmVarDecl>(VD) && !written(VD);
    if (VD->getType()->isRecordType())
      return isa<ParmVarDecl>(VD) ? !written(VD) : record(VD, Depth);
    if (isa<ParmVarDecl>(VD) && !written(VD))
      return true; // what the callers pass (the analysis' Params)
    // A scalar local (or a reassigned parameter) is as uniform as every
    // value it is given (a declaration without one gives none we know);
    // reading itself while stepped (`b += 1`) adds none.
    if (!InProgress.insert(VD).second)
      return true;
    bool Uniform = false;
    if (std::optional<llvm::SmallVector<const Expr *, 4>> Values =
            writesOf(VD, FU.decl()->getBody()))
      Uniform = (VD->getInit() || isa<ParmVarDecl>(VD)) &&
                llvm::all_of(*Values, [&](const Expr *V) {
                  return !V || uniform(V, Depth + 1);
                });
    InProgress.erase(VD);
    return Uniform;
  }

  /// A local object built from values the same in every lane, never
  /// assigned, its address never taken, and handed to its methods (through
  /// `this`) only with such values: a union, or a field a lane writes
  /// through a cast pointer or a reference a helper returns, fails this.
  bool record(const VarDecl *VD, unsigned Depth) {
    const RecordDecl *RD = VD->getType()->getAsRecordDecl();
    if (!RD || RD->isUnion() || !VD->getInit() || written(VD))
      return false;
    if (!uniform(VD->getInit(), Depth + 1))
      return false;
    struct Methods : RecursiveASTVisitor<Methods> {
      const VarDecl *VD;
      llvm::SmallVector<const CXXMemberCallExpr *, 4> Calls;
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
        const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
            Call->getImplicitObjectArgument()
                ? Call->getImplicitObjectArgument()->IgnoreParenImpCasts()
                : nullptr);
        if (DRE && DRE->getDecl() == VD)
          Calls.push_back(Call);
        return true;
      }
    } M;
    M.VD = VD;
    M.TraverseStmt(const_cast<Stmt *>(FU.decl()->getBody()));
    return llvm::all_of(M.Calls, [&](const CXXMemberCallExpr *Call) {
      return llvm::all_of(Call->arguments(),
                          [&](const Expr *A) { return uniform(A, Depth + 1); });
    });
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
  LaneEvaluator *Lanes;
  llvm::DenseMap<const VarDecl *, bool> Written;
  llvm::SmallPtrSet<const VarDecl *, 4> InProgress;
};

} // namespace

bool isUniformByConstruction(const Expr *E, const FunctionUniformity &FU,
                             LaneEvaluator *Lanes) {
  return FU.valueOf(E).isUniform() && Evidence(FU, Lanes).uniform(E);
}

bool readsLaneIndex(const FunctionUniformity &FU) {
  bool Found = false;
  llvm::SmallVector<const Stmt *, 16> Work;
  FU.forEachStmt([&](const Stmt *S) {
    if (!Found)
      Work.push_back(S);
    while (!Found && !Work.empty()) {
      const Stmt *Next = Work.pop_back_val();
      if (const auto *E = dyn_cast<Expr>(Next);
          E && FU.valueOf(E).V == Variance::Lane) {
        Found = true;
        break;
      }
      for (const Stmt *Child : Next->children())
        if (Child)
          Work.push_back(Child);
    }
    Work.clear();
  });
  return Found;
}

} // namespace clang::warp
