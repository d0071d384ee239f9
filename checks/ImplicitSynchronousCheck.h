//===--- ImplicitSynchronousCheck.h - warp-implicit-synchronous -*- C++ -*-===//

#ifndef WARP_LINT_IMPLICITSYNCHRONOUSCHECK_H
#define WARP_LINT_IMPLICITSYNCHRONOUSCHECK_H

#include "FixItText.h"
#include "WarpCheckBase.h"
#include "analysis/LaneSets.h"

namespace clang::tidy::warp {

/// Flags pre-Volta warp-synchronous code: lanes exchanging values through
/// volatile shared memory (`vs[tid] += vs[tid + 16]`) with no __syncwarp()
/// between one lane's write and another lane's read, and the legacy warp
/// intrinsics without a mask (`__shfl`, `__ballot`, `__any`, `__all`).
///
/// For the user-facing documentation see:
/// docs/checks/warp-implicit-synchronous.md
class ImplicitSynchronousCheck : public WarpCheckBase {
public:
  ImplicitSynchronousCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

  /// One access `Base[Index]` to a volatile array element.
  struct Access {
    const ArraySubscriptExpr *Expr;
    const ValueDecl *Base;
    const clang::Expr *Index;
  };

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
  void onEndOfTranslationUnit() override {
    Names.clear();
    WarpCheckBase::onEndOfTranslationUnit();
  }

private:
  void checkLegacyCall(const CallExpr *Call, const FunctionUniformity &FU,
                       ASTContext &Ctx);
  /// Walks \p S in source order, keeping the writes to volatile elements
  /// that no __syncwarp() has ordered yet.
  void walk(const Stmt *S, llvm::SmallVectorImpl<Access> &Pending,
            const FunctionUniformity &FU, LaneReach &Reach, ASTContext &Ctx);
  /// One statement of a warp-synchronous exchange.
  void checkStep(const Stmt *Step, llvm::SmallVectorImpl<Access> &Pending,
                 const FunctionUniformity &FU, LaneReach &Reach,
                 ASTContext &Ctx);
  /// Rewrites the step \p Step (`vs[i] += vs[i + k];`) so that its reads,
  /// its writes and the next step are apart: `{ auto t = vs[i] + (vs[i +
  /// k]); __syncwarp(); vs[i] = t; __syncwarp(); }`, led by a __syncwarp()
  /// when \p AfterPending (an earlier step wrote what it reads).
  bool addStepFix(DiagnosticBuilder &Diag, const Stmt *Step,
                  const Access &Writer, bool AfterPending,
                  const FunctionUniformity &FU, ASTContext &Ctx);
  /// Inserts `__syncwarp();` before \p Step.
  bool addBarrierFix(DiagnosticBuilder &Diag, const Stmt *Step,
                     const FunctionUniformity &FU, ASTContext &Ctx);
  /// Whether the lanes reaching \p S are whole warps, so that __syncwarp()
  /// with the full mask is right there.
  bool wholeWarps(const Stmt *S, const FunctionUniformity &FU,
                  LaneReach &Reach);

  FreshNames Names;
};

} // namespace clang::tidy::warp

#endif
