//===--- FunctionUniformity.cpp - warp uniformity of one function ---------===//

#include "FunctionUniformity.h"
#include "IntegerOps.h"
#include "PostDominators.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::warp {

/// Bounds the value/divergence fixpoint; each round only moves values up a
/// finite lattice, so this is never reached in practice.
static constexpr unsigned MaxRounds = 32;

bool Divergence::hasDataBranch() const {
  return llvm::any_of(Branches, [](const DivergentBranch &B) {
    return B.Value.V == Variance::Data;
  });
}

bool Divergence::onlyByLaunchShape() const {
  return isDiverged() && llvm::all_of(Branches, [](const DivergentBranch &B) {
           return B.Value.LaunchShape;
         });
}

WarpValue Divergence::asValue(const Stmt *Site) const {
  WarpValue V;
  for (const DivergentBranch &B : Branches)
    V = WarpValue::combine(V, WarpValue::derived(B.Value.V, B.Value, Site));
  return V;
}

Variance Divergence::strongest() const {
  Variance V = Variance::Uniform;
  for (const DivergentBranch &B : Branches)
    V = std::max(V, B.Value.V);
  return V;
}

static std::unique_ptr<CFG> buildCFG(const FunctionDecl *FD, ASTContext &Ctx) {
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  Options.AddCXXDefaultInitExprInCtors = true;
  Options.AddLifetime = false;
  return CFG::buildCFG(FD, FD->getBody(), &Ctx, Options);
}

