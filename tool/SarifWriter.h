//===--- SarifWriter.h - findings as SARIF 2.1.0 ----------------*- C++ -*-===//
///
/// \file Writes findings as SARIF 2.1.0 the way GitHub code scanning reads
/// it: one run, rules keyed by check id with descriptions, help and a
/// helpUri, repo-relative URIs under the %SRCROOT% base, columns in UTF-16
/// code units, notes as related locations and as a code flow (the notes in
/// order, then the finding), partialFingerprints, fixes, and one invocation
/// saying whether every unit was analysed.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_SARIFWRITER_H
#define WARP_LINT_TOOL_SARIFWRITER_H

#include "Finding.h"
#include "llvm/Support/JSON.h"

namespace warplint {

/// A problem of the run itself, not of the code: a compile error or a
/// crash that kept a unit from being analysed whole.
struct SarifNotification {
  std::string Message;
  Location Loc;                ///< File empty for none.
  std::string Level = "error"; ///< "note" for what does not fail the run.
};

struct SarifOptions {
  std::string Root;        ///< Absolute; URIs under it become relative.
  std::string ToolVersion; ///< tool.driver.version.
  std::vector<std::string> RuleIds; ///< Enabled checks, listed as rules.
  /// invocations[0].toolExecutionNotifications; any of level "error" makes
  /// executionSuccessful false, so that code scanning does not take the
  /// results as complete (and close alerts the failed units would raise).
  std::vector<SarifNotification> Notifications;
  /// Base of each rule's helpUri (--doc-base-url); empty for none.
  std::string DocBaseUrl;
  /// In launcher mode, the unit and object this log is of
  /// (run.properties.unit and .object, for --merge).
  std::string Unit, ObjectFile;
};

/// Returns the SARIF log for \p Findings.
llvm::json::Value toSarif(llvm::ArrayRef<Finding> Findings,
                          const SarifOptions &Options);

/// Returns \p Path relative to \p Root as a percent-encoded URI reference,
/// or an absolute `file://` URI when it is outside \p Root (system headers).
/// Sets \p Relative accordingly.
std::string sarifUri(llvm::StringRef Path, llvm::StringRef Root,
                     bool &Relative);

} // namespace warplint

#endif
