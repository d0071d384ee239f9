//===--- WarpCheckBase.h - shared plumbing of the warp- checks --*- C++ -*-===//
//
// Every warp- check visits each device function once with the shared
// analysis; this base does the matching, the options common to all checks
// and the notes that show where lanes diverged.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_WARPCHECKBASE_H
#define WARP_LINT_WARPCHECKBASE_H

#include "FindingNotes.h"
#include "FixItText.h"
#include "analysis/UnitAnalyses.h"
#include "analysis/WarpAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::warp {

// The checks are thin shells over the analysis (clang::warp).
using namespace ::clang::warp;

class WarpCheckBase : public ClangTidyCheck {
public:
  WarpCheckBase(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

  /// The analyses this check shares with the other checks of its front end
  /// (the module passes one to every check it makes). A check given none
  /// makes its own.
  void useAnalyses(std::shared_ptr<UnitAnalyses> Shared);

protected:
  /// Records that this check reads facet \p K of the summaries; checks call
  /// it in their constructor.
  void declareFacet(FacetKind K) { Facets |= facetBit(K); }

  /// Called once per device function definition with its analysis.
  virtual void checkFunction(const FunctionDecl *FD,
                             const FunctionUniformity &FU,
                             WarpAnalysis &WA) = 0;

  /// Returns false when \p Loc was already reported (templates instantiate
  /// the same source many times). Locations inside one macro expansion count
  /// as the one place a warning shows: the macro's use.
  bool firstReportAt(SourceLocation Loc);
  /// Emits the notes that show where the lanes reaching a point diverged.
  void noteDivergence(const Divergence &D);
  /// Declares the option UnknownCallerParameters (uniform|varying): what the
  /// parameters of a function with unknown callers (see
  /// WarpAnalysis::hasUnknownCallers) hold. With varying, such a function
  /// is checked with every parameter differing between lanes.
  void declareUnknownCallerOption(bool DefaultVarying);
  /// Says, for a finding at a point with divergence \p D, that it exists
  /// only because the parameters were assumed to differ between lanes.
  void noteAssumedParameters(const Divergence &D);
  /// Emits the frames of \p Path from frame \p From on, in the order the
  /// lanes run them: where they split (on which parameter), then each call
  /// taken toward the collective.
  void notePath(const DivergencePath &Path, unsigned From = 0);
  /// Emits where the lanes split in \p FU's function, outermost branch
  /// first, naming the variable or parameter each branch reads.
  void noteSplit(const Divergence &D, const FunctionUniformity &FU);
  /// "the lambda" for a lambda's call operator, else the quoted name.
  static std::string describe(const FunctionDecl *FD);
  /// Says that only the launch shape splits the lanes at \p B, and which
  /// option or launch decides it.
  void noteLaunchShape(const DivergentBranch &B);
  /// "" for lane-derived divergence, "potentially " for data-dependent.
  static StringRef certainty(const Divergence &D);

  /// Whether the fix being built carries \p N's declaration (see
  /// SharedName).
  bool carriesDeclaration(const SharedName &N) const {
    return areDiagsSelfContained() || !N.Declared;
  }
  /// Diagnostics NOLINT has hidden so far: the same before and after one is
  /// emitted means it was reported.
  unsigned hiddenSoFar() const;
  /// Records that the warning at \p Loc, emitted after \p HiddenBefore was
  /// taken, carried \p N's declaration: it counts unless NOLINT or the
  /// line filter hides the warning.
  void declarationEmitted(SharedName &N, unsigned HiddenBefore,
                          SourceLocation Loc);

  /// Whether findings of tier \p T are reported (option Tiers).
  bool reportsTier(Tier T) const { return Tiers >> unsigned(T) & 1; }
  /// "" for proven and conditional findings, "potentially " for the others.
  static StringRef certainty(const LaneWitness &W) {
    return W.hasLanes() ? "" : "potentially ";
  }
  /// A witness and the fate of the lanes that do not arrive.
  struct Judged {
    LaneWitness Witness;
    Fate Absent;
  };
  /// Whether the lanes that reach \p Point (in \p AtFU, under divergence
  /// \p D; \p Use the collective there, if it is one) miss lanes that are
  /// live and absent: the witness of a tier this check reports and the fate
  /// of those lanes, or nullopt. \p Callers continues past a return.
  /// \p Named says which lanes of a witness' warp the point waits for (a
  /// smaller tile's own, those a stale mask names), every lane by default;
  /// for a witness without lanes (data, potential) it accepts it or not.
  using LaneNamer = llvm::function_ref<std::optional<LaneSet>(
      const LaneWitness &, LaneReach &)>;
  std::optional<Judged> judge(const FunctionUniformity &AtFU, const Stmt *Point,
                              const Divergence &D, const CollectiveUse *Use,
                              WarpAnalysis &WA, CallerFate Callers = nullptr,
                              LaneNamer Named = nullptr);
  /// The witness and fate of the lanes a callee on \p Path splits, before
  /// the collective \p Call leads to (in \p FU); \p Named as for judge.
  std::optional<Judged> judgeOnPath(const CallExpr *Call,
                                    const DivergencePath &Path,
                                    const FunctionUniformity &FU,
                                    WarpAnalysis &WA,
                                    LaneNamer Named = nullptr);
  /// The consequence of absent lanes with fate \p F, noted at their
  /// witness' finding \p At.
  void noteAbsentLanes(SourceLocation At, const Judged &J, ASTContext &Ctx);

  UniformityOptions AnalysisOptions;
  /// UnknownCallerParameters, for the checks that declare it.
  std::optional<bool> VaryingUnknownCallers;
  /// The function checkFunction is looking at, and its analysis.
  const FunctionDecl *CurrentFunction = nullptr;
  WarpAnalysis *CurrentAnalysis = nullptr;
  /// The analysis checkFunction was given (whose lane sets the checks
  /// share through WarpAnalysis::laneReach).
  const FunctionUniformity *CurrentFU = nullptr;
  /// The generic analysis of CurrentFunction when the check runs on the one
  /// with varying parameters instead (an entry with unknown callers).
  const FunctionUniformity *GenericAnalysis = nullptr;

  ASTContext *Context = nullptr;

private:
  /// Whether clang-tidy's --line-filter keeps a warning at \p Loc.
  bool passesLineFilter(SourceLocation Loc) const;

  std::shared_ptr<UnitAnalyses> Analyses;
  FacetSet Facets = 0;
  llvm::DenseSet<unsigned> Reported;
  /// The tiers reported, one bit per Tier (option Tiers).
  unsigned Tiers = 0;
  ClangTidyContext *TidyContext;
};

} // namespace clang::tidy::warp

#endif