/// Returns the reachable blocks of \p Cfg in reverse post-order (CFG edges
/// to pruned, unreachable blocks are null and skipped).
static std::vector<const CFGBlock *> reversePostOrder(const CFG &Cfg) {
  std::vector<const CFGBlock *> Post;
  std::vector<bool> Seen(Cfg.getNumBlockIDs());
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
  const CFGBlock *Entry = &Cfg.getEntry();
  Seen[Entry->getBlockID()] = true;
  Stack.push_back({Entry, Entry->succ_begin()});
  while (!Stack.empty()) {
    auto &[B, It] = Stack.back();
    if (It == B->succ_end()) {
      Post.push_back(B);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Next = It->getReachableBlock();
    ++It;
    if (Next && !Seen[Next->getBlockID()]) {
      Seen[Next->getBlockID()] = true;
      Stack.push_back({Next, Next->succ_begin()});
    }
  }
  return {Post.rbegin(), Post.rend()};
}

/// Returns, by block id, the strongly connected component of each block
/// (Tarjan): two blocks share one when each can reach the other, i.e. they
/// lie on a common cycle.
static std::vector<unsigned> cycleIds(const CFG &Cfg) {
  unsigned N = Cfg.getNumBlockIDs();
  std::vector<unsigned> Index(N, ~0u), Low(N, 0), Component(N, ~0u);
  std::vector<bool> OnStack(N, false);
  std::vector<unsigned> Stack;
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Work;
  unsigned Next = 0, Components = 0;
  for (const CFGBlock *Root : Cfg) {
    if (Index[Root->getBlockID()] != ~0u)
      continue;
    auto Visit = [&](const CFGBlock *B) {
      unsigned Id = B->getBlockID();
      Index[Id] = Low[Id] = Next++;
      Stack.push_back(Id);
      OnStack[Id] = true;
      Work.push_back({B, B->succ_begin()});
    };
    Visit(Root);
    while (!Work.empty()) {
      auto &[B, It] = Work.back();
      unsigned Id = B->getBlockID();
      if (It != B->succ_end()) {
        const CFGBlock *S = It->getReachableBlock();
        ++It;
        if (!S)
          continue;
        unsigned SId = S->getBlockID();
        if (Index[SId] == ~0u)
          Visit(S);
        else if (OnStack[SId])
          Low[Id] = std::min(Low[Id], Index[SId]);
        continue;
      }
      if (Low[Id] == Index[Id]) {
        unsigned Member;
        do {
          Member = Stack.back();
          Stack.pop_back();
          OnStack[Member] = false;
          Component[Member] = Components;
        } while (Member != Id);
        ++Components;
      }
      Work.pop_back();
      if (!Work.empty()) {
        unsigned Parent = Work.back().first->getBlockID();
        Low[Parent] = std::min(Low[Parent], Low[Id]);
      }
    }
  }
  return Component;
}

/// Returns whether lanes entering \p B can only end the thread (assert,
/// __trap): such a branch never leaves a diverged warp behind.
static bool isAbortBlock(const CFGBlock *B) {
  return B && B->hasNoReturnElement();
}

/// Returns the successors of \p B that lanes can survive through.
static unsigned liveSuccessors(const CFGBlock *B) {
  unsigned N = 0;
  for (const CFGBlock::AdjacentBlock &S : B->succs())
    if (S.getReachableBlock() && !isAbortBlock(S.getReachableBlock()))
      ++N;
  return N;
}

FunctionUniformity::FunctionUniformity(const FunctionDecl *FD, ASTContext &Ctx,
                                       const UniformityOptions &Opts,
                                       ValueOracle &Oracle,
                                       std::vector<WarpValue> Entry)
    : FD(FD), Ctx(Ctx), Oracle(Oracle), Entry(std::move(Entry)) {
  if (!FD->getBody())
    return;
  Cfg = buildCFG(FD, Ctx);
  if (!Cfg)
    return;
  indexBlocks();
  Defs = std::make_unique<LocalDefinitions>(FD, *Cfg, *Elements);
  Butterflies = findButterflyLoops(*Cfg, Ctx);
  DefValues.assign(Defs->all().size(), std::nullopt);
  for (unsigned I = 0; I < DefValues.size(); ++I)
    if (Defs->all()[I].K == LocalDefinitions::Kind::Entry)
      DefValues[I] = entryValue(Defs->all()[I].Var);
  Eval = std::make_unique<ValueEvaluator>(
      Ctx, FD, Opts, static_cast<LocalValues &>(*this), Oracle);
  Oracle.analysing(FD, &Vars);
  computeControlDependence();
  // Reverse post-order visits definitions before their uses (loop bodies
  // after loop initialisers), so first values are not polluted by reads of
  // not-yet-assigned variables.
  Order = reversePostOrder(*Cfg);
  OrderIndex.assign(Cfg->getNumBlockIDs(), ~0u);
  for (unsigned I = 0; I < Order.size(); ++I)
    OrderIndex[Order[I]->getBlockID()] = I;
  Indexed.assign(Cfg->getNumBlockIDs(), false);
  Cycles = cycleIds(*Cfg);
  ControllerCache.assign(Cfg->getNumBlockIDs(), std::nullopt);
  BranchValues.assign(Cfg->getNumBlockIDs(), WarpValue::uniform());
  BranchSeen.assign(Cfg->getNumBlockIDs(), false);
  // A sweep visits only the statements that define locals and the
  // branches lanes can split at.
  for (const CFGBlock *B : Order) {
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        if (!Defs->at(S->getStmt()).empty())
          Steps.push_back({B, S->getStmt()});
    if (liveSuccessors(B) >= 2)
      Steps.push_back({B, nullptr});
  }
  Items.assign(DefValues.size() + Cfg->getNumBlockIDs(), {});
  ChangedAt.assign(Items.size(), 0);
  for (unsigned Round = 0; Round < MaxRounds; ++Round)
    if (!sweep())
      break;
  // Branches no path reaches still answer divergenceAt for their blocks.
  for (const CFGBlock *B : *Cfg)
    if (OrderIndex[B->getBlockID()] == ~0u)
      updateBranchValue(B);
  // The fixpoint's bookkeeping is done with; the analysis may live as long
  // as its unit, and template-heavy units make tens of thousands.
  Steps = {};
  Items = {};
  ChangedAt = {};
  forgetExpressionValues();
}

FunctionUniformity::~FunctionUniformity() = default;

void FunctionUniformity::computeControlDependence() {
  Deps.assign(Cfg->getNumBlockIDs(), {});
  // Straight-line code (most small helpers) has no branch to depend on.
  if (llvm::none_of(*Cfg,
                    [](const CFGBlock *B) { return liveSuccessors(B) > 1; }))
    return;
  PostDominators PostDom(*Cfg);
  for (const CFGBlock *X : *Cfg) {
    if (liveSuccessors(X) < 2 || !PostDom.contains(X))
      continue;
    const CFGBlock *IPDom = PostDom.immediate(X);
    unsigned Edge = 0;
    for (auto I = X->succ_begin(), E = X->succ_end(); I != E; ++I, ++Edge) {
      const CFGBlock *S = I->getReachableBlock();
      if (!S || isAbortBlock(S))
        continue;
      // Blocks on the post-dominator path from S up to ipdom(X) run only
      // when the branch takes this edge.
      for (const CFGBlock *R = S; R && R != IPDom;) {
        auto &List = Deps[R->getBlockID()];
        if (List.empty() || List.back().Branch != X || List.back().Edge != Edge)
          List.push_back({X, Edge});
        if (!PostDom.contains(R))
          break;
        R = PostDom.immediate(R);
      }
    }
  }
}

void FunctionUniformity::collectControllers(
    const CFGBlock *B, llvm::SmallVectorImpl<Controller> &Out) const {
  llvm::SmallVector<const CFGBlock *, 8> Work{B};
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen{B};
  while (!Work.empty()) {
    const CFGBlock *Cur = Work.pop_back_val();
    for (const Controller &C : Deps[Cur->getBlockID()]) {
      Out.push_back(C);
      if (Seen.insert(C.Branch).second)
        Work.push_back(C.Branch);
    }
  }
}

bool FunctionUniformity::controls(const CFGBlock *Branch,
                                  const CFGBlock *B) const {
  llvm::SmallVector<Controller, 8> Cs;
  collectControllers(B, Cs);
  for (const Controller &C : Cs)
    if (C.Branch == Branch)
      return true;
  return false;
}

WarpValue FunctionUniformity::branchValue(const CFGBlock *B) {
  // `for (x : local_array)` runs the array's constant length in every lane,
  // although its iterators are addresses of each lane's own copy.
  if (const auto *For =
          dyn_cast_or_null<CXXForRangeStmt>(B->getTerminatorStmt()))
    if (const Expr *Range = For->getRangeInit();
        Range && !Range->isTypeDependent() &&
        isa<ConstantArrayType>(Range->getType()
                                   .getNonReferenceType()
                                   ->getUnqualifiedDesugaredType()))
      return WarpValue::uniform();
  const Stmt *Cond = B->getTerminatorCondition();
  if (const auto *E = dyn_cast_or_null<Expr>(Cond))
    return Eval->eval(E);
  return WarpValue::uniform();
}

bool FunctionUniformity::needsUpdate(unsigned Item) const {
  const ItemState &S = Items[Item];
  if (!S.EvaluatedAt || S.Volatile)
    return true;
  return llvm::any_of(S.Reads,
                      [&](unsigned R) { return ChangedAt[R] > S.EvaluatedAt; });
}

template <typename Fn>
auto FunctionUniformity::evaluate(unsigned Item, Fn Compute) {
  ItemState &S = Items[Item];
  S.Reads.clear();
  S.EvaluatedAt = ++Stamp;
  unsigned UnfinishedBefore = Oracle.unfinishedReads();
  // Memoised values are only reused within one item, so that every read
  // behind its value is noted as its own.
  Eval->reset();
  Reader = &S;
  auto Result = Compute();
  Reader = nullptr;
  // Read through a lambda from variables still being computed (this
  // function's own captures): not noted as reads, so always re-evaluated.
  if (Oracle.unfinishedReads() != UnfinishedBefore)
    S.Volatile = true;
  return Result;
}

void FunctionUniformity::noteRead(unsigned Item) {
  if (Reader && (Reader->Reads.empty() || Reader->Reads.back() != Item))
    Reader->Reads.push_back(Item);
}

bool FunctionUniformity::updateBranchValue(const CFGBlock *B) {
  unsigned Item = branchItem(B->getBlockID());
  if (liveSuccessors(B) < 2 || !needsUpdate(Item))
    return false;
  WarpValue Value = evaluate(Item, [&] { return branchValue(B); });
  WarpValue &Old = BranchValues[B->getBlockID()];
  WarpValue New =
      BranchSeen[B->getBlockID()] ? WarpValue::join(Old, Value) : Value;
  BranchSeen[B->getBlockID()] = true;
  if (New == Old)
    return false;
  Old = New;
  changed(Item);
  return true;
}

bool FunctionUniformity::assign(const VarDecl *VD, const WarpValue &Value,
                                const CFGBlock *At) {
  WarpValue V = Value;
  // Sync divergence: lanes that took different paths leave different values
  // in a variable that outlives the divergent region.
  llvm::SmallVector<Controller, 8> Cs;
  collectControllers(At, Cs);
  const CFGBlock *Decl = DeclBlock.lookup(VD);
  for (const Controller &C : Cs) {
    noteRead(branchItem(C.Branch->getBlockID()));
    const WarpValue &Cond = BranchValues[C.Branch->getBlockID()];
    if (Cond.isUniform() && !Cond.Params)
      continue;
    if (Decl && (Decl == C.Branch ? false : controls(C.Branch, Decl)))
      continue;
    if (Cond.isVarying())
      V = WarpValue::splitBy(V, Cond, C.Branch->getTerminatorStmt());
    else
      V.Params |= Cond.Params;
  }
  auto [It, Inserted] = Vars.try_emplace(VD, V);
  if (Inserted)
    return true;
  WarpValue Joined = WarpValue::join(It->second, V);
  if (Joined == It->second)
    return false;
  It->second = Joined;
  return true;
}

/// Returns the value an inline-asm statement writes to its outputs.
static WarpValue asmOutputValue(const GCCAsmStmt *Asm, ValueEvaluator &Eval) {
  std::string AsmText = Asm->getAsmString();
  StringRef Text = AsmText;
  if (std::optional<IntrinsicValue> K = lookupSpecialRegister(Text))
    return Eval.intrinsic(*K, Asm, {});
  if (Text.contains("shfl.sync") || Text.contains("atom.") ||
      Text.contains("match.any"))
    return WarpValue::varying(Variance::Data, Asm);
  WarpValue V;
  for (const Expr *In : Asm->inputs())
    V = WarpValue::combine(V, Eval.eval(In));
  if (V.isVarying())
    V.V = Variance::Data;
  return V;
}

WarpValue FunctionUniformity::asmValue(const GCCAsmStmt *Asm) const {
  return Eval ? asmOutputValue(Asm, *Eval)
              : WarpValue::varying(Variance::Data, Asm);
}

WarpValue FunctionUniformity::entryValue(const VarDecl *VD) const {
  const auto *P = dyn_cast<ParmVarDecl>(VD);
  if (!P || FD->hasAttr<CUDAGlobalAttr>())
    return WarpValue::uniform(); // kernel arguments are the same everywhere
  unsigned Index = P->getFunctionScopeIndex();
  if (Index < Entry.size())
    return Entry[Index];
  return WarpValue::param(Index);
}

std::optional<WarpValue>
FunctionUniformity::definedValue(const LocalDefinitions::Definition &D) {
  using Kind = LocalDefinitions::Kind;
  switch (D.K) {
  case Kind::Entry:
    return entryValue(D.Var);
  case Kind::Init:
    if (!D.Var->getInit())
      return std::nullopt; // no value yet
    return Eval->eval(D.Var->getInit());
  case Kind::Assign:
  case Kind::IncDec:
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(D.Site)) {
      // Record assignment: the right-hand side, plus the old value when
      // compound; `++` keeps the variance and loses the shape.
      WarpValue Old = Eval->eval(Op->getArg(0));
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        return Eval->eval(Op->getArg(1));
      WarpValue V = WarpValue::combine(Old, WarpValue::uniform());
      for (unsigned I = 1; I < Op->getNumArgs(); ++I)
        V = WarpValue::combine(V, Eval->eval(Op->getArg(I)));
      return V;
    }
    return Eval->eval(cast<Expr>(D.Site));
  case Kind::AsmOutput:
    return asmValue(cast<GCCAsmStmt>(D.Site));
  case Kind::CallOut:
    // Written by the callee: what its summary says it writes there (per-lane
    // data when it has no body); nothing when it never writes there.
    return Eval->writtenThrough(cast<CallExpr>(D.Site), D.Arg);
  }
  return WarpValue::uniform();
}

