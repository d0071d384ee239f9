//===--- Runner.h - clang-tidy over many translation units ------*- C++ -*-===//
///
/// \file Runs clang-tidy's own runner on each translation unit, in parallel
/// threads. Each unit gets its own ClangTidyContext, ClangTool and file
/// system (so no thread changes the process's working directory); results
/// come back in input order whatever the number of jobs.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_RUNNER_H
#define WARP_LINT_TOOL_RUNNER_H

#include "clang-tidy/ClangTidy.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>
#include <memory>

namespace warplint {

/// What one translation unit produced.
struct UnitResult {
  std::string File;
  std::vector<clang::tidy::ClangTidyError> Errors;
  unsigned SuppressedNolint = 0;  ///< Findings hidden by NOLINT comments.
  unsigned SuppressedNonUser = 0; ///< Findings in headers not shown.
};

/// Creates a fresh options provider for a unit (providers cache per file and
/// are not shared between threads).
using ProviderFactory =
    std::function<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>()>;

struct RunSettings {
  unsigned Jobs = 1;
  bool Progress = false; ///< `[3/20] file.cu` on stderr, rewritten with \r.
};

/// Lints each of \p Files with the commands in \p Database.
std::vector<UnitResult>
runUnits(llvm::ArrayRef<std::string> Files,
         const clang::tooling::CompilationDatabase &Database,
         const ProviderFactory &MakeProvider, const RunSettings &Settings);

/// Returns whether \p E is a compiler error (the unit could not be parsed).
bool isCompilerError(const clang::tidy::ClangTidyError &E);

} // namespace warplint

#endif
