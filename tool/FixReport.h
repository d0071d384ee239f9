//===--- FixReport.h - what --fix did, finding by finding -------*- C++ -*-===//
///
/// \file After `--fix` (or `--fix --dry-run`), stderr says for every finding
/// whether it was fixed or is left, and why, then one line with the counts:
///
///   warp-lint: fixed k.cu:35:12 [warp-divergent-full-mask]
///   warp-lint: left k.cu:22:10 [warp-divergent-full-mask]: no automatic fix
///   warp-lint: applied 1 of 1 suggested fix (1 file written); 1 finding left
///
/// When a file cannot be written nothing is (the files are written all or
/// none), and the line says so; when a write fails halfway, it names the
/// files written and those not.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FIXREPORT_H
#define WARP_LINT_TOOL_FIXREPORT_H

#include "FixApplication.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint {

/// Returns \p Path relative to the current directory when it is under it.
std::string relativeToCwd(llvm::StringRef Path);

/// Prints the line for each finding of \p Diags (compile errors aside), as
/// \p Plan planned them; \p DryRun says "would fix".
void printFixLines(llvm::raw_ostream &OS,
                   llvm::ArrayRef<clang::tidy::ClangTidyError> Diags,
                   const FixPlan &Plan, bool DryRun);

/// Prints the closing line: \p Written is how many files were written (or
/// would be, with \p DryRun), \p Outcome what writing did (null for a dry
/// run); \p Findings counts the findings of the run.
void printFixTotals(llvm::raw_ostream &OS, const FixPlan &Plan,
                    size_t FilesChanged, const FixOutcome *Outcome,
                    size_t Findings);

} // namespace warplint

#endif
