//===--- WarpCheckBase.cpp - shared plumbing of the warp- checks ----------===//

#include "WarpCheckBase.h"
#include "WarpOptions.h"
#include "analysis/LaunchSummary.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <functional>

using namespace clang::ast_matchers;

namespace clang::tidy::warp {

WarpCheckBase::WarpCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), TidyContext(Context) {
  AnalysisOptions = analysisOptionsOf(Context->getOptions().CheckOptions, Name);
  StringRef Default = "proven,conditional,data";
  std::string Value = Options.getLocalOrGlobal("Tiers", Default).str();
  llvm::SmallVector<StringRef, 4> Names;
  StringRef(Value).split(Names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef N : Names) {
    std::optional<Tier> T = parseTier(N);
    if (!T) {
      configurationDiag("invalid configuration value '%0' for option "
                        "'%1Tiers'; expected a comma-separated list of "
                        "proven, conditional, data and potential")
          << Value << (getID() + ".").str();
      Tiers = 0;
      Names.clear();
      StringRef(Default).split(Names, ',');
      for (StringRef D : Names)
        Tiers |= 1u << unsigned(*parseTier(D));
      break;
    }
    Tiers |= 1u << unsigned(*T);
  }
}

void WarpCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "WarpAlignedBlockDimX",
                AnalysisOptions.ThreadIdxYZUniform);
  std::string Names;
  for (Tier T : {Tier::Proven, Tier::Conditional, Tier::Data, Tier::Potential})
    if (reportsTier(T))
      Names += (Names.empty() ? "" : ",") + tierName(T).str();
  Options.store(Opts, "Tiers", Names);
  if (VaryingUnknownCallers)
    Options.store(Opts, "UnknownCallerParameters",
                  *VaryingUnknownCallers ? "varying" : "uniform");
}

void WarpCheckBase::declareUnknownCallerOption(bool DefaultVarying) {
  StringRef Default = DefaultVarying ? "varying" : "uniform";
  std::string Value =
      Options.getLocalOrGlobal("UnknownCallerParameters", Default).str();
  if (Value != "uniform" && Value != "varying") {
    configurationDiag("invalid configuration value '%0' for option "
                      "'%1UnknownCallerParameters'; expected uniform or "
                      "varying")
        << Value << (getID() + ".").str();
    Value = Default.str();
  }
  VaryingUnknownCallers = Value == "varying";
}

namespace {
/// A definition of a function that runs on the device (__device__,
/// __global__, or both sides). One matcher node rather than a composition:
/// every check asks it of every function of the unit, thousands of
/// template instances in a large one. Whether the function is in a system
/// header is asked once for all checks (WarpAnalysis::inSystemHeader).
AST_MATCHER(FunctionDecl, isDeviceDefinition) {
  return Node.isThisDeclarationADefinition() &&
         (Node.hasAttr<CUDADeviceAttr>() || Node.hasAttr<CUDAGlobalAttr>());
}
} // namespace

void WarpCheckBase::useAnalyses(std::shared_ptr<UnitAnalyses> Shared) {
  Analyses = std::move(Shared);
  for (unsigned K = 0; K < FacetKinds; ++K)
    if (Facets & facetBit(FacetKind(K)))
      Analyses->declareFacet(FacetKind(K));
}

void WarpCheckBase::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDeviceDefinition()).bind("fn"), this);
}

void WarpCheckBase::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || !FD->getBody())
    return;
  if (!isAnalysedDefinition(FD))
    return;
  Context = Result.Context;
  if (!Analyses)
    useAnalyses(std::make_shared<UnitAnalyses>());
  WarpAnalysis &WA = Analyses->get(*Result.Context, AnalysisOptions);
  if (WA.inSystemHeader(FD))
    return;
  WA.startChecking(FD);
  if (!WA.mayMatter(FD))
    return;
  const FunctionUniformity *FU = WA.function(FD);
  if (!FU)
    return;
  CurrentFunction = FD;
  CurrentAnalysis = &WA;
  CurrentFU = FU;
  // Nothing in the unit calls it: its real callers may pass anything.
  if (VaryingUnknownCallers.value_or(false) && FD->getNumParams() &&
      WA.hasUnknownCallers(FD))
    if (const FunctionUniformity *Varying = WA.withVaryingParameters(FD))
      if (Varying != FU) {
        GenericAnalysis = FU;
        FU = Varying;
      }
  CurrentFU = FU;
  checkFunction(FD, *FU, WA);
  CurrentFU = nullptr;
  CurrentFunction = nullptr;
  CurrentAnalysis = nullptr;
  GenericAnalysis = nullptr;
}

