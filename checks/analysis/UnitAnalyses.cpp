//===--- UnitAnalyses.cpp - the analyses one front end owns ---------------===//

#include "UnitAnalyses.h"

namespace clang::warp {

WarpAnalysis &UnitAnalyses::get(ASTContext &Ctx,
                                const UniformityOptions &Opts) {
  std::lock_guard<std::mutex> G(Lock);
  std::unique_ptr<WarpAnalysis> &Slot = Analyses[{&Ctx, Opts}];
  if (!Slot)
    Slot = std::make_unique<WarpAnalysis>(Ctx, Opts, Facets);
  return *Slot;
}

void UnitAnalyses::release(ASTContext &Ctx) {
  std::vector<std::unique_ptr<WarpAnalysis>> Released;
  {
    std::lock_guard<std::mutex> G(Lock);
    // Every options value of this context (a handful of entries at most).
    for (auto It = Analyses.begin(); It != Analyses.end();)
      if (It->first.first == &Ctx) {
        Released.push_back(std::move(It->second));
        It = Analyses.erase(It);
      } else {
        ++It;
      }
  }
}

} // namespace clang::warp
