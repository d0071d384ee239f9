//===--- PartialWarpLaunchCheck.cpp - warp-partial-warp-launch ------------===//

#include "PartialWarpLaunchCheck.h"

namespace clang::tidy::warp {

void PartialWarpLaunchCheck::checkFunction(const FunctionDecl *FD,
                                           const FunctionUniformity &FU,
                                           WarpAnalysis &WA) {
  FU.forEachStmt([&](const Stmt *S) {
    std::optional<CollectiveUse> Use = matchCollective(S);
    if (!Use)
      return;
    // TODO: decide from the analysis whether *Use is a finding.
  });
}

} // namespace clang::tidy::warp
