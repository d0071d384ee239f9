//===--- Progress.h - how far a run has come, on stderr ---------*- C++ -*-===//
///
/// \file On a terminal, one line rewritten in place (`[3/24] src/k.cu`). In
/// a log (CI, a file), lines that stay, at a rate a log can take: one each
/// time another tenth of the units is done, at most one a second, and at
/// least one every 30 seconds while units finish.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_PROGRESS_H
#define WARP_LINT_TOOL_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <optional>

namespace warplint {

enum class ProgressMode { None, Terminal, Lines };

/// Parses `--progress=auto|lines|none`; auto picks Terminal when stderr is
/// a terminal, Lines otherwise. Nothing for another value.
std::optional<ProgressMode> parseProgressMode(llvm::StringRef Value,
                                              bool StderrIsTerminal);

class ProgressReporter {
public:
  using Clock = std::chrono::steady_clock;

  ProgressReporter(ProgressMode Mode, size_t Total, llvm::raw_ostream &OS,
                   Clock::time_point Start = Clock::now());

  /// One more unit is done (\p Name: how to show it). Not thread-safe: the
  /// runner calls it under its lock.
  void unitDone(llvm::StringRef Name, Clock::time_point Now = Clock::now());

  /// Clears a terminal line before other output goes to the same stream.
  void clear();

private:
  ProgressMode Mode;
  size_t Total;
  size_t Done = 0;
  unsigned LastTenth = 0;
  llvm::raw_ostream &OS;
  Clock::time_point Start;
  Clock::time_point LastLine;
  bool LinePending = false; ///< A terminal line is showing.
};

} // namespace warplint

#endif
