//===--- WarpExchanges.cpp - lanes racing through shared memory -----------===//

#include "WarpExchanges.h"
#include "BarrierSteps.h"
#include "IndexTerms.h"
#include "LockPatterns.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

namespace clang::warp {

bool ordersLanes(const Stmt *S, WarpAnalysis &WA) {
  if (matchCollective(S))
    return true;
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return false;
  if (isBarrierName(calleeName(Call)))
    return true;
  // `tile.sync()`, `cg::sync(block)`, a helper around __syncwarp().
  if (const FunctionDecl *Callee = calledDefinition(Call))
    if (const FunctionSummary *Summary = WA.summary(Callee))
      return Summary->Synchronizes != nullptr;
  return false;
}

namespace {

/// The call a helper is analysed for, and the caller's lane sets.
struct CallContext {
  const CallExpr *Call = nullptr;
  const FunctionDecl *Caller = nullptr;
  const FunctionUniformity *CallerFU = nullptr;
  LaneReach *Reach = nullptr;
};

/// How a term of an index is known.
enum class TermKind : uint8_t {
  Number,       ///< the lane evaluator computes it per lane
  Symbol,       ///< the same in every lane, value not known
  AffineSymbol, ///< such a value plus the lane index
  Unknown
};

struct Symbol {
  const Expr *E;
  int64_t Scale;
  bool Stable; ///< its variables keep their value in the whole function
};

/// One access in one iteration of the counted loops around it.
struct Instance {
  llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 2> Counters;
  llvm::SmallVector<Symbol, 1> Symbols;
  /// Some term is not known; DataTerm when that is because it depends on
  /// data.
  bool Unknown = false;
  const Expr *DataTerm = nullptr;
  /// The lanes that may reach the access, and the element each of them
  /// names where it is known (IndexKnown): a table holds thousands.
  struct WarpLanes {
    LaneSet Reach = 0, IndexKnown = 0;
    std::array<int64_t, 32> Index;
    /// What every element exceeds the first warp's by, where the same lanes
    /// reach and are indexed as there (`base + threadIdx.x`: 32 a warp).
    std::optional<int64_t> Shift;
    bool indexed(unsigned L) const { return (Reach & IndexKnown) >> L & 1; }
  };
  /// By sample warp; one entry when nothing depends on the warp.
  std::vector<WarpLanes> Warps;

