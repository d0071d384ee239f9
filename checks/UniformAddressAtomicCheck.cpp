//===--- UniformAddressAtomicCheck.cpp - warp-uniform-address-atomic ------===//

#include "UniformAddressAtomicCheck.h"
#include "analysis/AddressEvidence.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::warp {

UniformAddressAtomicCheck::UniformAddressAtomicCheck(StringRef Name,
                                                     ClangTidyContext *Context)
    : WarpCheckBase(Name, Context),
      IgnoreIntegerAtomics(Options.get("IgnoreIntegerAtomics", false)) {
  declareFacet(FacetKind::Atomics);
  declareUnknownCallerOption(/*DefaultVarying=*/false);
}

void UniformAddressAtomicCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  WarpCheckBase::storeOptions(Opts);
  Options.store(Opts, "IgnoreIntegerAtomics", IgnoreIntegerAtomics);
}

void UniformAddressAtomicCheck::onEndOfTranslationUnit() {
  Names.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

/// Returns the type an atomic operates on: the pointee of its address, or
/// what a libcu++ read-modify-write member returns.
static QualType atomicValueType(const CallExpr *Atomic,
                                const AtomicInfo &Info) {
  if (Info.Member)
    return Atomic->getType();
  QualType P = Info.Address->IgnoreParenImpCasts()->getType();
  return !P.isNull() && P->isPointerType() ? P->getPointeeType() : QualType();
}

/// Whether \p T holds floating-point values: float and double, CUDA's
/// half and bfloat16 types and their vectors (float2, __half2, …).
static bool isFloatingValue(QualType T) {
  if (T->isRealFloatingType())
    return true;
  const auto *RD = T->getAsRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  return isFloatingRecordName(RD->getName());
}

/// The expression an atomic's address comes from: the pointer, or for a
/// libcu++ atomic_ref local the object it was bound to.
static const Expr *addressSource(const AtomicInfo &Info) {
  const Expr *E = Info.Address->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && isAtomicRef(VD->getType()))
      if (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(
              VD->getInit() ? VD->getInit()->IgnoreParenImpCasts() : nullptr);
          Ctor && Ctor->getNumArgs() >= 1)
        return Ctor->getArg(0);
  return E;
}

std::optional<LaneWitness>
UniformAddressAtomicCheck::contention(const CallExpr *Call, const Expr *Address,
                                      const FunctionUniformity &FU,
                                      WarpAnalysis &WA) {
  LaneReach &Reach = WA.laneReach(FU);
  // The address must be the same in every lane by construction, not only
  // for want of a reason it differs.
  LaneWitness W;
  if (!isUniformByConstruction(Address, FU, &Reach.evaluator())) {
    W.T = Tier::Potential;
    return reportsTier(W.T) ? std::optional(W) : std::nullopt;
  }
  Divergence D = FU.divergenceAt(Call);
  // A kernel in which nothing depends on the lane, launched in this unit
  // with a block size it takes at run time, is as often as not run one
  // thread per block (per-block bookkeeping): every lane would repeat the
  // same work. No evidence of a second lane.
  if (FU.decl()->hasAttr<CUDAGlobalAttr>() &&
      !WA.launchesOf(FU.decl()).empty() && WA.launchShapes(FU.decl()).empty() &&
      !readsLaneIndex(FU)) {
    W.T = Tier::Potential;
    return reportsTier(W.T) ? std::optional(W) : std::nullopt;
  }
  if (!D.isDiverged()) {
    W.T = Tier::Proven;
    W.Arrive = AllLanes;
    return reportsTier(W.T) ? std::optional(W) : std::nullopt;
  }
  // Which lanes get there: two that certainly do in some warp make the
  // contention. A guard that lets at most one lane of a warp through
  // (`threadIdx.x + threadIdx.y * 32 == 0`) has none to serialize against.
  std::vector<BlockExtents> Shapes = WA.launchShapes(FU.decl());
  WitnessSearch Search(Reach, Shapes);
  Search.offerWholeWarps();
  Search.acceptExactLanesOnly();
  std::optional<LaneWitness> Found =
      Search.find(Call, D, [&](const LaneWitness &C) {
        if (C.hasLanes())
          return C.Exact && llvm::popcount(C.Arrive) >= 2;
        return true;
      });
  if (!Found)
    return std::nullopt;
  // A rare data condition in a function whose callers are not known
  // (perhaps called by one lane) is no evidence of contention.
  if (Found->T == Tier::Data && WA.hasUnknownCallers(FU.decl()))
    Found->T = Tier::Potential;
  // An integer atomic behind a data condition (a compaction counter) stays
  // in the data tier: ptxas combines the lanes' atomics in release builds,
  // but -G, clang and HIP builds serialize them, and the message says so.
  return reportsTier(Found->T) ? Found : std::nullopt;
}

