//===--- ButterflyLoops.cpp - xor-shuffle all-reduce loops ----------------===//

#include "ButterflyLoops.h"
#include "IntegerOps.h"
#include "WarpCollectives.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

namespace clang::warp {

namespace {

std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

const VarDecl *varOf(const Expr *E) {
  const auto *DRE =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The counter of \p For and the expression of its first value: `int o =
/// 16` or `o = 16`.
std::pair<const VarDecl *, const Expr *> counterInit(const ForStmt *For) {
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
    if (DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
        return {VD, VD->getInit()};
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
      BO && BO->getOpcode() == BO_Assign)
    return {varOf(BO->getLHS()), BO->getRHS()};
  return {nullptr, nullptr};
}

/// The next counter value after \p Inc (`o /= 2`, `o >>= 1`, `o *= 2`,
/// `o <<= 1`, `o = o / 2`, …), if it is one of those steps.
std::optional<int64_t> step(const Expr *Inc, const VarDecl *Counter,
                            int64_t Value, ASTContext &Ctx) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc->IgnoreParenImpCasts());
  if (!BO || varOf(BO->getLHS()) != Counter)
    return std::nullopt;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *By = BO->getRHS();
  if (Op == BO_Assign) {
    const auto *RHS = dyn_cast<BinaryOperator>(By->IgnoreParenImpCasts());
    if (!RHS || varOf(RHS->getLHS()) != Counter)
      return std::nullopt;
    Op = RHS->getOpcode();
    By = RHS->getRHS();
  } else if (BO->isCompoundAssignmentOp()) {
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  } else {
    return std::nullopt;
  }
  std::optional<int64_t> K = constantOf(By, Ctx);
  if (!K)
    return std::nullopt;
  if ((Op == BO_Div && *K == 2) || (Op == BO_Shr && *K == 1))
    return Value / 2;
  if ((Op == BO_Mul && *K == 2) || (Op == BO_Shl && *K == 1))
    return Value * 2;
  return std::nullopt;
}

/// Whether `Counter <op> K` holds for \p Value.
std::optional<bool> holds(const Expr *Cond, const VarDecl *Counter,
                          int64_t Value, ASTContext &Ctx) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || !BO->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *Other = BO->getRHS();
  if (varOf(BO->getLHS()) != Counter) {
    if (varOf(BO->getRHS()) != Counter)
      return std::nullopt;
    Op = BinaryOperator::reverseComparisonOp(Op);
    Other = BO->getLHS();
  }
  std::optional<int64_t> K = constantOf(Other, Ctx);
  if (!K)
    return std::nullopt;
  if (!BinaryOperator::isComparisonOp(Op))
    return std::nullopt;
  return applyBinary(Op, Value, *K).value_or(0) != 0;
}

/// Whether the offsets \p For runs are exactly 1, 2, 4, 8 and 16.
bool coversEveryOffset(const ForStmt *For, const VarDecl *Counter,
                       int64_t First, ASTContext &Ctx) {
  if (!For->getCond() || !For->getInc())
    return false;
  unsigned Seen = 0;
  int64_t Value = First;
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    std::optional<bool> Go = holds(For->getCond(), Counter, Value, Ctx);
    if (!Go)
      return false;
    if (!*Go)
      return Seen == 0x1f;
    if (Value < 1 || Value > 16 || (Value & (Value - 1)))
      return false;
    Seen |= unsigned(Value);
    std::optional<int64_t> Next = step(For->getInc(), Counter, Value, Ctx);
    if (!Next)
      return false;
    Value = *Next;
  }
  return false;
}

/// The xor shuffle of \p V by \p Counter over the whole warp in \p E, if E
/// is one.
bool isXorShuffleOf(const Expr *E, const VarDecl *V, const VarDecl *Counter,
                    ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  std::optional<CollectiveUse> Use =
      Call ? matchCollective(Call) : std::nullopt;
  if (!Use || Use->Info->Lane != ShuffleLane::Xor ||
      Call->getNumArgs() <= CollectiveInfo::LaneArg)
    return false;
  if (varOf(Call->getArg(CollectiveInfo::ValueArg)) != V ||
      varOf(Call->getArg(CollectiveInfo::LaneArg)) != Counter)
    return false;
  if (Call->getNumArgs() > CollectiveInfo::WidthArg) {
    std::optional<int64_t> Width =
        constantOf(Call->getArg(CollectiveInfo::WidthArg), Ctx);
    return Width && *Width >= 32; // narrower: uniform per group only
  }
  return true;
}

/// Whether \p E combines \p V with its xor shuffle symmetrically:
/// `v + shfl`, `shfl * v`, `max(v, shfl)`, `fmaxf(shfl, v)`.
bool combinesWithShuffle(const Expr *E, const VarDecl *V,
                         const VarDecl *Counter, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  const Expr *A = nullptr, *B = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (!BO->isAdditiveOp() && !BO->isMultiplicativeOp() && !BO->isBitwiseOp())
      return false;
    if (BO->getOpcode() == BO_Sub || BO->getOpcode() == BO_Div ||
        BO->getOpcode() == BO_Rem)
      return false;
    A = BO->getLHS();
    B = BO->getRHS();
  } else if (const auto *Call = dyn_cast<CallExpr>(E);
             Call && Call->getNumArgs() == 2) {
    A = Call->getArg(0);
    B = Call->getArg(1);
  } else {
    return false;
  }
  return (varOf(A) == V && isXorShuffleOf(B, V, Counter, Ctx)) ||
         (varOf(B) == V && isXorShuffleOf(A, V, Counter, Ctx));
}

/// The variable \p S reduces: `v op= shfl(v, o)` or `v = f(v, shfl(v, o))`.
const VarDecl *reducedBy(const Stmt *S, const VarDecl *Counter,
                         ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || !BO->isAssignmentOp())
    return nullptr;
  const VarDecl *V = varOf(BO->getLHS());
  if (!V || !V->hasLocalStorage())
    return nullptr;
  if (BO->getOpcode() == BO_Assign)
    return combinesWithShuffle(BO->getRHS(), V, Counter, Ctx) ? V : nullptr;
  if (BO->isCompoundAssignmentOp() &&
      isReductionOperator(underlyingOperator(BO->getOpcode())))
    return isXorShuffleOf(BO->getRHS(), V, Counter, Ctx) ? V : nullptr;
  return nullptr;
}

} // namespace

llvm::DenseMap<const Stmt *, ButterflyLoop>
findButterflyLoops(const CFG &Cfg, ASTContext &Ctx) {
  // Every for loop with a condition ends the block that tests it: looking
  // at terminators avoids walking the whole body.
  llvm::DenseMap<const Stmt *, ButterflyLoop> Found;
  for (const CFGBlock *B : Cfg) {
    const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt());
    if (!For)
      continue;
    auto [Counter, Init] = counterInit(For);
    if (!Counter)
      continue;
    const Stmt *Body = For->getBody();
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body))
      Body = CS->size() == 1 ? CS->body_front() : nullptr;
    if (const auto *E = dyn_cast_or_null<ExprWithCleanups>(Body))
      Body = E->getSubExpr();
    if (!Body)
      continue;
    // The shape of the body first: most loops are not reductions, and
    // asking clang for the counter's values costs far more.
    const VarDecl *V = reducedBy(Body, Counter, Ctx);
    if (!V)
      continue;
    std::optional<int64_t> First = constantOf(Init, Ctx);
    if (First && coversEveryOffset(For, Counter, *First, Ctx))
      Found[Body] = {For, V, Body};
  }
  return Found;
}

} // namespace clang::warp
