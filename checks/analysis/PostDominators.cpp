//===--- PostDominators.cpp - immediate post-dominators of a CFG ----------===//

#include "PostDominators.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::warp {

PostDominators::PostDominators(const CFG &Cfg)
    : Immediate(Cfg.getNumBlockIDs(), nullptr), In(Cfg.getNumBlockIDs()) {
  if (!solveWhenExitReachable(Cfg))
    takeFromLLVM(Cfg);
}

bool PostDominators::solveWhenExitReachable(const CFG &Cfg) {
  const unsigned N = Cfg.getNumBlockIDs();
  const CFGBlock *Exit = &Cfg.getExit();
  // Post-order of the reverse graph: a depth-first walk from the exit along
  // the predecessor edges that can be taken.
  std::vector<int> PostNumber(N, -1);
  std::vector<const CFGBlock *> PostOrder;
  PostOrder.reserve(N);
  std::vector<bool> Visited(N);
  llvm::SmallVector<std::pair<const CFGBlock *, CFGBlock::const_pred_iterator>,
                    32>
      Stack;
  Visited[Exit->getBlockID()] = true;
  Stack.push_back({Exit, Exit->pred_begin()});
  while (!Stack.empty()) {
    auto &[B, It] = Stack.back();
    if (It == B->pred_end()) {
      PostNumber[B->getBlockID()] = PostOrder.size();
      PostOrder.push_back(B);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *P = (It++)->getReachableBlock();
    if (P && !Visited[P->getBlockID()]) {
      Visited[P->getBlockID()] = true;
      Stack.push_back({P, P->pred_begin()});
    }
  }
  // A block that never reaches the exit (an endless loop) makes the tree
  // LLVM's to define, with roots of its choosing.
  if (PostOrder.size() != Cfg.size())
    return false;

  const unsigned ExitId = Exit->getBlockID();
  Immediate[ExitId] = Exit; // the root, for the intersections below
  auto Intersect = [&](const CFGBlock *A, const CFGBlock *B) {
    while (A != B) {
      while (PostNumber[A->getBlockID()] < PostNumber[B->getBlockID()])
        A = Immediate[A->getBlockID()];
      while (PostNumber[B->getBlockID()] < PostNumber[A->getBlockID()])
        B = Immediate[B->getBlockID()];
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    // Reverse post-order, the exit (last in post-order) excluded.
    for (auto I = PostOrder.rbegin() + 1, E = PostOrder.rend(); I != E; ++I) {
      const CFGBlock *B = *I;
      const CFGBlock *New = nullptr;
      for (const CFGBlock::AdjacentBlock &S : B->succs()) {
        const CFGBlock *Succ = S.getReachableBlock();
        if (!Succ || !Immediate[Succ->getBlockID()])
          continue; // pruned, or not reached by this pass yet
        New = New ? Intersect(Succ, New) : Succ;
      }
      if (Immediate[B->getBlockID()] != New) {
        Immediate[B->getBlockID()] = New;
        Changed = true;
      }
    }
  }
  Immediate[ExitId] = nullptr;
  In.assign(N, true);
  return true;
}

void PostDominators::takeFromLLVM(const CFG &Cfg) {
  CFGPostDomTree Tree(const_cast<CFG *>(&Cfg));
  for (const CFGBlock *B : Cfg) {
    auto *Node = Tree.getBase().getNode(const_cast<CFGBlock *>(B));
    if (!Node)
      continue;
    In[B->getBlockID()] = true;
    if (auto *IDom = Node->getIDom())
      Immediate[B->getBlockID()] = IDom->getBlock();
  }
}

} // namespace clang::warp
