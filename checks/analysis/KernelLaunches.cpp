//===--- KernelLaunches.cpp - block shapes of kernel launches -------------===//

#include "KernelLaunches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::warp {

/// Returns whether the block argument \p Block of a launch makes every warp
/// lie in one row: an integer (1-D block) or a dim3 whose x is a constant
/// multiple of 32.
static bool isWarpAlignedBlock(const Expr *Block, ASTContext &Ctx,
                               unsigned Depth = 0) {
  Block = Block->IgnoreParenImpCasts();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Block))
    return isWarpAlignedBlock(MTE->getSubExpr(), Ctx, Depth + 1);
  // A const dim3 variable: look at how it was made.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Block))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->getInit() && VD->getType().isConstQualified() && Depth < 4)
        return isWarpAlignedBlock(VD->getInit(), Ctx, Depth + 1);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Block)) {
    if (Construct->getConstructor()->isCopyOrMoveConstructor() &&
        Construct->getNumArgs() == 1 && Depth < 4)
      return isWarpAlignedBlock(Construct->getArg(0), Ctx, Depth + 1);
    // dim3(n) from an integer: a 1-D block.
    if (Construct->getNumArgs() >= 1) {
      const Expr *X = Construct->getArg(0)->IgnoreImplicit();
      if (!X->getType().isNull() && X->getType()->isIntegerType()) {
        // y and z are 0 everywhere when both extents are 1.
        bool OneD = true;
        for (unsigned I = 1; I < Construct->getNumArgs(); ++I) {
          Expr::EvalResult R;
          const Expr *A = Construct->getArg(I);
          OneD &= isa<CXXDefaultArgExpr>(A) ||
                  (!A->isValueDependent() && A->EvaluateAsInt(R, Ctx) &&
                   R.Val.getInt() == 1);
        }
        Expr::EvalResult XR;
        return OneD || (!X->isValueDependent() && X->EvaluateAsInt(XR, Ctx) &&
                        XR.Val.getInt().getZExtValue() % 32 == 0);
      }
    }
    return false;
  }
  return !Block->getType().isNull() && Block->getType()->isIntegerType();
}

namespace {
class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
  LaunchFinder(ASTContext &Ctx, llvm::DenseMap<const FunctionDecl *, bool> &Out)
      : Ctx(Ctx), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    const FunctionDecl *Kernel = Launch->getDirectCallee();
    const CallExpr *Config = Launch->getConfig();
    if (!Kernel || !Config || Config->getNumArgs() < 2)
      return true;
    bool Aligned = isWarpAlignedBlock(Config->getArg(1), Ctx);
    auto [It, New] = Out.try_emplace(Kernel->getCanonicalDecl(), Aligned);
    if (!New)
      It->second = It->second && Aligned;
    return true;
  }

private:
  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, bool> &Out;
};
} // namespace

llvm::DenseMap<const FunctionDecl *, bool>
findWarpAlignedLaunches(ASTContext &Ctx) {
  llvm::DenseMap<const FunctionDecl *, bool> Out;
  LaunchFinder(Ctx, Out).TraverseDecl(Ctx.getTranslationUnitDecl());
  return Out;
}

} // namespace clang::tidy::warp
