//===--- ElementAccesses.cpp - reads and writes of shared elements --------===//

#include "ElementAccesses.h"
#include "IntegerOps.h"
#include "WarpCollectives.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::warp {

bool ElementAddress::sameArray(const ElementAddress &O) const {
  if (Root != O.Root || Path != O.Path)
    return false;
  // `red[i]` (the whole struct) overlaps `red[i].dist`; `.dist` and `.idx`
  // do not overlap.
  size_t N = std::min(Member.size(), O.Member.size());
  return std::equal(Member.begin(), Member.begin() + N, O.Member.begin());
}

std::string ElementAddress::name(int64_t Index) const {
  std::string Out = Root->getNameAsString();
  for (const FieldDecl *F : Path)
    Out += "." + F->getNameAsString();
  // One subscript per array dimension, outermost first.
  llvm::SmallVector<uint64_t, 2> Extents;
  if (!Indexed.isNull())
    for (const auto *A = dyn_cast<ConstantArrayType>(
             Indexed->getUnqualifiedDesugaredType());
         A; A = dyn_cast<ConstantArrayType>(
                A->getElementType()->getUnqualifiedDesugaredType()))
      Extents.push_back(A->getSize().getZExtValue());
  llvm::SmallVector<int64_t, 2> Subscripts;
  if (Extents.size() > 1 && Index >= 0) {
    for (size_t I = Extents.size(); I-- > 1;) {
      Subscripts.push_back(Index % int64_t(Extents[I]));
      Index /= int64_t(Extents[I]);
    }
  }
  Subscripts.push_back(Index);
  for (size_t I = Subscripts.size(); I-- > 0;)
    Out += "[" + std::to_string(Subscripts[I]) + "]";
  for (const FieldDecl *F : Member)
    Out += "." + F->getNameAsString();
  return Out;
}

namespace {

/// The locals and parameters a function writes after their declaration.
class WrittenVariables : public RecursiveASTVisitor<WrittenVariables> {
public:
  llvm::DenseSet<const VarDecl *> Written;