  const WarpLanes &warp(size_t K) const {
    return Warps[Warps.size() == 1 ? 0 : K];
  }
  std::optional<int64_t> shift(size_t K) const {
    return Warps.size() == 1 ? 0 : Warps[K].Shift;
  }
  /// Sets each warp's Shift.
  void findShifts() {
    for (WarpLanes &W : llvm::drop_begin(Warps)) {
      const WarpLanes &First = Warps.front();
      LaneSet Lanes = W.Reach & W.IndexKnown;
      if (W.Reach != First.Reach || Lanes != (First.Reach & First.IndexKnown))
        continue;
      int64_t By = 0;
      bool Same = true;
      for (LaneSet L = Lanes; Same && L; L &= L - 1) {
        unsigned Lane = llvm::countr_zero(L);
        int64_t D = 0;
        Same = !llvm::SubOverflow(W.Index[Lane], First.Index[Lane], D) &&
               (L == Lanes || D == By);
        By = D;
      }
      if (Same)
        W.Shift = By;
    }
  }
  std::optional<int64_t> counter(const VarDecl *VD) const {
    for (auto [V, Value] : Counters)
      if (V == VD)
        return Value;
    return std::nullopt;
  }
};

/// The lanes of one warp that name each element: by arithmetic where the
/// element is `base + step * lane` in every lane that names one (most
/// accesses), by a table otherwise. The tables are compared pair by pair,
/// warp by warp, often hundreds of thousands of times in one unit.
class ElementWriters {
public:
  explicit ElementWriters(const Instance::WarpLanes &W)
      : Lanes(W.Reach & W.IndexKnown) {
    if (!Lanes)
      return;
    First = llvm::countr_zero(Lanes);
    Base = W.Index[First];
    if (LaneSet Rest = Lanes & (Lanes - 1)) {
      unsigned Second = llvm::countr_zero(Rest);
      int64_t Diff = 0;
      Affine = !llvm::SubOverflow(W.Index[Second], Base, Diff) &&
               Diff % int64_t(Second - First) == 0;
      Step = Affine ? Diff / int64_t(Second - First) : 0;
      for (LaneSet L = Rest; Affine && L; L &= L - 1) {
        unsigned Lane = llvm::countr_zero(L);
        int64_t Offset = 0, Want = 0;
        Affine = !llvm::MulOverflow(Step, int64_t(Lane - First), Offset) &&
                 !llvm::AddOverflow(Base, Offset, Want) &&
                 Want == W.Index[Lane];
      }
    }
    if (!Affine)
      for (LaneSet L = Lanes; L; L &= L - 1) {
        unsigned Lane = llvm::countr_zero(L);
        Table[W.Index[Lane]] |= 1u << Lane;
      }
  }
  /// The lanes that name element \p Element.
  LaneSet of(int64_t Element) const {
    if (!Lanes)
      return 0;
    if (!Affine) {
      auto It = Table.find(Element);
      return It == Table.end() ? 0 : It->second;
    }
    if (Step == 0)
      return Element == Base ? Lanes : 0;
    int64_t Diff = 0;
    if (llvm::SubOverflow(Element, Base, Diff) ||
        Diff == std::numeric_limits<int64_t>::min() || Diff % Step != 0)
      return 0;
    int64_t Lane = int64_t(First) + Diff / Step;
    return Lane >= 0 && Lane < 32 ? Lanes & (1u << Lane) : 0;
  }

private:
  LaneSet Lanes;
  unsigned First = 0;
  bool Affine = true;
  int64_t Base = 0, Step = 0;
  llvm::SmallDenseMap<int64_t, LaneSet, 32> Table;
};

struct Site {
  const ElementAccess *A = nullptr;
  const Stmt *At = nullptr;                    ///< the CFG element
  const Stmt *Statement = nullptr;             ///< the whole statement
  llvm::SmallVector<const ForStmt *, 2> Loops; ///< outermost first
  std::optional<std::vector<Instance>> Table;
};

/// The warps whose lanes are compared: the first 16 (blocks of up to 512
/// threads, where conditions on the thread index split them) and a far
/// one. Every access is evaluated in each, in each iteration of its loops.
/// In the blocks the unit's launches show (\p Shapes), only the warps whose
/// thread indices exist there: a sample warp W stands for the threads
/// 32 * W ... 32 * W + 31 of dimension x.
std::vector<uint64_t> sampleWarps(llvm::ArrayRef<BlockExtents> Shapes) {
  uint64_t Count = 16;
  if (!Shapes.empty()) {
    int64_t Widest = 0;
    for (const BlockExtents &B : Shapes)
      Widest = std::max(Widest, B.X);
    Count = std::min<uint64_t>(Count, uint64_t(Widest + 31) / 32);
  }
  std::vector<uint64_t> W;
  for (uint64_t I = 0; I < Count; ++I)
    W.push_back(I);
  if (Shapes.empty())
    W.push_back(uint64_t(1) << 20);
  return W;
}

const VarDecl *counterOf(const ForStmt *For) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  return Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl())
                                      : nullptr;
}

class RaceFinder {
public:
  RaceFinder(const FunctionDecl *FD, const FunctionUniformity &FU,
             LaneReach &Reach, WarpAnalysis &WA, const ElementAccesses &EA,
             const CallContext *Context)
      : FD(FD), FU(FU), Reach(Reach), WA(WA), EA(EA), Context(Context),
        Ctx(WA.context()), Warps(sampleWarps(WA.launchShapes(FD))),
        IndexValues(Reach, EA.Written, Warps) {}

