//===--- Output.h - reporting findings and applying fixes -------*- C++ -*-===//

#ifndef WARP_LINT_TOOL_OUTPUT_H
#define WARP_LINT_TOOL_OUTPUT_H

#include "OptionValidation.h"
#include "clang-tidy/ClangTidy.h"

namespace warplint {

struct OutputSettings {
  OutputFormat Format = OutputFormat::Text;
  bool Fix = false;
  std::string ExportFixes;           ///< --export-fixes; empty for none.
  std::string SarifRoot;             ///< Absolute.
  std::vector<std::string> RuleIds;  ///< Enabled checks.
  std::string ToolVersion;
};

/// Prints \p Errors (findings, in input order) in the chosen format on
/// stdout, then applies fixes and exports them as asked. Text goes through
/// clang-tidy's handleErrors so that it reads exactly like clang-tidy; fixes
/// are always applied by handleErrors (atomic rewrite of changed files only).
/// Returns an error only for a file it could not write.
llvm::Error report(const std::vector<clang::tidy::ClangTidyError> &Errors,
                   clang::tidy::ClangTidyContext &Context,
                   const OutputSettings &Settings);

/// Returns the directory SARIF URIs are relative to when --sarif-root is not
/// given: the enclosing git work tree of the current directory, else the
/// current directory.
std::string defaultSarifRoot();

} // namespace warplint

#endif
