//===--- DiffFilter.h - only what a change touched --------------*- C++ -*-===//
///
/// \file `--diff-base REV` gates a pull request on its own findings: the
/// lines changed since REV come from `git diff -U0 REV` (the work tree
/// against REV), and a finding is reported when its line, or the line of
/// any of its notes (where the lanes diverged, the call on the path), is
/// one of them. A hunk that only deletes lines counts as changing the lines
/// on either side of the deletion.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_DIFFFILTER_H
#define WARP_LINT_TOOL_DIFFFILTER_H

#include "RunResults.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <utility>
#include <vector>

namespace warplint {

class ChangedLines {
public:
  /// Runs git in the work tree holding \p Dir: `git diff -U0 REV`. A
  /// failure (no git, not a work tree, an unknown REV) is one line.
  static llvm::Expected<ChangedLines> fromGit(llvm::StringRef Rev,
                                              llvm::StringRef Dir);
  /// Reads the output of `git diff -U0` run in the work tree \p TopDir.
  static ChangedLines parse(llvm::StringRef Diff, llvm::StringRef TopDir);

  /// Whether line \p Line of \p File (absolute) changed.
  bool touches(llvm::StringRef File, unsigned Line) const;

private:
  /// By real path: first and last line of each changed range.
  llvm::StringMap<std::vector<std::pair<unsigned, unsigned>>> Ranges;
};

} // namespace warplint

#endif
