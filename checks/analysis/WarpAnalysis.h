//===--- WarpAnalysis.h - per-translation-unit analysis cache ---*- C++ -*-===//
//
// Owns the FunctionUniformity of every analysed function of one translation
// unit and the interprocedural summaries built from them, so that all checks
// share one analysis per function.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_WARPANALYSIS_H
#define WARP_LINT_ANALYSIS_WARPANALYSIS_H

#include "AbsentLanes.h"
#include "AtomicFacet.h"
#include "CollectiveFacet.h"
#include "FunctionSummary.h"
#include "FunctionUniformity.h"
#include "KernelLaunches.h"
#include "LaneSets.h"
#include "RelevantFunctions.h"
#include "UnknownCallers.h"
#include "WarpCollectives.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>
#include <set>

namespace clang::warp {

/// Returns the full mask value of \p Use's mask (literal, macro, constexpr,
/// default argument, PTX immediate, constant local), if it names all lanes.
bool hasFullMask(const CollectiveUse &Use, const FunctionUniformity &FU,
                 ASTContext &Ctx);

/// Returns the parameter a mask expression reads directly, if any.
const ParmVarDecl *maskParameter(const Expr *Mask);

/// Returns whether the definition \p FD is analysed on its own: not a
/// template pattern, unless no instantiation in the unit covers it (header-
/// only libraries are mostly templates; their instantiations are analysed
/// with the real arguments instead).
bool isAnalysedDefinition(const FunctionDecl *FD);

/// Returns the function definition \p Call reaches, if it has a body.
const FunctionDecl *calledDefinition(const CallExpr *Call);

/// Returns whether \p Call invokes a callable whose type is a template
/// parameter of the function it is in (`f(threadIdx.x, args...)` in a
/// generic launch helper): that function only forwards, the callable is
/// the code its user wrote.
bool callsTemplateCallable(const CallExpr *Call);

/// Returns the parameters of \p Caller that the arguments of \p Call bound
/// to the callee's parameters \p CalleeParams depend on; sets \p AnyVarying
/// when one of those arguments varies in the caller. With \p WithObject, the
/// object a method is called on counts as its ParamSet::ObjectIndex argument.
ParamSet mapParams(ParamSet CalleeParams, const CallExpr *Call,
                   const FunctionUniformity &Caller, bool &AnyVarying,
                   bool WithObject = false);

/// Returns the first argument bound to one of \p Params whose value varies
/// between lanes in \p Caller, if any; with \p WithObject, the object a
/// method is called on counts as its ParamSet::ObjectIndex argument.
const Expr *varyingArgument(ParamSet Params, const CallExpr *Call,
                            const FunctionUniformity &Caller,
                            bool WithObject = false);

/// One function on the way from a call to a collective its callees run.
struct PathFrame {
  /// The function's analysis with the values its call passes.
  const FunctionUniformity *FU = nullptr;
  /// The call taken inside it toward the collective, or the collective.
  const Stmt *Next = nullptr;
};

/// The frames between a call and the collective it leads to, and where the
/// lanes split on the way (see WarpAnalysis::divergencePath).
struct DivergencePath {
  /// The callees, outermost first; the last one runs the collective.
  llvm::SmallVector<PathFrame, 4> Frames;
  /// The frame whose Next the lanes reach diverged, and how they diverged.
  unsigned DivergedFrame = 0;
  Divergence At;

  bool found() const { return At.isDiverged(); }
};

class WarpAnalysis : public ValueOracle {
public:
  /// The analysis of the translation unit of \p Ctx; its summaries carry
  /// the facets in \p Facets. Front ends get theirs from UnitAnalyses.
  WarpAnalysis(ASTContext &Ctx, const UniformityOptions &Opts,
               FacetSet Facets = AllFacets)
      : Ctx(Ctx), Opts(Opts), Facets(Facets) {}
  ~WarpAnalysis() override;

  ASTContext &context() { return Ctx; }
  /// The analysis of \p FD, or null when it has no body or CFG.
  const FunctionUniformity *function(const FunctionDecl *FD);
  /// The summary of \p FD, or null while it is being computed (recursion).
  const FunctionSummary *summary(const FunctionDecl *FD);

