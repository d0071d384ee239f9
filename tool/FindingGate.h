//===--- FindingGate.h - the filters a finding passes -----------*- C++ -*-===//
///
/// \file The filters that decide whether a finding is shown and need no
/// whole run: --exclude (the finding's file matches a pattern) and
/// --diff-base (none of its lines changed). The streamed text report asks
/// them as each unit finishes, the final report once the run is complete,
/// so both show the same findings. Compile errors always pass.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FINDINGGATE_H
#define WARP_LINT_TOOL_FINDINGGATE_H

#include "DiffFilter.h"
#include "Finding.h"
#include "PathFilter.h"

namespace warplint {

class FindingGate {
public:
  /// \p Changed may be null (no --diff-base).
  FindingGate(const PathFilter &Excludes, const ChangedLines *Changed)
      : Excludes(Excludes), Changed(Changed) {}

  /// Whether \p E lies in an excluded file.
  bool excluded(const clang::tidy::ClangTidyError &E);
  /// Whether none of \p E's lines (its own, its notes') changed.
  bool unchanged(const clang::tidy::ClangTidyError &E);
  /// Whether \p E is shown.
  bool keep(const clang::tidy::ClangTidyError &E) {
    return !excluded(E) && !unchanged(E);
  }

private:
  const PathFilter &Excludes;
  const ChangedLines *Changed;
  LineTable Lines; ///< Each file read once, whatever the findings.
};

} // namespace warplint

#endif
