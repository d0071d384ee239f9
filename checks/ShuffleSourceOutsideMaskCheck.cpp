//===--- ShuffleSourceOutsideMaskCheck.cpp - warp-shuffle-source-outside-mask
//-===//

#include "ShuffleSourceOutsideMaskCheck.h"

namespace clang::tidy::warp {

void ShuffleSourceOutsideMaskCheck::checkFunction(const FunctionDecl *FD,
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