void UniformAddressAtomicCheck::noteContention(SourceLocation At,
                                               const LaneWitness &W,
                                               ASTContext &Ctx) {
  switch (W.T) {
  case Tier::Proven:
    if (W.Arrive == AllLanes && !W.Block && W.Warp == 0)
      noteTier(*this, At, Tier::Proven,
               "all 32 lanes of a warp get here, and the address is built "
               "only from values that are the same in every lane");
    else
      noteTier(*this, At, Tier::Proven,
               "in " + describeBlock(W.Block) + ", " + describeLanes(W.Arrive) +
                   " of a warp get here, and the "
                   "address is built only from values that are the same in "
                   "every lane");
    return;
  case Tier::Conditional: {
    std::string Name =
        W.ByLaunchShape ? std::string("blockDim.x") : shownText(W.Runtime, Ctx);
    noteTier(*this, At, Tier::Conditional,
             "how many lanes get here depends on '" + Name + "': " +
                 (W.ByLaunchShape ? "in " + describeBlock(W.Block)
                                  : "with '" + Name + "' = " +
                                        std::to_string(W.RuntimeValue)) +
                 ", " + describeLanes(W.Arrive) +
                 " of a warp get here, and the address is the same in "
                 "every lane");
  }
    return;
  case Tier::Data:
    noteTier(*this, At, Tier::Data,
             "which lanes get here depends on '" + shownText(W.DataLoad, Ctx) +
                 "', which each lane loads from its own address");
    return;
  case Tier::Potential:
    noteTier(*this, At, Tier::Potential,
             "the analysis finds no reason for the address to differ, but "
             "it is read through a local array, struct, union or reference, "
             "or the lanes that get here are not known");
    return;
  }
}