  void run(std::vector<ExchangeRace> &Out);

private:
  /// Whether \p R and \p W race; fills \p Race if so.
  bool race(Site &R, Site &W, ExchangeRace &Race);
  std::vector<Instance> &table(Site &S);
  LaneSet reachOf(const Site &S, uint64_t Warp);
  TermKind kindOf(const ElementAddress::Term &T, Instance &I);
  bool stable(const Expr *E) const;
  /// How the iterations \p R and \p W of two accesses may meet: 0 not at
  /// all, 1 in one iteration, 2 with the read one iteration after the
  /// write, 3 with the write one after the read.
  int meeting(const Site &R, const Instance &IR, const Site &W,
              const Instance &IW, const ForStmt *Loop,
              llvm::ArrayRef<int64_t> Sequence);
  /// The tier of a race the lanes prove (in the iterations \p IR and \p IW
  /// of the read and the write), and its data cause.
  void settleTier(const Site &R, const Instance &IR, const Site &W,
                  const Instance &IW, ExchangeRace &Race);
  /// Whether the lanes that reach \p S in iteration \p I are known exactly.
  bool exact(const Site &S, const Instance &I);
  /// Whether \p R's element is \p W's plus a small or uniform offset, by
  /// their terms (the race a potential finding suggests).
  bool offsetRelated(const Site &R, const Site &W);
  /// Whether \p E is the same in every lane, its parameters included
  /// (those of a helper nothing in the unit calls may differ).
  bool sameInEveryLane(const Expr *E) const {
    WarpValue V = FU.valueOf(E);
    return V.isUniform() &&
           (!V.Params || Context || FD->hasAttr<CUDAGlobalAttr>());
  }
  /// Whether every lane reaches the same memory through \p Root.
  bool sharedRoot(const ValueDecl *Root) const;
  bool perLane(const Expr *E) const {
    WarpValue V = FU.valueOf(E);
    return V.isVarying() || bool(V.Params);
  }

  const FunctionDecl *FD;
  const FunctionUniformity &FU;
  LaneReach &Reach;
  WarpAnalysis &WA;
  const ElementAccesses &EA;
  const CallContext *Context;
  ASTContext &Ctx;
  std::optional<BarrierSteps> Steps;
  const std::vector<uint64_t> Warps;
  IndexTermValues IndexValues;
  std::vector<TermKind> Kinds; ///< scratch: the kinds of one access's terms
  /// Warps of two instances compared so far, and the most per function.
  size_t Compared = 0;
  static constexpr size_t MaxCompared = 1 << 20;
};

bool RaceFinder::stable(const Expr *E) const {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (EA.Written.contains(VD))
        return false;
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child); C && !stable(C))
      return false;
  return true;
}

LaneSet RaceFinder::reachOf(const Site &S, uint64_t Warp) {
  LaneSet L = Reach.mayReach(S.At, Warp);
  if (Context)
    L &= Context->Reach->mayReach(Context->Call, Warp);
  return L;
}

TermKind RaceFinder::kindOf(const ElementAddress::Term &T, Instance &I) {
  bool ReadWarp = false;
  if (IndexValues.valueIn(T.E, 0, 0, ReadWarp) ||
      IndexValues.valueIn(T.E, 31, 0, ReadWarp))
    return TermKind::Number;
  WarpValue V = FU.valueOf(T.E);
  if (V.LaunchShape || V.AffineBaseByShape) {
    I.Unknown = true;
    return TermKind::Unknown;
  }
  if (V.LaneAffine) {
    I.Symbols.push_back({T.E, T.Scale, stable(T.E)});
    return TermKind::AffineSymbol;
  }
  // A parameter of a helper nothing in the unit calls may hold a lane
  // index: no symbol the lanes share.
  bool UnknownCaller = V.Params && !Context && !FD->hasAttr<CUDAGlobalAttr>();
  if (V.isUniform() && !UnknownCaller) {
    I.Symbols.push_back({T.E, T.Scale, stable(T.E)});
    return TermKind::Symbol;
  }
  I.Unknown = true;
  if (V.V == Variance::Data && !I.DataTerm)
    I.DataTerm = T.E;
  return TermKind::Unknown;
}

