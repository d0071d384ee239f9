//===--- PartialWarpLaunchCheck.cpp - warp-partial-warp-launch ------------===//

#include "PartialWarpLaunchCheck.h"

namespace clang::tidy::warp {

void PartialWarpLaunchCheck::checkFunction(const FunctionDecl *FD,
                                           const FunctionUniformity &FU,
                                           WarpAnalysis &WA) {
  if (!FD->hasAttr<CUDAGlobalAttr>())
    return;
  std::vector<KernelLaunch> Launches = WA.launchesOf(FD);
  // Only a block whose x extent is a known constant says that the last
  // warp is partial; blocks of unknown size are left alone.
  auto Partial = [](const KernelLaunch &L) {
    return L.Block.X && *L.Block.X > 0 && *L.Block.X % 32 != 0;
  };
  if (llvm::none_of(Launches, Partial))
    return;
  const FunctionSummary *S = WA.summary(FD);
  if (!S || S->facet<CollectiveFacet>()->FullWarp.empty())
    return;
  // The kernel runs a full-mask collective while its lanes are together:
  // the lanes a partial warp lacks are named by the mask.
  const FullWarpNeed &Need = S->facet<CollectiveFacet>()->FullWarp.front();
  std::optional<CollectiveUse> Use = matchCollective(Need.Collective);
  StringRef Name = Use ? StringRef(Use->Info->Name) : StringRef("collective");
  for (const KernelLaunch &L : Launches) {
    if (!Partial(L) || !firstReportAt(L.Site->getBeginLoc()))
      continue;
    int64_t X = *L.Block.X;
    diag(L.Site->getBeginLoc(),
         "%0 is launched with blocks of %1 threads in x, not a multiple of "
         "32: the last warp of each block has %2 lanes, but %0 runs '%3' "
         "with a full mask")
        << FD << X << (X % 32) << Name;
    diag(Need.Collective->getBeginLoc(),
         "'%0' with a full mask runs here%select{| in %2}1",
         DiagnosticIDs::Note)
        << Name << (Need.Owner != FD) << Need.Owner;
  }
}

} // namespace clang::tidy::warp