bool FunctionUniformity::transfer(const Stmt *S, const CFGBlock *B) {
  bool Changed = false;
  for (unsigned I : Defs->at(S)) {
    const LocalDefinitions::Definition &D = Defs->all()[I];
    if (D.K == LocalDefinitions::Kind::Init)
      DeclBlock.try_emplace(D.Var, B);
    if (!needsUpdate(I))
      continue;
    bool Assigned = false;
    std::optional<WarpValue> V = evaluate(I, [&] {
      std::optional<WarpValue> V = definedValue(D);
      // Within the item: the branches that split the assignment are reads.
      if (V)
        Assigned = assign(D.Var, *V, B);
      return V;
    });
    Changed |= Assigned;
    if (!V)
      continue;
    std::optional<WarpValue> New =
        DefValues[I] ? WarpValue::join(*DefValues[I], *V) : *V;
    if (New == DefValues[I])
      continue;
    DefValues[I] = New;
    changed(I);
    Changed = true;
  }
  return Changed;
}

llvm::ArrayRef<std::pair<unsigned, unsigned>>
FunctionUniformity::controllersOf(const CFGBlock *B) {
  auto &Slot = ControllerCache[B->getBlockID()];
  if (!Slot) {
    llvm::SmallVector<Controller, 8> Cs;
    collectControllers(B, Cs);
    Slot.emplace();
    for (const Controller &C : Cs)
      Slot->push_back({C.Branch->getBlockID(), C.Edge});
    llvm::sort(*Slot);
    Slot->erase(std::unique(Slot->begin(), Slot->end()), Slot->end());
  }
  return *Slot;
}