std::vector<Instance> &RaceFinder::table(Site &S) {
  if (S.Table)
    return *S.Table;
  S.Table.emplace();
  LaneEvaluator &Eval = Reach.evaluator();
  const ElementAddress &A = S.A->Address;
  bool ReachWarp =
      Reach.dependsOnWarp() || (Context && Context->Reach->dependsOnWarp());
  forEachCounterValue(S.At, FU, Eval, [&] {
    Instance I;
    for (const ForStmt *L : S.Loops)
      if (const VarDecl *VD = counterOf(L))
        if (std::optional<int64_t> V = Eval.bindingOf(VD))
          I.Counters.push_back({VD, *V});
    Kinds.clear();
    for (const ElementAddress::Term &T : A.Terms)
      Kinds.push_back(kindOf(T, I));
    bool ReadWarp = false;
    auto Fill = [&](uint64_t Warp) {
      Instance::WarpLanes WL;
      WL.Reach = reachOf(S, Warp);
      if (I.Unknown)
        return WL;
      // Term by term, each in the lanes whose element is still known.
      WL.Index.fill(A.Constant);
      WL.IndexKnown = WL.Reach;
      for (size_t K = 0; K < A.Terms.size() && WL.IndexKnown; ++K) {
        const ElementAddress::Term &T = A.Terms[K];
        if (Kinds[K] == TermKind::AffineSymbol) {
          for (unsigned L = 0; L < 32; ++L)
            WL.Index[L] += T.Scale * int64_t(L);
        } else if (Kinds[K] == TermKind::Number) {
          const IndexTermValues::Lanes &X =
              IndexValues.lanesIn(T.E, Warp, WL.IndexKnown);
          ReadWarp |= bool(X.ReadWarp & WL.IndexKnown);
          for (unsigned L = 0; L < 32; ++L)
            if (WL.IndexKnown >> L & 1) {
              if (X.Values[L])
                WL.Index[L] += T.Scale * *X.Values[L];
              else
                WL.IndexKnown &= ~(1u << L);
            }
        }
      }
      return WL;
    };
    I.Warps.reserve(Warps.size());
    I.Warps.push_back(Fill(0));
    if (ReadWarp || ReachWarp)
      for (uint64_t W : llvm::ArrayRef(Warps).drop_front())
        I.Warps.push_back(Fill(W));
    I.findShifts();
    S.Table->push_back(std::move(I));
    return true;
  });
  return *S.Table;
}

int RaceFinder::meeting(const Site &R, const Instance &IR, const Site &W,
                        const Instance &IW, const ForStmt *Loop,
                        llvm::ArrayRef<int64_t> Sequence) {
  const VarDecl *LoopCounter = Loop ? counterOf(Loop) : nullptr;
  for (auto [VD, Value] : IR.Counters)
    if (VD != LoopCounter)
      if (std::optional<int64_t> Other = IW.counter(VD);
          Other && *Other != Value)
        return 0;
  if (!Loop)
    return 1;
  int64_t VR = *IR.counter(LoopCounter), VW = *IW.counter(LoopCounter);
  if (VR == VW)
    return Steps->sameIteration(Loop, R.At, W.At) ? 1 : 0;
  auto Next = [&](int64_t V) -> std::optional<int64_t> {
    const auto *It = llvm::find(Sequence, V);
    if (It == Sequence.end() || It + 1 == Sequence.end())
      return std::nullopt;
    return *(It + 1);
  };
  if (Next(VW) == VR && Steps->nextIteration(Loop, W.At, R.At))
    return 2;
  if (Next(VR) == VW && Steps->nextIteration(Loop, R.At, W.At))
    return 3;
  return 0;
}

/// Whether two accesses' symbols are the same terms: then their numbers
/// compare. A symbol whose variables change in the function compares only
/// within one statement.
static bool sameSymbols(const Instance &A, const Instance &B, bool OneStatement,
                        ASTContext &Ctx) {
  if (A.Symbols.size() != B.Symbols.size())
    return false;
  llvm::SmallVector<bool, 2> Used(B.Symbols.size());
  for (const Symbol &S : A.Symbols) {
    if (!S.Stable && !OneStatement)
      return false;
    bool Found = false;
    for (size_t K = 0; K < B.Symbols.size() && !Found; ++K)
      if (!Used[K] && B.Symbols[K].Scale == S.Scale &&
          sameExpr(B.Symbols[K].E, S.E, Ctx))
        Used[K] = Found = true;
    if (!Found)
      return false;
  }
  return true;
}

