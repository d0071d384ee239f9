//===--- PartialWarpLaunchCheck.cpp - warp-partial-warp-launch ------------===//

#include "PartialWarpLaunchCheck.h"

namespace clang::tidy::warp {

/// The threads of one block, if every extent is a known constant.
static std::optional<int64_t> threadsPerBlock(const BlockShape &B) {
  if (!B.X)
    return std::nullopt;
  if (B.OneDimensional)
    return *B.X;
  if (!B.Y || !B.Z)
    return std::nullopt;
  return *B.X * *B.Y * *B.Z;
}

void PartialWarpLaunchCheck::checkFunction(const FunctionDecl *FD,
                                           const FunctionUniformity &FU,
                                           WarpAnalysis &WA) {
  if (!FD->hasAttr<CUDAGlobalAttr>())
    return;
  llvm::ArrayRef<KernelLaunch> Launches = WA.launchesOf(FD);
  // Warps are cut from the linear thread index (x fastest, then y, then z):
  // only a block whose thread count is a known constant off a multiple of
  // 32 has a partial last warp (4 x 8 threads make full warps).
  auto Partial = [](const KernelLaunch &L) {
    std::optional<int64_t> N = threadsPerBlock(L.Block);
    return N && *N > 0 && *N % 32 != 0;
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
    int64_t N = *threadsPerBlock(L.Block);
    std::string Shape = std::to_string(N);
    if (N != *L.Block.X)
      Shape += " (" + std::to_string(*L.Block.X) + " x " +
               std::to_string(L.Block.Y.value_or(1)) + " x " +
               std::to_string(L.Block.Z.value_or(1)) + ")";
    diag(L.Site->getBeginLoc(),
         "%0 is launched with blocks of %1 threads, not a multiple of 32: "
         "the last warp of each block has %2 lanes, but %0 runs '%3' with a "
         "full mask")
        << FD << Shape << (N % 32) << Name;
    diag(Need.Collective->getBeginLoc(),
         "'%0' with a full mask runs here%select{| in %2}1",
         DiagnosticIDs::Note)
        << Name << (Need.Owner != FD) << Need.Owner;
    noteTier(*this, L.Site->getBeginLoc(), Tier::Proven,
             "the block is a constant " + Shape + " threads");
    noteLanes(*this, L.Site->getBeginLoc(), AllLanes, (1u << (N % 32)) - 1);
    noteConsequence(*this, L.Site->getBeginLoc(), Consequence::Undefined,
                    "the mask names lanes that do not exist");
  }
}

} // namespace clang::tidy::warp
