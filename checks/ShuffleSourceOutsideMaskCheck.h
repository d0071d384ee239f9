//===--- ShuffleSourceOutsideMaskCheck.h - warp-shuffle-source-outside-mask --*-
//C++ -*-===//

#ifndef WARP_LINT_SHUFFLESOURCEOUTSIDEMASKCHECK_H
#define WARP_LINT_SHUFFLESOURCEOUTSIDEMASKCHECK_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// A shuffle reads a lane that its mask does not name
///
/// For the user-facing documentation see:
/// docs/checks/warp-shuffle-source-outside-mask.md
class ShuffleSourceOutsideMaskCheck : public WarpCheckBase {
public:
  ShuffleSourceOutsideMaskCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
};

} // namespace clang::tidy::warp

#endif