bool RaceFinder::race(Site &R, Site &W, ExchangeRace &Race) {
  std::vector<Instance> &TR = table(R);
  std::vector<Instance> &TW = table(W);
  if (TR.empty() || TW.empty())
    return false;
  // The innermost counted loop around both, and its counter's values in
  // order.
  const ForStmt *Loop = nullptr;
  for (const ForStmt *L : R.Loops)
    if (llvm::is_contained(W.Loops, L))
      if (const VarDecl *VD = counterOf(L);
          VD && TR.front().counter(VD) && TW.front().counter(VD))
        Loop = L;
  llvm::SmallVector<int64_t, 8> Sequence;
  if (Loop)
    for (const Instance &I : TR)
      if (std::optional<int64_t> V = I.counter(counterOf(Loop));
          V && !llvm::is_contained(Sequence, *V))
        Sequence.push_back(*V);
  bool OneStatement = R.Statement == W.Statement;
  const Expr *DataTerm = nullptr;
  bool DataOnWrite = false, Unrelated = false;
  for (const Instance &IR : TR)
    for (const Instance &IW : TW) {
      int Meet = meeting(R, IR, W, IW, Loop, Sequence);
      if (!Meet)
        continue;
      if (IR.Unknown || IW.Unknown) {
        // One element depends on data, the other is known per lane.
        if (!DataTerm && IR.DataTerm && !IW.Unknown) {
          DataTerm = IR.DataTerm;
          DataOnWrite = false;
        } else if (!DataTerm && IW.DataTerm && !IR.Unknown) {
          DataTerm = IW.DataTerm;
          DataOnWrite = true;
        }
        Unrelated = true;
        continue;
      }
      if (!sameSymbols(IR, IW, OneStatement, Ctx)) {
        Unrelated = true;
        continue;
      }
      bool PerWarp = IR.Warps.size() > 1 || IW.Warps.size() > 1;
      // A bound on the work per function: loops of many iterations around
      // accesses in different loops pair every iteration with every other.
      Compared += PerWarp ? Warps.size() : 1;
      if (Compared > MaxCompared)
        return false;
      for (size_t K = 0; K < (PerWarp ? Warps.size() : 1); ++K) {
        const Instance::WarpLanes &LR = IR.warp(K), &LW = IW.warp(K);
        if (!LR.Reach || !LW.Reach)
          continue;
        // Both accesses' elements moved by the same amount from the first
        // warp's, with the same lanes: lanes meet here where they met in
        // the first warp, and they did not.
        if (std::optional<int64_t> SR = IR.shift(K), SW = IW.shift(K);
            K > 0 && SR && SR == SW)
          continue;
        ElementWriters Writers(LW);
        for (unsigned L = 0; L < 32; ++L) {
          if (!LR.indexed(L))
            continue;
          LaneSet Writing = Writers.of(LR.Index[L]);
          LaneSet Others = Writing & ~(1u << L);
          if (!Others)
            continue;
          // Every lane stores the same value, this one too: it reads that
          // value whoever wrote last.
          if (W.A->Stored && Writing >> L & 1 && sameInEveryLane(W.A->Stored))
            continue;
          ExchangeRace::Lanes P;
          P.Warp = Warps[K];
          P.Reader = L;
          P.Writer = llvm::countr_zero(Others);
          if (IR.Symbols.empty())
            P.Element = R.A->Address.name(LR.Index[L]);
          Race.Pair = P;
          if (Loop) {
            Race.Counter = counterOf(Loop);
            Race.ReadCount = *IR.counter(Race.Counter);
            Race.WriteCount = *IW.counter(Race.Counter);
            Race.NextIteration = Meet != 1;
          }
          settleTier(R, IR, W, IW, Race);
          return true;
        }
      }
    }
  if (DataTerm) {
    Race.Tier = RaceTier::Data;
    Race.DataCause = DataTerm;
    Race.DataIndex = true;
    Race.DataOnWrite = DataOnWrite;
    return true;
  }
  if (Unrelated && offsetRelated(R, W)) {
    Race.Tier = RaceTier::Potential;
    return true;
  }
  return false;
}

