//===--- AbsentLanes.cpp - what lanes that do not arrive do ---------------===//

#include "AbsentLanes.h"
#include "WarpAnalysis.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::warp {

namespace {

/// Walks the CFG from a set of blocks, following the lanes of one warp
/// where they are known, and keeps the worst fate met.
class FateWalk {
public:
  FateWalk(const FunctionUniformity &FU, const Stmt *Point,
           const CollectiveUse *Use, std::optional<KnownLanes> Known,
           WarpAnalysis &WA, CallerFate Callers)
      : FU(FU), Point(Point), Use(Use), Known(Known), WA(WA), Callers(Callers) {
    if (Point)
      PointBlock = FU.blockOf(Point);
  }

  /// Visits \p B from its element \p From on, having met \p Matched
  /// collectives like the point's on the way.
  void push(const CFGBlock *B, unsigned From = 0, unsigned Matched = 0) {
    if (B && Seen.insert(B).second)
      Work.push_back({B, From, Matched});
  }

  /// The point is the \p N-th collective like it on its lanes' way from
  /// the branch: absent lanes pair up with it at their N-th.
  void pointOrdinal(unsigned N) { Ordinal = N; }

  Fate run() {
    while (!Work.empty()) {
      auto [B, From, Matched] = Work.pop_back_val();
      this->Matched = Matched;
      if (Known && Known->Reach &&
          !(Known->Reach->mayReachBlock(*B, Known->Warp) & Known->Lanes))
        continue;
      if (B == PointBlock && From == 0) {
        worse({AbsentFate::ComeBack, Point});
        continue;
      }
      if (!visit(*B, From))
        continue; // the lanes stop here (they wait, or pair up)
      if (B == &FU.cfg().getExit()) {
        atExit();
        continue;
      }
      for (const CFGBlock::AdjacentBlock &S : B->succs())
        push(S.getReachableBlock(), 0, this->Matched);
    }
    return Worst;
  }

private:
  void worse(Fate F) {
    if (F.F > Worst.F || (F.F == Worst.F && !Worst.Where))
      Worst = F;
  }

  /// Looks at the elements of \p B from \p From on; false when the lanes
  /// stop at one of them.
  bool visit(const CFGBlock &B, unsigned From) {
    unsigned Index = 0;
    for (const CFGElement &E : B) {
      if (Index++ < From)
        continue;
      std::optional<CFGStmt> S = E.getAs<CFGStmt>();
      if (!S)
        continue;
      if (std::optional<Fate> F = stopsAt(S->getStmt())) {
        worse(*F);
        return false;
      }
    }
    return true;
  }

  /// What lanes reaching \p St do there, if they stop at it.
  std::optional<Fate> stopsAt(const Stmt *St) {
    ASTContext &Ctx = WA.context();
    if (std::optional<CollectiveUse> Other = collectiveAt(St)) {
      if (!Use || !sameCollective(*Use, *Other, Ctx))
        return Fate{AbsentFate::WaitAtCollective, St};
      // Lanes at different calls of one collective meet call for call:
      // the point's N-th with their N-th; they pass the ones before.
      if (++Matched == Ordinal)
        return Fate{AbsentFate::PairsUp, St};
      if (Matched > Ordinal)
        return Fate{AbsentFate::WaitAtCollective, St};
      return std::nullopt;
    }
    const auto *Call = dyn_cast<CallExpr>(St);
    if (!Call)
      return std::nullopt;
    if (isBarrierName(calleeName(Call)))
      return Fate{AbsentFate::WaitAtBarrier, St};
    const FunctionDecl *Callee = calledDefinition(Call);
    if (!Callee || !WA.mayMatter(Callee))
      return std::nullopt;
    const FunctionSummary *S = WA.summary(Callee);
    if (!S || !S->Synchronizes)
      return std::nullopt;
    const auto *Inner = dyn_cast<CallExpr>(S->Synchronizes);
    bool Barrier = Inner && isBarrierName(calleeName(Inner));
    return Fate{
        Barrier ? AbsentFate::WaitAtBarrier : AbsentFate::WaitAtCollective, St};
  }

  void atExit() {
    const FunctionDecl *FD = FU.decl();
    if (FD->hasAttr<CUDAGlobalAttr>())
      return worse({AbsentFate::Exits, nullptr});
    if (std::optional<Fate> After = Callers(FD))
      return worse(*After);
    worse({AbsentFate::ReturnToCaller, nullptr});
  }

