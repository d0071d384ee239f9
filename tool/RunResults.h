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

  /// One line naming the unit and why (without the `warp-lint: error: `).
  std::string describe() const;
};

struct RunResults {
  /// Findings and compile errors, each once, in input order.
  std::vector<clang::tidy::ClangTidyError> Diagnostics;
  std::vector<UnitFailure> Failures;
  FileStamps Seen;
  unsigned SuppressedNolint = 0;
  unsigned SuppressedNonUser = 0;

  /// Whether any diagnostic is a finding (not a compile error).
  bool hasFindings() const;
};

RunResults mergeUnits(std::vector<UnitResult> Units);

/// Returns `file:line:col: message` of \p E (just the message without a
/// file).
std::string describeDiagnostic(const clang::tidy::ClangTidyError &E);

} // namespace warplint

#endif
