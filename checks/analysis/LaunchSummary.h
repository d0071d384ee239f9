//===--- LaunchSummary.h - a unit's kernel launches, for other units -*- C++
//-*-===//
//
// A kernel defined in a header is often launched only in another
// translation unit, where the analysis of the unit that defines it cannot
// see the launch. A front end that lints many units (the warp-lint CLI)
// collects each unit's summary of its launches, keyed by a name that is the
// same in every unit, and decides the findings that exist only because a
// unit saw no launch of its kernel once every unit has run. The analysis
// holds no channel to that front end: a finding says it depends on the
// launches through its note (NoLaunchSeen), and the front end finds the
// kernel by the note's place.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LAUNCHSUMMARY_H
#define WARP_LINT_ANALYSIS_LAUNCHSUMMARY_H

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

/// The words of the launch-shape note of a finding that holds only because
/// its unit launches its kernel nowhere.
inline constexpr llvm::StringLiteral NoLaunchSeen =
    "no launch of this kernel is seen";

/// What the launches of the unit of \p Ctx show, one entry per kernel.
std::vector<LedgerLaunch> summarizeLaunches(ASTContext &Ctx);

/// The name of kernel \p FD that is the same in every unit: the unified
/// symbol resolution of its template (a template's instances share it) or
/// of the function itself.
std::string kernelUsr(const FunctionDecl *FD);

} // namespace clang::warp

#endif
