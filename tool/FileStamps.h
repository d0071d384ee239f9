//===--- FileStamps.h - what the analysis read, to detect later edits -*- C++
//-*-===//
///
/// \file A fix is a list of byte offsets into the text the analysis read.
/// Before --fix rewrites a file it checks that the file is still that text
/// (same inode, size and modification time): an editor's save or another
/// warp-lint run in between would otherwise turn the offsets into garbage.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FILESTAMPS_H
#define WARP_LINT_TOOL_FILESTAMPS_H

#include "llvm/Support/Chrono.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <mutex>

namespace warplint {

/// A file's size and modification time when it was read.
struct FileStamp {
  uint64_t Size = 0;
  llvm::sys::TimePoint<> ModTime;
  bool Changed = false; ///< Two reads in one run saw different stamps.
};

/// Stamps by file identity (device and inode).
class FileStamps {
public:
  void record(llvm::sys::fs::UniqueID ID, FileStamp Stamp);
  /// Merges \p Other in; a file both saw differently is marked Changed.
  void merge(const FileStamps &Other);
  /// Returns an error unless \p Path is still what was read under its
  /// identity (or was never read by the analysis).
  llvm::Error checkUnchanged(llvm::StringRef Path) const;

private:
  std::map<llvm::sys::fs::UniqueID, FileStamp> Stamps;
};

/// A file system that stamps every file opened for reading through it.
class StampingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit StampingFileSystem(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS)
      : ProxyFileSystem(std::move(FS)) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override;

  FileStamps takeStamps();

private:
  std::mutex Mutex;
  FileStamps Stamps;
};

} // namespace warplint

#endif