bool RaceFinder::exact(const Site &S, const Instance &I) {
  // A branch on the loop's counter (`if (lane < o)`) is known in one
  // iteration.
  LaneEvaluator &Eval = Reach.evaluator();
  for (auto [VD, Value] : I.Counters)
    Eval.bind(VD, Value);
  bool Exact = Reach.isExact(S.At);
  for (auto [VD, Value] : I.Counters)
    Eval.bind(VD, std::nullopt);
  return Exact;
}

void RaceFinder::settleTier(const Site &R, const Instance &IR, const Site &W,
                            const Instance &IW, ExchangeRace &Race) {
  Race.Tier = RaceTier::Proven;
  const ValueDecl *Root = R.A->Address.Root;
  if (!Context && isa<ParmVarDecl>(Root) && !FD->hasAttr<CUDAGlobalAttr>()) {
    Race.Tier = RaceTier::Potential;
    Race.AssumesSharedPointer = true;
    return;
  }
  auto DataBranch = [](const Divergence &D) -> const Expr * {
    for (const DivergentBranch &B : D.Branches)
      if (B.Value.V == Variance::Data && !B.Value.LaunchShape && B.Condition)
        return B.Condition;
    return nullptr;
  };
  bool Exact = exact(R, IR) && exact(W, IW) &&
               (!Context || Context->Reach->isExact(Context->Call));
  if (Exact)
    return;
  const Expr *Cause = DataBranch(FU.divergenceAt(W.At));
  Race.DataOnWrite = Cause != nullptr;
  if (!Cause)
    Cause = DataBranch(FU.divergenceAt(R.At));
  if (!Cause && Context)
    Cause = DataBranch(Context->CallerFU->divergenceAt(Context->Call));
  Race.Tier = Cause ? RaceTier::Data : RaceTier::Potential;
  Race.DataCause = Cause;
}

bool RaceFinder::offsetRelated(const Site &R, const Site &W) {
  const ElementAddress &AR = R.A->Address, &AW = W.A->Address;
  // Match the terms both have; what is left over is the offset.
  llvm::SmallVector<const Expr *, 2> OnlyR, OnlyW;
  llvm::SmallVector<bool, 4> Used(AW.Terms.size());
  bool PerLane = false;
  for (const ElementAddress::Term &T : AR.Terms) {
    bool Found = false;
    for (size_t K = 0; K < AW.Terms.size() && !Found; ++K)
      if (!Used[K] && AW.Terms[K].Scale == T.Scale &&
          sameExpr(AW.Terms[K].E, T.E, Ctx))
        Used[K] = Found = true;
    if (Found)
      PerLane |= perLane(T.E);
    else
      OnlyR.push_back(T.E);
  }
  for (size_t K = 0; K < AW.Terms.size(); ++K)
    if (!Used[K])
      OnlyW.push_back(AW.Terms[K].E);
  if (!PerLane)
    return false;
  int64_t K = AR.Constant - AW.Constant;
  if (OnlyR.empty() && OnlyW.empty())
    return K != 0 && K > -32 && K < 32;
  if (OnlyR.size() + OnlyW.size() != 1 || K != 0)
    return false;
  // A stride the same in every lane; one of 32 or more, by the loop's
  // condition (`s >= 32`), reads another warp's element.
  const Expr *Offset = OnlyR.empty() ? OnlyW.front() : OnlyR.front();
  if (!FU.valueOf(Offset).isUniform())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Offset->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (std::optional<int64_t> Least = counterAtLeast(R.At, VD, FU, Ctx);
          Least && *Least >= 32)
        return false;
  return true;
}