unsigned FunctionUniformity::elementIndex(const CFGBlock *B, const Stmt *S) {
  if (std::optional<ElementPositions::Position> P = Elements->find(S);
      P && P->Block == B->getBlockID())
    return P->Index;
  // Listed again in a later block (the first place is another block's).
  if (!Indexed[B->getBlockID()]) {
    Indexed[B->getBlockID()] = true;
    unsigned I = 0;
    for (const CFGElement &E : *B) {
      if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
        ElementIndex.try_emplace({B->getBlockID(), CS->getStmt()}, I);
      ++I;
    }
  }
  auto It = ElementIndex.find({B->getBlockID(), S});
  return It == ElementIndex.end() ? ~0u : It->second;
}

WarpValue FunctionUniformity::seenAt(WarpValue V, const Stmt *Site,
                                     const CFGBlock *Use, const Stmt *UseStmt) {
  const CFGBlock *At = Site ? blockOf(Site) : nullptr;
  if (!At)
    return V; // a parameter on entry
  // Lanes at the use ran the write in the same pass through a branch's
  // region only if the write comes first on the way there.
  bool Before = false;
  if (Use && Use != At)
    Before = OrderIndex[At->getBlockID()] < OrderIndex[Use->getBlockID()];
  else if (Use)
    Before = elementIndex(At, Site) < elementIndex(At, UseStmt);
  llvm::ArrayRef<std::pair<unsigned, unsigned>> UseControllers =
      Use ? controllersOf(Use)
          : llvm::ArrayRef<std::pair<unsigned, unsigned>>();
  for (const std::pair<unsigned, unsigned> &C : controllersOf(At)) {
    noteRead(branchItem(C.first));
    const WarpValue &Cond = BranchValues[C.first];
    if (Cond.isUniform() && !Cond.Params)
      continue;
    // The use is on the same side of that branch: its lanes took it
    // together, and ran the write in the same pass unless the branch can run
    // again between the write and the use (both on one cycle through it).
    if (std::binary_search(UseControllers.begin(), UseControllers.end(), C) &&
        (Before || Cycles[C.first] != Cycles[At->getBlockID()]))
      continue;
    if (Cond.isVarying())
      V = WarpValue::splitBy(V, Cond, Blocks[C.first]->getTerminatorStmt());
    else
      V.Params |= Cond.Params;
  }
  return V;
}

