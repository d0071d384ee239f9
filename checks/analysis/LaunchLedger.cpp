//===--- LaunchLedger.cpp - kernel launches across translation units ------===//

#include "LaunchLedger.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <atomic>

namespace clang::warp {

static std::atomic<LaunchLedger *> Installed{nullptr};

LaunchLedger *launchLedger() { return Installed.load(); }
void setLaunchLedger(LaunchLedger *Ledger) { Installed.store(Ledger); }

std::string usrOf(const FunctionDecl *FD) {
  llvm::SmallString<128> Usr;
  if (index::generateUSRForDecl(FD->getCanonicalDecl(), Usr))
    return {};
  return std::string(Usr);
}

std::string realFileOf(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getFileLoc(Loc);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(SM.getFileID(Loc));
  if (!Entry)
    return {};
  llvm::StringRef Real = Entry->getFileEntry().tryGetRealPathName();
  if (!Real.empty())
    return std::string(Real);
  llvm::SmallString<256> Path(Entry->getName());
  llvm::sys::fs::make_absolute(Path);
  return std::string(Path);
}

} // namespace clang::warp
