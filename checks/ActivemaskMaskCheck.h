//===--- ActivemaskMaskCheck.h - warp-activemask-mask -----------*- C++ -*-===//

#ifndef WARP_LINT_ACTIVEMASKMASKCHECK_H
#define WARP_LINT_ACTIVEMASKMASKCHECK_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// __activemask() used as the mask of a collective that expects particular
/// lanes
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
};

} // namespace clang::tidy::warp

#endif
