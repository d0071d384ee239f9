//===--- ReachingDefinitions.cpp - which assignments reach a use ----------===//

#include "ReachingDefinitions.h"
#include <algorithm>
#include <iterator>

namespace clang::warp {

ReachingDefinitions::ReachingDefinitions(const CFG &Cfg) : Cfg(Cfg) {}

void ReachingDefinitions::locateElements() {
  for (const CFGBlock *B : Cfg) {
    unsigned Index = 0;
    for (const CFGElement &E : *B) {
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        Positions.try_emplace(S->getStmt(), Position{B->getBlockID(), Index});
      ++Index;
    }
  }
}

/// Adds the sorted set \p From to the sorted set \p Into; returns whether it
/// grew.
static bool unite(ReachingDefinitions::DefSet &Into,
                  const ReachingDefinitions::DefSet &From) {
  if (std::includes(Into.begin(), Into.end(), From.begin(), From.end()))
    return false; // the usual case once a loop has been seen once
  ReachingDefinitions::DefSet Merged;
  std::set_union(Into.begin(), Into.end(), From.begin(), From.end(),
                 std::back_inserter(Merged));
  if (Merged.size() == Into.size())
    return false;
  Into = std::move(Merged);
  return true;
}

/// Passes \p Defs over definition \p Def: a killing definition replaces
/// them, a partial one joins them.
static void addDefinition(ReachingDefinitions::DefSet &Defs, unsigned Def,
                          bool Kills) {
  if (Kills) {
    Defs.assign(1, Def);
    return;
  }
  unite(Defs, ReachingDefinitions::DefSet{Def});
}

ReachingDefinitions::Solution
ReachingDefinitions::solve(llvm::ArrayRef<Definition> Defs) const {
  Solution S;
  S.In.assign(Cfg.getNumBlockIDs(), {});
  unsigned EntryID = Cfg.getEntry().getBlockID();
  for (unsigned I = 0; I < Defs.size(); ++I) {
    if (!Defs[I].At) {
      S.InBlock[EntryID].push_back({0, I, Defs[I].Kills});
      continue;
    }
    if (auto It = Positions.find(Defs[I].At); It != Positions.end())
      S.InBlock[It->second.Block].push_back(
          {It->second.Index, I, Defs[I].Kills});
  }
  for (auto &[Block, Local] : S.InBlock)
    llvm::stable_sort(Local, [](const LocalDef &A, const LocalDef &B) {
      return A.Element < B.Element;
    });

  // Worklist over blocks: a block sends out what reaches its entry, updated
  // by its own definitions in element order.
  std::vector<const CFGBlock *> Work(Cfg.begin(), Cfg.end());
  std::vector<bool> Queued(Cfg.getNumBlockIDs(), true);
  DefSet Out;
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    Queued[B->getBlockID()] = false;
    Out = S.In[B->getBlockID()];
    if (auto It = S.InBlock.find(B->getBlockID()); It != S.InBlock.end())
      for (const LocalDef &L : It->second)
        addDefinition(Out, L.Def, L.Kills);
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const CFGBlock *Next = Succ.getReachableBlock();
      if (!Next || !unite(S.In[Next->getBlockID()], Out) ||
          Queued[Next->getBlockID()])
        continue;
      Queued[Next->getBlockID()] = true;
      Work.push_back(Next);
    }
  }
  return S;
}

void ReachingDefinitions::define(const void *Var, const Stmt *At, bool Kills) {
  Defined[Var].push_back({At, Kills});
}

bool ReachingDefinitions::isElement(const Stmt *Use) {
  if (Positions.empty())
    locateElements();
  return Positions.count(Use);
}

ReachingDefinitions::DefSet ReachingDefinitions::reaching(const void *Var,
                                                          const Stmt *Use) {
  auto Defs = Defined.find(Var);
  if (Defs == Defined.end())
    return {};
  // The only definition reaches every use that reads a defined value.
  if (Defs->second.size() == 1)
    return {0};
  if (Positions.empty())
    locateElements();
  auto At = Positions.find(Use);
  if (At == Positions.end())
    return {};
  auto Found = Solved.find(Var);
  if (Found == Solved.end())
    Found = Solved.try_emplace(Var, solve(Defs->second)).first;
  const Solution &S = Found->second;
  DefSet Result = S.In[At->second.Block];
  // Definitions earlier in the use's own block.
  if (auto It = S.InBlock.find(At->second.Block); It != S.InBlock.end())
    for (const LocalDef &L : It->second)
      if (L.Element < At->second.Index)
        addDefinition(Result, L.Def, L.Kills);
  return Result;
}

} // namespace clang::warp
