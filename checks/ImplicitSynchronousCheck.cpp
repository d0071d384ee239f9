//===--- ImplicitSynchronousCheck.cpp - warp-implicit-synchronous ---------===//

#include "ImplicitSynchronousCheck.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warp {

using Access = ImplicitSynchronousCheck::Access;

void ImplicitSynchronousCheck::checkFunction(const FunctionDecl *FD,
                                             const FunctionUniformity &FU,
                                             WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      checkLegacyCall(Call, FU, Ctx);
  });
  // Most functions touch no volatile element: then no step has an access
  // to judge, and the walk that judges them is skipped.
  if (!FU.outline().HasVolatileElement)
    return;
  LaneReach &Reach = WA.laneReach(FU);
  llvm::SmallVector<Access, 8> Pending;
  walk(FD->getBody(), Pending, FU, Reach, Ctx);
}

bool ImplicitSynchronousCheck::wholeWarps(const Stmt *S,
                                          const FunctionUniformity &FU,
                                          LaneReach &Reach) {
  if (!FU.divergenceAt(S).isDiverged())
    return true;
  // `if (tid < 32)`: lanes split by warps only, which the analysis may not
  // see but the lane sets do.
  if (!Reach.isExact(S))
    return false;
  for (uint64_t W : LaneEvaluator::warpSamples(Reach.dependsOnWarp())) {
    LaneSet L = Reach.mayReach(S, W);
    if (L != 0 && L != AllLanes)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Legacy intrinsics
//===----------------------------------------------------------------------===//

void ImplicitSynchronousCheck::checkLegacyCall(const CallExpr *Call,
                                               const FunctionUniformity &FU,
                                               ASTContext &Ctx) {
  const LegacyIntrinsic *Legacy = lookupLegacyIntrinsic(intrinsicName(Call));
  if (!Legacy || Call->getNumArgs() == 0)
    return;
  SourceLocation Loc = Call->getBeginLoc();
  if (!firstReportAt(Loc))
    return;
  bool Converged = !FU.divergenceAt(Call).isDiverged();
  {
    auto Diag = diag(Loc, "'%0' has no mask: it synchronizes implicitly with "
                          "whichever lanes run it together, which is not "
                          "guaranteed since Volta; use '%1'")
                << Legacy->Name << Legacy->SyncName;
    const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
    const Expr *First = Call->getArg(0);
    if (Converged && !Loc.isMacroID() && !First->getBeginLoc().isMacroID() &&
        isa<DeclRefExpr>(Callee))
      Diag << FixItHint::CreateReplacement(
                  CharSourceRange::getTokenRange(Callee->getSourceRange()),
                  Legacy->SyncName)
           << FixItHint::CreateInsertion(First->getBeginLoc(), "0xffffffff, ");
  }
  if (!Converged) {
    noteDivergence(FU.divergenceAt(Call));
    diag(Loc,
         "pass the mask of the lanes that run it, computed with "
         "__ballot_sync(0xffffffff, <condition>) before the lanes diverge",
         DiagnosticIDs::Note);
  }
}

//===----------------------------------------------------------------------===//
// Volatile shared-memory exchanges
//===----------------------------------------------------------------------===//

/// `Base[Index]` with a volatile element, Base a variable.
static std::optional<Access> volatileElement(const Expr *E) {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!ASE || !ASE->getType().isVolatileQualified())
    return std::nullopt;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
  if (!DRE)
    return std::nullopt;
  return Access{ASE, DRE->getDecl(), ASE->getIdx()};
}

/// The volatile elements \p S writes and reads (a write's target is not
/// also a read, unless a compound assignment reads it).
static void accessesIn(const Stmt *S, llvm::SmallVectorImpl<Access> &Writes,
                       llvm::SmallVectorImpl<Access> &Reads) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp()) {
    if (std::optional<Access> W = volatileElement(BO->getLHS())) {
      Writes.push_back(*W);
      if (BO->isCompoundAssignmentOp())
        Reads.push_back(*W);
      accessesIn(W->Index, Writes, Reads);
      accessesIn(BO->getRHS(), Writes, Reads);
      return;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    if (std::optional<Access> W = volatileElement(UO->getSubExpr())) {
      Writes.push_back(*W);
      Reads.push_back(*W);
      return;
    }
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<Access> R = volatileElement(E)) {
      Reads.push_back(*R);
      accessesIn(R->Index, Writes, Reads);
      return;
    }
  for (const Stmt *Child : S->children())
    accessesIn(Child, Writes, Reads);
}