  const FunctionUniformity &FU;
  const Stmt *Point;
  const CFGBlock *PointBlock = nullptr;
  const CollectiveUse *Use;
  std::optional<KnownLanes> Known;
  WarpAnalysis &WA;
  CallerFate Callers;
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  struct Item {
    const CFGBlock *B;
    unsigned From, Matched;
  };
  llvm::SmallVector<Item, 16> Work;
  Fate Worst;
  unsigned Ordinal = 1, Matched = 0;
};

/// How many collectives like \p Use the lanes that reach \p Point from
/// the edge \p Edge of \p Branch run on the way, \p Point included (the
/// first path found).
unsigned ordinalOf(const FunctionUniformity &FU, const CFGBlock &Branch,
                   unsigned Edge, const Stmt *Point, const CollectiveUse &Use,
                   ASTContext &Ctx) {
  const CFGBlock *PointBlock = FU.blockOf(Point);
  const CFGBlock *Start = nullptr;
  unsigned I = 0;
  for (const CFGBlock::AdjacentBlock &S : Branch.succs())
    if (I++ == Edge)
      Start = S.getReachableBlock();
  struct Item {
    const CFGBlock *B;
    unsigned Count;
  };
  llvm::SmallVector<Item, 8> Work;
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  if (Start)
    Work.push_back({Start, 0});
  while (!Work.empty()) {
    auto [B, Count] = Work.pop_back_val();
    if (!Seen.insert(B).second)
      continue;
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
        std::optional<CollectiveUse> Other = collectiveAt(S->getStmt());
        if (Other && sameCollective(Use, *Other, Ctx))
          ++Count;
        if (S->getStmt() == Point)
          return std::max(Count, 1u);
      }
    if (B == PointBlock)
      return std::max(Count, 1u);
    for (const CFGBlock::AdjacentBlock &S : B->succs())
      if (const CFGBlock *N = S.getReachableBlock())
        Work.push_back({N, Count});
  }
  return 1;
}

} // namespace

bool sameCollective(const CollectiveUse &A, const CollectiveUse &B,
                    ASTContext &Ctx) {
  if (A.Info != B.Info)
    return false;
  std::optional<LaneSet> MA = constantMask(A, Ctx);
  std::optional<LaneSet> MB = constantMask(B, Ctx);
  return MA && MA == MB;
}

Fate fateOf(const FunctionUniformity &FU, const Stmt *Point,
            const Divergence &D, const CollectiveUse *Use,
            std::optional<KnownLanes> Known, WarpAnalysis &WA,
            CallerFate Callers) {
  FateWalk Walk(FU, Point, Use, Known, WA, Callers);
  // The lanes leave the way to the point at the other edges of the
  // branches that split them from it.
  for (const DivergentBranch &B : D.Branches) {
    const CFGBlock *Branch = FU.blockOf(B.Terminator);
    if (!Branch)
      continue;
    if (Use && &B == &D.Branches.front())
      Walk.pointOrdinal(
          ordinalOf(FU, *Branch, B.Edge, Point, *Use, WA.context()));
    unsigned I = 0;
    for (const CFGBlock::AdjacentBlock &S : Branch->succs())
      if (I++ != B.Edge)
        Walk.push(S.getReachableBlock());
  }
  return Walk.run();
}

Fate fateAfter(const FunctionUniformity &FU, const Stmt *After,
               WarpAnalysis &WA, CallerFate Callers) {
  FateWalk Walk(FU, nullptr, nullptr, std::nullopt, WA, Callers);
  std::optional<ElementPositions::Position> At = FU.elements().find(After);
  const CFGBlock *B = FU.blockOf(After);
  if (!B)
    return {AbsentFate::ReturnToCaller, nullptr};
  Walk.push(B, At && At->Block == B->getBlockID() ? At->Index + 1 : 0);
  return Walk.run();
}

std::string describeFate(const Fate &F, LaneSet Absent, ASTContext &Ctx) {
  bool One = llvm::popcount(Absent) == 1;
  std::string Who = Absent ? describeLanes(Absent)
                           : "the lanes that do not "
                             "arrive";
  auto Verb = [&](llvm::StringRef Plural, llvm::StringRef Singular) {
    return Who + " " + (One ? Singular : Plural).str();
  };
  switch (F.F) {
  case AbsentFate::Exits:
    return Verb("leave the kernel", "leaves the kernel");
  case AbsentFate::PairsUp:
    return Verb("run the same collective on their own path",
                "runs the same collective on its own path");
  case AbsentFate::ReturnToCaller:
    return Verb("return to callers this unit does not show, which may "
                "synchronize",
                "returns to callers this unit does not show, which may "
                "synchronize");
  case AbsentFate::ComeBack:
    return Verb("reach this collective again in a later iteration",
                "reaches this collective again in a later iteration");
  case AbsentFate::WaitAtCollective:
    return Verb("wait at another warp collective instead",
                "waits at another warp collective instead");
  case AbsentFate::WaitAtBarrier:
    return Verb("wait at a block barrier and the warp never meets",
                "waits at a block barrier and the warp never meets");
  }
  return Who;
}

} // namespace clang::warp
