//===--- FailThreshold.h - which findings fail a run ------------*- C++ -*-===//
///
/// \file `--fail-on=` sets what makes warp-lint exit 1: any finding (the
/// default), findings at or above a level (`error`, `warning`, `note`) or
/// tier (`proven`, `conditional`, `data`, `potential`), or none (`never`:
/// report only). Findings below the threshold are still reported.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FAILTHRESHOLD_H
#define WARP_LINT_TOOL_FAILTHRESHOLD_H

#include "Finding.h"
#include "llvm/Support/Error.h"

namespace warplint {

class FailThreshold {
public:
  /// Parses a `--fail-on=` value.
  static llvm::Expected<FailThreshold> parse(llvm::StringRef Value);

  /// Whether \p F makes the run fail.
  bool fails(const Finding &F) const;

  /// Whether this is the default (every finding fails).
  bool isDefault() const { return K == Kind::Any; }

private:
  enum class Kind { Any, Never, Level, Tier };
  Kind K = Kind::Any;
  unsigned Rank = 0; ///< Most severe is 0: error/proven.
};

/// Validates a `--tiers=` list (comma-separated tier names, at least one);
/// returns it normalized (no spaces, no repeats, most certain first).
llvm::Expected<std::string> parseTierList(llvm::StringRef Value);

} // namespace warplint

#endif
