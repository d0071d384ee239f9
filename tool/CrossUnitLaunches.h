//===--- CrossUnitLaunches.h - launches seen by the whole run ---*- C++ -*-===//
///
/// \file A kernel defined in a header and launched only in another unit has
/// no launch in the units that define it, so threadIdx.y/z there count as
/// varying. Each unit's result carries what its launches show (keyed by the
/// kernel's name in every unit, clang::warp::kernelUsr) and where its
/// kernels lie; once all units have run, the CLI drops the findings that
/// exist only for that reason (their launch-shape note says
/// clang::warp::NoLaunchSeen) when the launches elsewhere all show a
/// warp-aligned block. With `-p`, the launches are kept in
/// `<build dir>/.warp-lint/launches.json`, so that a later run over a few
/// files (a pre-commit hook) still knows the rest of the project's launches.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_CROSSUNITLAUNCHES_H
#define WARP_LINT_TOOL_CROSSUNITLAUNCHES_H

#include "Runner.h"
#include "analysis/LaunchSummary.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <map>
#include <mutex>

namespace warplint {

/// Returns a consumer that sets \p Out to what the unit's launches show when
/// the translation unit is complete.
std::unique_ptr<clang::ASTConsumer>
makeLaunchCollector(std::vector<clang::warp::LedgerLaunch> &Out);

class CrossUnitLaunches {
public:
  /// Takes in what unit \p R launches and where its kernels lie (a unit run
  /// again replaces what it showed before).
  void addUnit(const UnitResult &R);

  /// Reads the launches an earlier run kept under \p BuildDir (none is
  /// fine; a damaged file is ignored: it is a cache, rewritten at the end).
  void load(llvm::StringRef BuildDir);
  /// Keeps the launches under \p BuildDir: this run's units replace theirs.
  llvm::Error save(llvm::StringRef BuildDir) const;

  /// Drops from \p Diagnostics the findings whose kernel every known launch
  /// shows with a warp-aligned block; returns how many were dropped.
  unsigned dropResolved(std::vector<clang::tidy::ClangTidyError> &Diagnostics);
  /// Whether \p E exists only because its unit saw no launch of its kernel
  /// (another unit's launches may resolve it).
  bool dependsOnLaunches(const clang::tidy::ClangTidyError &E) const;

private:
  /// The kernel whose missing launches \p E depends on; empty if none.
  std::string dependentKernel(const clang::tidy::ClangTidyError &E) const;
  /// Whether every known launch of \p KernelUsr is warp-aligned (false when
  /// none is known).
  bool alignedEverywhere(llvm::StringRef KernelUsr) const;

  mutable std::mutex Lock;
  /// By unit main file: kernel USR -> all its launches there aligned.
  std::map<std::string, llvm::StringMap<bool>> Units;
  /// Where the kernels of the units run lie.
  FunctionIndex Kernels;
};

} // namespace warplint

#endif