/// The offset K when \p Read indexes `Index + K` (or `K + Index`) with K not
/// zero: nullopt otherwise; a K that is not a constant gives INT64_MIN.
static std::optional<int64_t> offsetFrom(const Expr *Read, const Expr *Index,
                                         const FunctionUniformity &FU,
                                         ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(Read->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add)
    return std::nullopt;
  const Expr *K = nullptr;
  if (sameExpr(BO->getLHS(), Index, Ctx))
    K = BO->getRHS();
  else if (sameExpr(BO->getRHS(), Index, Ctx))
    K = BO->getLHS();
  if (!K)
    return std::nullopt;
  Expr::EvalResult R;
  if (!K->isValueDependent() && K->EvaluateAsInt(R, Ctx)) {
    int64_t V = R.Val.getInt().getExtValue();
    if (V == 0)
      return std::nullopt;
    return V;
  }
  // A loop's stride (`vs[tid + s]`, s halving): the same in every lane. One
  // of 32 or more, by the loop's condition (`s >= 32`), reads another warp's
  // element: ordered by block barriers, not a race inside a warp.
  if (FU.valueOf(K).isUniform()) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(K->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (std::optional<int64_t> Least = counterAtLeast(Read, VD, FU, Ctx);
            Least && *Least >= 32)
          return std::nullopt;
    return INT64_MIN;
  }
  return std::nullopt;
}

/// Whether \p Index differs between the lanes (a lane or thread index, or a
/// parameter that callers pass one in).
static bool perLane(const Expr *Index, const FunctionUniformity &FU) {
  WarpValue V = FU.valueOf(Index);
  return V.isVarying() || bool(V.Params);
}

/// Whether, in some iteration of the counted loops around \p S, a lane that
/// runs it reads (at \p ReadIndex) the element another lane that runs it
/// writes (at \p WriteIndex): `if (lane < s) v[tid] += v[tid + s]` with s
/// halving reads only elements no running lane writes. True where an index
/// is not known per lane.
static bool readsAnotherWriter(const Stmt *S, const Expr *WriteIndex,
                               const Expr *ReadIndex,
                               const FunctionUniformity &FU, LaneReach &Reach) {
  LaneEvaluator &Eval = Reach.evaluator();
  bool Race = false;
  forEachCounterValue(S, FU, Eval, [&] {
    for (uint64_t W : LaneEvaluator::warpSamples(true)) {
      LaneSet Running = Reach.mayReach(S, W);
      llvm::SmallDenseMap<int64_t, unsigned, 32> WrittenBy;
      for (unsigned L = 0; L < 32; ++L)
        if (Running >> L & 1) {
          std::optional<int64_t> At = Eval.valueIn(WriteIndex, L, W);
          if (!At)
            return !(Race = true);
          WrittenBy[*At] = L;
        }
      for (unsigned L = 0; L < 32; ++L)
        if (Running >> L & 1) {
          std::optional<int64_t> At = Eval.valueIn(ReadIndex, L, W);
          auto It = At ? WrittenBy.find(*At) : WrittenBy.end();
          if (!At || (It != WrittenBy.end() && It->second != L))
            return !(Race = true);
        }
    }
    return true;
  });
  return Race;
}

/// Whether two lanes L and L + K of one warp may both run \p S, when the
/// lanes index the array by their own lane (threadIdx.x or a lane id); K
/// INT64_MIN: a uniform offset not known here, tried per iteration.
static bool partnersMayRun(const Stmt *S, const Expr *Index,
                           const Expr *ReadIndex, int64_t K,
                           const FunctionUniformity &FU, LaneReach &Reach) {
  if (K == INT64_MIN)
    return readsAnotherWriter(S, Index, ReadIndex, FU, Reach);
  WarpValue V = FU.valueOf(Index);
  if (!V.isLaneIndexed() || V.laneOffset() != 0)
    return true; // which lanes write which element is not known
  for (uint64_t W : LaneEvaluator::warpSamples(Reach.dependsOnWarp())) {
    LaneSet L = Reach.mayReach(S, W);
    if (K > 0 ? (L & (L >> K)) != 0 : (L & (L << -K)) != 0)
      return true;
  }
  return false;
}

