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

#include "FileStamps.h"
#include "FunctionRanges.h"
#include "analysis/LaunchSummary.h"
#include "clang-tidy/ClangTidy.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>
#include <memory>

namespace warplint {

/// What one translation unit produced.
struct UnitResult {
  std::string File;
  std::vector<clang::tidy::ClangTidyError> Errors;
  unsigned SuppressedNolint = 0;        ///< Findings hidden by NOLINT comments.
  unsigned SuppressedNonUser = 0;       ///< Findings in headers not shown.
  FileStamps Seen;                      ///< Every file the unit read.
  std::vector<FunctionRange> Functions; ///< For fingerprints.
  /// What the unit's launches show (CrossUnitLaunches.h).
  std::vector<clang::warp::LedgerLaunch> Launches;
  /// Why the analysis stopped (a crash, an internal error); empty if it
  /// finished. The unit's findings are then lost, the other units go on.
  std::string InternalError;
  /// Index in Errors of the compile error clang emitted first (Errors are
  /// sorted by place, and an error without one, "too many errors emitted",
  /// would sort first); -1 when there is none or it is not known.
  int FirstError = -1;
  bool FromCache = false; ///< The result was reused from the cache.
};

/// Creates a fresh options provider for a unit (providers cache per file and
/// are not shared between threads).
using ProviderFactory =
    std::function<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>()>;

class ResultCache;

/// Called once per unit as it finishes, with its index in the input and its
/// result, one call at a time (in completion order).
using UnitDoneCallback = std::function<void(size_t, const UnitResult &)>;

struct RunSettings {
  unsigned Jobs = 1;
  UnitDoneCallback OnUnitDone; ///< May be empty.
  /// Where results of units analysed before are kept (ResultCache.h); null
  /// for none.
  ResultCache *Cache = nullptr;
  std::string ToolVersion; ///< Part of each cache key.
};

/// Lints each of \p Files with the commands in \p Database, each under a
/// CrashRecoveryContext (call enableCrashRecovery first).
std::vector<UnitResult>
runUnits(llvm::ArrayRef<std::string> Files,
         const clang::tooling::CompilationDatabase &Database,
         const ProviderFactory &MakeProvider, const RunSettings &Settings);

/// Returns whether \p E is a compiler error (the unit did not parse whole).
bool isCompilerError(const clang::tidy::ClangTidyError &E);

/// Turns crashes and LLVM fatal errors inside a unit into that unit's
/// InternalError; outside a unit a fatal error is one line and exit 2.
void enableCrashRecovery();

} // namespace warplint

#endif