/// Returns whether \p S lies inside \p Outer.
static bool isInside(const Stmt *S, const Stmt *Outer, const ParentMap &PM) {
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (P == Outer)
      return true;
  return false;
}

/// Returns the expression that definition \p D writes the whole of its
/// variable from (an initializer, a record assignment's right side), if any.
static const Expr *wholeSource(const LocalDefinitions::Definition &D) {
  if (D.Partial)
    return nullptr;
  if (D.K == LocalDefinitions::Kind::Init)
    return D.Var->getInit();
  if (D.K != LocalDefinitions::Kind::Assign)
    return nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(D.Site))
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2
               ? Op->getArg(1)
               : nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(D.Site))
    return BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr;
  return nullptr;
}

std::optional<WarpValue> FunctionUniformity::read(const LocalSlot &Slot,
                                                  const Expr *Use) {
  std::optional<llvm::SmallVector<unsigned, 2>> Reaching =
      Defs->reaching(Slot.Var, Slot.Field, Use);
  if (!Reaching) {
    // Not a CFG element (an unevaluated or implicit read): every
    // definition of the slot.
    Reaching.emplace();
    for (unsigned I : Defs->of(Slot.Var)) {
      const LocalDefinitions::Definition &D = Defs->all()[I];
      if (!Slot.Field || !D.Field || D.Field == Slot.Field)
        Reaching->push_back(I);
    }
  }
  if (Reaching->empty())
    return entryValue(Slot.Var);
  const CFGBlock *UseBlock = blockOf(Use);
  std::optional<WarpValue> V;
  // After a butterfly all-reduce every lane holds the same value; the
  // definitions that fed the loop reach past it only on paths that skip it,
  // which its constant trip count rules out.
  llvm::SmallVector<unsigned, 4> FedLoop;
  if (!Slot.Field)
    for (unsigned I : *Reaching) {
      auto It = Butterflies.find(Defs->all()[I].Site);
      if (It == Butterflies.end() || It->second.Var != Slot.Var ||
          isInside(Use, It->second.Loop, parents()))
        continue;
      V = WarpValue::uniform();
      if (std::optional<llvm::SmallVector<unsigned, 2>> In =
              Defs->reaching(Slot.Var, nullptr, It->second.Update))
        FedLoop.append(In->begin(), In->end());
    }
  for (unsigned I : *Reaching) {
    if (llvm::is_contained(FedLoop, I))
      continue;
    noteRead(I);
    if (!DefValues[I])
      continue; // not evaluated yet in this fixpoint
    WarpValue Written = *DefValues[I];
    // A field read of a record written whole: what that field got. A
    // record written from itself (`c = {c.x + a[i].x, c.y}` in a loop)
    // reaches its own source: there the whole record's value stands.
    const Expr *Source = wholeSource(Defs->all()[I]);
    if (Slot.Field && !Defs->all()[I].Field && Source &&
        FieldSources.insert(Source).second) {
      std::optional<WarpValue> F = Eval->fieldValue(Source, Slot.Field);
      FieldSources.erase(Source);
      if (F)
        Written = *F;
    }
    WarpValue Seen = seenAt(Written, Defs->all()[I].Site, UseBlock, Use);
    V = V ? WarpValue::join(*V, Seen) : Seen;
  }
  return V ? *V : WarpValue::uniform();
}