void ImplicitSynchronousCheck::walk(const Stmt *S,
                                    llvm::SmallVectorImpl<Access> &Pending,
                                    const FunctionUniformity &FU,
                                    LaneReach &Reach, ASTContext &Ctx) {
  if (!S)
    return;
  if (isa<Expr, DeclStmt>(S)) {
    checkStep(S, Pending, FU, Reach, Ctx);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walk(If->getCond(), Pending, FU, Reach, Ctx);
    walk(If->getThen(), Pending, FU, Reach, Ctx);
    walk(If->getElse(), Pending, FU, Reach, Ctx);
    return;
  }
  for (const Stmt *Child : S->children())
    walk(Child, Pending, FU, Reach, Ctx);
}

/// Whether \p S orders the memory accesses of the lanes around it: a warp
/// or block barrier.
static bool isBarrier(const Stmt *S) {
  if (std::optional<CollectiveUse> Use = matchCollective(S))
    return Use->Info->Kind == CollectiveKind::SyncWarp;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return isBarrierName(calleeName(Call));
  return false;
}

static bool containsBarrier(const Stmt *S) {
  if (!S)
    return false;
  if (isBarrier(S))
    return true;
  for (const Stmt *Child : S->children())
    if (containsBarrier(Child))
      return true;
  return false;
}

void ImplicitSynchronousCheck::checkStep(const Stmt *Step,
                                         llvm::SmallVectorImpl<Access> &Pending,
                                         const FunctionUniformity &FU,
                                         LaneReach &Reach, ASTContext &Ctx) {
  llvm::SmallVector<Access, 4> Writes, Reads;
  accessesIn(Step, Writes, Reads);
  // A barrier in the step orders what came before it, and its own
  // accesses are not judged; only a step with accesses, or with writes
  // pending before it, needs the look for one.
  if ((!Writes.empty() || !Reads.empty() || !Pending.empty()) &&
      containsBarrier(Step)) {
    Pending.clear();
    return;
  }
  if (Writes.empty() && Reads.empty())
    return;
  // A read of Base[Index + K] where Base[Index] was written: by this step
  // (lane Index + K writes what lane Index reads) or by an earlier one with
  // no barrier since.
  const Access *Racing = nullptr, *Writer = nullptr;
  bool SameStep = false;
  for (const Access &R : Reads) {
    auto Match = [&](const Access &W) {
      if (W.Base != R.Base || !perLane(W.Index, FU))
        return false;
      std::optional<int64_t> K = offsetFrom(R.Index, W.Index, FU, Ctx);
      return K && (*K == INT64_MIN || (*K > -32 && *K < 32)) &&
             partnersMayRun(Step, W.Index, R.Index, *K, FU, Reach);
    };
    for (const Access &W : Writes)
      if (Match(W)) {
        Racing = &R, Writer = &W, SameStep = true;
        break;
      }
    if (!Racing)
      for (const Access &W : Pending)
        if (Match(W)) {
          Racing = &R, Writer = &W;
          break;
        }
    if (Racing)
      break;
  }
  bool Fixed = false;
  bool AfterPending = Racing && !SameStep;
  if (!AfterPending && Racing)
    for (const Access &R : Reads)
      for (const Access &W : Pending)
        if (W.Base == R.Base &&
            offsetFrom(R.Index, W.Index, FU, Ctx).has_value())
          AfterPending = true;
  if (Racing && firstReportAt(Racing->Expr->getBeginLoc())) {
    std::string Read = shownText(Racing->Expr, Ctx);
    std::string Written = shownText(Writer->Expr, Ctx);
    {
      auto Diag =
          SameStep
              ? diag(Racing->Expr->getBeginLoc(),
                     "'%0' is read while another lane writes it as '%1' in "
                     "the same step: without __syncwarp() between the reads "
                     "and the writes the lanes of a warp race (they do not "
                     "run in lockstep since Volta)")
              : diag(Racing->Expr->getBeginLoc(),
                     "'%0' is read after other lanes wrote it as '%1' with no "
                     "__syncwarp() in between: the lanes of a warp race (they "
                     "do not run in lockstep since Volta)");
      Diag << Read << Written;
      if (wholeWarps(Step, FU, Reach))
        Fixed = SameStep
                    ? addStepFix(Diag, Step, *Writer, AfterPending, FU, Ctx)
                    : addBarrierFix(Diag, Step, FU, Ctx);
    }
    if (!SameStep)
      diag(Writer->Expr->getBeginLoc(), "written here", DiagnosticIDs::Note);
    if (!Fixed)
      diag(Step->getBeginLoc(),
           "separate each step's reads from its writes, and the steps from "
           "each other, with __syncwarp() (or use __shfl_down_sync)",
           DiagnosticIDs::Note);
  }
  // A fixed step ends with a barrier; a barrier inserted before a step
  // orders what came before.
  if (Fixed) {
    Pending.clear();
    if (SameStep)
      return;
  }
  for (const Access &W : Writes)
    if (perLane(W.Index, FU))
      Pending.push_back(W);
}