void WarpCheckBase::onEndOfTranslationUnit() {
  Reported.clear();
  // Every check has matched by now: the shared analysis can go.
  if (Context && Analyses)
    Analyses->release(*Context);
  Context = nullptr;
}

bool WarpCheckBase::firstReportAt(SourceLocation Loc) {
  if (Loc.isMacroID() && Context)
    Loc = Context->getSourceManager().getExpansionLoc(Loc);
  return Reported.insert(Loc.getRawEncoding()).second;
}

unsigned WarpCheckBase::hiddenSoFar() const {
  return TidyContext->getStats().ErrorsIgnoredNOLINT;
}

bool WarpCheckBase::passesLineFilter(SourceLocation Loc) const {
  // clang-tidy's own rule (ClangTidyDiagnosticConsumer::passesLineFilter),
  // known here before the warning it drops is finalized.
  const std::vector<FileFilter> &Filters =
      TidyContext->getGlobalOptions().LineFilter;
  if (Filters.empty() || !Context)
    return true;
  const SourceManager &SM = Context->getSourceManager();
  OptionalFileEntryRef File =
      SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
  if (!File)
    return true;
  unsigned Line = SM.getExpansionLineNumber(Loc);
  for (const FileFilter &F : Filters)
    if (File->getName().ends_with(F.Name))
      return F.LineRanges.empty() ||
             llvm::any_of(F.LineRanges, [&](const FileFilter::LineRange &R) {
               return R.first <= Line && Line <= R.second;
             });
  return false;
}

void WarpCheckBase::declarationEmitted(SharedName &N, unsigned HiddenBefore,
                                       SourceLocation Loc) {
  if (hiddenSoFar() == HiddenBefore && passesLineFilter(Loc))
    N.Declared = true;
}

/// Where a note about branch \p B points: the exit the other lanes took,
/// else the condition, else the branch statement.
static SourceLocation where(const DivergentBranch &B) {
  return B.Exit        ? B.Exit->getBeginLoc()
         : B.Condition ? B.Condition->getExprLoc()
                       : B.Terminator->getBeginLoc();
}

StringRef WarpCheckBase::certainty(const Divergence &D) {
  return D.strongest() == Variance::Lane ? "" : "potentially ";
}

void WarpCheckBase::noteDivergence(const Divergence &D) {
  for (const DivergentBranch &B : D.Branches) {
    bool Lane = B.Value.V == Variance::Lane;
    if (B.Exit) {
      diag(B.Exit->getBeginLoc(),
           Lane ? "lanes exit here" : "lanes may exit here",
           DiagnosticIDs::Note);
      continue;
    }
    SourceLocation Loc =
        B.Condition ? B.Condition->getExprLoc() : B.Terminator->getBeginLoc();
    diag(Loc,
         Lane ? "lanes diverge here"
              : "lanes may diverge here on a data-dependent condition",
         DiagnosticIDs::Note);
  }
  if (D.onlyByLaunchShape())
    noteLaunchShape(D.Branches.front());
  noteAssumedParameters(D);
}

void WarpCheckBase::noteAssumedParameters(const Divergence &D) {
  if (!GenericAnalysis)
    return;
  // Only a branch the generic analysis (parameters as uniform as their
  // arguments) sees as uniform is owed to the assumption.
  bool Assumed = llvm::any_of(D.Branches, [&](const DivergentBranch &B) {
    return B.Condition && GenericAnalysis->valueOf(B.Condition).isUniform();
  });
  if (Assumed)
    diag(CurrentFunction->getLocation(),
         "nothing in this translation unit calls %0, so its parameters are "
         "assumed to differ between lanes (option UnknownCallerParameters is "
         "'varying')",
         DiagnosticIDs::Note)
        << CurrentFunction;
}

