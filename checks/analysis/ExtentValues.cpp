//===--- ExtentValues.cpp - the values a host-computed extent can take ----===//

#include "ExtentValues.h"
#include "IntegerOps.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::warp {

namespace {

constexpr int64_t MaxExtent = 1024;
/// Intermediate values are kept within this bound (see valuesOf).
constexpr int64_t MaxValue = 1 << 24;
constexpr unsigned MaxDepth = 8;
constexpr size_t MaxPairs = 1 << 16;
constexpr unsigned MaxLoopSteps = 64;

using Values = std::vector<int64_t>;

ExtentValues anyValue(std::string Source) {
  ExtentValues R;
  R.Source = std::move(Source);
  return R;
}

ExtentValues valuesOf(Values V, std::string Source, std::string How) {
  // Values past the bound are far from any block size; what is divided
  // back down from them is lost (rare: sizes are rounded up, then capped).
  llvm::erase_if(V, [](int64_t X) { return X < -MaxValue || X > MaxValue; });
  llvm::sort(V);
  V.erase(std::unique(V.begin(), V.end()), V.end());
  if (V.size() > MaxPairs)
    return anyValue(std::move(Source));
  ExtentValues R;
  R.Values = std::move(V);
  R.Source = std::move(Source);
  R.How = std::move(How);
  return R;
}

/// The union of two sets (unbounded if either is).
ExtentValues unite(const ExtentValues &A, const ExtentValues &B) {
  std::string Source = !A.Source.empty() ? A.Source : B.Source;
  if (!A.bounded() || !B.bounded())
    return anyValue(Source);
  Values V = *A.Values;
  V.insert(V.end(), B.Values->begin(), B.Values->end());
  return valuesOf(std::move(V), Source, !A.How.empty() ? A.How : B.How);
}

/// The name of the first variable \p E reads ("n"), else its text.
std::string sourceName(const Expr *E, ASTContext &Ctx) {
  struct FirstVar : RecursiveASTVisitor<FirstVar> {
    const VarDecl *Found = nullptr;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Found = VD;
      return !Found;
    }
  } Visitor;
  Visitor.TraverseStmt(const_cast<Expr *>(E));
  if (Visitor.Found)
    return Visitor.Found->getNameAsString();
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(E->getSourceRange()),
             Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

const VarDecl *namedVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// One assignment to a local, with what runs it.
struct LocalWrite {
  const BinaryOperator *Assign;
  const Stmt *Loop;  ///< the innermost loop whose body, test or step holds it
  const IfStmt *If;  ///< the innermost if around it, inside Loop
  bool InThen;       ///< in If's then branch
  unsigned Branches; ///< ifs and switches around it, inside Loop
};

/// The assignments to one local in a function body, in source order.
/// Opaque: it is also written in a way not followed (incremented, its
/// address taken, bound to a non-const reference).
struct LocalWrites {
  std::vector<LocalWrite> Writes;
  bool Opaque = false;
};

class WriteFinder {
public:
  explicit WriteFinder(const VarDecl *VD) : VD(VD) {}
  LocalWrites Out;

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      walk(For->getInit());
      Context Saved = enterLoop(S);
      walk(For->getCond());
      walk(For->getInc());
      walk(For->getBody());
      Ctx = Saved;
      return;
    }
    if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
      Context Saved = enterLoop(S);
      walkChildren(S);
      Ctx = Saved;
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getCond());
      Context Saved = Ctx;
      Ctx.If = If;
      ++Ctx.Branches;
      Ctx.InThen = true;
      walk(If->getThen());
      Ctx.InThen = false;
      walk(If->getElse());
      Ctx = Saved;
      return;
    }
    if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      walk(Switch->getCond());
      Context Saved = Ctx;
      Ctx.If = nullptr;
      Ctx.Branches += 2; // no test per case is followed
      walk(Switch->getBody());
      Ctx = Saved;
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && namedVar(BO->getLHS()) == VD) {
      Out.Writes.push_back({BO, Ctx.Loop, Ctx.If, Ctx.InThen, Ctx.Branches});
      walk(BO->getRHS());
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        namedVar(UO->getSubExpr()) == VD)
      Out.Opaque = true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        for (unsigned I = 0;
             I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
          QualType T = Callee->getParamDecl(I)->getType();
          if (T->isReferenceType() &&
              !T.getNonReferenceType().isConstQualified() &&
              namedVar(Call->getArg(I)) == VD)
            Out.Opaque = true;
        }
    walkChildren(S);
  }

