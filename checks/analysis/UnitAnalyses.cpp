//===--- UnitAnalyses.cpp - the analyses one front end owns ---------------===//

#include "UnitAnalyses.h"
#include "KernelLaunches.h"
#include "LaunchLedger.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"

namespace clang::warp {

WarpAnalysis &UnitAnalyses::get(ASTContext &Ctx,
                                const UniformityOptions &Opts) {
  std::lock_guard<std::mutex> G(Lock);
  std::unique_ptr<WarpAnalysis> &Slot = Analyses[{&Ctx, Opts}];
  if (!Slot)
    Slot = std::make_unique<WarpAnalysis>(Ctx, Opts, Facets);
  return *Slot;
}

/// Tells the ledger what \p UnitLaunches, those of the unit of \p Ctx, show.
static void reportLaunches(ASTContext &Ctx,
                           llvm::ArrayRef<KernelLaunch> UnitLaunches,
                           LaunchLedger &Ledger) {
  llvm::StringMap<bool> Aligned;
  for (const KernelLaunch &L : UnitLaunches) {
    auto [It, New] = Aligned.try_emplace(usrOf(L.Kernel), true);
    It->second = It->second && L.Block.warpAligned();
  }
  std::vector<LedgerLaunch> Launches;
  for (const auto &[Usr, IsAligned] : Aligned)
    if (!Usr.empty())
      Launches.push_back({Usr.str(), IsAligned});
  const SourceManager &SM = Ctx.getSourceManager();
  Ledger.unitLaunches(
      realFileOf(SM.getLocForStartOfFile(SM.getMainFileID()), SM), Launches);
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
  // Once per unit: only the first check to finish finds its analysis.
  if (!Released.empty())
    if (LaunchLedger *Ledger = launchLedger())
      reportLaunches(Ctx, Released.front()->launches(), *Ledger);
}

} // namespace clang::warp