bool FunctionUniformity::sweep() {
  bool Changed = false;
  // Each block's branch is updated right after its statements, so that
  // blocks later in the same sweep see its divergence: a chain of branches
  // on values assigned under earlier branches then settles in one sweep
  // instead of one per link.
  for (auto [B, S] : Steps)
    Changed |= S ? transfer(S, B) : updateBranchValue(B);
  Eval->reset();
  return Changed;
}

void FunctionUniformity::indexBlocks() {
  // As CFGStmtMap does: each statement evaluated in a block (Elements), the
  // block's label, and its terminator (which wins over an element of
  // another block, so BlockOfStmt is asked first).
  Elements = std::make_unique<ElementPositions>(*Cfg);
  Blocks.assign(Cfg->getNumBlockIDs(), nullptr);
  for (const CFGBlock *B : *Cfg) {
    Blocks[B->getBlockID()] = B;
    if (const Stmt *Label = B->getLabel())
      BlockOfStmt[Label] = B;
    if (const Stmt *Terminator = B->getTerminatorStmt())
      BlockOfStmt[Terminator] = B;
  }
}

llvm::ArrayRef<CollectiveUse> FunctionUniformity::collectives() const {
  if (!Collectives) {
    Collectives.emplace();
    CallSites.emplace();
    forEachStmt([&](const Stmt *S) {
      if (std::optional<CollectiveUse> Use = matchCollective(S)) {
        CallSites->push_back({S, int(Collectives->size())});
        Collectives->push_back(*Use);
      } else if (isa<CallExpr>(S)) {
        CallSites->push_back({S, -1});
      }
    });
  }
  return *Collectives;
}

/// Adds what \p S and the statements below it show to \p Out.
static void outlineInto(const Stmt *S, FunctionUniformity::BodyOutline &Out,
                        int Loop) {
  if (!S)
    return;
  if (isa<WhileStmt, DoStmt, ForStmt, CallExpr>(S)) {
    Out.LoopsAndCalls.push_back(S);
    Out.EnclosingLoop.push_back(Loop);
    if (!isa<CallExpr>(S))
      Loop = Out.LoopsAndCalls.size() - 1;
  } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S);
             ASE && ASE->getType().isVolatileQualified()) {
    Out.HasVolatileElement = true;
  }
  for (const Stmt *Child : S->children())
    outlineInto(Child, Out, Loop);
}

