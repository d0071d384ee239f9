//===--- CrossUnitLaunches.cpp - launches seen by the whole run -----------===//

#include "CrossUnitLaunches.h"
#include "FileWriting.h"
#include "clang/AST/ASTConsumer.h"
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

namespace {

class LaunchCollector : public clang::ASTConsumer {
public:
  explicit LaunchCollector(std::vector<clang::warp::LedgerLaunch> &Out)
      : Out(Out) {}
  /// A file with several compile commands is one unit: a kernel's
  /// launches are aligned if they are in every pass.
  void HandleTranslationUnit(clang::ASTContext &Context) override {
    for (clang::warp::LedgerLaunch &L :
         clang::warp::summarizeLaunches(Context)) {
      auto Same = llvm::find_if(Out, [&](const clang::warp::LedgerLaunch &O) {
        return O.KernelUsr == L.KernelUsr;
      });
      if (Same == Out.end())
        Out.push_back(std::move(L));
      else
        Same->WarpAligned = Same->WarpAligned && L.WarpAligned;
    }
  }

private:
  std::vector<clang::warp::LedgerLaunch> &Out;
};

} // namespace

std::unique_ptr<clang::ASTConsumer>
makeLaunchCollector(std::vector<clang::warp::LedgerLaunch> &Out) {
  return std::make_unique<LaunchCollector>(Out);
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

void CrossUnitLaunches::addUnit(const UnitResult &R) {
  std::vector<FunctionRange> KernelRanges;
  for (const FunctionRange &F : R.Functions)
    if (!F.KernelUsr.empty()) {
      KernelRanges.push_back(F);
      KernelRanges.back().File = realPath(F.File, "");
    }
  std::lock_guard<std::mutex> G(Lock);
  StringMap<bool> &Unit = Units[realPath(R.File, "")];
  Unit.clear();
  for (const clang::warp::LedgerLaunch &One : R.Launches)
    Unit[One.KernelUsr] = One.WarpAligned;
  Kernels.add(KernelRanges);
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

std::string
CrossUnitLaunches::dependentKernel(const clang::tidy::ClangTidyError &E) const {
  for (const clang::tooling::DiagnosticMessage &N : E.Notes)
    if (StringRef(N.Message).contains(clang::warp::NoLaunchSeen))
      if (const FunctionRange *K = Kernels.innermost(
              realPath(N.FilePath, E.BuildDirectory), N.FileOffset))
        return K->KernelUsr;
  return "";
}

bool CrossUnitLaunches::dependsOnLaunches(
    const clang::tidy::ClangTidyError &E) const {
  std::lock_guard<std::mutex> G(Lock);
  return !dependentKernel(E).empty();
}

unsigned CrossUnitLaunches::dropResolved(
    std::vector<clang::tidy::ClangTidyError> &Diagnostics) {
  std::lock_guard<std::mutex> G(Lock);
  size_t Before = Diagnostics.size();
  llvm::erase_if(Diagnostics, [&](const clang::tidy::ClangTidyError &E) {
    std::string Kernel = dependentKernel(E);
    return !Kernel.empty() && alignedEverywhere(Kernel);
  });
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