  void mark(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Written.insert(VD);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      mark(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      mark(UO->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // A variable bound to a reference parameter may be written.
    for (const Expr *Arg : Call->arguments())
      if (Arg->isGLValue() && !isa<ImplicitCastExpr>(Arg))
        mark(Arg);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->getNumArgs() > 0)
      mark(Call->getArg(0));
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          Written.insert(VD);
    return true;
  }
};

/// The number of elements of its innermost non-array type that \p T holds.
std::optional<int64_t> leafCount(QualType T) {
  int64_t N = 1;
  while (const auto *A =
             dyn_cast<ConstantArrayType>(T->getUnqualifiedDesugaredType())) {
    N *= int64_t(A->getSize().getZExtValue());
    T = A->getElementType();
  }
  if (T->isArrayType())
    return std::nullopt; // a variable-length or incomplete inner array
  return N;
}

/// The innermost non-array type of \p T.
QualType leafType(QualType T) {
  while (const ArrayType *A = T->getAsArrayTypeUnsafe())
    T = A->getElementType();
  return T.getCanonicalType().getUnqualifiedType();
}

class Collector {
public:
  Collector(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {
    WrittenVariables W;
    W.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    Written = std::move(W.Written);
  }

  std::vector<ElementAccess> Out;

  void visit(const Stmt *S);
  llvm::DenseSet<const VarDecl *> takeWritten() { return std::move(Written); }

private:
  /// The element \p E (an lvalue) names, if another lane can reach it.
  std::optional<ElementAddress> lvalue(const Expr *E, unsigned Depth = 0);
  /// Where the pointer \p E points, if another lane can reach it.
  std::optional<ElementAddress> pointer(const Expr *E, unsigned Depth);
  /// Adds \p E times \p Scale to \p A's index, split at `+` and `-` and
  /// at constant factors, so that a part one access shares with another
  /// (`base` in `s[base + lane]` and `s[base + lane + 1]`) is one term.
  void addTerms(ElementAddress &A, const Expr *E, int64_t Scale,
                unsigned Depth = 0);
  /// Adds the access \p E makes; false when \p E names no shared element.
  bool record(const Expr *E, bool Reads, bool Writes,
              const Expr *Stored = nullptr);
  void visitChildren(const Stmt *S) {
    for (const Stmt *Child : S->children())
      visit(Child);
  }
  bool isShared(const VarDecl *VD) const {
    return VD->hasGlobalStorage() && !VD->isLocalVarDeclOrParm()
               ? VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDADeviceAttr>()
               : VD->hasAttr<CUDASharedAttr>();
  }

  const FunctionDecl *FD;
  ASTContext &Ctx;
  llvm::DenseSet<const VarDecl *> Written;
};

std::optional<ElementAddress> Collector::lvalue(const Expr *E, unsigned Depth) {
  if (Depth > 16)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
      Cast && Cast->getCastKind() == CK_NoOp)
    return lvalue(Cast->getSubExpr(), Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType()->isReferenceType() || !isShared(VD))
      return std::nullopt;
    ElementAddress A;
    A.Root = VD;
    A.Indexed = VD->getType();
    return A;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<ElementAddress> A = pointer(ASE->getBase(), Depth + 1);
    std::optional<int64_t> Scale = leafCount(ASE->getType());
    if (!A || !Scale || !A->Member.empty())
      return std::nullopt;
    addTerms(*A, ASE->getIdx(), *Scale);
    return A;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return pointer(UO->getSubExpr(), Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return std::nullopt;
    std::optional<ElementAddress> A = ME->isArrow()
                                          ? pointer(ME->getBase(), Depth + 1)
                                          : lvalue(ME->getBase(), Depth + 1);
    if (!A)
      return std::nullopt;
    // Before any index the member selects the array (`sm.dist`); after
    // one, a part of the element (`red[i].dist`).
    if (A->Terms.empty() && A->Member.empty()) {
      A->Path.push_back(Field);
      A->Indexed = Field->getType();
    } else {
      A->Member.push_back(Field);
    }
    return A;
  }
  return std::nullopt;
}

std::optional<ElementAddress> Collector::pointer(const Expr *E,
                                                 unsigned Depth) {
  if (Depth > 16)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return lvalue(Cast->getSubExpr(), Depth + 1);
    case CK_NoOp:
      return pointer(Cast->getSubExpr(), Depth + 1);
    case CK_LValueToRValue: {
      const auto *DRE =
          dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParenImpCasts());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD || !VD->getType()->isPointerType() || Written.contains(VD))
        return std::nullopt;
      if (isa<ParmVarDecl>(VD)) {
        // What the pointer points to: global memory in a kernel; in a
        // helper whatever its caller passes.
        ElementAddress A;
        A.Root = VD;
        return A;
      }
      if (!VD->isLocalVarDecl() || !VD->getInit() ||
          VD->getParentFunctionOrMethod() != FD)
        return std::nullopt;
      const Expr *Init = VD->getInit()->IgnoreParens();
      std::optional<ElementAddress> A = pointer(Init, Depth + 1);
      if (A)
        return A;
      // `float *s = reinterpret_cast<float *>(smem)`: the elements of
      // another type are counted from the local itself.
      const auto *Reinterpret = dyn_cast<ExplicitCastExpr>(Init);
      if (Reinterpret && pointer(Reinterpret->getSubExpr(), Depth + 1)) {
        ElementAddress B;
        B.Root = VD;
        return B;
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    const Expr *Ptr = BO->getLHS(), *Offset = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Offset);
    if (!Ptr->getType()->isPointerType() ||
        !Offset->getType()->isIntegralOrEnumerationType() ||
        (BO->getOpcode() == BO_Sub && Ptr != BO->getLHS()))
      return std::nullopt;
    std::optional<ElementAddress> A = pointer(Ptr, Depth + 1);
    std::optional<int64_t> Scale = leafCount(Ptr->getType()->getPointeeType());
    if (!A || !Scale || !A->Member.empty())
      return std::nullopt;
    addTerms(*A, Offset, BO->getOpcode() == BO_Sub ? -*Scale : *Scale);
    return A;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    return lvalue(UO->getSubExpr(), Depth + 1);
  return std::nullopt;
}

void Collector::addTerms(ElementAddress &A, const Expr *E, int64_t Scale,
                         unsigned Depth) {
  E = E->IgnoreParens();
  if (!E->isValueDependent() && !E->isTypeDependent()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx)) {
      A.Constant += Scale * R.Val.getInt().getExtValue();
      return;
    }
  }
  const Expr *Inner = E;
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(Inner))
    if (Cast->getCastKind() == CK_IntegralCast)
      Inner = Cast->getSubExpr()->IgnoreParens();
    else
      break;
  const auto *BO = dyn_cast<BinaryOperator>(Inner);
  if (BO && Depth < 8) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (std::optional<std::pair<int64_t, int64_t>> Scales =
            additiveScales(BO->getOpcode())) {
      addTerms(A, L, Scale * Scales->first, Depth + 1);
      addTerms(A, R, Scale * Scales->second, Depth + 1);
      return;
    }
    if (BO->getOpcode() == BO_Mul) {
      Expr::EvalResult C;
      if (!R->isValueDependent() && R->EvaluateAsInt(C, Ctx)) {
        addTerms(A, L, Scale * C.Val.getInt().getExtValue(), Depth + 1);
        return;
      }
      if (!L->isValueDependent() && L->EvaluateAsInt(C, Ctx)) {
        addTerms(A, R, Scale * C.Val.getInt().getExtValue(), Depth + 1);
        return;
      }
    }
  }
  A.Terms.push_back({E, Scale});
}

