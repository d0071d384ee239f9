//===--- RunResults.h - the units of a run, merged -------------*- C++ -*-===//
///
/// \file Merges what each translation unit produced into what the run
/// reports: every diagnostic once (a finding in a header that several units
/// include is one finding, as clang-tidy reports it), the units that were
/// not analysed whole (compile errors, a crash) and what each unit read.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_RUNRESULTS_H
#define WARP_LINT_TOOL_RUNRESULTS_H

#include "Runner.h"

namespace warplint {

/// A unit that was not analysed whole, and why.
struct UnitFailure {
  std::string File;
  /// Its compile errors; the findings in what did parse are still reported.
  std::vector<clang::tidy::ClangTidyError> CompileErrors;
  std::string InternalError; ///< A crash: the unit's findings are lost.
  size_t FirstError = 0;     ///< The one clang emitted first.

  /// One line naming the unit and why (without the `warp-lint: error: `).
  std::string describe() const;
};

/// A unit that was not analysed at all: its file is missing or unreadable.
struct SkippedUnit {
  std::string File;
  std::string Reason; ///< `no such file or directory`, `permission denied`…
  /// Missing and under the build directory: an output of the build that was
  /// not built yet (a generated source). Not a failure of the run.
  bool NotGenerated = false;

  /// One line naming the unit and why (without the `warp-lint: …: `).
  std::string describe() const;
};

struct RunResults {
  /// Findings and compile errors, each once, in input order.
  std::vector<clang::tidy::ClangTidyError> Diagnostics;
  std::vector<UnitFailure> Failures;
  /// Units of the input that were not analysed (missing, unreadable).
  std::vector<SkippedUnit> Skipped;
  unsigned UnitsAnalysed = 0;
  unsigned CacheHits = 0; ///< Units whose result came from the cache.
  FileStamps Seen;
  unsigned SuppressedNolint = 0;
  unsigned SuppressedNonUser = 0;
  FunctionIndex Functions; ///< Where each unit's functions lie.
  /// The partialFingerprints value of each diagnostic, index for index with
  /// Diagnostics once computeFingerprints ran (empty before).
  std::vector<std::string> Fingerprints;

  /// Whether any diagnostic is a finding (not a compile error).
  bool hasFindings() const;
  /// Whether every unit was analysed whole: none failed and none was
  /// skipped but for sources not generated yet.
  bool complete() const;
  /// Fills Fingerprints (Fingerprints.h) for the diagnostics as they are
  /// now: call it once the set of diagnostics is final but before any
  /// filter (--diff-base, --baseline), so that the numbering of repeated
  /// findings does not depend on what a filter dropped.
  void computeFingerprints();
  /// Keeps the diagnostics (and their fingerprints) for which \p Keep of
  /// the index is true; returns how many findings were dropped.
  unsigned keepDiagnostics(llvm::function_ref<bool(size_t)> Keep);
};

RunResults mergeUnits(std::vector<UnitResult> Units);

/// What makes two diagnostics one, as clang-tidy's own deduplication has it:
/// file, offset, check and message (two units analysing one header report
/// identical findings there).
std::string diagnosticKey(const clang::tidy::ClangTidyError &E);

/// Returns `file:line:col: message` of \p E (just the message without a
/// file).
std::string describeDiagnostic(const clang::tidy::ClangTidyError &E);

} // namespace warplint

#endif