std::string WarpCheckBase::describe(const FunctionDecl *FD) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD);
      M && M->getParent()->isLambda())
    return "the lambda";
  // A lambda template argument prints as `(lambda)`, not with its path.
  PrintingPolicy Policy = FD->getASTContext().getPrintingPolicy();
  Policy.AnonymousTagLocations = false;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, Policy, /*Qualified=*/false);
  return "'" + Name + "'";
}

/// The variable \p Condition reads whose value differs between lanes in
/// \p FU, if it reads one directly.
static const VarDecl *varyingVariable(const Expr *Condition,
                                      const FunctionUniformity &FU) {
  if (!Condition)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Condition->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()))
      return FU.valueOf(Ref).isUniform() ? nullptr : VD;
  for (const Stmt *Child : Condition->children())
    if (const auto *E = dyn_cast_or_null<Expr>(Child))
      if (const VarDecl *VD = varyingVariable(E, FU))
        return VD;
  return nullptr;
}

void WarpCheckBase::noteSplit(const Divergence &D,
                              const FunctionUniformity &FU) {
  std::string In = describe(FU.decl());
  // Outermost first: the order the lanes meet them on the way down.
  for (const DivergentBranch &B : llvm::reverse(D.Branches)) {
    SourceLocation Loc = where(B);
    if (B.Value.V != Variance::Lane) {
      diag(Loc,
           B.Exit ? "lanes may exit here in %0"
                  : "lanes may diverge here in %0 on a data-dependent "
                    "condition",
           DiagnosticIDs::Note)
          << In;
      continue;
    }
    const VarDecl *On = varyingVariable(B.Condition, FU);
    auto Diag = diag(Loc,
                     On ? "lanes %select{diverge|exit}0 here in %1 on "
                          "%select{variable|parameter}2 %3"
                        : "lanes %select{diverge|exit}0 here in %1",
                     DiagnosticIDs::Note)
                << (B.Exit != nullptr) << In;
    if (On)
      Diag << isa<ParmVarDecl>(On) << On;
  }
}

void WarpCheckBase::notePath(const DivergencePath &Path, unsigned From) {
  for (unsigned I = From; I < Path.Frames.size(); ++I) {
    const PathFrame &F = Path.Frames[I];
    if (Path.found() && I == Path.DivergedFrame)
      noteSplit(Path.At, *F.FU);
    if (I + 1 < Path.Frames.size())
      diag(F.Next->getBeginLoc(), "%0 is called here", DiagnosticIDs::Note)
          << describe(Path.Frames[I + 1].FU->decl());
  }
}

void WarpCheckBase::noteLaunchShape(const DivergentBranch &B) {
  SourceLocation Loc = where(B);
  const FunctionDecl *FD = CurrentFunction;
  llvm::ArrayRef<KernelLaunch> Launches;
  if (FD && CurrentAnalysis && FD->hasAttr<CUDAGlobalAttr>())
    Launches = CurrentAnalysis->launchesOf(FD);
  StringRef Why =
      !FD || !FD->hasAttr<CUDAGlobalAttr>()
          ? "the block's shape is not known inside a device function"
      : Launches.empty() ? StringRef(NoLaunchSeen)
                         : "a launch of this kernel does not show it";
  diag(Loc,
       "the lanes split here only if threadIdx.y or threadIdx.z differ "
       "inside a warp, that is if blockDim.x is not a multiple of 32; %0: if "
       "blockDim.x always is a multiple of 32, set the option "
       "WarpAlignedBlockDimX to true",
       DiagnosticIDs::Note)
      << Why;
  // With NoLaunchSeen, the CLI may still find the kernel's launches in
  // another unit (LaunchSummary.h).
  for (const KernelLaunch &L : Launches)
    if (!L.Block.warpAligned()) {
      diag(L.Site->getBeginLoc(),
           "launched here with a block whose x extent is not known to be a "
           "multiple of 32",
           DiagnosticIDs::Note);
      break;
    }
}

} // namespace clang::tidy::warp