bool RaceFinder::sharedRoot(const ValueDecl *Root) const {
  // A pointer each lane may hold its own of (a local array passed to a
  // helper, `&local[0]`) is no memory the lanes share.
  auto Shared = [](const WarpValue &V) {
    return V.isUniform() && !V.isLocalAddress();
  };
  if (const auto *P = dyn_cast<ParmVarDecl>(Root)) {
    if (!Context)
      return true; // kernels: the launch's pointers; helpers: potential
    // What the caller passes must be known to be shared: not its own
    // parameter, unless it is a kernel's.
    llvm::ArrayRef<const Expr *> Args = callArguments(Context->Call);
    unsigned I = P->getFunctionScopeIndex();
    if (I >= Args.size())
      return false;
    WarpValue V = Context->CallerFU->valueOf(Args[I]);
    return Shared(V) &&
           (!V.Params || Context->Caller->hasAttr<CUDAGlobalAttr>());
  }
  const auto *VD = dyn_cast<VarDecl>(Root);
  if (VD && VD->isLocalVarDecl() && !VD->hasAttr<CUDASharedAttr>())
    return Shared(FU.valueOf(VD)); // a cast pointer local
  return true;
}

/// Whether \p E takes a lock: an atomic or try-lock helper call in it does.
static bool takesLockIn(const Expr *E, ASTContext &Ctx) {
  bool Found = false;
  walkStmts(E, [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Found = Found || lockTaken(Call, Ctx) || tryLockTake(Call, Ctx).first;
  });
  return Found;
}

/// Whether \p S spins until it holds a lock: a spin-acquire loop, or a call
/// of a helper that has one.
static bool spinsForLock(const Stmt *S, ASTContext &Ctx, unsigned Depth = 0) {
  if (!S || Depth > 2)
    return false;
  if (isa<WhileStmt, DoStmt, ForStmt>(S))
    return spinAcquire(S, Ctx, [](const CallExpr *) { return true; })
        .has_value();
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = calledDefinition(Call);
    return Callee && spinsForLock(Callee->getBody(), Ctx, Depth + 1);
  }
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(
        C->body(), [&](const Stmt *B) { return spinsForLock(B, Ctx, Depth); });
  if (const auto *E = dyn_cast<ExprWithCleanups>(S))
    return spinsForLock(E->getSubExpr(), Ctx, Depth);
  return false;
}

/// Whether \p S runs only in a lane that holds a lock (`if (atomicCAS(l,
/// 0, 1) == 0) { ... }`, or after `while (atomicCAS(l, 0, 1) != 0);` or a
/// lock helper's call): lanes there take turns, they do not race.
static bool insideLockedSection(const Stmt *S, const FunctionUniformity &FU,
                                ASTContext &Ctx) {
  for (const Stmt *Child = S, *P = FU.parentOf(S); P;
       Child = P, P = FU.parentOf(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P);
        If && Child == If->getThen() && takesLockIn(If->getCond(), Ctx))
      return true;
    if (const auto *C = dyn_cast<CompoundStmt>(P))
      for (const Stmt *Before : C->body()) {
        if (Before == Child)
          break;
        if (spinsForLock(Before, Ctx))
          return true;
      }
  }
  return false;
}