private:
  struct Context {
    const Stmt *Loop = nullptr;
    const IfStmt *If = nullptr;
    bool InThen = false;
    unsigned Branches = 0;
  };
  Context enterLoop(const Stmt *Loop) {
    Context Saved = Ctx;
    Ctx = Context();
    Ctx.Loop = Loop;
    return Saved;
  }
  void walkChildren(const Stmt *S) {
    for (const Stmt *Child : S->children())
      walk(Child);
  }

  const VarDecl *VD;
  Context Ctx;
};

/// `t *= 2`, `t <<= 1`, `t /= 2`, `t >>= 1`, `t += t`, `t = t * 2`,
/// `t = 2 * t`: the operator and constant by which the assignment scales
/// \p VD.
std::optional<std::pair<BinaryOperatorKind, int64_t>>
selfScale(const BinaryOperator *Assign, const VarDecl *VD, ASTContext &Ctx) {
  auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  };
  auto Scaling = [](BinaryOperatorKind Op) {
    return Op == BO_Mul || Op == BO_Shl || Op == BO_Div || Op == BO_Shr;
  };
  const Expr *RHS = Assign->getRHS()->IgnoreParenImpCasts();
  if (Assign->isCompoundAssignmentOp()) {
    BinaryOperatorKind Op = underlyingOperator(Assign->getOpcode());
    if (Op == BO_Add && namedVar(RHS) == VD)
      return std::pair(BO_Mul, int64_t(2));
    if (std::optional<int64_t> C = Constant(RHS); C && Scaling(Op))
      return std::pair(Op, *C);
    return std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(RHS);
  if (!BO || !Scaling(BO->getOpcode()))
    return std::nullopt;
  if (namedVar(BO->getLHS()) == VD)
    if (std::optional<int64_t> C = Constant(BO->getRHS()))
      return std::pair(BO->getOpcode(), *C);
  if (BO->getOpcode() == BO_Mul && namedVar(BO->getRHS()) == VD)
    if (std::optional<int64_t> C = Constant(BO->getLHS()))
      return std::pair(BO_Mul, *C);
  return std::nullopt;
}

/// The test of \p Loop.
const Expr *loopTest(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getCond();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getCond();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getCond();
  return nullptr;
}

/// In test \p Cond (through `&&`), a comparison of \p VD with another
/// operand: the operator as read with VD on the left, and that operand.
std::optional<std::pair<BinaryOperatorKind, const Expr *>>
comparisonWith(const Expr *Cond, const VarDecl *VD) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(
      Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  if (!BO)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd) {
    if (auto Found = comparisonWith(BO->getLHS(), VD))
      return Found;
    return comparisonWith(BO->getRHS(), VD);
  }
  if (!BO->isComparisonOp())
    return std::nullopt;
  if (namedVar(BO->getLHS()) == VD)
    return std::pair(BO->getOpcode(), BO->getRHS());
  if (namedVar(BO->getRHS()) == VD)
    return std::pair(BinaryOperator::reverseComparisonOp(BO->getOpcode()),
                     BO->getLHS());
  return std::nullopt;
}

class Evaluator {
public:
  explicit Evaluator(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The values of \p E, read in \p F at \p At.
  ExtentValues eval(const Expr *E, const FunctionDecl *F, SourceLocation At,
                    unsigned Depth) {
    if (!E || Depth > MaxDepth)
      return anyValue("");
    E = E->IgnoreParenCasts();
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->getType()->isIntegralOrEnumerationType() &&
        E->EvaluateAsInt(R, Ctx))
      return valuesOf({R.Val.getInt().getExtValue()}, "", "");
    // A whole floating constant (the 2.0f of pow(2.0f, k)).
    if (!E->isValueDependent() && E->getType()->isRealFloatingType() &&
        E->EvaluateAsRValue(R, Ctx) && R.Val.isFloat() &&
        R.Val.getFloat().isInteger()) {
      llvm::APSInt I(64, /*isUnsigned=*/false);
      bool Exact = false;
      R.Val.getFloat().convertToInteger(I, llvm::APFloat::rmTowardZero, &Exact);
      return valuesOf({I.getExtValue()}, "", "");
    }
    if (const VarDecl *VD = namedVar(E)) {
      if (auto It = Bound.find(VD); It != Bound.end())
        return It->second;
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && F)
        return local(VD, F, At, Depth + 1);
      return anyValue(VD->getNameAsString());
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return call(Call, F, At, Depth + 1);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return conditional(CO, F, At, Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->isLogicalOp() || BO->isCommaOp())
        return anyValue(sourceName(E, Ctx));
      ExtentValues A = eval(BO->getLHS(), F, At, Depth + 1);
      ExtentValues B = eval(BO->getRHS(), F, At, Depth + 1);
      return binary(BO->getOpcode(), A, B);
    }
    return anyValue(sourceName(E, Ctx));
  }

