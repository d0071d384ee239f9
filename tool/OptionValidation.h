//===--- OptionValidation.h - checks on command-line values -----*- C++ -*-===//
///
/// \file Validates option values that llvm::cl cannot check by itself. Each
/// failure is one line naming the problem; the caller exits with status 2.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_OPTIONVALIDATION_H
#define WARP_LINT_TOOL_OPTIONVALIDATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace warplint {

enum class OutputFormat { Text, Sarif, Json, Html };

/// Parses `--format=`.
llvm::Expected<OutputFormat> parseFormat(llvm::StringRef Value);

/// Parses `-j`: a positive number of jobs, or 0 for one per core.
llvm::Expected<unsigned> parseJobs(llvm::StringRef Value);

/// Rejects a `--checks` list naming a `warp-` check that does not exist (a
/// typo would otherwise silently disable it). Globs and other prefixes pass;
/// whether anything is enabled is checked on the effective configuration.
llvm::Error validateCheckList(llvm::StringRef Checks,
                              const llvm::StringSet<> &KnownChecks);

} // namespace warplint

#endif
