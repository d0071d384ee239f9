//===--- PostDominators.h - immediate post-dominators of a CFG --*- C++ -*-===//
//
// Control dependence needs each block's immediate post-dominator. LLVM's
// tree builder handles every graph (several exits, blocks that never reach
// the exit) at a cost of about a thousand instructions per block; a
// function whose blocks all reach the CFG's exit, nearly every one, has a
// single post-dominator tree, found here by the iterative algorithm of
// Cooper, Harvey and Kennedy in a few passes over the blocks. Any other
// function gets LLVM's tree, so the answers are the same either way.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_POSTDOMINATORS_H
#define WARP_LINT_ANALYSIS_POSTDOMINATORS_H

#include "clang/Analysis/CFG.h"
#include <vector>

namespace clang::warp {

class PostDominators {
public:
  /// Post-dominators over the edges of \p Cfg that can be taken (pruned
  /// edges are left out, as CFGPostDomTree leaves them out).
  explicit PostDominators(const CFG &Cfg);

  /// Whether \p B is in the post-dominator tree.
  bool contains(const CFGBlock *B) const { return In[B->getBlockID()]; }
  /// The immediate post-dominator of \p B; null for the exit and for a
  /// block whose only post-dominator is the tree's virtual root.
  const CFGBlock *immediate(const CFGBlock *B) const {
    return Immediate[B->getBlockID()];
  }

private:
  /// Fills Immediate when every block reaches the exit; false otherwise.
  bool solveWhenExitReachable(const CFG &Cfg);
  void takeFromLLVM(const CFG &Cfg);

  std::vector<const CFGBlock *> Immediate;
  std::vector<bool> In;
};

} // namespace clang::warp

#endif
