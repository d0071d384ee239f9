//===--- Baseline.h - findings recorded earlier, not reported ---*- C++ -*-===//
///
/// \file `--baseline FILE.sarif` lets a project adopt warp-lint with its
/// backlog recorded: a finding whose check, file (its URI relative to the
/// SARIF root) and partialFingerprints value (Fingerprints.h) appear in an
/// earlier warp-lint SARIF is not reported. The fingerprint holds no line
/// number, so code that moved keeps matching; a changed line or a finding
/// moved into another function is new.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_BASELINE_H
#define WARP_LINT_TOOL_BASELINE_H

#include "RunResults.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace warplint {

class Baseline {
public:
  /// Reads a SARIF log written by warp-lint. One that does not parse, or
  /// whose results carry no warp-lint fingerprint, is an error.
  static llvm::Expected<Baseline> load(llvm::StringRef Path);
  /// Parses the text of a SARIF log (\p Name for messages).
  static llvm::Expected<Baseline> parse(llvm::StringRef Text,
                                        llvm::StringRef Name);

  bool contains(llvm::StringRef RuleId, llvm::StringRef Uri,
                llvm::StringRef Fingerprint) const;
  size_t size() const { return Keys.size(); }

private:
  llvm::StringSet<> Keys;
};

/// Drops from \p Results the findings \p Base holds (URIs taken relative to
/// \p SarifRoot, as the SARIF writer makes them); returns how many.
/// computeFingerprints must have run.
unsigned dropBaselined(RunResults &Results, const Baseline &Base,
                       llvm::StringRef SarifRoot);

} // namespace warplint

#endif
