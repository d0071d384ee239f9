//===--- ShuffleWidthCheck.h - warp-shuffle-width ---------------*- C++ -*-===//

#ifndef WARP_LINT_SHUFFLEWIDTHCHECK_H
#define WARP_LINT_SHUFFLEWIDTHCHECK_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// Flags a shuffle width that is not a power of two in 1..32, and a
/// constant delta or laneMask at or above the width (also template
/// constants, at their instantiated values).
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

private:
  /// Where a template's constants got the values reported.
  void noteInstantiation(const FunctionDecl *FD);
};

} // namespace clang::tidy::warp

#endif
