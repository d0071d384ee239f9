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

/// The threads per unit of x extent (y * z), if known.
static std::optional<int64_t> rowsPerBlock(const BlockShape &B) {
  if (B.OneDimensional)
    return 1;
  if (!B.Y || !B.Z)
    return std::nullopt;
  return *B.Y * *B.Z;
}

/// The largest thread count a launch whose x extent host code bounds can
/// have that is not a multiple of 32 (`min(n, 256)` gives 255), with the
/// others, when that count depends on a runtime value.
static std::optional<int64_t> partialCount(const KernelLaunch &L,
                                           std::vector<int64_t> &Others) {
  std::optional<int64_t> Rows = rowsPerBlock(L.Block);
  if (L.Block.X || !L.XValues.bounded() || L.XValues.Source.empty() || !Rows)
    return std::nullopt;
  std::optional<int64_t> Largest;
  for (int64_t X : *L.XValues.Values)
    if ((X * *Rows) % 32 != 0) {
      Others.push_back(X * *Rows);
      Largest = X * *Rows;
    }
  return Largest;
}

/// "1, 2, 4, 8 or 16", or the first few and how many more.
static std::string listed(const std::vector<int64_t> &Counts) {
  constexpr size_t Shown = 5;
  std::string Out;
  for (size_t I = 0; I < Counts.size() && I < Shown; ++I) {
    if (I)
      Out += I + 1 == Counts.size() ? " or " : ", ";
    Out += std::to_string(Counts[I]);
  }
  if (Counts.size() > Shown)
    Out += " and " + std::to_string(Counts.size() - Shown) + " more";
  return Out;
}

void PartialWarpLaunchCheck::checkFunction(const FunctionDecl *FD,
                                           const FunctionUniformity &FU,
                                           WarpAnalysis &WA) {
  if (!FD->hasAttr<CUDAGlobalAttr>())
    return;
  llvm::ArrayRef<KernelLaunch> Launches = WA.launchesOf(FD);
  // Warps are cut from the linear thread index (x fastest, then y, then z):
  // only a block whose thread count is off a multiple of 32 has a partial
  // last warp (4 x 8 threads make full warps).
  auto Partial = [](const KernelLaunch &L) {
    std::optional<int64_t> N = threadsPerBlock(L.Block);
    std::vector<int64_t> Counts;
    return (N && *N > 0 && *N % 32 != 0) || partialCount(L, Counts);
  };
  if (llvm::none_of(Launches, Partial))
    return;
  const FunctionSummary *S = WA.summary(FD);
  if (!S)
    return;
  // The lanes a partial warp lacks never run: like lanes that have exited,
  // they leave votes, matches and __syncwarp() alone, but a full-mask
  // shuffle run while the lanes are together reads them.
  const FullWarpNeed *Need = nullptr;
  std::optional<CollectiveUse> Use;
  for (const FullWarpNeed &N : S->facet<CollectiveFacet>()->FullWarp) {
    Use = matchCollective(N.Collective);
    if (Use && Use->Info->Kind == CollectiveKind::Shuffle) {
      Need = &N;
      break;
    }
  }
  if (!Need)
    return;
  StringRef Name = Use->Info->Name;
  auto NoteCollective = [&] {
    diag(Need->Collective->getBeginLoc(),
         "'%0' with a full mask runs here%select{| in %2}1",
         DiagnosticIDs::Note)
        << Name << (Need->Owner != FD) << Need->Owner;
  };
  for (const KernelLaunch &L : Launches) {
    if (!Partial(L) || !firstReportAt(L.Site->getBeginLoc()))
      continue;
    SourceLocation At = L.Site->getBeginLoc();
    if (std::optional<int64_t> N = threadsPerBlock(L.Block)) {
      std::string Shape = std::to_string(*N);
      if (*N != *L.Block.X)
        Shape += " (" + std::to_string(*L.Block.X) + " x " +
                 std::to_string(L.Block.Y.value_or(1)) + " x " +
                 std::to_string(L.Block.Z.value_or(1)) + ")";
      diag(At, "%0 is launched with blocks of %1 threads, not a multiple of "
               "32: the last warp of each block has %2 lanes, but %0 runs "
               "'%3' with a full mask")
          << FD << Shape << (*N % 32) << Name;
      NoteCollective();
      noteTier(*this, At, Tier::Proven,
               "the block is a constant " + Shape + " threads");
      noteLanes(*this, At, AllLanes, (1u << (*N % 32)) - 1);
    } else {
      std::vector<int64_t> Counts;
      int64_t Count = *partialCount(L, Counts);
      const ExtentValues &V = L.XValues;
      std::string How = V.How;
      if (L.Block.X.has_value() || !L.Block.OneDimensional)
        How = "x extent: " + How;
      diag(At, "%0 is launched with a block size computed from '%1' (%2) "
               "that can be %3 threads, not a multiple of 32: the last warp "
               "of each block then has %4 lanes, but %0 runs '%5' with a "
               "full mask")
          << FD << V.Source << How << Count << (Count % 32) << Name;
      NoteCollective();
      noteTier(*this, At, Tier::Conditional,
               "only for some values of '" + V.Source + "': the block has " +
                   listed(Counts) + " threads for some of them");
      noteLanes(*this, At, AllLanes, (1u << (Count % 32)) - 1);
    }
    noteConsequence(*this, At, Consequence::Undefined,
                    "the mask names lanes that do not exist");
  }
}

} // namespace clang::tidy::warp
