//===--- ImplicitSynchronousCheck.cpp - warp-implicit-synchronous ---------===//

#include "ImplicitSynchronousCheck.h"

namespace clang::tidy::warp {

void ImplicitSynchronousCheck::checkFunction(const FunctionDecl *FD,
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
