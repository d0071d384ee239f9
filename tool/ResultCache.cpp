//===--- ResultCache.cpp - units analysed before, not analysed again ------===//

#include "ResultCache.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;
using clang::tidy::ClangTidyError;
using clang::tooling::DiagnosticMessage;
using json::Array;
using json::Object;

namespace warplint {

//===--- JSON -------------------------------------------------------------===//

static Object messageJson(const DiagnosticMessage &M) {
  Array Fix;
  for (const auto &[File, Replacements] : M.Fix)
    for (const clang::tooling::Replacement &R : Replacements)
      Fix.push_back(Object{{"file", R.getFilePath()},
                           {"offset", R.getOffset()},
                           {"length", R.getLength()},
                           {"text", R.getReplacementText()}});
  Array Ranges;
  for (const clang::tooling::FileByteRange &R : M.Ranges)
    Ranges.push_back(Object{
        {"file", R.FilePath}, {"offset", R.FileOffset}, {"length", R.Length}});
  return Object{{"message", M.Message},
                {"file", M.FilePath},
                {"offset", M.FileOffset},
                {"fix", std::move(Fix)},
                {"ranges", std::move(Ranges)}};
}

json::Value toJson(const UnitResult &U) {
  Array Errors;
  for (const ClangTidyError &E : U.Errors) {
    Array Notes;
    for (const DiagnosticMessage &N : E.Notes)
      Notes.push_back(messageJson(N));
    Errors.push_back(Object{{"name", E.DiagnosticName},
                            {"level", int64_t(E.DiagLevel)},
                            {"buildDir", E.BuildDirectory},
                            {"warningAsError", E.IsWarningAsError},
                            {"message", messageJson(E.Message)},
                            {"notes", std::move(Notes)}});
  }
  Array Functions;
  for (const FunctionRange &F : U.Functions)
    Functions.push_back(Array{F.File, F.Begin, F.End, F.Name, F.KernelUsr});
  Array Launches;
  for (const clang::warp::LedgerLaunch &L : U.Launches)
    Launches.push_back(Array{L.KernelUsr, L.WarpAligned});
  return Object{{"version", 2},
                {"errors", std::move(Errors)},
                {"nolint", U.SuppressedNolint},
                {"firstError", U.FirstError},
                {"nonUser", U.SuppressedNonUser},
                {"functions", std::move(Functions)},
                {"launches", std::move(Launches)}};
}

/// Reads a message; false when something is missing (a damaged entry).
static bool messageFromJson(const json::Value *V, DiagnosticMessage &M) {
  const Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return false;
  std::optional<StringRef> Msg = O->getString("message"),
                           File = O->getString("file");
  std::optional<int64_t> Offset = O->getInteger("offset");
  const Array *Fix = O->getArray("fix"), *Ranges = O->getArray("ranges");
  if (!Msg || !File || !Offset || !Fix || !Ranges)
    return false;
  M.Message = Msg->str();
  M.FilePath = File->str();
  M.FileOffset = *Offset;
  for (const json::Value &R : *Fix) {
    const Object *RO = R.getAsObject();
    if (!RO)
      return false;
    std::optional<StringRef> F = RO->getString("file"),
                             T = RO->getString("text");
    std::optional<int64_t> Off = RO->getInteger("offset"),
                           Len = RO->getInteger("length");
    if (!F || !T || !Off || !Len)
      return false;
    if (Error E =
            M.Fix[*F].add(clang::tooling::Replacement(*F, *Off, *Len, *T)))
      return consumeError(std::move(E)), false;
  }
  for (const json::Value &R : *Ranges) {
    const Object *RO = R.getAsObject();
    std::optional<StringRef> F = RO ? RO->getString("file") : std::nullopt;
    std::optional<int64_t> Off = RO ? RO->getInteger("offset") : std::nullopt,
                           Len = RO ? RO->getInteger("length") : std::nullopt;
    if (!F || !Off || !Len)
      return false;
    clang::tooling::FileByteRange B;
    B.FilePath = F->str();
    B.FileOffset = *Off;
    B.Length = *Len;
    M.Ranges.push_back(std::move(B));
  }
  return true;
}

std::optional<UnitResult> unitResultFromJson(const json::Value &V) {
  const Object *O = V.getAsObject();
  if (!O || O->getInteger("version") != 2)
    return std::nullopt;
  const Array *Errors = O->getArray("errors"),
              *Functions = O->getArray("functions"),
              *Launches = O->getArray("launches");
  std::optional<int64_t> Nolint = O->getInteger("nolint"),
                         NonUser = O->getInteger("nonUser");
  if (!Errors || !Functions || !Launches || !Nolint || !NonUser)
    return std::nullopt;
  UnitResult U;
  U.SuppressedNolint = *Nolint;
  U.SuppressedNonUser = *NonUser;
  // Entries written before the key existed lack it: order unknown.
  U.FirstError = O->getInteger("firstError").value_or(-1);
  for (const json::Value &EV : *Errors) {
    const Object *EO = EV.getAsObject();
    if (!EO)
      return std::nullopt;
    std::optional<StringRef> Name = EO->getString("name"),
                             Dir = EO->getString("buildDir");
    std::optional<int64_t> Level = EO->getInteger("level");
    std::optional<bool> AsError = EO->getBoolean("warningAsError");
    const Array *Notes = EO->getArray("notes");
    if (!Name || !Dir || !Level || !AsError || !Notes)
      return std::nullopt;
    ClangTidyError E(*Name, ClangTidyError::Level(*Level), *Dir, *AsError);
    if (!messageFromJson(EO->get("message"), E.Message))
      return std::nullopt;
    for (const json::Value &N : *Notes) {
      DiagnosticMessage M;
      if (!messageFromJson(&N, M))
        return std::nullopt;
      E.Notes.push_back(std::move(M));
    }
    U.Errors.push_back(std::move(E));
  }
  for (const json::Value &FV : *Functions) {
    const Array *A = FV.getAsArray();
    if (!A || A->size() != 5)
      return std::nullopt;
    std::optional<StringRef> File = (*A)[0].getAsString(),
                             Name = (*A)[3].getAsString(),
                             Kernel = (*A)[4].getAsString();
    std::optional<int64_t> Begin = (*A)[1].getAsInteger(),
                           End = (*A)[2].getAsInteger();
    if (!File || !Name || !Kernel || !Begin || !End)
      return std::nullopt;
    U.Functions.push_back({File->str(), unsigned(*Begin), unsigned(*End),
                           Name->str(), Kernel->str()});
  }
  for (const json::Value &LV : *Launches) {
    const Array *A = LV.getAsArray();
    if (!A || A->size() != 2 || !(*A)[0].getAsString() ||
        !(*A)[1].getAsBoolean())
      return std::nullopt;
    U.Launches.push_back(
        {(*A)[0].getAsString()->str(), *(*A)[1].getAsBoolean()});
  }
  return U;
}

//===--- Storage ----------------------------------------------------------===//

std::string ResultCache::entryPath(StringRef Key) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Key.take_front(2), Key + ".json");
  return Path.str().str();
}

