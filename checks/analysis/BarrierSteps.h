//===--- BarrierSteps.h - code between one barrier and the next -*- C++ -*-===//
//
// Since Volta the lanes of a warp are scheduled independently: two lanes
// are ordered only where both pass one barrier (__syncwarp(), a block
// barrier, a warp collective). Two points of a function may run at the same
// time in two lanes when one barrier, or the entry, reaches both with no
// other barrier on the way: they are in one *step*. A forward data flow over
// the CFG gives each point the barriers that may have been the last one
// before it (its origins); two points share a step when their origins meet.
//
// Inside a counted loop the same question is asked per iteration: whether
// two points share a step in one iteration (the loop's header starts each
// iteration), or the end of one iteration and the start of the next.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_BARRIERSTEPS_H
#define WARP_LINT_ANALYSIS_BARRIERSTEPS_H

#include "FunctionUniformity.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace clang::warp {

class BarrierSteps {
public:
  /// \p Orders says which CFG elements order the lanes that run them;
  /// \p RunsOnce which for-loops run at least once (a counted loop whose
  /// first test holds), so that no lane skips their body.
  BarrierSteps(const FunctionUniformity &FU,
               llvm::function_ref<bool(const Stmt *)> Orders,
               llvm::function_ref<bool(const ForStmt *)> RunsOnce);

  /// The CFG element that evaluates \p S: \p S or the nearest statement
  /// around it that is one; null when there is none (dead code).
  const Stmt *elementOf(const Stmt *S) const;
  /// Whether some path of the CFG leads from \p From to \p To (around
  /// loops too); with \p BarrierFree, one with no ordering element on the
  /// way.
  bool pathBetween(const Stmt *From, const Stmt *To, bool BarrierFree) const;
  /// Whether one of \p A and \p B leads to the other, and only through
  /// ordering elements, either way: then lanes never run them unordered,
  /// whatever the steps (which join a loop's iterations) say of them
  /// (`write; __syncthreads();` at the end of a loop's body and a read
  /// after the loop). Elements on two arms of a branch are not ordered.
  bool alwaysOrdered(const Stmt *A, const Stmt *B) const;
  /// Whether lanes may run the elements \p A and \p B in one step.
  bool mayShareStep(const Stmt *A, const Stmt *B) const;
  /// Whether \p A and \p B (inside \p Loop) may run in one step of one
  /// iteration.
  bool sameIteration(const ForStmt *Loop, const Stmt *A, const Stmt *B);
  /// Whether \p A, late in one iteration of \p Loop, and \p B, early in the
  /// next, may run in one step: no barrier from \p A to the end of the
  /// iteration, none from its start to \p B.
  bool nextIteration(const ForStmt *Loop, const Stmt *A, const Stmt *B);

private:
  struct Position {
    unsigned Block;
    unsigned Index;
  };
  std::optional<Position> positionOf(const Stmt *S) const;
  /// The barrier last before \p P in its block, as an origin, or -1.
  int barrierBefore(Position P) const;

  /// The blocks of one loop's body and their origins in one iteration.
  struct LoopSteps {
    unsigned Header = 0;
    /// By block id: in the body (the header excluded).
    std::vector<bool> InBody;
    std::vector<llvm::BitVector> In;
  };
  LoopSteps *loopSteps(const ForStmt *Loop);
  llvm::BitVector originsIn(const LoopSteps &L, Position P) const;
  bool inside(const CFGBlock &B, const Stmt *Loop) const;

  const FunctionUniformity &FU;
  /// By block id: the indices of its ordering elements and their origin
  /// numbers (1, 2, ...; 0 is the entry).
  std::vector<llvm::SmallVector<std::pair<unsigned, unsigned>, 1>> Barriers;
  unsigned Origins = 1;
  /// By block id: the origins that reach its start.
  std::vector<llvm::BitVector> In;
  llvm::DenseMap<const ForStmt *, std::unique_ptr<LoopSteps>> Loops;
};

} // namespace clang::warp

#endif
