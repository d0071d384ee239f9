//===--- Shards.h - one part of a run, for CI matrices ----------*- C++ -*-===//
///
/// \file `--shard i/n` lints one n-th of the units: the files sorted by path,
/// every n-th starting at the i-th. The split depends only on the set of
/// files (not on the database's order or on the machine), so n jobs of a
/// CI matrix together lint every unit exactly once.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_SHARDS_H
#define WARP_LINT_TOOL_SHARDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace warplint {

struct Shard {
  unsigned Index = 1; ///< 1-based.
  unsigned Count = 1;
};

/// Parses `i/n` with 1 <= i <= n.
llvm::Expected<Shard> parseShard(llvm::StringRef Value);

/// Returns the files of \p Files in shard \p S, in their original order.
std::vector<std::string> selectShard(llvm::ArrayRef<std::string> Files,
                                     Shard S);

} // namespace warplint

#endif
