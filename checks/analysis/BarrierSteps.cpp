//===--- BarrierSteps.cpp - code between one barrier and the next ---------===//

#include "BarrierSteps.h"

namespace clang::warp {

/// Whether \p S is in the body or the increment of \p For: an edge from
/// a block of such statements into the header is a back edge.
static bool inIteration(const Stmt *S, const ForStmt *For,
                        const FunctionUniformity &FU) {
  for (const Stmt *P = S; P; P = FU.parentOf(P))
    if (P == For->getBody() || P == For->getInc())
      return true;
  return false;
}

BarrierSteps::BarrierSteps(const FunctionUniformity &FU,
                           llvm::function_ref<bool(const Stmt *)> Orders,
                           llvm::function_ref<bool(const ForStmt *)> RunsOnce)
    : FU(FU) {
  const CFG &G = FU.cfg();
  unsigned N = G.getNumBlockIDs();
  Barriers.resize(N);
  std::vector<const Stmt *> Ordering;
  for (const CFGBlock *B : G) {
    unsigned I = 0;
    for (const CFGElement &E : *B) {
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        if (Orders(S->getStmt())) {
          Barriers[B->getBlockID()].push_back({I, Origins++});
          Ordering.push_back(S->getStmt());
        }
      ++I;
    }
  }
  // The headers of loops known to run at least once: lanes leave them only
  // after an iteration, with what the back edges bring. That differs from
  // what enters the header only where a barrier in the iteration cuts it
  // (an iteration without one hands back what entered), so only those
  // loops are asked about (counting a loop's iterations costs evaluations).
  std::vector<const ForStmt *> Counted(N, nullptr);
  for (const CFGBlock *B : G)
    if (const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt());
        For && B->succ_size() == 2 &&
        llvm::any_of(Ordering,
                     [&](const Stmt *S) { return inIteration(S, For, FU); }) &&
        RunsOnce(For))
      Counted[B->getBlockID()] = For;
  In.assign(N, llvm::BitVector(Origins));
  std::vector<llvm::BitVector> BackIn(N, llvm::BitVector(Origins));
  std::vector<bool> Seen(N);
  const CFGBlock &Entry = G.getEntry();
  In[Entry.getBlockID()].set(0);
  Seen[Entry.getBlockID()] = true;
  llvm::SmallVector<const CFGBlock *, 32> Work{&Entry};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    unsigned Id = B->getBlockID();
    llvm::BitVector Out(Origins);
    if (Barriers[Id].empty())
      Out = In[Id];
    else
      Out.set(Barriers[Id].back().second);
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      bool Exit = Index++ == 1 && Counted[Id];
      const CFGBlock *S = Succ.getReachableBlock();
      if (!S)
        continue;
      unsigned SId = S->getBlockID();
      const llvm::BitVector &Flow =
          Exit && Barriers[Id].empty() ? BackIn[Id] : Out;
      if (Counted[SId]) {
        const Stmt *Last = nullptr;
        for (const CFGElement &E : *B)
          if (std::optional<CFGStmt> St = E.getAs<CFGStmt>())
            Last = St->getStmt();
        if (!Last)
          Last = B->getTerminatorStmt();
        if (Last && inIteration(Last, Counted[SId], FU) &&
            Out.test(BackIn[SId])) {
          BackIn[SId] |= Out;
          Seen[SId] = false; // its exit edge has more to carry
        }
      }
      if (!Seen[SId] || Flow.test(In[SId])) {
        Seen[SId] = true;
        In[SId] |= Flow;
        Work.push_back(S);
      }
    }
  }
}

std::optional<BarrierSteps::Position>
BarrierSteps::positionOf(const Stmt *S) const {
  std::optional<ElementPositions::Position> P = FU.elements().find(S);
  if (!P)
    return std::nullopt;
  return Position{P->Block, P->Index};
}

const Stmt *BarrierSteps::elementOf(const Stmt *S) const {
  for (const Stmt *P = S; P; P = FU.parentOf(P))
    if (FU.elements().find(P))
      return P;
  return nullptr;
}

int BarrierSteps::barrierBefore(Position P) const {
  int Last = -1;
  for (auto [Index, Origin] : Barriers[P.Block])
    if (Index < P.Index)
      Last = int(Origin);
  return Last;
}

bool BarrierSteps::pathBetween(const Stmt *From, const Stmt *To,
                               bool BarrierFree) const {
  std::optional<Position> F = positionOf(From), T = positionOf(To);
  if (!F || !T)
    return true;
  auto Between = [&](unsigned Block, unsigned After, unsigned Before) {
    return llvm::any_of(Barriers[Block], [&](auto Barrier) {
      return Barrier.first > After && Barrier.first < Before;
    });
  };
  if (F->Block == T->Block && F->Index <= T->Index)
    return !BarrierFree || !Between(F->Block, F->Index, T->Index);
  // Out of From's block, then through blocks without a barrier to To's.
  constexpr unsigned End = ~0u;
  if (BarrierFree && Between(F->Block, F->Index, End))
    return false;
  const CFG &G = FU.cfg();
  std::vector<bool> Seen(G.getNumBlockIDs());
  std::vector<const CFGBlock *> Work;
  auto Successors = [&](const CFGBlock &B) {
    for (const CFGBlock::AdjacentBlock &Succ : B.succs())
      if (const CFGBlock *S = Succ.getReachableBlock();
          S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = true;
        Work.push_back(S);
      }
  };
  for (const CFGBlock *B : G)
    if (B->getBlockID() == F->Block)
      Successors(*B);
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    unsigned Id = B->getBlockID();
    if (Id == T->Block &&
        (!BarrierFree || llvm::none_of(Barriers[Id], [&](auto Barrier) {
          return Barrier.first < T->Index;
        })))
      return true;
    if (!BarrierFree || Barriers[Id].empty())
      Successors(*B);
  }
  return false;
}

