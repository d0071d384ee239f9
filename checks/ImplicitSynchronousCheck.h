//===--- ImplicitSynchronousCheck.h - warp-implicit-synchronous --*- C++
//-*-===//

#ifndef WARP_LINT_IMPLICITSYNCHRONOUSCHECK_H
#define WARP_LINT_IMPLICITSYNCHRONOUSCHECK_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// Pre-Volta warp-synchronous code without __syncwarp
///
/// For the user-facing documentation see:
/// docs/checks/warp-implicit-synchronous.md
class ImplicitSynchronousCheck : public WarpCheckBase {
public:
  ImplicitSynchronousCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
};

} // namespace clang::tidy::warp

#endif
