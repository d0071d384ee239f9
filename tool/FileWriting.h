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
#include <string>

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

/// A write prepared but not done: the new text is complete in a temporary
/// file beside the target (flushed, with the target's mode and owner), and
/// commit() only renames it into place. Several files are written all or
/// none by preparing every one before committing any. Destroying an
/// uncommitted write removes the temporary file.
class StagedWrite {
public:
  /// Prepares writing \p Contents into \p Path; the errors of writeFile.
  static llvm::Expected<StagedWrite> prepare(llvm::StringRef Path,
                                             llvm::StringRef Contents);
  StagedWrite(StagedWrite &&Other);
  StagedWrite &operator=(StagedWrite &&Other) = delete;
  ~StagedWrite();

  /// Puts the new text in place; after a failure nothing changed (but for
  /// a file rewritten in place, see writeFile).
  llvm::Error commit();
  const std::string &path() const { return Path; }

private:
  StagedWrite() = default;
  enum class Kind { Rename, InPlace, Through };
  Kind How = Kind::Rename;
  std::string Path;     ///< As given, for messages.
  std::string Real;     ///< The file that changes.
  std::string Temp;     ///< Kind::Rename: the complete new file.
  std::string Contents; ///< Kind::InPlace and Kind::Through: the text.
  bool Exists = false;
  unsigned long long OldDev = 0, OldIno = 0;
  bool Done = false;
};

/// Returns an error (the reason only) unless \p Path is a regular file
/// (after symlinks): reading a device or a FIFO would block or never end.
llvm::Error checkRegularFile(llvm::StringRef Path);

/// Reads \p Path, refusing anything but a regular file.
llvm::Expected<std::string> readRegularFile(llvm::StringRef Path);

} // namespace warplint

#endif