const FunctionUniformity::BodyOutline &FunctionUniformity::outline() const {
  if (!Outline) {
    Outline.emplace();
    outlineInto(FD->getBody(), *Outline, -1);
  }
  return *Outline;
}

const ParentMap &FunctionUniformity::parents() const {
  if (!PM)
    PM = std::make_unique<ParentMap>(FD->getBody());
  return *PM;
}

llvm::SmallVector<const ForStmt *, 4>
FunctionUniformity::forLoopsAround(const Stmt *S) const {
  auto [It, New] = LoopsAround.try_emplace(S);
  if (New) {
    // Up the parents (a walk down from the body per statement was
    // quadratic in functions of many loops).
    for (const Stmt *P = parents().getParent(S); P; P = parents().getParent(P))
      if (const auto *For = dyn_cast<ForStmt>(P))
        It->second.push_back(For);
    std::reverse(It->second.begin(), It->second.end());
  }
  return It->second;
}

const CFGBlock *FunctionUniformity::blockOf(const Stmt *S) const {
  if (!Cfg)
    return nullptr;
  // A statement the CFG does not list is evaluated in its parent's block.
  for (const Stmt *X = S; X; X = parents().getParentIgnoreParens(X)) {
    const CFGBlock *B = nullptr;
    if (auto It = BlockOfStmt.find(X); It != BlockOfStmt.end())
      B = It->second;
    else if (std::optional<ElementPositions::Position> P = Elements->find(X))
      B = Blocks[P->Block];
    else
      continue;
    if (X != S)
      BlockOfStmt[S] = B;
    return B;
  }
  return nullptr;
}

WarpValue FunctionUniformity::valueOf(const Expr *E) const {
  return Eval ? Eval->eval(E) : WarpValue::uniform();
}

WarpValue FunctionUniformity::atomicAddress(const AtomicInfo &A) const {
  // A pointer, or an atomic_ref (its value is the address it refers to);
  // otherwise the atomic object itself, which lives where it is.
  QualType T = A.Address->getType();
  if (!A.Member || T.isNull() || T->isPointerType() || isAtomicRef(T))
    return valueOf(A.Address);
  return Eval ? Eval->addressOf(A.Address) : WarpValue::uniform();
}

WarpValue FunctionUniformity::valueOf(const VarDecl *VD) const {
  auto It = Vars.find(VD);
  return It == Vars.end() ? WarpValue::uniform() : It->second;
}

/// Returns the jump that ends \p S (a branch body), if it always leaves.
static const Stmt *trailingExit(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->body_empty() ? nullptr : trailingExit(CS->body_back());
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
    return S;
  return nullptr;
}

/// Returns the jump by which a case of \p Switch leaves the code after the
/// switch (`case 0: return;`), if any; `break` only leaves the switch.
static const Stmt *exitingCase(const SwitchStmt *Switch) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch->getBody());
  if (!Body)
    return nullptr;
  for (const Stmt *S : Body->body()) {
    while (const auto *Case = dyn_cast<SwitchCase>(S))
      S = Case->getSubStmt();
    if (const Stmt *Exit = trailingExit(S); Exit && !isa<BreakStmt>(Exit))
      return Exit;
  }
  return nullptr;
}

/// Returns whether taking edge \p Edge of the branch on \p Cond makes `a`
/// and `b` differ, where Cond compares them: `a != b` true, `a == b` false,
/// `a < b` true, `a <= b` false (and their mirrors).
static bool edgeExcludesEqual(const BinaryOperator *Cond, unsigned Edge) {
  return (Edge == 0) != holdsForEqualOperands(Cond->getOpcode());
}

static const BinaryOperator *comparison(const CFGBlock *Branch) {
  const auto *Cond = dyn_cast_or_null<Expr>(Branch->getTerminatorCondition());
  const auto *BO =
      Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  return BO && BO->isComparisonOp() ? BO : nullptr;
}

static bool sameOperands(const BinaryOperator *A, const BinaryOperator *B,
                         ASTContext &Ctx) {
  return (sameExpr(A->getLHS(), B->getLHS(), Ctx) &&
          sameExpr(A->getRHS(), B->getRHS(), Ctx)) ||
         (sameExpr(A->getLHS(), B->getRHS(), Ctx) &&
          sameExpr(A->getRHS(), B->getLHS(), Ctx));
}

