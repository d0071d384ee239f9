//===--- ShuffleWidthCheck.h - warp-shuffle-width ---------------*- C++ -*-===//

#ifndef WARP_LINT_SHUFFLEWIDTHCHECK_H
#define WARP_LINT_SHUFFLEWIDTHCHECK_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// Shuffle width not a power of two up to 32, or an offset at or above it
///
/// For the user-facing documentation see:
/// docs/checks/warp-shuffle-width.md
class ShuffleWidthCheck : public WarpCheckBase {
public:
  ShuffleWidthCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
};

} // namespace clang::tidy::warp

#endif