void RaceFinder::run(std::vector<ExchangeRace> &Out) {
  std::vector<Site> Sites;
  for (const ElementAccess &A : EA.Accesses)
    if (sharedRoot(A.Address.Root))
      Sites.push_back({&A});
  // Only arrays both read and written can be exchanged through.
  auto Candidate = [&](const Site &R, const Site &W) {
    return R.A->Reads && W.A->Writes && R.A->Address.sameArray(W.A->Address);
  };
  auto AnyCandidate = [&] {
    for (const Site &R : Sites)
      for (const Site &W : Sites)
        if (Candidate(R, W))
          return true;
    return false;
  };
  // Locked sections are found up the parents: only where a pair remains.
  if (!AnyCandidate())
    return;
  llvm::erase_if(Sites, [&](const Site &S) {
    return insideLockedSection(S.A->E, FU, WA.context());
  });
  if (!AnyCandidate())
    return;
  // A counted loop whose first test holds runs at least once: its body's
  // barriers separate what is before it from what is after it. Counted as
  // forEachCounterValue counts it in its body, each loop's iterations
  // found once.
  llvm::DenseMap<const ForStmt *, size_t> Iterations;
  auto IterationsOf = [&](const ForStmt *L) {
    auto [It, New] = Iterations.try_emplace(L, 0);
    if (New)
      It->second = counterIterations(L, Reach.evaluator());
    return It->second;
  };
  auto RunsOnce = [&](const ForStmt *For) {
    if (!counterOf(For) || !For->getBody() || !IterationsOf(For))
      return false;
    size_t Combinations = 1;
    for (const ForStmt *L : FU.forLoopsAround(For->getBody()))
      if (size_t N = IterationsOf(L))
        Combinations *= N;
    return Combinations <= MaxCounterCombinations;
  };
  Steps.emplace(
      FU, [&](const Stmt *S) { return ordersLanes(S, WA); }, RunsOnce);
  for (Site &S : Sites) {
    S.At = Steps->elementOf(S.A->E);
    const Stmt *Child = S.A->E;
    S.Statement = Child;
    bool InExpr = true;
    for (const Stmt *P = FU.parentOf(Child); P; Child = P, P = FU.parentOf(P)) {
      if (InExpr && isa<Expr, DeclStmt>(P))
        S.Statement = P;
      else
        InExpr = false;
      if (const auto *For = dyn_cast<ForStmt>(P);
          For && For->getInit() != Child)
        S.Loops.insert(S.Loops.begin(), For);
    }
  }
  for (Site &R : Sites) {
    if (!R.At || !R.A->Reads)
      continue;
    for (Site &W : Sites) {
      if (!W.At || !Candidate(R, W) || !Steps->mayShareStep(R.At, W.At) ||
          Steps->alwaysOrdered(R.At, W.At))
        continue;
      ExchangeRace Race;
      if (!race(R, W, Race))
        continue;
      Race.Read = R.A->E;
      Race.Write = W.A->E;
      Race.Root = R.A->Address.Root;
      Race.ReadStatement = R.Statement;
      Race.WriteStatement = W.Statement;
      if (Context) {
        Race.Via = Context->Call;
        Race.Caller = Context->Caller;
      }
      Out.push_back(std::move(Race));
    }
  }
}

} // namespace

std::vector<ExchangeRace> findExchangeRaces(const FunctionDecl *FD,
                                            const FunctionUniformity &FU,
                                            LaneReach &Reach,
                                            WarpAnalysis &WA) {
  std::vector<ExchangeRace> Races;
  if (!FU.isValid() || WA.launchedOneThreadPerBlock(FD))
    return Races;
  ElementAccesses EA = elementAccesses(FD, WA.context());
  if (EA.Accesses.empty())
    return Races;
  // A helper: what its pointer and index parameters hold, and which lanes
  // run it, its callers in the unit say.
  if (!FD->hasAttr<CUDAGlobalAttr>() && FD->getNumParams() > 0)
    if (auto Sites = WA.onlyCalledAt(FD); Sites && !Sites->empty()) {
      for (const UnknownCallers::CallSite &Site : Sites->take_front(4)) {
        const FunctionUniformity *CallerFU = WA.function(Site.Caller);
        if (!CallerFU)
          continue;
        const FunctionUniformity *CalleeFU =
            WA.function(FD, WarpAnalysis::argumentValues(Site.Call, *CallerFU));
        if (!CalleeFU)
          continue;
        LaneReach CallerReach(*CallerFU, WA.context());
        LaneReach CalleeReach(*CalleeFU, WA.context());
        CallContext Context{Site.Call, Site.Caller, CallerFU, &CallerReach};
        std::vector<ExchangeRace> Found;
        RaceFinder(FD, *CalleeFU, CalleeReach, WA, EA, &Context).run(Found);
        // Per pair of accesses, the most certain call.
        for (ExchangeRace &R : Found) {
          auto It = llvm::find_if(Races, [&](const ExchangeRace &O) {
            return O.Read == R.Read && O.Write == R.Write;
          });
          if (It == Races.end())
            Races.push_back(std::move(R));
          else if (R.Tier < It->Tier)
            *It = std::move(R);
        }
      }
      return Races;
    }
  RaceFinder(FD, FU, Reach, WA, EA, nullptr).run(Races);
  return Races;
}

} // namespace clang::warp
