//===--- CrossUnitLaunches.cpp - launches seen by the whole run -----------===//

#include "CrossUnitLaunches.h"
#include "FileWriting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warplint {

/// The file kept under a build dir.
static SmallString<256> ledgerPath(StringRef BuildDir) {
  SmallString<256> Path(BuildDir);
  sys::path::append(Path, ".warp-lint", "launches.json");
  return Path;
}

void CrossUnitLaunches::unitLaunches(
    StringRef File, const std::vector<clang::warp::LedgerLaunch> &L) {
  std::lock_guard<std::mutex> G(Lock);
  StringMap<bool> &Unit = Units[File.str()];
  Unit.clear();
  for (const clang::warp::LedgerLaunch &One : L)
    Unit[One.KernelUsr] = One.WarpAligned;
}

void CrossUnitLaunches::launchDependent(StringRef File, unsigned Offset,
                                        StringRef KernelUsr) {
  std::lock_guard<std::mutex> G(Lock);
  Dependent[{File.str(), Offset}] = KernelUsr.str();
}

bool CrossUnitLaunches::alignedEverywhere(StringRef KernelUsr) const {
  bool Seen = false;
  for (const auto &[File, Unit] : Units) {
    auto It = Unit.find(KernelUsr);
    if (It == Unit.end())
      continue;
    if (!It->second)
      return false;
    Seen = true;
  }
  return Seen;
}

/// The absolute, symlink-free form of \p Path, relative to \p Dir.
static std::string realPath(StringRef Path, StringRef Dir) {
  SmallString<256> Abs(Path);
  if (!sys::path::is_absolute(Abs) && !Dir.empty())
    sys::path::make_absolute(Dir, Abs);
  SmallString<256> Real;
  if (sys::fs::real_path(Abs, Real))
    return std::string(Abs);
  return std::string(Real);
}

bool CrossUnitLaunches::dependsOnLaunches(
    const clang::tidy::ClangTidyError &E) {
  std::lock_guard<std::mutex> G(Lock);
  return llvm::any_of(E.Notes, [&](const clang::tooling::DiagnosticMessage &N) {
    return Dependent.count(
               {realPath(N.FilePath, E.BuildDirectory), N.FileOffset}) != 0;
  });
}

unsigned CrossUnitLaunches::dropResolved(
    std::vector<clang::tidy::ClangTidyError> &Diagnostics) {
  std::lock_guard<std::mutex> G(Lock);
  if (Dependent.empty())
    return 0;
  auto Resolved = [&](const clang::tidy::ClangTidyError &E) {
    for (const clang::tooling::DiagnosticMessage &N : E.Notes) {
      auto It = Dependent.find(
          {realPath(N.FilePath, E.BuildDirectory), N.FileOffset});
      if (It != Dependent.end() && alignedEverywhere(It->second))
        return true;
    }
    return false;
  };
  size_t Before = Diagnostics.size();
  llvm::erase_if(Diagnostics, Resolved);
  return Before - Diagnostics.size();
}

void CrossUnitLaunches::load(StringRef BuildDir) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(ledgerPath(BuildDir));
  if (!Buffer)
    return;
  Expected<json::Value> Doc = json::parse((*Buffer)->getBuffer());
  if (!Doc) {
    consumeError(Doc.takeError());
    return;
  }
  const json::Object *Root = Doc->getAsObject();
  const json::Object *Saved = Root ? Root->getObject("units") : nullptr;
  if (!Saved)
    return;
  std::lock_guard<std::mutex> G(Lock);
  for (const auto &[File, Kernels] : *Saved)
    if (const json::Object *K = Kernels.getAsObject())
      for (const auto &[Usr, Aligned] : *K)
        if (std::optional<bool> B = Aligned.getAsBoolean())
          Units[File.str()][Usr.str()] = *B;
}

Error CrossUnitLaunches::save(StringRef BuildDir) const {
  json::Object Saved;
  {
    std::lock_guard<std::mutex> G(Lock);
    for (const auto &[File, Unit] : Units) {
      json::Object K;
      for (const auto &[Usr, Aligned] : Unit)
        K[Usr] = Aligned;
      Saved[File] = std::move(K);
    }
  }
  SmallString<256> Path = ledgerPath(BuildDir);
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return createStringError(EC, "cannot create %s: %s",
                             sys::path::parent_path(Path).str().c_str(),
                             EC.message().c_str());
  json::Object Root{{"version", 1}, {"units", std::move(Saved)}};
  std::string Text;
  raw_string_ostream OS(Text);
  OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
  return writeFile(Path, Text);
}

} // namespace warplint
