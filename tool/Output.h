//===--- Output.h - reporting a run's findings ------------------*- C++ -*-===//

#ifndef WARP_LINT_TOOL_OUTPUT_H
#define WARP_LINT_TOOL_OUTPUT_H

#include "OptionValidation.h"
#include "RunResults.h"
#include "clang-tidy/ClangTidy.h"

namespace warplint {

struct OutputSettings {
  OutputFormat Format = OutputFormat::Text;
  std::string OutputFile;           ///< --output; empty for stdout.
  bool StdoutClosed = false;        ///< fd 1 was closed at start.
  std::string ExportFixes;          ///< --export-fixes; empty for none.
  std::string SarifRoot;            ///< Absolute.
  std::vector<std::string> RuleIds; ///< Enabled checks.
  std::string ToolVersion;
  std::string DocBaseUrl; ///< --doc-base-url; empty for the default.
  /// The text report went to stdout already, unit by unit, as the run went.
  bool TextStreamed = false;
  /// Launcher mode: the unit and object the SARIF is of (for --merge).
  std::string Unit, ObjectFile;
};

/// Exports the fixes as asked, then prints the report of \p Results (every
/// diagnostic, compile errors included) in the chosen format, on stdout or
/// into --output. Text goes through clang-tidy's handleErrors so that it
/// reads exactly like clang-tidy. Returns a one-line error for anything it
/// could not write (`cannot write <file>: <reason>`).
llvm::Error report(const RunResults &Results,
                   clang::tidy::ClangTidyContext &Context,
                   const OutputSettings &Settings);

/// Returns the directory SARIF URIs are relative to when --sarif-root is not
/// given: the enclosing git work tree of the current directory, else the
/// current directory.
std::string defaultSarifRoot();

} // namespace warplint

#endif