private:
  /// `a op b` over every pair; `c << k` with k unbounded is c times a power
  /// of two.
  ExtentValues binary(BinaryOperatorKind Op, const ExtentValues &A,
                      const ExtentValues &B) {
    std::string Source = !A.Source.empty() ? A.Source : B.Source;
    if (Op == BO_Shl && A.bounded() && !B.bounded()) {
      Values V;
      for (int64_t X : *A.Values)
        for (int64_t K = 0; K <= 10; ++K)
          V.push_back(X << K);
      return valuesOf(std::move(V), B.Source, "a power of two");
    }
    if (!A.bounded() || !B.bounded() ||
        A.Values->size() * B.Values->size() > MaxPairs)
      return anyValue(Source);
    Values V;
    for (int64_t X : *A.Values)
      for (int64_t Y : *B.Values) {
        std::optional<int64_t> Z = applyBinary(Op, X, Y, 32);
        if (!Z)
          return anyValue(Source);
        V.push_back(*Z);
      }
    return valuesOf(std::move(V), Source, !A.How.empty() ? A.How : B.How);
  }

  /// min(a, b) or max(a, b), where both are bounded. A cap on a runtime
  /// value (`min(n, 256)`) bounds nothing: n may well be whole warps.
  ExtentValues minOrMax(bool Min, const ExtentValues &A,
                        const ExtentValues &B) {
    std::string Source = !A.Source.empty() ? A.Source : B.Source;
    if (!A.bounded() || !B.bounded() ||
        A.Values->size() * B.Values->size() > MaxPairs)
      return anyValue(Source);
    Values V;
    for (int64_t X : *A.Values)
      for (int64_t Y : *B.Values)
        V.push_back(Min ? std::min(X, Y) : std::max(X, Y));
    return valuesOf(std::move(V), Source, !A.How.empty() ? A.How : B.How);
  }

  /// Whether \p A and \p B are the same variable or the same constant.
  bool sameOperand(const Expr *A, const Expr *B) const {
    if (const VarDecl *VA = namedVar(A))
      return VA == namedVar(B);
    Expr::EvalResult RA, RB;
    return !A->isValueDependent() && !B->isValueDependent() &&
           A->EvaluateAsInt(RA, Ctx) && B->EvaluateAsInt(RB, Ctx) &&
           RA.Val.getInt().getExtValue() == RB.Val.getInt().getExtValue();
  }

  ExtentValues conditional(const ConditionalOperator *CO, const FunctionDecl *F,
                           SourceLocation At, unsigned Depth) {
    // `a < b ? a : b` is min(a, b) (the MIN and MAX macros, `n < 128 ? n :
    // 128`).
    if (const auto *Test =
            dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts());
        Test && Test->isRelationalOp()) {
      const Expr *L = Test->getLHS(), *R = Test->getRHS();
      const Expr *T = CO->getTrueExpr(), *E = CO->getFalseExpr();
      bool Same = sameOperand(T, L) && sameOperand(E, R);
      if (Same || (sameOperand(T, R) && sameOperand(E, L))) {
        bool LessTest =
            Test->getOpcode() == BO_LT || Test->getOpcode() == BO_LE;
        ExtentValues A = eval(T, F, At, Depth);
        ExtentValues B = eval(E, F, At, Depth);
        return minOrMax(LessTest == Same, A, B);
      }
    }
    ExtentValues A = eval(CO->getTrueExpr(), F, At, Depth);
    ExtentValues B = eval(CO->getFalseExpr(), F, At, Depth);
    // Arms chosen by a runtime test: the union only where neither arm
    // depends on a runtime value (the test may be what bounds it).
    if (A.bounded() && B.bounded() && A.Source.empty() && B.Source.empty())
      return unite(A, B);
    return anyValue(sourceName(CO, Ctx));
  }

  ExtentValues call(const CallExpr *Call, const FunctionDecl *F,
                    SourceLocation At, unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return anyValue(sourceName(Call, Ctx));
    StringRef Name = Callee->getName();
    unsigned N = Call->getNumArgs();
    auto Arg = [&](unsigned I) { return eval(Call->getArg(I), F, At, Depth); };
    if (N == 2 && (Name == "min" || Name == "max"))
      return minOrMax(Name == "min", Arg(0), Arg(1));
    // pow(2, k), exp2(k), ldexp(c, k): c times a power of two.
    bool Pow = N == 2 && (Name == "pow" || Name == "powf");
    bool Exp2 = N == 1 && (Name == "exp2" || Name == "exp2f");
    bool Ldexp = N == 2 && (Name == "ldexp" || Name == "ldexpf");
    if (Pow || Exp2 || Ldexp) {
      if (Pow) {
        ExtentValues Base = Arg(0);
        if (!Base.bounded() || Base.Values->size() != 1 ||
            Base.Values->front() != 2)
          return anyValue(sourceName(Call, Ctx));
      }
      ExtentValues Scale = Ldexp ? Arg(0) : valuesOf({1}, "", "");
      return binary(BO_Shl, Scale, Arg(N - 1));
    }
    // A helper defined in the unit: the values its returns can take, its
    // parameters bound to the arguments.
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->getBody() || Def->isVariadic() ||
        Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
        !Active.insert(Def).second)
      return anyValue(sourceName(Call, Ctx));
    llvm::DenseMap<const VarDecl *, ExtentValues> Saved = Bound;
    for (unsigned I = 0; I < N && I < Def->getNumParams(); ++I)
      Bound[Def->getParamDecl(I)] = Arg(I);
    std::optional<ExtentValues> Result;
    forEachReturn(Def->getBody(), [&](const ReturnStmt *Return) {
      ExtentValues V =
          Return->getRetValue()
              ? eval(Return->getRetValue(), Def, Return->getBeginLoc(), Depth)
              : anyValue("");
      Result = Result ? unite(*Result, V) : V;
    });
    Bound = std::move(Saved);
    Active.erase(Def);
    if (!Result)
      return anyValue(sourceName(Call, Ctx));
    return *Result;
  }

  template <typename Fn> static void forEachReturn(const Stmt *S, Fn &&Visit) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *Return = dyn_cast<ReturnStmt>(S))
      Visit(Return);
    for (const Stmt *Child : S->children())
      forEachReturn(Child, Visit);
  }

  /// Local \p VD as read at \p At: its initializer, then each assignment
  /// before At in source order.
  ExtentValues local(const VarDecl *VD, const FunctionDecl *F,
                     SourceLocation At, unsigned Depth) {
    std::string Name = VD->getNameAsString();
    if (!F->getBody() || !Visiting.insert(VD).second)
      return anyValue(Name);
    WriteFinder Finder(VD);
    Finder.walk(F->getBody());
    ExtentValues Cur = anyValue(Name);
    if (!Finder.Out.Opaque) {
      if (VD->getInit())
        Cur = eval(VD->getInit(), F, VD->getLocation(), Depth);
      const SourceManager &SM = Ctx.getSourceManager();
      const std::vector<LocalWrite> &Writes = Finder.Out.Writes;
      for (const LocalWrite &W : Writes) {
        if (!SM.isBeforeInTranslationUnit(W.Assign->getBeginLoc(), At))
          continue;
        bool Shared = llvm::count_if(Writes, [&](const LocalWrite &O) {
                        return O.If == W.If;
                      }) > 1;
        if (W.Loop)
          Cur = inLoop(W, Cur, VD, F, Depth);
        else if (W.Branches == 0)
          Cur = assigned(W.Assign, Cur, VD, F, Depth);
        else if (W.Branches == 1 && W.If && !Shared)
          Cur = underTest(W, Cur, VD, F, Depth);
        else
          Cur = unite(Cur, assigned(W.Assign, Cur, VD, F, Depth));
      }
    }
    Visiting.erase(VD);
    return Cur;
  }

  /// The value \p Assign gives \p VD when VD holds \p Cur.
  ExtentValues assigned(const BinaryOperator *Assign, const ExtentValues &Cur,
                        const VarDecl *VD, const FunctionDecl *F,
                        unsigned Depth) {
    SourceLocation At = Assign->getBeginLoc();
    if (Assign->isCompoundAssignmentOp())
      return binary(underlyingOperator(Assign->getOpcode()), Cur,
                    eval(Assign->getRHS(), F, At, Depth));
    auto Saved = Bound.find(VD) != Bound.end()
                     ? std::optional<ExtentValues>(Bound[VD])
                     : std::nullopt;
    Bound[VD] = Cur;
    ExtentValues V = eval(Assign->getRHS(), F, At, Depth);
    if (Saved)
      Bound[VD] = *Saved;
    else
      Bound.erase(VD);
    return V;
  }

  /// An assignment in a loop. A scaling one (`t *= 2`) in a loop that runs
  /// until t reaches a bound: each value the loop can stop at; with a
  /// runtime bound, every value the scaling reaches. Any other: unbounded.
  ExtentValues inLoop(const LocalWrite &W, const ExtentValues &Cur,
                      const VarDecl *VD, const FunctionDecl *F,
                      unsigned Depth) {
    auto Scale = selfScale(W.Assign, VD, Ctx);
    auto Test = comparisonWith(loopTest(W.Loop), VD);
    // Any other write in a loop may run any number of times.
    if (!Scale || !Test || W.Branches != 0 || !Cur.bounded())
      return anyValue(VD->getNameAsString());
    ExtentValues Limit = eval(Test->second, F, W.Assign->getBeginLoc(), Depth);
    Values V;
    for (int64_t X : *Cur.Values) {
      int64_t Y = X;
      for (unsigned Step = 0; Step < MaxLoopSteps; ++Step) {
        bool Continues = false;
        if (Limit.bounded()) {
          for (int64_t L : *Limit.Values) {
            std::optional<int64_t> Holds = applyBinary(Test->first, Y, L);
            Continues |= Holds.value_or(1) != 0;
          }
        } else {
          Continues = true; // a runtime bound may stop it at any step
        }
        if (!Limit.bounded() || !Continues)
          V.push_back(Y);
        std::optional<int64_t> Next =
            applyBinary(Scale->first, Y, Scale->second);
        if (!Continues || !Next || *Next == Y || *Next < 1 || *Next > MaxValue)
          break;
        Y = *Next;
      }
    }
    std::string How = Scale->first == BO_Mul || Scale->first == BO_Shl
                          ? "a power of two"
                          : "halved";
    if (Limit.bounded())
      return valuesOf(std::move(V), Cur.Source, Cur.How);
    return valuesOf(std::move(V), Limit.Source, How);
  }

  /// An assignment in one branch of `if (t < 32)`: applied to the values
  /// for which the test sends control there.
  ExtentValues underTest(const LocalWrite &W, const ExtentValues &Cur,
                         const VarDecl *VD, const FunctionDecl *F,
                         unsigned Depth) {
    auto Test = comparisonWith(W.If->getCond(), VD);
    ExtentValues Limit =
        Test ? eval(Test->second, F, W.If->getBeginLoc(), Depth) : anyValue("");
    const auto *Cond =
        dyn_cast<BinaryOperator>(W.If->getCond()->IgnoreParenImpCasts());
    if (!Test || !Cur.bounded() || !Limit.bounded() ||
        Limit.Values->size() != 1 || !Cond || !Cond->isComparisonOp())
      return unite(Cur, assigned(W.Assign, Cur, VD, F, Depth));
    int64_t L = Limit.Values->front();
    Values V;
    for (int64_t X : *Cur.Values) {
      std::optional<int64_t> Holds = applyBinary(Test->first, X, L);
      if (!Holds)
        return anyValue(Cur.Source);
      if ((*Holds != 0) != W.InThen) {
        V.push_back(X);
        continue;
      }
      ExtentValues New =
          assigned(W.Assign, valuesOf({X}, Cur.Source, Cur.How), VD, F, Depth);
      if (!New.bounded())
        return anyValue(Cur.Source);
      V.insert(V.end(), New.Values->begin(), New.Values->end());
    }
    return valuesOf(std::move(V), Cur.Source, Cur.How);
  }

  ASTContext &Ctx;
  /// Parameters of the helpers being followed, bound to their arguments;
  /// a local bound to its value while its assignment is evaluated.
  llvm::DenseMap<const VarDecl *, ExtentValues> Bound;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Active;
  llvm::SmallPtrSet<const VarDecl *, 4> Visiting;
};

} // namespace

ExtentValues extentValues(const Expr *E, const FunctionDecl *F,
                          SourceLocation At, ASTContext &Ctx) {
  ExtentValues V = Evaluator(Ctx).eval(E, F, At, 0);
  if (V.bounded())
    llvm::erase_if(*V.Values, [](int64_t X) { return X < 1 || X > MaxExtent; });
  return V;
}

} // namespace clang::warp