void UniformAddressAtomicCheck::checkFunction(const FunctionDecl *FD,
                                              const FunctionUniformity &FU,
                                              WarpAnalysis &WA) {
  // A kernel run one thread per block (a bookkeeping `<<<1, 1>>>`) has no
  // second lane to serialize against.
  if (WA.launchedOneThreadPerBlock(FD))
    return;
  ASTContext &Ctx = WA.context();
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || FU.isSingleLane(Call))
      return;
    if (std::optional<AtomicInfo> Atomic = matchAtomic(Call)) {
      if (!Atomic->isReadModifyWrite() || isFlagUpdate(*Atomic, Ctx))
        return;
      WarpValue Address = FU.atomicAddress(*Atomic);
      // The callers decide when the address or a guard depends on a
      // parameter (a pointer argument, `if (tid == 0)` on an argument).
      Divergence D = FU.divergenceAt(Call);
      if (!Address.isUniform() || Address.Params || D.ParamConditions)
        return;
      if (std::optional<LaneWitness> W =
              contention(Call, addressSource(*Atomic), FU, WA))
        report(Call, FU, nullptr, Ctx, *W);
      return;
    }
    // Most calls reach nothing atomic: ask that before where they run.
    const FunctionDecl *Callee = calledDefinition(Call);
    if (!Callee || !WA.mayMatter(Callee))
      return;
    Divergence AtCall = FU.divergenceAt(Call);
    // A guard on our own parameters: our callers decide (see the summary).
    if (AtCall.hasDataBranch() || AtCall.ParamConditions)
      return;
    const FunctionSummary *Summary =
        WA.summary(Callee, WarpAnalysis::argumentValues(Call, FU));
    if (!Summary)
      return;
    llvm::ArrayRef<const Expr *> Args = callArguments(Call);
    for (const UniformAtomic &A : Summary->facet<AtomicFacet>()->Atomics) {
      if (varyingArgument(A.AddressParams, Call, FU, /*WithObject=*/true))
        continue;
      // Uniform arguments that are themselves parameters: our callers decide.
      bool ParamDependent = false;
      bool Certain = true;
      LaneEvaluator *Lanes = &WA.laneReach(FU).evaluator();
      for (unsigned I = 0; I < Args.size() && I < ParamSet::ObjectIndex; ++I)
        if (A.AddressParams.contains(I)) {
          ParamDependent |= bool(FU.valueOf(Args[I]).Params);
          Certain &= isUniformByConstruction(Args[I], FU, Lanes);
        }
      if (const Expr *Object = callObject(Call);
          Object && A.AddressParams.contains(ParamSet::ObjectIndex)) {
        ParamDependent |= bool(FU.valueOf(Object).Params);
        Certain &= isUniformByConstruction(Object, FU, Lanes);
      }
      if (ParamDependent)
        continue;
      LaneWitness W;
      W.T = Certain && !AtCall.isDiverged() ? Tier::Proven : Tier::Potential;
      W.Arrive = AllLanes;
      // A guard inside the helper decides which lanes get there: they must
      // be shown to meet there too (`x + 32 * y == 0` lets one through).
      if (A.Diverged && W.T == Tier::Proven)
        if (const FunctionUniformity *Inner = WA.function(A.Owner)) {
          std::optional<LaneWitness> There = contention(
              A.Atomic, addressSource(*matchAtomic(A.Atomic)), *Inner, WA);
          if (!There)
            continue;
          W.T = std::max(W.T, There->T);
        }
      if (reportsTier(W.T))
        report(A.Atomic, FU, Call, Ctx, W, A.Path, A.Diverged);
    }
  });
}

