//===--- PartialWarpLaunchCheck.h - warp-partial-warp-launch ----*- C++ -*-===//

#ifndef WARP_LINT_PARTIALWARPLAUNCHCHECK_H
#define WARP_LINT_PARTIALWARPLAUNCHCHECK_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// Launch with a block that is not a multiple of 32 of a kernel that needs full
/// warps
///
/// For the user-facing documentation see:
/// docs/checks/warp-partial-warp-launch.md
class PartialWarpLaunchCheck : public WarpCheckBase {
public:
  PartialWarpLaunchCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {
    declareFacet(FacetKind::Collectives);
  }

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
};

} // namespace clang::tidy::warp

#endif