bool BarrierSteps::alwaysOrdered(const Stmt *A, const Stmt *B) const {
  if (pathBetween(A, B, /*BarrierFree=*/true) ||
      pathBetween(B, A, /*BarrierFree=*/true))
    return false;
  return pathBetween(A, B, /*BarrierFree=*/false) ||
         pathBetween(B, A, /*BarrierFree=*/false);
}

bool BarrierSteps::mayShareStep(const Stmt *A, const Stmt *B) const {
  std::optional<Position> PA = positionOf(A), PB = positionOf(B);
  if (!PA || !PB)
    return false;
  int BA = barrierBefore(*PA), BB = barrierBefore(*PB);
  if (BA >= 0 && BB >= 0)
    return BA == BB;
  if (BA >= 0)
    return In[PB->Block].test(BA);
  if (BB >= 0)
    return In[PA->Block].test(BB);
  return In[PA->Block].anyCommon(In[PB->Block]);
}

bool BarrierSteps::inside(const CFGBlock &B, const Stmt *Loop) const {
  const Stmt *First = nullptr;
  for (const CFGElement &E : B)
    if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
      First = S->getStmt();
      break;
    }
  if (!First)
    First = B.getTerminatorStmt();
  if (!First)
    return true; // a block that only joins others
  for (const Stmt *P = First; P; P = FU.parentOf(P))
    if (P == Loop)
      return true;
  return false;
}

BarrierSteps::LoopSteps *BarrierSteps::loopSteps(const ForStmt *Loop) {
  auto [It, New] = Loops.try_emplace(Loop);
  if (!New)
    return It->second.get();
  const CFG &G = FU.cfg();
  const CFGBlock *Header = nullptr;
  for (const CFGBlock *B : G)
    if (B->getTerminatorStmt() == Loop)
      Header = B;
  if (!Header || Header->succ_empty() || !Header->succ_begin()->isReachable())
    return nullptr;
  auto L = std::make_unique<LoopSteps>();
  unsigned N = G.getNumBlockIDs();
  L->Header = Header->getBlockID();
  L->InBody.assign(N, false);
  L->In.assign(N, llvm::BitVector(Origins + 1));
  // One iteration: from the body's first block, not past the header.
  const CFGBlock *First = *Header->succ_begin();
  L->In[First->getBlockID()].set(Origins);
  L->InBody[First->getBlockID()] = true;
  llvm::SmallVector<const CFGBlock *, 16> Work{First};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    unsigned Id = B->getBlockID();
    llvm::BitVector Out(Origins + 1);
    if (Barriers[Id].empty())
      Out = L->In[Id];
    else
      Out.set(Barriers[Id].back().second);
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const CFGBlock *S = Succ.getReachableBlock();
      if (!S || S == Header)
        continue;
      unsigned SId = S->getBlockID();
      if (!L->InBody[SId] && !inside(*S, Loop))
        continue;
      if (!L->InBody[SId] || Out.test(L->In[SId])) {
        L->InBody[SId] = true;
        L->In[SId] |= Out;
        Work.push_back(S);
      }
    }
  }
  It->second = std::move(L);
  return It->second.get();
}

llvm::BitVector BarrierSteps::originsIn(const LoopSteps &L, Position P) const {
  llvm::BitVector Out(Origins + 1);
  if (int B = barrierBefore(P); B >= 0)
    Out.set(B);
  else if (P.Block == L.Header)
    Out.set(Origins);
  else if (L.InBody[P.Block])
    Out = L.In[P.Block];
  return Out;
}

bool BarrierSteps::sameIteration(const ForStmt *Loop, const Stmt *A,
                                 const Stmt *B) {
  LoopSteps *L = loopSteps(Loop);
  std::optional<Position> PA = positionOf(A), PB = positionOf(B);
  if (!L || !PA || !PB)
    return mayShareStep(A, B);
  return originsIn(*L, *PA).anyCommon(originsIn(*L, *PB));
}

bool BarrierSteps::nextIteration(const ForStmt *Loop, const Stmt *A,
                                 const Stmt *B) {
  LoopSteps *L = loopSteps(Loop);
  std::optional<Position> PA = positionOf(A), PB = positionOf(B);
  if (!L || !PA || !PB || !originsIn(*L, *PB).test(Origins))
    return false;
  if (!L->InBody[PA->Block])
    return false;
  for (auto [Index, Origin] : Barriers[PA->Block])
    if (Index > PA->Index)
      return false;
  // From A's block to the header through blocks with no barrier.
  const CFGBlock *From = FU.blockOf(A);
  if (!From)
    return false;
  std::vector<bool> Seen(FU.cfg().getNumBlockIDs());
  llvm::SmallVector<const CFGBlock *, 16> Work{From};
  Seen[From->getBlockID()] = true;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const CFGBlock *S = Succ.getReachableBlock();
      if (!S)
        continue;
      unsigned SId = S->getBlockID();
      if (SId == L->Header)
        return true;
      if (Seen[SId] || !L->InBody[SId] || !Barriers[SId].empty())
        continue;
      Seen[SId] = true;
      Work.push_back(S);
    }
  }
  return false;
}

} // namespace clang::warp