void UniformAddressAtomicCheck::report(const CallExpr *Atomic,
                                       const FunctionUniformity &FU,
                                       const CallExpr *ViaCall, ASTContext &Ctx,
                                       const LaneWitness &W,
                                       llvm::ArrayRef<const CallExpr *> Path,
                                       bool DivergedInCallee) {
  std::optional<AtomicInfo> Info = matchAtomic(Atomic);
  if (!Info)
    return;
  // The operand type of this instantiation decides what the compiler does;
  // in a template pattern it is not known yet.
  QualType T = atomicValueType(Atomic, *Info);
  bool Known = !T.isNull() && !T->isDependentType();
  bool Integer = Known && T->isIntegerType();
  if (Integer && IgnoreIntegerAtomics)
    return;
  SourceLocation Loc = (ViaCall ? ViaCall : Atomic)->getBeginLoc();
  if (!firstReportAt(Loc))
    return;
  std::string Name = atomicName(Atomic);
  StringRef Cost =
      Integer ? "; ptxas aggregates integer atomics at -O3, but not in -G, "
                "clang or HIP builds"
      : Known && isFloatingValue(T)
          ? "; floating-point atomics are never aggregated by the compiler"
          : "; ptxas aggregates integer atomics at -O3 only, floating-point "
            "ones never";
  Divergence D = FU.divergenceAt(ViaCall ? ViaCall : Atomic);
  // Only where the warp is converged do all of its lanes take part, here
  // and, through a call, on the way to the atomic in the callee.
  StringRef Who = D.isDiverged()     ? "every lane that gets here"
                  : DivergedInCallee ? "every lane that gets there"
                                     : "every lane";
  // A helper's callers may call it from divergent code: a full-warp
  // reduction there would wait for absent lanes.
  bool MaybeDiverged = D.isDiverged() || DivergedInCallee ||
                       (!ViaCall && !FU.decl()->hasAttr<CUDAGlobalAttr>());
  bool Fixed = false;
  {
    auto Diag =
        ViaCall ? diag(Loc, "call to %0 makes %3 perform '%1' on the same "
                            "address, serializing the warp%2")
                      << calledDefinition(ViaCall) << Name << Cost << Who
                : diag(Loc, "%2 performs '%0' on the same address, serializing "
                            "the warp%1")
                      << Name << Cost << Who;
    if (!ViaCall && !MaybeDiverged)
      Fixed = addAggregationFix(Diag, Atomic, *Info, FU, Ctx);
  }
  noteDivergence(D);
  noteContention(Loc, W, Ctx);
  noteConsequence(
      *this, Loc, Consequence::Slow,
      Integer ? "the lanes' atomics serialize where the compiler does not "
                "aggregate them (-G builds: about 30x slower than one atomic "
                "per warp on an H200)"
      : Known && isFloatingValue(T)
          ? "the lanes' atomics serialize: about 32x slower than a warp "
            "reduction and one atomic per warp, measured on an H200"
          : "the lanes' atomics serialize where the compiler does not "
            "aggregate them");
  // The calls inside the helpers, in the order the lanes take them.
  const CallExpr *Previous = nullptr;
  for (const CallExpr *Step : Path)
    if (Step != std::exchange(Previous, Step))
      if (const FunctionDecl *Callee = calledDefinition(Step))
        diag(Step->getBeginLoc(), "%0 is called here", DiagnosticIDs::Note)
            << describe(Callee);
  if (ViaCall)
    diag(Atomic->getBeginLoc(),
         "'%0' on an address that is the same in every "
         "lane runs here",
         DiagnosticIDs::Note)
        << Name;
  if (MaybeDiverged)
    diag(Atomic->getBeginLoc(),
         "aggregate over the lanes that reach it: reduce with "
         "cooperative_groups::coalesced_threads() (or accumulate per thread "
         "and reduce once after the loop), then one lane performs the atomic",
         DiagnosticIDs::Note);
  else if (!Fixed && !ViaCall)
    diag(Atomic->getBeginLoc(),
         "aggregate first: reduce the operand across the warp (a shuffle "
         "loop, __reduce_*_sync or cooperative_groups::reduce), then one "
         "lane performs the atomic",
         DiagnosticIDs::Note);
}

namespace {
/// How a warp combines the operands of one atomic before a leader applies it.
struct Aggregation {
  AtomicOp Op;
  const char *Reduce; ///< __reduce_*_sync, or nullptr for a shuffle sum
  bool Signed32Ok;    ///< __reduce_* accepts int as well as unsigned
};
} // namespace

static std::optional<Aggregation> aggregationFor(AtomicOp Op, QualType T,
                                                 ASTContext &Ctx) {
  bool Int32 = T->isIntegerType() && Ctx.getTypeSize(T) == 32;
  switch (Op) {
  case AtomicOp::Add:
  case AtomicOp::Sub:
    return Aggregation{Op, nullptr, true};
  case AtomicOp::Min:
  case AtomicOp::Max:
    if (Int32)
      return Aggregation{Op, warpReductionFor(Op)->data(), true};
    return std::nullopt;
  case AtomicOp::And:
  case AtomicOp::Or:
  case AtomicOp::Xor:
    if (Int32 && T->isUnsignedIntegerType())
      return Aggregation{Op, warpReductionFor(Op)->data(), false};
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Returns whether \p S is a statement of its own under \p Parent, one that
/// a block may replace: in a block, a `case`, or the body of an unbraced
/// `if`/`else` or loop.
static bool isWholeStatement(const Stmt *S, const Stmt *Parent) {
  if (!Parent)
    return false;
  if (isa<CompoundStmt, SwitchCase, LabelStmt>(Parent))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return If->getThen() == S || If->getElse() == S;
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return For->getBody() == S;
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return While->getBody() == S;
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Do->getBody() == S;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Parent))
    return Range->getBody() == S;
  return false;
}