  /// The analysis and summary of \p FD for one call whose arguments have
  /// the values \p Args in the caller. Where an argument says more than
  /// "uniform if the caller's is" (it is a lane index, a constant, varies)
  /// and the generic summary depends on that parameter, \p FD is analysed
  /// again with those values on entry: `helper(threadIdx.x)` then sees its
  /// `if (tid == 0)` elect one lane. The generic ones otherwise, during
  /// recursion, and past a budget.
  const FunctionUniformity *function(const FunctionDecl *FD,
                                     llvm::ArrayRef<WarpValue> Args);
  const FunctionSummary *summary(const FunctionDecl *FD,
                                 llvm::ArrayRef<WarpValue> Args);
  /// The first argument of \p Call bound to one of \p ParamConditions that
  /// varies in \p Caller and, by the call-site analysis, does split the
  /// lanes before \p Collective (which the callee or its callees run); null
  /// when none does. This and divergencePath read the CollectiveFacet.
  /// \p Via, when given, is the statement of the callee the need came by
  /// (FullWarpNeed::Via): a helper that runs a collective twice has two.
  const Expr *divergingArgument(const CallExpr *Call, ParamSet ParamConditions,
                                const Stmt *Collective,
                                const FunctionUniformity &Caller,
                                const Stmt *Via = nullptr);
  /// The way from \p Call (in \p Caller) down to \p Collective, each callee
  /// analysed with the values its call passes: the call taken in each
  /// callee, and the first of them (or the collective) that the lanes reach
  /// diverged. No frames when the way cannot be traced.
  DivergencePath divergencePath(const CallExpr *Call, const Stmt *Collective,
                                const FunctionUniformity &Caller,
                                const Stmt *Via = nullptr);
  /// Tells the analysis that the checks move on to \p FD, so every check is
  /// done with the function they saw before it. A kernel's analysis is then
  /// freed: nothing calls a kernel, so no other analysis asks for it again
  /// (unless it defines lambdas, whose analyses read its values). A unit
  /// that instantiates a kernel a thousand times keeps one at a time.
  void startChecking(const FunctionDecl *FD);
  /// The lane sets of analysis \p FU, shared by the checks that ask for
  /// them (the per-lane evaluation of every branch in up to 65 sample
  /// warps, which the checks would otherwise each compute again); kept
  /// until the checks move on to another function.
  LaneReach &laneReach(const FunctionUniformity &FU);
  /// Whether \p FD is written in a system header (where it expands). Every
  /// check asks about the function it matched, one after the other: the
  /// answer for the last function asked is kept.
  bool inSystemHeader(const FunctionDecl *FD);
  /// Whether \p FD is an entry point whose callers are unknown: a device
  /// function with external linkage no code in the unit refers to.
  bool hasUnknownCallers(const FunctionDecl *FD);
  /// Whether anything in \p FD, or in what it calls, is something a check
  /// can act on (RelevantFunctions): the others need no analysis of their
  /// own.
  bool mayMatter(const FunctionDecl *FD) { return Relevant.mayMatter(FD); }
  /// Every call of \p FD in the unit, when nothing else in it refers to FD.
  std::optional<llvm::ArrayRef<UnknownCallers::CallSite>>
  onlyCalledAt(const FunctionDecl *FD);
  /// What lanes returning from \p FD meet in its callers (fateAfter at
  /// each call), or nullopt when the unit does not show all its callers.
  std::optional<Fate> fateAfterReturn(const FunctionDecl *FD);
  /// The analysis of \p FD with its scalar parameters (arithmetic or enum,
  /// by value) taken to differ between lanes by data, as an unknown caller
  /// may pass them; the generic one when it has none.
  const FunctionUniformity *withVaryingParameters(const FunctionDecl *FD);

  /// The values of \p Call's arguments (callArguments) in \p Caller.
  static llvm::SmallVector<WarpValue, 4>
  argumentValues(const CallExpr *Call, const FunctionUniformity &Caller);

  std::optional<WarpValue> callResult(const CallExpr *Call,
                                      const FunctionDecl *Callee,
                                      llvm::ArrayRef<WarpValue> Args,
                                      const WarpValue *Object) override;
  std::optional<ParamWrite> paramWrite(const CallExpr *Call, unsigned Param,
                                       llvm::ArrayRef<WarpValue> Args) override;
  WarpValue capturedValue(const VarDecl *VD) override;
  bool launchedWarpAligned(const FunctionDecl *Kernel) override;
  /// Whether \p FD is a kernel whose every launch in this translation unit
  /// (one at least) runs blocks of one thread: its warps have one lane each.
  bool launchedOneThreadPerBlock(const FunctionDecl *FD);
  /// The launches of \p Kernel in this translation unit.
  llvm::ArrayRef<KernelLaunch> launchesOf(const FunctionDecl *Kernel);
  /// The blocks every launch of \p FD in the unit shows, when each is a
  /// constant (empty otherwise: an unknown block). A device function runs
  /// in the blocks of the kernels that call it, when the unit shows every
  /// call on the way.
  llvm::ArrayRef<BlockExtents> launchShapes(const FunctionDecl *FD);
  /// Every kernel launch in this translation unit.
  llvm::ArrayRef<KernelLaunch> launches();
  void analysing(const FunctionDecl *FD,
                 const ValueEvaluator::VarState *Vars) override {
    Partial[FD] = Vars;
  }
  std::optional<int64_t> integerConstant(const Expr *E,
                                         ASTContext &Ctx) override;
  unsigned unfinishedReads() const override { return UnfinishedReads; }

private:
  FunctionSummary computeSummary(const FunctionDecl *FD,
                                 const FunctionUniformity &FU);
  /// One call-site analysis of a function (see function(FD, Args)).
  struct Specialization {
    std::unique_ptr<FunctionUniformity> FU;
    std::unique_ptr<FunctionSummary> Summary;
  };
  using SpecializationKey = std::pair<const FunctionDecl *, std::string>;
  /// The entry values for \p Args and their key; empty when they are the
  /// generic ones.
  static std::vector<WarpValue> entryValues(llvm::ArrayRef<WarpValue> Args,
                                            std::string &Key);
  std::map<SpecializationKey, Specialization> Specialized;
  std::set<SpecializationKey> SpecializationsInProgress;

