//===--- Shards.cpp - one part of a run, for CI matrices ------------------===//

#include "Shards.h"
#include "llvm/ADT/STLExtras.h"
#include <numeric>

using namespace llvm;

namespace warplint {

Expected<Shard> parseShard(StringRef Value) {
  auto [I, N] = Value.split('/');
  Shard S;
  if (I.getAsInteger(10, S.Index) || N.getAsInteger(10, S.Count) ||
      S.Count == 0 || S.Index == 0 || S.Index > S.Count)
    return createStringError("--shard wants i/n with 1 <= i <= n (got '" +
                             Value.str() + "')");
  return S;
}

std::vector<std::string> selectShard(ArrayRef<std::string> Files, Shard S) {
  // Round robin over the sorted paths: shards differ by at most one unit.
  std::vector<size_t> ByPath(Files.size());
  std::iota(ByPath.begin(), ByPath.end(), 0);
  llvm::stable_sort(ByPath,
                    [&](size_t A, size_t B) { return Files[A] < Files[B]; });
  std::vector<bool> Mine(Files.size());
  for (size_t Rank = 0; Rank < ByPath.size(); ++Rank)
    Mine[ByPath[Rank]] = Rank % S.Count == S.Index - 1;
  std::vector<std::string> Out;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Mine[I])
      Out.push_back(Files[I]);
  return Out;
}

} // namespace warplint
