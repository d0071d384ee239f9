//===--- ActivemaskMaskCheck.h - warp-activemask-mask -----------*- C++ -*-===//

#ifndef WARP_LINT_ACTIVEMASKMASKCHECK_H
#define WARP_LINT_ACTIVEMASKMASKCHECK_H

#include "FixItText.h"
#include "WarpCheckBase.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::warp {

/// Flags `__activemask()` given (directly or through a local) as the mask
/// of a shuffle or reduction: it names the lanes that happen to run
/// together, not those the code means.
///
/// For the user-facing documentation see:
/// docs/checks/warp-activemask-mask.md
class ActivemaskMaskCheck : public WarpCheckBase {
public:
  ActivemaskMaskCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
  void onEndOfTranslationUnit() override;

private:
  /// Adds the rewrite of \p Active (the `__activemask()` call) to the mask
  /// the code means; returns false where none is safe.
  bool addFix(DiagnosticBuilder &Diag, const CallExpr *Active,
              const Stmt *Collective, const FunctionUniformity &FU,
              ASTContext &Ctx);

  /// `__activemask()` calls whose rewrite a reported fix already carries.
  llvm::DenseSet<const CallExpr *> Rewritten;
  FreshNames Names;
};

} // namespace clang::tidy::warp

#endif
