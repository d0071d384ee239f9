//===--- StreamingReport.h - findings printed as units finish ---*- C++ -*-===//
///
/// \file A long run shows each unit's findings as soon as that unit is
/// done, as a compiler would, instead of all of them at the end: in the
/// order units finish, or with stable order in input order (each unit
/// waits for the ones before it), which is the order of the whole report
/// and does not depend on -j. A finding several units report (in a shared
/// header) is printed once, by the first.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_STREAMINGREPORT_H
#define WARP_LINT_TOOL_STREAMINGREPORT_H

#include "Runner.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <optional>

namespace warplint {

class StreamingReport {
public:
  /// Where the text goes: stdout (the report itself, or an echo of a report
  /// written into a file) or stderr (the launcher: the build's log).
  enum class Target { Stdout, Stderr };
  /// Which findings are shown (the filters that need no whole run).
  using Filter = std::function<bool(const clang::tidy::ClangTidyError &)>;

  StreamingReport(size_t Units, bool StableOrder, Target To,
                  clang::tidy::ClangTidyContext &Context, Filter Keep);

  /// Unit \p Index is done. Called one at a time (under the runner's lock).
  void unitDone(size_t Index, const UnitResult &R);

  /// Findings for which \p Hold is true wait for the whole run (a finding
  /// another unit's launches may resolve); null holds none.
  void holdBack(Filter Hold) { this->Hold = std::move(Hold); }
  /// Prints the held findings that are still in \p Final, the run's
  /// findings once every unit is done.
  void printHeld(const std::vector<clang::tidy::ClangTidyError> &Final);

  /// The first write error on stdout, if any (printing stops at it).
  llvm::Error takeError();

  /// Whether anything was printed.
  bool printedAny() const { return PrintedAny; }

private:
  void print(const std::vector<clang::tidy::ClangTidyError> &Errors);

  bool StableOrder;
  Target To;
  clang::tidy::ClangTidyContext &Context;
  Filter Keep;
  Filter Hold;
  llvm::StringSet<> Held;
  /// With stable order: finished units not printed yet, by index.
  std::vector<std::optional<std::vector<clang::tidy::ClangTidyError>>> Waiting;
  size_t Next = 0;
  llvm::StringSet<> Seen;
  std::optional<std::string> WriteError;
  bool PrintedAny = false;
};

} // namespace warplint

#endif
