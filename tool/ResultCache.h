//===--- ResultCache.h - units analysed before, not analysed again -*- C++
//-*-===//
///
/// \file A re-run over an unchanged project should cost next to nothing. Each
/// unit's result (findings, fixes, compile errors, NOLINT counts, function
/// ranges, what its launches show) is stored as JSON
/// under a key that hashes everything the result depends on:
///  - every file the preprocessor entered for the unit, with its path and
///    whole text (PreprocessedHash.h): a header edit, even in a comment
///    (NOLINT) or in whitespace (offsets), changes the key of exactly the
///    units that include the header;
///  - the unit's effective compile commands (after the configuration's
///    ExtraArgs) and their directories;
///  - the effective configuration for the file (checks, options, ...);
///  - the tool version.
/// Each unit also gets a manifest (InputManifest.h, kept in the same
/// directory under a key of its own), so that a re-run finds the key
/// without preprocessing while the files and include lookups it lists are
/// unchanged.
/// Entries live in `<dir>/<2 hex>/<key>.json`, written through a temporary
/// file renamed into place (concurrent runs never see half an entry); the
/// directory is kept under a size cap by removing the least recently used
/// entries after each run (a hit refreshes an entry's time).
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_RESULTCACHE_H
#define WARP_LINT_TOOL_RESULTCACHE_H

#include "InputManifest.h"
#include "Runner.h"
#include "llvm/Support/JSON.h"
#include <atomic>
#include <optional>

namespace warplint {

llvm::json::Value toJson(const UnitResult &U);
std::optional<UnitResult> unitResultFromJson(const llvm::json::Value &V);

class ResultCache {
public:
  ResultCache(std::string Dir, uint64_t MaxBytes)
      : Dir(std::move(Dir)), MaxBytes(MaxBytes) {}

  const std::string &dir() const { return Dir; }
  /// Returns the entry of \p Key, or nothing (a damaged entry is a miss).
  std::optional<UnitResult> lookup(llvm::StringRef Key);
  /// Stores \p U under \p Key; a failure only costs the next run time.
  void store(llvm::StringRef Key, const UnitResult &U);
  /// The manifest kept under \p Key (InputManifest.h), or nothing.
  std::optional<InputManifest> lookupManifest(llvm::StringRef Key);
  void storeManifest(llvm::StringRef Key, const InputManifest &M);
  /// Removes the least recently used entries until the cache holds at most
  /// the cap. Returns the bytes left.
  uint64_t trim();

  std::atomic<unsigned> Hits{0}, Misses{0}, Stored{0}, Evicted{0};
  /// Hits whose key a manifest gave, without preprocessing the unit.
  std::atomic<unsigned> DirectHits{0};

private:
  std::string entryPath(llvm::StringRef Key) const;
  /// The JSON under \p Key (refreshing its time), or nothing.
  std::optional<llvm::json::Value> read(llvm::StringRef Key);
  /// Writes \p V under \p Key; false when it could not be written.
  bool write(llvm::StringRef Key, const llvm::json::Value &V);
  std::string Dir;
  uint64_t MaxBytes;
};

/// Parses a size: a number with an optional K, M or G suffix (powers of
/// 1024).
llvm::Expected<uint64_t> parseCacheSize(llvm::StringRef Value);

} // namespace warplint

#endif
