//===--- MaskExcludesCallerCheck.h - warp-mask-excludes-caller --*- C++ -*-===//

#ifndef WARP_LINT_MASKEXCLUDESCALLERCHECK_H
#define WARP_LINT_MASKEXCLUDESCALLERCHECK_H

#include "WarpCheckBase.h"
#include "analysis/LaneSets.h"

namespace clang::tidy::warp {

/// Flags a warp collective executed by a lane that its member mask does not
/// name: a constant mask (or one computed from the lane id) narrower than
/// the lanes that reach the call, as branch conditions on lane ids show.
///
/// For the user-facing documentation see:
/// docs/checks/warp-mask-excludes-caller.md
class MaskExcludesCallerCheck : public WarpCheckBase {
public:
  MaskExcludesCallerCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;

private:
  /// The lanes that run \p Use although its mask leaves them out, in the
  /// first warp where some do; 0 when none provably does.
  LaneSet excludedCallers(const CollectiveUse &Use, LaneReach &Reach,
                          uint64_t &Warp, LaneSet &Mask, LaneSet &Arrive);
  void report(const CollectiveUse &Use, LaneSet Excluded, uint64_t Warp,
              bool Converged, const FunctionUniformity &FU, ASTContext &Ctx,
              LaneSet Mask, LaneSet Arrive);
};

} // namespace clang::tidy::warp

#endif
