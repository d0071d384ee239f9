//===--- FileWriting.cpp - writes that never leave a file half done -------===//

#include "FileWriting.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include <cerrno>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace warplint {

/// Returns the one-line error `cannot write <Path>: <Why>`.
static Error writeError(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write " + Path + ": " + Why);
}

/// Returns the message of the current errno.
static std::string lastError() {
  return std::error_code(errno, std::generic_category()).message();
}

namespace {
/// The files this process has locked, by (device, inode). flock(2) locks
/// belong to an open file description, so each descriptor stays open (and
/// the lock held) until the process exits. Two descriptors of one process
/// would block each other: a file is locked at most once.
class HeldLocks {
public:
  bool holds(dev_t Dev, ino_t Ino) {
    std::lock_guard<std::mutex> Guard(Mutex);
    return Held.count({Dev, Ino}) != 0;
  }
  void add(dev_t Dev, ino_t Ino, int FD) {
    std::lock_guard<std::mutex> Guard(Mutex);
    Held.emplace(std::make_pair(Dev, Ino), FD);
  }
  /// Closes the descriptor holding the lock, which releases it.
  void release(dev_t Dev, ino_t Ino) {
    std::lock_guard<std::mutex> Guard(Mutex);
    auto It = Held.find({Dev, Ino});
    if (It == Held.end())
      return;
    close(It->second);
    Held.erase(It);
  }

private:
  std::mutex Mutex;
  std::map<std::pair<dev_t, ino_t>, int> Held;
};

HeldLocks &heldLocks() {
  static HeldLocks *Locks = new HeldLocks; // Never destroyed: held to exit.
  return *Locks;
}
} // namespace

