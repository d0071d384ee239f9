//===--- ShuffleSourceOutsideMaskCheck.h ------------------------*- C++ -*-===//
//
// warp-shuffle-source-outside-mask
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_SHUFFLESOURCEOUTSIDEMASKCHECK_H
#define WARP_LINT_SHUFFLESOURCEOUTSIDEMASKCHECK_H

#include "WarpCheckBase.h"
#include "analysis/LaneSets.h"

namespace clang::tidy::warp {

/// Flags a shuffle in which a lane named by the mask reads a source lane
/// (srcLane, lane - delta, lane + delta, lane ^ laneMask, within width) that
/// the mask does not name.
///
/// For the user-facing documentation see:
/// docs/checks/warp-shuffle-source-outside-mask.md
class ShuffleSourceOutsideMaskCheck : public WarpCheckBase {
public:
  ShuffleSourceOutsideMaskCheck(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;

private:
  /// Reports a full-mask shuffle (spelled \p Spelling, the intrinsic's
  /// name by default) whose lanes read lanes that have left.
  void checkExitedSources(const CollectiveUse &Use,
                          const FunctionUniformity &FU, WarpAnalysis &WA,
                          llvm::StringRef Spelling = "");
  /// Reports a call, made after some lanes left, of a helper whose
  /// full-mask shuffles read those lanes (`if (i >= n) return; v =
  /// warp_sum(v);`).
  void checkExitedSourcesInCallee(const CallExpr *Call,
                                  const FunctionUniformity &FU,
                                  WarpAnalysis &WA);
  /// Reports a broadcast from a constant lane with the ballot of a per-lane
  /// predicate as mask, run where that predicate holds (`m =
  /// __ballot_sync(~0, f[t]); if (f[t]) v = __shfl_sync(m, v, 0);`): the
  /// source lane is in the mask only where its own data says so.
  bool checkBallotBroadcast(const CollectiveUse &Use,
                            const FunctionUniformity &FU, WarpAnalysis &WA);
  /// The notes of a read of lanes that left: the operand, the witness, the
  /// lanes, the consequence for \p Readers and where the lanes leave.
  void noteExitedReads(SourceLocation Loc, const CollectiveUse &Shuffle,
                       const LaneWitness &W, LaneSet Readers,
                       const Divergence &D, ASTContext &Ctx);
};

} // namespace clang::tidy::warp

#endif