bool Collector::record(const Expr *E, bool Reads, bool Writes,
                       const Expr *Stored) {
  std::optional<ElementAddress> A = lvalue(E);
  if (!A)
    return false;
  // Only elements of a scalar or a record: a whole array is not one.
  if (E->getType()->isArrayType())
    return false;
  // Every access to one array counts in the same units: a pointer of
  // another element type over it is not followed.
  QualType Root = A->Root->getType();
  if (Root->isPointerType())
    Root = Root->getPointeeType();
  if (A->Path.empty() && A->Member.empty() &&
      leafType(Root) != leafType(E->getType()))
    return false;
  Out.push_back({E, Reads, Writes, Stored, std::move(*A)});
  return true;
}

/// Whether \p Call is an atomic or reads its arguments' addresses only
/// (nothing here is a plain read or write of them).
static bool isAtomicCall(const CallExpr *Call) {
  return matchAtomic(Call).has_value();
}

void Collector::visit(const Stmt *S) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp()) {
    record(BO->getLHS(), BO->isCompoundAssignmentOp(), true,
           BO->isCompoundAssignmentOp() ? nullptr : BO->getRHS());
    visitChildren(S);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp()) {
    record(UO->getSubExpr(), true, true);
    visitChildren(S);
    return;
  }
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
      Cast && Cast->getCastKind() == CK_LValueToRValue) {
    record(Cast->getSubExpr(), true, false);
    visitChildren(S);
    return;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
    // A record assigned whole (`red[i] = v`).
    record(Op->getArg(0), false, true, Op->getArg(1));
    if (Op->getArg(1)->isGLValue())
      record(Op->getArg(1), true, false);
    visitChildren(S);
    return;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S);
      Construct && Construct->getNumArgs() == 1 &&
      Construct->getConstructor()->isCopyOrMoveConstructor()) {
    // A record copied whole (`Pair p = red[i]`).
    if (Construct->getArg(0)->isGLValue())
      record(Construct->getArg(0), true, false);
    visitChildren(S);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isAtomicCall(Call)) {
    // The address operand is not read as a value; the others may read
    // elements (`atomicAdd(&out[0], s[lane])`).
    for (const Expr *Arg : Call->arguments())
      if (!Arg->getType()->isPointerType())
        visit(Arg);
    return;
  }
  if (isa<LambdaExpr>(S))
    return; // its body runs where it is called
  visitChildren(S);
}

} // namespace

ElementAccesses elementAccesses(const FunctionDecl *FD, ASTContext &Ctx) {
  if (!FD->getBody())
    return {};
  Collector C(FD, Ctx);
  C.visit(FD->getBody());
  return {std::move(C.Out), C.takeWritten()};
}

} // namespace clang::warp
