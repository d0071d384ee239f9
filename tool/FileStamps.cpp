//===--- FileStamps.cpp - what the analysis read, to detect later edits ---===//

#include "FileStamps.h"

using namespace llvm;

namespace warplint {

void FileStamps::record(sys::fs::UniqueID ID, FileStamp Stamp) {
  auto [It, Inserted] = Stamps.try_emplace(ID, Stamp);
  if (!Inserted && (It->second.Size != Stamp.Size ||
                    It->second.ModTime != Stamp.ModTime || Stamp.Changed))
    It->second.Changed = true;
}

void FileStamps::merge(const FileStamps &Other) {
  for (const auto &[ID, Stamp] : Other.Stamps)
    record(ID, Stamp);
}

Error FileStamps::checkUnchanged(StringRef Path) const {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return createStringError(EC, "cannot fix " + Path + ": " + EC.message());
  auto It = Stamps.find(St.getUniqueID());
  bool Same = It != Stamps.end() && !It->second.Changed &&
              It->second.Size == St.getSize() &&
              It->second.ModTime == St.getLastModificationTime();
  if (Same)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "not fixing " + Path +
                               ": it changed while warp-lint analysed it "
                               "(run again)");
}

ErrorOr<std::unique_ptr<vfs::File>>
StampingFileSystem::openFileForRead(const Twine &Path) {
  ErrorOr<std::unique_ptr<vfs::File>> F =
      ProxyFileSystem::openFileForRead(Path);
  if (F)
    if (ErrorOr<vfs::Status> S = (*F)->status()) {
      std::lock_guard<std::mutex> Guard(Mutex);
      Stamps.record(S->getUniqueID(),
                    FileStamp{S->getSize(), S->getLastModificationTime()});
    }
  return F;
}

FileStamps StampingFileSystem::takeStamps() {
  std::lock_guard<std::mutex> Guard(Mutex);
  return std::move(Stamps);
}

} // namespace warplint
