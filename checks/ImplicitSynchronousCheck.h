//===--- ImplicitSynchronousCheck.h - warp-implicit-synchronous -*- C++ -*-===//

#ifndef WARP_LINT_IMPLICITSYNCHRONOUSCHECK_H
#define WARP_LINT_IMPLICITSYNCHRONOUSCHECK_H

#include "FixItText.h"
#include "WarpCheckBase.h"
#include "analysis/WarpExchanges.h"

namespace clang::tidy::warp {

/// Flags code that relies on the lanes of a warp running in lockstep: lanes
/// exchanging values through shared or global memory (`s[tid] += s[tid +
/// 16]`, volatile or not) with no __syncwarp() between one lane's write and
/// another lane's read, and the legacy warp intrinsics without a mask
/// (`__shfl`, `__ballot`, `__any`, `__all`).
///
/// For the user-facing documentation see:
/// docs/checks/warp-implicit-synchronous.md
class ImplicitSynchronousCheck : public WarpCheckBase {
public:
  ImplicitSynchronousCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
  void onEndOfTranslationUnit() override {
    Names.clear();
    WarpCheckBase::onEndOfTranslationUnit();
  }

private:
  /// The races of one step whose reads one warning reports: the reads in
  /// one statement of a block (an `if` with its body is one).
  struct Group {
    const Stmt *Anchor = nullptr;
    std::vector<const ExchangeRace *> Races;
  };

  void checkLegacyCall(const CallExpr *Call, const FunctionUniformity &FU,
                       ASTContext &Ctx);
  /// Reports one group; returns whether its fix ends with a barrier (the
  /// writes before it are then ordered).
  bool report(const Group &G, const FunctionUniformity &FU, LaneReach &Reach,
              SourceLocation LastFix, ASTContext &Ctx);
  /// The lanes of \p R in words: "in warp 0, lane 16 writes 'red[16]' and
  /// lane 0 reads it with offset 16".
  static std::string lanePair(const ExchangeRace &R, const ASTContext &Ctx);
  /// The tier and consequence notes of \p R.
  void noteTierAndConsequence(const ExchangeRace &R, ASTContext &Ctx);
  /// Rewrites the step \p Step (`vs[i] += vs[i + k];`) so that its reads,
  /// its writes and the next step are apart: `{ auto t = vs[i] + (vs[i +
  /// k]); __syncwarp(); vs[i] = t; __syncwarp(); }`, led by a __syncwarp()
  /// when \p AfterPending (an earlier step wrote what it reads).
  bool addStepFix(DiagnosticBuilder &Diag, const Stmt *Step, const Expr *Writer,
                  bool AfterPending, const FunctionUniformity &FU,
                  ASTContext &Ctx);
  /// Inserts `__syncwarp();` before \p Step.
  bool addBarrierFix(DiagnosticBuilder &Diag, const Stmt *Step,
                     const FunctionUniformity &FU, ASTContext &Ctx);
  /// Whether the lanes reaching \p S are whole warps, so that __syncwarp()
  /// with the full mask is right there.
  bool wholeWarps(const Stmt *S, const FunctionUniformity &FU,
                  LaneReach &Reach);
  /// Whether the option Tiers lets findings of tier \p T be reported.
  bool reportsTier(RaceTier T) const;

  std::string Tiers;
  FreshNames Names;
};

} // namespace clang::tidy::warp

#endif