bool ImplicitSynchronousCheck::addBarrierFix(DiagnosticBuilder &Diag,
                                             const Stmt *Step,
                                             const FunctionUniformity &FU,
                                             ASTContext &Ctx) {
  // Only between two statements of a block: elsewhere the insertion would
  // change what an unbraced `if` or loop controls.
  if (!isa_and_nonnull<CompoundStmt>(FU.parentOf(Step)) ||
      Step->getBeginLoc().isMacroID())
    return false;
  std::optional<std::string> Indent =
      indentationAt(Step->getBeginLoc(), Ctx.getSourceManager());
  if (!Indent)
    return false;
  Diag << FixItHint::CreateInsertion(Step->getBeginLoc(),
                                     "__syncwarp();\n" + *Indent);
  return true;
}

bool ImplicitSynchronousCheck::addStepFix(
    DiagnosticBuilder &Diag, const Stmt *Step, const Access &Writer,
    bool AfterPending, const FunctionUniformity &FU, ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(Step);
  if (!BO || BO->getLHS()->IgnoreParenImpCasts() != Writer.Expr ||
      Step->getBeginLoc().isMacroID() || Step->getEndLoc().isMacroID())
    return false;
  std::string Target = fileText(BO->getLHS()->getSourceRange(), Ctx);
  std::string Value = fileText(BO->getRHS()->getSourceRange(), Ctx);
  CharSourceRange Range = statementRange(Step, Ctx);
  if (Target.empty() || Value.empty() || Range.isInvalid())
    return false;
  std::string Body;
  if (BO->isCompoundAssignmentOp()) {
    std::string Temp = Names.get("warp_step", FU.decl(), Ctx);
    StringRef Op = BinaryOperator::getOpcodeStr(
        BinaryOperator::getOpForCompoundAssignment(BO->getOpcode()));
    Body = "auto " + Temp + " = " + Target + " " + Op.str() + " (" + Value +
           "); __syncwarp(); " + Target + " = " + Temp + ";";
  } else if (const auto *Inner =
                 dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
             Inner && Inner->getOpcode() == BO_Assign &&
             isa<DeclRefExpr>(Inner->getLHS()->IgnoreParenImpCasts())) {
    // `vs[i] = sum = sum + vs[i + k];`: the local carries the value.
    std::string Local = fileText(Inner->getLHS()->getSourceRange(), Ctx);
    Body = Value + "; __syncwarp(); " + Target + " = " + Local + ";";
  } else {
    std::string Temp = Names.get("warp_step", FU.decl(), Ctx);
    Body = "auto " + Temp + " = " + Value + "; __syncwarp(); " + Target +
           " = " + Temp + ";";
  }
  Diag << FixItHint::CreateReplacement(
      Range, std::string("{ ") + (AfterPending ? "__syncwarp(); " : "") + Body +
                 " __syncwarp(); }");
  return true;
}

} // namespace clang::tidy::warp
