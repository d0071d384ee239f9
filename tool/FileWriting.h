//===--- FileWriting.h - writes that never leave a file half done -*- C++
//-*-===//
///
/// \file Every file warp-lint writes (fixed sources, `--output`,
/// `--export-fixes`, `--export-compile-commands`) goes through writeFile:
///
/// - the new text goes to a temporary file in the target's folder, renamed
///   over the target only once it is complete and flushed to disk;
/// - the target keeps its mode and owner; a symlink is followed (the file it
///   points to is rewritten, the link stays a link);
/// - a file with several hard links is rewritten in place (same inode, so
///   every name sees the change), after its space is reserved;
/// - a read-only target is refused;
/// - a target that is not a regular file (`/dev/stdout`, a FIFO) is written
///   straight through.
///
/// Fixed sources are also locked (flock(2), advisory) so that two
/// `warp-lint --fix` runs on one file take turns.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FILEWRITING_H
#define WARP_LINT_TOOL_FILEWRITING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <chrono>
#include <optional>

namespace warplint {

/// Takes an exclusive lock on \p Path for the rest of the process (a no-op
/// when this process holds it already), waiting up to \p Timeout for another
/// process to release it; with no timeout it waits as long as it takes.
/// The lock follows the file when writeFile replaces it.
llvm::Error lockFile(llvm::StringRef Path,
                     std::optional<std::chrono::milliseconds> Timeout);

/// Returns whether this process holds a lock on \p Path.
bool holdsFileLock(llvm::StringRef Path);

/// Releases this process's lock on \p Path, if it holds one.
void releaseFileLock(llvm::StringRef Path);

/// Replaces the contents of \p Path with \p Contents as the file comment
/// describes. Errors are one line: `cannot write <path>: <reason>`.
llvm::Error writeFile(llvm::StringRef Path, llvm::StringRef Contents);

/// Returns an error (the reason only) unless \p Path is a regular file
/// (after symlinks): reading a device or a FIFO would block or never end.
llvm::Error checkRegularFile(llvm::StringRef Path);

/// Reads \p Path, refusing anything but a regular file.
llvm::Expected<std::string> readRegularFile(llvm::StringRef Path);

} // namespace warplint

#endif
