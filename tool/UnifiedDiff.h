//===--- UnifiedDiff.h - the change of a fixed file as a diff ---*- C++ -*-===//
///
/// \file `--fix --dry-run` shows what `--fix` would write as a unified diff
/// (`git apply` and `patch -p1` read it). The diff is made from the edits
/// themselves, not by comparing the two texts: its cost grows with the size
/// of the changes, not with the product of the file's lines.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_UNIFIEDDIFF_H
#define WARP_LINT_TOOL_UNIFIEDDIFF_H

#include "FixApplication.h"

namespace warplint {

/// Returns the unified diff (with \p Context lines of context) of applying
/// \p Edits (sorted by offset, not overlapping) to \p Before; the headers
/// name \p OldName and \p NewName. Empty when nothing changes.
std::string unifiedDiff(llvm::StringRef OldName, llvm::StringRef NewName,
                        llvm::StringRef Before,
                        llvm::ArrayRef<PlannedEdit> Edits,
                        unsigned Context = 3);

} // namespace warplint

#endif