namespace clang::tidy::warp {

std::optional<WarpCheckBase::Judged>
WarpCheckBase::judge(const FunctionUniformity &AtFU, const Stmt *Point,
                     const Divergence &D, const CollectiveUse *Use,
                     WarpAnalysis &WA, CallerFate Callers, LaneNamer Named) {
  // By default lanes returning from the function meet what the unit shows
  // of its callers.
  auto UnitCallers = [&WA](const FunctionDecl *FD) {
    return WA.fateAfterReturn(FD);
  };
  if (!Callers)
    Callers = UnitCallers;
  // The lanes that do not arrive do the same whichever warp they are in:
  // when every way they can go leaves the kernel or pairs up, no witness
  // can make a finding.
  Fate Structural = fateOf(AtFU, Point, D, Use, std::nullopt, WA, Callers);
  if (!Structural.isBug())
    return std::nullopt;
  std::optional<LaneReach> Own;
  LaneReach *Reach;
  if (&AtFU == CurrentFU) {
    Reach = &WA.laneReach(AtFU);
  } else {
    Own.emplace(AtFU, WA.context());
    Reach = &*Own;
  }
  std::vector<BlockExtents> Shapes = WA.launchShapes(AtFU.decl());
  WitnessSearch Search(*Reach, Shapes);
  Fate Found;
  LaneSet Waited = AllLanes;
  std::optional<LaneWitness> W =
      Search.find(Point, D, [&](const LaneWitness &W) {
        if (!reportsTier(W.T))
          return false;
        std::optional<LaneSet> Lanes =
            Named ? Named(W, *Reach) : std::optional<LaneSet>(AllLanes);
        if (!Lanes)
          return false;
        if (!W.hasLanes()) {
          Found = Structural;
          return true;
        }
        Waited = *Lanes;
        if (!(W.absent() & Waited))
          return false;
        Found =
            fateOf(AtFU, Point, D, Use,
                   KnownLanes{Reach, W.Warp, W.absent() & Waited}, WA, Callers);
        return Found.isBug();
      });
  if (!W)
    return std::nullopt;
  if (W->hasLanes())
    W->Named = Waited;
  return Judged{*W, Found};
}

std::optional<WarpCheckBase::Judged>
WarpCheckBase::judgeOnPath(const CallExpr *Call, const DivergencePath &Path,
                           const FunctionUniformity &FU, WarpAnalysis &WA,
                           LaneNamer Named) {
  if (!Path.found())
    return std::nullopt;
  // The lanes split inside a callee: its lanes that do not arrive return
  // through the frames above it, then go on past the call.
  std::function<std::optional<Fate>(const FunctionDecl *)> Chain =
      [&](const FunctionDecl *G) -> std::optional<Fate> {
    for (unsigned I = Path.DivergedFrame + 1; I-- > 0;)
      if (Path.Frames[I].FU->decl() == G) {
        const FunctionUniformity &Outer = I == 0 ? FU : *Path.Frames[I - 1].FU;
        const Stmt *At = I == 0 ? Call : Path.Frames[I - 1].Next;
        return fateAfter(Outer, At, WA, Chain);
      }
    return WA.fateAfterReturn(G);
  };
  const PathFrame &F = Path.Frames[Path.DivergedFrame];
  std::optional<CollectiveUse> Use = matchCollective(F.Next);
  return judge(*F.FU, F.Next, Path.At, Use ? &*Use : nullptr, WA, Chain, Named);
}

void WarpCheckBase::noteAbsentLanes(SourceLocation At, const Judged &J,
                                    ASTContext &Ctx) {
  LaneSet Absent =
      J.Witness.hasLanes() ? J.Witness.absent() & J.Witness.Named : 0;
  Consequence C = J.Absent.F == AbsentFate::WaitAtBarrier
                      ? Consequence::Hang
                      : Consequence::Undefined;
  std::string Text = describeFate(J.Absent, Absent, Ctx);
  if (C == Consequence::Undefined)
    Text += ": undefined behaviour that runs silently on sm_90 today";
  SourceLocation Where = J.Absent.Where ? J.Absent.Where->getBeginLoc() : At;
  noteConsequence(*this, Where, C, Text);
}

} // namespace clang::tidy::warp
