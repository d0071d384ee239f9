//===--- LaunchLedger.h - kernel launches across translation units -*- C++
//-*-===//
//
// A kernel defined in a header is often launched only in another
// translation unit, where the analysis of the unit that defines it cannot
// see the launch. A front end that lints many units (the warp-lint CLI)
// installs a ledger: each unit reports what its launches show, and the
// findings that exist only because a unit saw no launch of its kernel, so
// that the front end can decide them once every unit has run.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LAUNCHLEDGER_H
#define WARP_LINT_ANALYSIS_LAUNCHLEDGER_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang::warp {

/// One unit's launches of one kernel: whether all of them are warp-aligned.
struct LedgerLaunch {
  std::string KernelUsr;
  bool WarpAligned = false;
};

class LaunchLedger {
public:
  virtual ~LaunchLedger() = default;
  /// The launches seen in the unit whose main file is \p File.
  virtual void unitLaunches(llvm::StringRef File,
                            const std::vector<LedgerLaunch> &Launches) = 0;
  /// A finding whose launch-shape note is at \p File : \p Offset exists only
  /// because its unit saw no launch of the kernel \p KernelUsr.
  virtual void launchDependent(llvm::StringRef File, unsigned Offset,
                               llvm::StringRef KernelUsr) = 0;
};

/// The ledger of this process, if a front end installed one.
LaunchLedger *launchLedger();
void setLaunchLedger(LaunchLedger *Ledger);

/// The unified symbol resolution of \p FD: the same in every unit.
std::string usrOf(const FunctionDecl *FD);

/// The absolute, symlink-free path of the file that \p Loc is in.
std::string realFileOf(SourceLocation Loc, const SourceManager &SM);

} // namespace clang::warp

#endif
