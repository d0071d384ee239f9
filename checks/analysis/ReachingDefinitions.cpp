//===--- ReachingDefinitions.cpp - which assignments reach a use ----------===//

#include "ReachingDefinitions.h"
#include "llvm/ADT/STLExtras.h"
#include <cassert>
#include <tuple>

namespace clang::warp {

ReachingDefinitions::ReachingDefinitions(const CFG &Cfg,
                                         const ElementPositions &Elements)
    : Cfg(Cfg), Elements(Elements) {}

void ReachingDefinitions::define(const void *Var, const Stmt *At, bool Kills) {
  Variable &V = Defined[Var];
  assert(V.Solution < 0 && "a variable is defined after it was solved");
  V.Defs.push_back({At, Kills, {}});
  if (V.Defs.size() == 2)
    Pending.push_back(Var);
}

bool ReachingDefinitions::isElement(const Stmt *Use) {
  return Elements.find(Use).has_value();
}

void ReachingDefinitions::solvePending() {
  // Number the definitions of the pending variables, each variable's as one
  // run of bits, and place each in its block.
  struct Placed {
    Position Where;
    unsigned Bit;
    unsigned FirstBit, Count; ///< the bits of its variable
    bool Kills;
  };
  std::vector<Placed> Defs;
  unsigned Bits = 0;
  unsigned EntryID = Cfg.getEntry().getBlockID();
  for (const void *Key : Pending) {
    Variable &V = Defined[Key];
    V.Solution = Solved.size();
    V.FirstBit = Bits;
    for (unsigned I = 0; I < V.Defs.size(); ++I) {
      Definition &D = V.Defs[I];
      if (!D.At) {
        D.Where = {EntryID, 0};
        D.Placed = true;
      } else if (std::optional<Position> At = Elements.find(D.At)) {
        D.Where = *At;
        D.Placed = true;
      }
      if (D.Placed)
        Defs.push_back({D.Where, Bits + I, Bits,
                        static_cast<unsigned>(V.Defs.size()), D.Kills});
    }
    Bits += V.Defs.size();
  }
  Pending.clear();
  // A variable's bits grow in definition order: sorting by bit keeps the
  // order of definitions at one element.
  llvm::sort(Defs, [](const Placed &A, const Placed &B) {
    return std::tie(A.Where.Block, A.Where.Index, A.Bit) <
           std::tie(B.Where.Block, B.Where.Index, B.Bit);
  });

  // Each block's effect: what it generates, and the variables it kills.
  struct Effect {
    llvm::BitVector Gen, Kill;
  };
  std::vector<Effect> Effects;
  std::vector<int> EffectOf(Cfg.getNumBlockIDs(), -1);
  for (const Placed &D : Defs) {
    int &E = EffectOf[D.Where.Block];
    if (E < 0) {
      E = Effects.size();
      Effects.push_back({llvm::BitVector(Bits), llvm::BitVector(Bits)});
    }
    Effect &Ef = Effects[E];
    if (D.Kills) {
      Ef.Kill.set(D.FirstBit, D.FirstBit + D.Count);
      Ef.Gen.reset(D.FirstBit, D.FirstBit + D.Count);
    }
    Ef.Gen.set(D.Bit);
  }

  // Worklist over blocks: a block sends out what reaches its entry, less
  // what it kills, with what it generates.
  Solution &S = Solved.emplace_back();
  S.In.assign(Cfg.getNumBlockIDs(), llvm::BitVector(Bits));
  std::vector<const CFGBlock *> Work(Cfg.begin(), Cfg.end());
  std::vector<bool> Queued(Cfg.getNumBlockIDs(), true);
  llvm::BitVector Out;
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    Queued[B->getBlockID()] = false;
    Out = S.In[B->getBlockID()];
    if (int E = EffectOf[B->getBlockID()]; E >= 0) {
      Out.reset(Effects[E].Kill);
      Out |= Effects[E].Gen;
    }
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const CFGBlock *Next = Succ.getReachableBlock();
      if (!Next)
        continue;
      llvm::BitVector &In = S.In[Next->getBlockID()];
      if (!Out.test(In))
        continue; // nothing new reaches it
      In |= Out;
      if (!Queued[Next->getBlockID()]) {
        Queued[Next->getBlockID()] = true;
        Work.push_back(Next);
      }
    }
  }
}

/// Passes \p Defs over definition \p Def: a killing definition replaces
/// them, a partial one joins them.
static void addDefinition(ReachingDefinitions::DefSet &Defs, unsigned Def,
                          bool Kills) {
  if (Kills)
    Defs.assign(1, Def);
  else if (auto It = llvm::lower_bound(Defs, Def);
           It == Defs.end() || *It != Def)
    Defs.insert(It, Def);
}

ReachingDefinitions::DefSet ReachingDefinitions::reaching(const void *Var,
                                                          const Stmt *Use) {
  auto Found = Defined.find(Var);
  if (Found == Defined.end())
    return {};
  Variable &V = Found->second;
  // The only definition reaches every use that reads a defined value.
  if (V.Defs.size() == 1)
    return {0};
  std::optional<Position> At = Elements.find(Use);
  if (!At)
    return {};
  if (V.Solution < 0)
    solvePending();
  const llvm::BitVector &In = Solved[V.Solution].In[At->Block];
  DefSet Result;
  llvm::SmallVector<unsigned, 2> Earlier; // in the use's own block
  for (unsigned I = 0; I < V.Defs.size(); ++I) {
    if (In.test(V.FirstBit + I))
      Result.push_back(I);
    const Definition &D = V.Defs[I];
    if (D.Placed && D.Where.Block == At->Block && D.Where.Index < At->Index)
      Earlier.push_back(I);
  }
  // Definition order breaks ties: both write at one element.
  llvm::sort(Earlier, [&](unsigned A, unsigned B) {
    return std::tie(V.Defs[A].Where.Index, A) <
           std::tie(V.Defs[B].Where.Index, B);
  });
  for (unsigned I : Earlier)
    addDefinition(Result, I, V.Defs[I].Kills);
  return Result;
}

} // namespace clang::warp