bool FunctionUniformity::stableOperand(const Expr *E) const {
  // Values that are the same at both tests: constants, and locals or
  // parameters the body never reassigns (`tid` in a role split). A loop
  // variable or a load may change between them (`index = q.next()`).
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return isa<EnumConstantDecl>(DRE->getDecl());
    if (!VD->hasLocalStorage())
      return VD->getType().isConstQualified();
    return Defs && Defs->of(VD).size() <= 1;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isArithmeticOp() && stableOperand(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isShiftOp() ||
            BO->isBitwiseOp()) &&
           stableOperand(BO->getLHS()) && stableOperand(BO->getRHS());
  return false;
}

bool FunctionUniformity::impliedByAnother(
    const Controller &C, llvm::ArrayRef<Controller> All) const {
  // `if (tid == k) {…} else if (tid < k) {…}`: past `tid < k`, every lane
  // has tid != k, so the one-lane test splits none of them.
  const BinaryOperator *Own = comparison(C.Branch);
  if (!Own || !edgeExcludesEqual(Own, C.Edge) ||
      !stableOperand(Own->getLHS()) || !stableOperand(Own->getRHS()))
    return false;
  for (const Controller &O : All) {
    const BinaryOperator *Other =
        O.Branch == C.Branch ? nullptr : comparison(O.Branch);
    if (Other && Other->isRelationalOp() && edgeExcludesEqual(Other, O.Edge) &&
        sameOperands(Own, Other, Ctx))
      return true;
  }
  return false;
}

Divergence FunctionUniformity::divergenceAt(const Stmt *S) const {
  Divergence D;
  const CFGBlock *B = blockOf(S);
  if (!B)
    return D;
  llvm::SmallVector<Controller, 8> Cs;
  collectControllers(B, Cs);
  // Inside `if (g.size() == 32)` the whole warp runs together again: the
  // branches outside it no longer split it.
  llvm::SmallPtrSet<const CFGBlock *, 8> Outside;
  for (const Controller &C : Cs) {
    OneLane Whole = BranchValues[C.Branch->getBlockID()].Whole;
    if ((Whole == OneLane::WhenTrue && C.Edge == 0) ||
        (Whole == OneLane::WhenFalse && C.Edge == 1)) {
      llvm::SmallVector<Controller, 8> Outer;
      collectControllers(C.Branch, Outer);
      for (const Controller &O : Outer)
        Outside.insert(O.Branch);
    }
  }
  llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
  for (const Controller &C : Cs) {
    if (Outside.contains(C.Branch))
      continue;
    const WarpValue &V = BranchValues[C.Branch->getBlockID()];
    if (V.isUniform()) {
      D.ParamConditions |= V.Params;
      continue;
    }
    if (!Seen.insert(C.Branch).second || impliedByAnother(C, Cs))
      continue;
    DivergentBranch DB;
    DB.Terminator = C.Branch->getTerminatorStmt();
    DB.Condition = dyn_cast_or_null<Expr>(C.Branch->getTerminatorCondition());
    // Point at the operand of `a && b` that varies, not at the operator.
    while (const auto *BO = dyn_cast_or_null<BinaryOperator>(
               DB.Condition ? DB.Condition->IgnoreParenImpCasts() : nullptr)) {
      if (!BO->isLogicalOp())
        break;
      DB.Condition =
          Eval->eval(BO->getRHS()).isVarying() ? BO->getRHS() : BO->getLHS();
    }
    DB.Edge = C.Edge;
    DB.Value = V;
    if (const auto *If = dyn_cast_or_null<IfStmt>(DB.Terminator))
      DB.Exit = trailingExit(C.Edge == 0 ? If->getElse() : If->getThen());
    else if (const auto *Switch = dyn_cast_or_null<SwitchStmt>(DB.Terminator);
             Switch && !isInside(S, Switch, parents()))
      DB.Exit = exitingCase(Switch);
    D.Branches.push_back(DB);
  }
  return D;
}

bool FunctionUniformity::isSingleLane(const Stmt *S) const {
  const CFGBlock *B = blockOf(S);
  if (!B)
    return false;
  llvm::SmallVector<Controller, 8> Cs;
  collectControllers(B, Cs);
  for (const Controller &C : Cs) {
    OneLane Single = BranchValues[C.Branch->getBlockID()].Single;
    if ((Single == OneLane::WhenTrue && C.Edge == 0) ||
        (Single == OneLane::WhenFalse && C.Edge == 1))
      return true;
  }
  return false;
}

} // namespace clang::warp