Error lockFile(StringRef Path,
               std::optional<std::chrono::milliseconds> Timeout) {
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    return Error::success(); // Nothing there yet: nothing to serialise.
  auto Deadline = std::chrono::steady_clock::now() +
                  Timeout.value_or(std::chrono::milliseconds(0));
  while (true) {
    int FD = open(Real.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat Opened;
    if (FD < 0 || fstat(FD, &Opened) != 0) {
      std::string Why = lastError();
      if (FD >= 0)
        close(FD);
      return createStringError(inconvertibleErrorCode(),
                               "cannot lock " + Path + ": " + Why);
    }
    if (heldLocks().holds(Opened.st_dev, Opened.st_ino)) {
      close(FD);
      return Error::success();
    }
    int Status;
    do
      Status = flock(FD, LOCK_EX | (Timeout ? LOCK_NB : 0));
    while (Status != 0 && errno == EINTR);
    if (Status != 0) {
      bool Busy = errno == EWOULDBLOCK;
      std::string Why = lastError();
      close(FD);
      if (!Busy)
        return createStringError(inconvertibleErrorCode(),
                                 "cannot lock " + Path + ": " + Why);
      if (std::chrono::steady_clock::now() >= Deadline)
        return createStringError(inconvertibleErrorCode(),
                                 "cannot lock " + Path +
                                     ": another process keeps it locked");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    // The holder may have renamed a new file over the path meanwhile: the
    // lock must be on what the path names now.
    struct stat Now;
    if (stat(Real.c_str(), &Now) != 0 || Now.st_dev != Opened.st_dev ||
        Now.st_ino != Opened.st_ino) {
      close(FD);
      continue;
    }
    heldLocks().add(Opened.st_dev, Opened.st_ino, FD);
    return Error::success();
  }
}

bool holdsFileLock(StringRef Path) {
  struct stat St;
  return stat(Path.str().c_str(), &St) == 0 &&
         heldLocks().holds(St.st_dev, St.st_ino);
}

void releaseFileLock(StringRef Path) {
  struct stat St;
  if (stat(Path.str().c_str(), &St) == 0)
    heldLocks().release(St.st_dev, St.st_ino);
}

/// Writes all of \p Data to \p FD from its current position (or at
/// \p Offset with pwrite when it is given).
static bool writeAll(int FD, StringRef Data, std::optional<off_t> Offset = {}) {
  while (!Data.empty()) {
    ssize_t N = Offset ? pwrite(FD, Data.data(), Data.size(), *Offset)
                       : write(FD, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      if (N == 0)
        errno = EIO;
      return false;
    }
    Data = Data.drop_front(N);
    if (Offset)
      *Offset += N;
  }
  return true;
}

/// Writes to something that is not a regular file (a device, a FIFO): there
/// is nothing to rename over, so the bytes go straight in.
static Error writeThrough(StringRef Path, StringRef Real, StringRef Contents) {
  int FD = open(Real.str().c_str(), O_WRONLY | O_CLOEXEC);
  if (FD < 0)
    return writeError(Path, lastError());
  bool Ok = writeAll(FD, Contents);
  std::string Why = Ok ? "" : lastError();
  if (close(FD) != 0 && Ok) {
    Ok = false;
    Why = lastError();
  }
  return Ok ? Error::success() : writeError(Path, Why);
}

/// Rewrites a file with several hard links in its own inode. The space is
/// reserved first, so a full disk is found before a byte changes.
static Error writeInPlace(StringRef Path, StringRef Real, StringRef Contents) {
  int FD = open(Real.str().c_str(), O_WRONLY | O_CLOEXEC);
  if (FD < 0)
    return writeError(Path, lastError());
  std::string Why;
  if (!Contents.empty() &&
      fallocate(FD, FALLOC_FL_KEEP_SIZE, 0, Contents.size()) != 0 &&
      errno != EOPNOTSUPP && errno != ENOSYS)
    Why = lastError();
  if (Why.empty() && !writeAll(FD, Contents, off_t(0)))
    Why = lastError();
  if (Why.empty() && ftruncate(FD, Contents.size()) != 0)
    Why = lastError();
  if (Why.empty() && fsync(FD) != 0)
    Why = lastError();
  if (close(FD) != 0 && Why.empty())
    Why = lastError();
  return Why.empty() ? Error::success() : writeError(Path, Why);
}

Expected<StagedWrite> StagedWrite::prepare(StringRef Path, StringRef Contents) {
  StagedWrite W;
  W.Path = Path.str();
  SmallString<256> Real;
  struct stat St;
  if (!sys::fs::real_path(Path, Real)) {
    if (stat(Real.c_str(), &St) != 0)
      return writeError(Path, lastError());
    W.Exists = true;
  } else {
    struct stat Link;
    if (lstat(Path.str().c_str(), &Link) == 0 && S_ISLNK(Link.st_mode))
      return writeError(Path, "it is a symbolic link to nothing");
    Real = Path;
    if (std::error_code EC = sys::fs::make_absolute(Real))
      return writeError(Path, EC.message());
  }
  W.Real = Real.str().str();
  if (W.Exists && S_ISDIR(St.st_mode))
    return writeError(Path, "it is a directory");
  if (W.Exists && !S_ISREG(St.st_mode)) {
    W.How = Kind::Through;
    W.Contents = Contents.str();
    return std::move(W);
  }
  // Mode bits, not only access(2): root may write anything, but a file
  // without any write bit says "do not change me".
  if (W.Exists && ((St.st_mode & 0222) == 0 || access(Real.c_str(), W_OK) != 0))
    return writeError(Path, "the file is read-only");
  if (W.Exists && St.st_nlink > 1) {
    W.How = Kind::InPlace;
    W.Contents = Contents.str();
    return std::move(W);
  }

  StringRef Dir = sys::path::parent_path(Real);
  SmallString<256> Model(Dir);
  sys::path::append(Model,
                    "." + sys::path::filename(Real) + ".warp-lint-%%%%%%");
  int FD = -1;
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Model, FD, Temp, sys::fs::OF_None, W.Exists ? 0600 : 0666))
    return writeError(Path, "cannot create a temporary file in " + Dir + ": " +
                                EC.message());
  sys::RemoveFileOnSignal(Temp);
  W.Temp = Temp.str().str();
  auto Fail = [&](const std::string &Why) {
    if (FD >= 0)
      close(FD);
    return writeError(Path, Why); // ~StagedWrite removes the file.
  };
  if (!writeAll(FD, Contents))
    return Fail(lastError());
  if (W.Exists) {
    if (fchmod(FD, St.st_mode & 07777) != 0)
      return Fail("cannot keep its mode: " + lastError());
    if ((St.st_uid != geteuid() || St.st_gid != getegid()) &&
        fchown(FD, St.st_uid, St.st_gid) != 0)
      return Fail("cannot keep its owner: " + lastError());
    W.OldDev = St.st_dev;
    W.OldIno = St.st_ino;
    // A lock this process holds on the old file moves to the new one, so a
    // waiting run sees the finished file, not a half-fixed one.
    if (heldLocks().holds(St.st_dev, St.st_ino)) {
      struct stat New;
      int LockFD = dup(FD);
      if (LockFD >= 0 && fstat(LockFD, &New) == 0 &&
          flock(LockFD, LOCK_EX | LOCK_NB) == 0)
        heldLocks().add(New.st_dev, New.st_ino, LockFD);
      else if (LockFD >= 0)
        close(LockFD);
    }
  }
  if (fsync(FD) != 0)
    return Fail(lastError());
  int Closing = FD;
  FD = -1;
  if (close(Closing) != 0)
    return Fail(lastError());
  return std::move(W);
}

