//===--- AbsentLanes.h - what lanes that do not arrive do -------*- C++ -*-===//
//
// CUDA's rule for a warp collective on Volta and later: it waits for the
// non-exited lanes its mask names. Whether a lane that does not arrive is a
// bug depends on what it does instead:
//  - it leaves the kernel, or every path it can still take leaves it with
//    no barrier and no warp collective on the way: it is as good as exited,
//    and the collective waits only for it to be gone;
//  - it runs the same collective with the same mask on its own path (the
//    Programming Guide's if/else example): legal since Volta;
//  - it waits at __syncthreads() (or another block barrier) or at another
//    collective, returns into a caller that may, or comes back to this one
//    in a later iteration: live and absent, the bug (a hang at a barrier).
// fateOf walks the CFG from where those lanes leave the way to the point,
// keeping, where the lanes are known one by one, only the blocks they can
// reach.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_ABSENTLANES_H
#define WARP_LINT_ANALYSIS_ABSENTLANES_H

#include "LaneSets.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::warp {

class WarpAnalysis;

/// What lanes that do not reach a collective do next, mildest first.
enum class AbsentFate : uint8_t {
  Exits,            ///< leave the kernel with nothing that waits on the way
  PairsUp,          ///< run the same collective with the same mask instead
  ReturnToCaller,   ///< leave a device function whose callers are not known
  ComeBack,         ///< reach this collective again later (a loop)
  WaitAtCollective, ///< reach another warp collective
  WaitAtBarrier     ///< reach __syncthreads() or another block barrier
};

struct Fate {
  AbsentFate F = AbsentFate::Exits;
  /// Where they wait (a barrier, a collective, or the call that runs one);
  /// null for Exits and ReturnToCaller.
  const Stmt *Where = nullptr;

  /// Whether they are live and absent: the collective's mask names lanes
  /// that are not there.
  bool isBug() const {
    return F != AbsentFate::Exits && F != AbsentFate::PairsUp;
  }
};

/// The lanes to follow, where known: \p Lanes of warp \p Warp, pruned with
/// \p Reach's lane sets (the evaluator's block and bindings as they are).
struct KnownLanes {
  LaneReach *Reach = nullptr;
  uint64_t Warp = 0;
  LaneSet Lanes = 0;
};

/// What the callers of a function do after it returns, for ReturnToCaller:
/// the fate of lanes that come back from \p FD, or nullopt when its
/// callers are not known.
using CallerFate =
    llvm::function_ref<std::optional<Fate>(const FunctionDecl *)>;

/// What lanes that leave the way to \p Point at the branches of \p D do
/// instead (the worst of what they can reach). \p Use is the collective at
/// \p Point (null for a call that runs one: nothing then pairs up with it).
/// \p Known prunes the walk to the blocks those lanes can reach.
Fate fateOf(const FunctionUniformity &FU, const Stmt *Point,
            const Divergence &D, const CollectiveUse *Use,
            std::optional<KnownLanes> Known, WarpAnalysis &WA,
            CallerFate Callers);

/// Whether \p A and \p B are the same collective with the same constant
/// mask: lanes at one and at the other meet (since Volta).
bool sameCollective(const CollectiveUse &A, const CollectiveUse &B,
                    ASTContext &Ctx);

/// What lanes do from \p After on (a call they returned from, in \p FU):
/// the fate of lanes that continue past it.
Fate fateAfter(const FunctionUniformity &FU, const Stmt *After,
               WarpAnalysis &WA, CallerFate Callers);

/// "lanes 16..31 wait at '__syncthreads()'", for the consequence note.
std::string describeFate(const Fate &F, LaneSet Absent, ASTContext &Ctx);

} // namespace clang::warp

#endif
