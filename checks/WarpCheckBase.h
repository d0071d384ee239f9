//===--- WarpCheckBase.h - shared plumbing of the warp- checks --*- C++ -*-===//
//
// Every warp- check visits each device function once with the shared
// analysis; this base does the matching, the options common to all checks
// and the notes that show where lanes diverged.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_WARPCHECKBASE_H
#define WARP_LINT_WARPCHECKBASE_H

#include "FixItText.h"
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

protected:
  /// Called once per device function definition with its analysis.
  virtual void checkFunction(const FunctionDecl *FD,
                             const FunctionUniformity &FU,
                             WarpAnalysis &WA) = 0;

  /// Returns false when \p Loc was already reported (templates instantiate
  /// the same source many times).
  bool firstReportAt(SourceLocation Loc);
  /// Emits the notes that show where the lanes reaching a point diverged.
  void noteDivergence(const Divergence &D);
  /// Emits the frames of \p Path: each call taken inside the callees, then
  /// where the lanes split in the last of them.
  void notePath(const DivergencePath &Path);
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

  UniformityOptions AnalysisOptions;
  /// The function checkFunction is looking at, and its analysis.
  const FunctionDecl *CurrentFunction = nullptr;
  WarpAnalysis *CurrentAnalysis = nullptr;

  ASTContext *Context = nullptr;

private:
  /// Whether clang-tidy's --line-filter keeps a warning at \p Loc.
  bool passesLineFilter(SourceLocation Loc) const;

  llvm::DenseSet<unsigned> Reported;
  ClangTidyContext *TidyContext;
};

} // namespace clang::tidy::warp

#endif