std::optional<json::Value> ResultCache::read(StringRef Key) {
  std::string Path = entryPath(Key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text)
    return std::nullopt;
  Expected<json::Value> Doc = json::parse((*Text)->getBuffer());
  if (!Doc) {
    consumeError(Doc.takeError());
    return std::nullopt;
  }
  // Recently used: the last to be evicted.
  int FD;
  if (!sys::fs::openFileForWrite(Path, FD, sys::fs::CD_OpenExisting,
                                 sys::fs::OF_Append)) {
    sys::fs::setLastAccessAndModificationTime(FD,
                                              std::chrono::system_clock::now());
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return std::move(*Doc);
}

bool ResultCache::write(StringRef Key, const json::Value &V) {
  std::string Path = entryPath(Key);
  StringRef Parent = sys::path::parent_path(Path);
  if (sys::fs::create_directories(Parent))
    return false;
  SmallString<256> Temp;
  int FD;
  if (sys::fs::createUniqueFile(Parent + "/.tmp-%%%%%%%%", FD, Temp))
    return false;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << V;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Temp);
      return false;
    }
  }
  if (sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return false;
  }
  return true;
}

std::optional<UnitResult> ResultCache::lookup(StringRef Key) {
  std::optional<json::Value> Doc = read(Key);
  return Doc ? unitResultFromJson(*Doc) : std::nullopt;
}

void ResultCache::store(StringRef Key, const UnitResult &U) {
  if (write(Key, toJson(U)))
    ++Stored;
}

std::optional<InputManifest> ResultCache::lookupManifest(StringRef Key) {
  std::optional<json::Value> Doc = read(Key);
  return Doc ? inputManifestFromJson(*Doc) : std::nullopt;
}

void ResultCache::storeManifest(StringRef Key, const InputManifest &M) {
  write(Key, toJson(M));
}

uint64_t ResultCache::trim() {
  struct Entry {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Time;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!StringRef(It->path()).ends_with(".json"))
      continue;
    sys::fs::file_status St;
    if (sys::fs::status(It->path(), St) ||
        St.type() != sys::fs::file_type::regular_file)
      continue;
    Entries.push_back({It->path(), St.getSize(), St.getLastModificationTime()});
    Total += St.getSize();
  }
  if (Total <= MaxBytes)
    return Total;
  std::sort(Entries.begin(), Entries.end(), [](const Entry &A, const Entry &B) {
    return std::tie(A.Time, A.Path) < std::tie(B.Time, B.Path);
  });
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes)
      break;
    if (!sys::fs::remove(E.Path)) {
      Total -= E.Size;
      ++Evicted;
    }
  }
  return Total;
}

Expected<uint64_t> parseCacheSize(StringRef Value) {
  StringRef Digits = Value.take_while(isDigit);
  StringRef Suffix = Value.drop_front(Digits.size());
  uint64_t N = 0;
  uint64_t Scale = StringSwitch<uint64_t>(Suffix.lower())
                       .Case("", 1)
                       .Case("k", 1ull << 10)
                       .Case("m", 1ull << 20)
                       .Case("g", 1ull << 30)
                       .Default(0);
  if (Digits.empty() || Digits.getAsInteger(10, N) || Scale == 0)
    return createStringError("--cache-size wants a number of bytes with an "
                             "optional K, M or G suffix (got '" +
                             Value.str() + "')");
  return N * Scale;
}

} // namespace warplint