/// What both aggregation rewrites reuse of the atomic: the statement it
/// stands in, its operands' text, and the lane-id declaration they start with.
struct UniformAddressAtomicCheck::AggregationSite {
  const CallExpr *Atomic;
  const Stmt *Parent;   // Past implicit casts and cleanups.
  const DeclStmt *Decl; // `T slot = atomicAdd(…);`, else null.
  std::string Indent, Address, Operand, Type, Name, Lane, LaneDecl;
};

std::optional<UniformAddressAtomicCheck::AggregationSite>
UniformAddressAtomicCheck::aggregationSite(const CallExpr *Atomic,
                                           const AtomicInfo &Info,
                                           const FunctionUniformity &FU,
                                           ASTContext &Ctx) {
  // libcu++ members carry memory orders and scopes the rewrite would drop.
  QualType T = atomicValueType(Atomic, Info);
  if (Info.Member || T.isNull() || Atomic->getNumArgs() != 2 ||
      Atomic->getBeginLoc().isMacroID())
    return std::nullopt;
  AggregationSite Site;
  Site.Atomic = Atomic;
  Site.Parent = FU.parentOf(Atomic);
  while (Site.Parent && isa<ImplicitCastExpr, ExprWithCleanups>(Site.Parent))
    Site.Parent = FU.parentOf(Site.Parent);
  Site.Decl = dyn_cast_or_null<DeclStmt>(Site.Parent);
  std::optional<std::string> Indent =
      indentationAt((Site.Decl ? static_cast<const Stmt *>(Site.Decl) : Atomic)
                        ->getBeginLoc(),
                    Ctx.getSourceManager());
  Site.Address = fileText(Atomic->getArg(0)->getSourceRange(), Ctx);
  Site.Operand = fileText(Atomic->getArg(1)->getSourceRange(), Ctx);
  if (!Indent || Site.Address.empty() || Site.Operand.empty() ||
      !isRepeatable(Atomic->getArg(0)))
    return std::nullopt;
  // Inside a template the types written by the fix would be one
  // instantiation's.
  const FunctionDecl *Owner = FU.decl();
  if (Owner->isTemplateInstantiation() || Owner->isDependentContext() ||
      isa<ClassTemplateSpecializationDecl>(Owner->getDeclContext()))
    return std::nullopt;
  Site.Indent = *Indent;
  Site.Type =
      T.getUnqualifiedType().getAsString(PrintingPolicy(Ctx.getLangOpts()));
  Site.Name = calleeName(Atomic).str();
  Site.Lane = Names.get("warp_lane", Owner, Ctx);
  Site.LaneDecl = "unsigned " + Site.Lane + ";\n" + Site.Indent +
                  "asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(" + Site.Lane +
                  "));\n";
  return Site;
}

bool UniformAddressAtomicCheck::addAggregationFix(DiagnosticBuilder &Diag,
                                                  const CallExpr *Atomic,
                                                  const AtomicInfo &Info,
                                                  const FunctionUniformity &FU,
                                                  ASTContext &Ctx) {
  std::optional<AggregationSite> Site = aggregationSite(Atomic, Info, FU, Ctx);
  if (!Site)
    return false;
  if (Site->Decl && Site->Decl->isSingleDecl() && Info.Op == AtomicOp::Add &&
      atomicValueType(Atomic, Info)->isIntegerType())
    return addSlotReservationFix(Diag, *Site, FU, Ctx);
  return addReductionFix(Diag, *Site, Info, FU, Ctx);
}