  ASTContext &Ctx;
  UniformityOptions Opts;
  FacetSet Facets;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionUniformity>>
      Functions;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionSummary>>
      Summaries;
  llvm::SmallPtrSet<const FunctionDecl *, 8> InProgress;
  /// Analyses and summaries under way; 0 while none is, when a request
  /// comes from a check or tool.
  unsigned Nesting = 0;
  /// Functions whose analysis was handed to a check or tool: kept for the
  /// whole unit, as the caller may hold it.
  llvm::DenseSet<const FunctionDecl *> HandedOut;
  /// The function the checks saw last (startChecking).
  const FunctionDecl *LastChecked = nullptr;
  /// The last function inSystemHeader was asked about, and its answer.
  const FunctionDecl *SystemHeaderAsked = nullptr;
  bool LastInSystemHeader = false;
  /// The unit's launches; filled on first use by one walk over the
  /// translation unit.
  std::optional<std::vector<KernelLaunch>> Launches;
  /// The same, by kernel (canonical declaration).
  llvm::DenseMap<const FunctionDecl *, std::vector<KernelLaunch>>
      LaunchesByKernel;
  /// Filled on first use by one walk over the translation unit.
  std::optional<UnknownCallers> Entries;
  RelevantFunctions Relevant;
  /// launchShapes' answers (nullopt while one is being computed: a
  /// recursive helper runs in any block).
  llvm::DenseMap<const FunctionDecl *, std::optional<std::vector<BlockExtents>>>
      LaunchShapes;
  /// fateAfterReturn's answers (nullopt while one is being computed).
  llvm::DenseMap<const FunctionDecl *, std::optional<Fate>> ReturnFates;
  /// integerConstant's answers, by expression.
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Constants;
  /// The same for a plain read of a variable, by variable: every read of
  /// one has its value (a unit reads its constants thousands of times).
  llvm::DenseMap<const VarDecl *, std::optional<int64_t>> VariableConstants;
  /// Owners whose unfinished values were read as captures, in order. An
  /// analysis that read one whose owner is still in progress when it ends is
  /// provisional: kept alive here until no analysis is under way, not cached.
  /// A capture read from an enclosing function whose analysis was under way.
  struct CaptureRead {
    const FunctionDecl *Owner;
    const VarDecl *Var;
    WarpValue Value;
  };
  std::vector<CaptureRead> PartialReads;
  /// Calls of unfinishedCapture so far (PartialReads is cleared when idle).
  unsigned UnfinishedReads = 0;
  bool readUnfinishedCaptures(size_t Since) const;
  void forgetProvisionalWhenIdle();
  /// The value of capture \p VD of \p Owner, whose analysis is under way,
  /// reached so far.
  WarpValue unfinishedCapture(const FunctionDecl *Owner, const VarDecl *VD);
  /// \p V, a value of \p Owner, as a lambda inside it reads it: what depends
  /// on Owner's parameters depends on the lambda's closure object.
  static WarpValue asCapture(WarpValue V, const FunctionDecl *Owner);
  /// A provisional analysis and summary, reused while the captures it read
  /// keep their values: re-analysing on every call would multiply with the
  /// fixpoint rounds of each enclosing function.
  struct ProvisionalEntry {
    const FunctionUniformity *FU = nullptr;
    const FunctionSummary *Summary = nullptr;
    std::vector<CaptureRead> Reads;
  };
  std::map<SpecializationKey, ProvisionalEntry> ProvisionalCache;
  /// The still-valid provisional entry for \p K, if any.
  ProvisionalEntry *reusableProvisional(const SpecializationKey &K);
  /// Adds to \p Into the reads of \p More it does not have yet.
  static void addReads(std::vector<CaptureRead> &Into,
                       std::vector<CaptureRead> More);
  /// The capture reads made since \p Since of owners still under way.
  std::vector<CaptureRead> unfinishedReadsSince(size_t Since) const;
  /// Variables of the functions whose analysis is under way.
  llvm::DenseMap<const FunctionDecl *, const ValueEvaluator::VarState *>
      Partial;
  std::vector<std::unique_ptr<FunctionUniformity>> Provisional;
  std::vector<std::unique_ptr<FunctionSummary>> ProvisionalSummaries;
  /// laneReach's: the lane sets of one analysis (declared last, so that it
  /// goes before the analyses it refers to).
  std::unique_ptr<LaneReach> SharedReach;
};

} // namespace clang::warp

#endif
