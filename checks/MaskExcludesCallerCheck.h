//===--- MaskExcludesCallerCheck.h - warp-mask-excludes-caller --*- C++ -*-===//

#ifndef WARP_LINT_MASKEXCLUDESCALLERCHECK_H
#define WARP_LINT_MASKEXCLUDESCALLERCHECK_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// A lane that executes a warp collective is not in its mask
///
/// For the user-facing documentation see:
/// docs/checks/warp-mask-excludes-caller.md
class MaskExcludesCallerCheck : public WarpCheckBase {
public:
  MaskExcludesCallerCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
};

} // namespace clang::tidy::warp

#endif