bool UniformAddressAtomicCheck::addSlotReservationFix(
    DiagnosticBuilder &Diag, const AggregationSite &Site,
    const FunctionUniformity &FU, ASTContext &Ctx) {
  // `T slot = atomicAdd(p, 1);`: one atomic reserves the warp's slots, each
  // lane takes its own by rank (ballot + popc + leader + broadcast).
  const auto *VD = dyn_cast<VarDecl>(Site.Decl->getSingleDecl());
  const Expr *Increment = Site.Atomic->getArg(1);
  Expr::EvalResult One;
  if (!VD || Increment->isValueDependent() ||
      !Increment->EvaluateAsInt(One, Ctx) || One.Val.getInt() != 1)
    return false;
  CharSourceRange Range = statementRange(Site.Decl, Ctx);
  if (Range.isInvalid())
    return false;
  const FunctionDecl *FD = FU.decl();
  std::string Ballot = Names.get("warp_ballot", FD, Ctx);
  std::string Base = Names.get("warp_base", FD, Ctx);
  std::string VarType =
      VD->getType().getAsString(PrintingPolicy(Ctx.getLangOpts()));
  const std::string &I = Site.Indent, &Lane = Site.Lane;
  Diag << FixItHint::CreateReplacement(
      Range, Site.LaneDecl + I + "const unsigned " + Ballot +
                 " = __ballot_sync(0xffffffff, 1);\n" + I + Site.Type + " " +
                 Base + " = 0;\n" + I + "if (" + Lane + " == 0)\n" + I + "  " +
                 Base + " = " + Site.Name + "(" + Site.Address + ", __popc(" +
                 Ballot + "));\n" + I + VarType + " " + VD->getName().str() +
                 " = __shfl_sync(0xffffffff, " + Base + ", 0) + __popc(" +
                 Ballot + " & ((1u << " + Lane + ") - 1));");
  return true;
}

bool UniformAddressAtomicCheck::addReductionFix(DiagnosticBuilder &Diag,
                                                const AggregationSite &Site,
                                                const AtomicInfo &Info,
                                                const FunctionUniformity &FU,
                                                ASTContext &Ctx) {
  // A statement whose result is unused: reduce across the warp, then one
  // leader applies the combined operand, in a block that replaces the
  // statement (which must therefore be a whole statement of its own).
  if (!isWholeStatement(Site.Atomic, Site.Parent))
    return false;
  std::optional<Aggregation> Agg =
      aggregationFor(Info.Op, atomicValueType(Site.Atomic, Info), Ctx);
  if (!Agg)
    return false;
  CharSourceRange Range = statementRange(Site.Atomic, Ctx);
  if (Range.isInvalid())
    return false;
  const FunctionDecl *FD = FU.decl();
  const std::string &I = Site.Indent, &Type = Site.Type;
  std::string Acc = Names.get("warp_value", FD, Ctx);
  std::string Body;
  if (Agg->Reduce) {
    Body = "const " + Type + " " + Acc + " = " + Agg->Reduce + "(0xffffffff, " +
           Site.Operand + ");\n";
  } else {
    std::string Offset = Names.get("warp_offset", FD, Ctx);
    Body = Type + " " + Acc + " = " + Site.Operand + ";\n" + I + "  for (int " +
           Offset + " = 16; " + Offset + " > 0; " + Offset + " /= 2)\n" + I +
           "    " + Acc + " += __shfl_down_sync(0xffffffff, " + Acc + ", " +
           Offset + ");\n";
  }
  std::string LaneDecl = Site.LaneDecl;
  Diag << FixItHint::CreateReplacement(
      Range,
      "{\n" + I + "  " + LaneDecl.replace(LaneDecl.find('\n') + 1, 0, "  ") +
          I + "  " + Body + I + "  if (" + Site.Lane + " == 0)\n" + I + "    " +
          Site.Name + "(" + Site.Address + ", " + Acc + ");\n" + I + "}");
  return true;
}

} // namespace clang::tidy::warp