StagedWrite::StagedWrite(StagedWrite &&Other)
    : How(Other.How), Path(std::move(Other.Path)), Real(std::move(Other.Real)),
      Temp(std::exchange(Other.Temp, "")), Contents(std::move(Other.Contents)),
      Exists(Other.Exists), OldDev(Other.OldDev), OldIno(Other.OldIno),
      Done(Other.Done) {}

StagedWrite::~StagedWrite() {
  if (Temp.empty() || Done)
    return;
  sys::fs::remove(Temp);
  sys::DontRemoveFileOnSignal(Temp);
}

Error StagedWrite::commit() {
  if (How == Kind::Through) {
    Done = true;
    return writeThrough(Path, Real, Contents);
  }
  if (How == Kind::InPlace) {
    Done = true;
    return writeInPlace(Path, Real, Contents);
  }
  if (rename(Temp.c_str(), Real.c_str()) != 0)
    return writeError(Path, lastError());
  Done = true;
  sys::DontRemoveFileOnSignal(Temp);
  // The old inode is gone from the folder: a run waiting on its lock finds
  // the path names another file, and waits on the new one's.
  if (Exists)
    heldLocks().release(OldDev, OldIno);
  return Error::success();
}

Error writeFile(StringRef Path, StringRef Contents) {
  Expected<StagedWrite> W = StagedWrite::prepare(Path, Contents);
  if (!W)
    return W.takeError();
  return W->commit();
}

Error checkRegularFile(StringRef Path) {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return createStringError(EC, EC.message());
  StringRef Kind;
  switch (St.type()) {
  case sys::fs::file_type::regular_file:
    return Error::success();
  case sys::fs::file_type::directory_file:
    Kind = "a directory";
    break;
  case sys::fs::file_type::character_file:
    Kind = "a character device";
    break;
  case sys::fs::file_type::block_file:
    Kind = "a block device";
    break;
  case sys::fs::file_type::fifo_file:
    Kind = "a FIFO";
    break;
  case sys::fs::file_type::socket_file:
    Kind = "a socket";
    break;
  default:
    Kind = "not a file";
    break;
  }
  return createStringError(inconvertibleErrorCode(),
                           "it is " + Kind + ", not a regular file");
}

Expected<std::string> readRegularFile(StringRef Path) {
  if (Error E = checkRegularFile(Path))
    return createStringError(inconvertibleErrorCode(),
                             "cannot read " + Path + ": " +
                                 toString(std::move(E)));
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read " + Path + ": " +
                                                 Buf.getError().message());
  return (*Buf)->getBuffer().str();
}

} // namespace warplint
