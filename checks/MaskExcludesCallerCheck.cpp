//===--- MaskExcludesCallerCheck.cpp - warp-mask-excludes-caller ----------===//

#include "MaskExcludesCallerCheck.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Format.h"

namespace clang::tidy::warp {

/// Whether \p Mask is the result of a ballot, directly or through a local
/// initialised with one: which lanes it names then follows the lanes' data,
/// and one used where its lanes are not is warp-stale-mask's finding.
static bool isBallotResult(const Expr *Mask) {
  const Expr *E = Mask ? Mask->IgnoreParenImpCasts() : nullptr;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && VD->getInit())
      E = VD->getInit()->IgnoreParenImpCasts();
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  return Call && maskSourceKind(Call) == MaskSourceKind::Ballot;
}

void MaskExcludesCallerCheck::checkFunction(const FunctionDecl *FD,
                                            const FunctionUniformity &FU,
                                            WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  LaneReach *Reach = nullptr; // asked for at the first narrow mask only
  FU.forEachCollective([&](const CollectiveUse &Use) {
    const Stmt *S = Use.Site;
    if ((!Use.Mask && !Use.ImmediateMask) || isBallotResult(Use.Mask))
      return;
    // Most masks name every lane: nothing to compute.
    std::optional<LaneSet> Constant = constantMask(Use, Ctx);
    if (Constant && *Constant == AllLanes)
      return;
    if (!Reach)
      Reach = &WA.laneReach(FU);
    uint64_t Warp = 0;
    LaneSet Mask = 0, Arrive = 0;
    if (LaneSet Excluded = excludedCallers(Use, *Reach, Warp, Mask, Arrive)) {
      bool Converged =
          !FU.divergenceAt(S).isDiverged() &&
          llvm::all_of(
              LaneEvaluator::warpSamples(Reach->dependsOnWarp()),
              [&](uint64_t W) { return Reach->mayReach(S, W) == AllLanes; });
      report(Use, Excluded, Warp, Converged, FU, Ctx, Mask, Arrive);
    }
  });
}

LaneSet MaskExcludesCallerCheck::excludedCallers(const CollectiveUse &Use,
                                                 LaneReach &Reach,
                                                 uint64_t &Warp, LaneSet &Mask,
                                                 LaneSet &Arrive) {
  LaneEvaluator &Eval = Reach.evaluator();
  bool Exact = Reach.isExact(Use.Site);
  maskInLanes(Use, Eval, 0); // notes whether the mask reads threadIdx.x
  bool ByWarp = Reach.dependsOnWarp() || Eval.sawThreadIndex();
  for (uint64_t W : LaneEvaluator::warpSamples(ByWarp)) {
    LaneSet Reaching = Reach.mayReach(Use.Site, W);
    if (!Reaching)
      continue;
    std::array<std::optional<LaneSet>, 32> Masks = maskInLanes(Use, Eval, W);
    LaneSet Outside = 0, Unknown = 0;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(Reaching >> L & 1))
        continue;
      if (!Masks[L])
        Unknown |= 1u << L;
      else if (!(*Masks[L] >> L & 1))
        Outside |= 1u << L;
    }
    // Which lanes reach is known: any lane outside the mask is a bug.
    // Otherwise (a data-dependent branch) only when every lane that may
    // reach the call is outside: then whichever lane runs it is.
    if (Exact ? Outside != 0 : (Outside == Reaching && !Unknown)) {
      Warp = W;
      Arrive = Reaching;
      for (unsigned L = 0; L < 32; ++L)
        if ((Outside >> L & 1) && Masks[L]) {
          Mask = *Masks[L];
          break;
        }
      return Outside;
    }
  }
  return 0;
}

/// The mask of \p Use as written, for messages: `0x0000001f`, or the
/// expression when it is computed per lane.
static std::string maskSpelling(const CollectiveUse &Use, ASTContext &Ctx) {
  if (std::optional<LaneSet> C = constantMask(Use, Ctx)) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    OS << llvm::format_hex(*C, 10);
    return Out;
  }
  std::string Text = Use.Mask ? shownText(Use.Mask, Ctx) : std::string();
  return Text.empty() ? "the mask" : "'" + Text + "'";
}

void MaskExcludesCallerCheck::report(const CollectiveUse &Use, LaneSet Excluded,
                                     uint64_t Warp, bool Converged,
                                     const FunctionUniformity &FU,
                                     ASTContext &Ctx, LaneSet MaskLanes,
                                     LaneSet Arrive) {
  SourceLocation Loc = Use.Site->getBeginLoc();
  if (!firstReportAt(Loc))
    return;
  std::string Mask = maskSpelling(Use, Ctx);
  std::string Lanes = describeLanes(Excluded);
  {
    auto Diag = diag(Loc, "%0 %1 '%2' but mask %3 does not name %4")
                << Lanes << (llvm::popcount(Excluded) == 1 ? "runs" : "run")
                << Use.Info->Name << Mask
                << (llvm::popcount(Excluded) == 1 ? "it" : "them");
    // Every lane runs the call together: the mask it needs is the full one
    // (the fix cutlass made). Only a mask spelled in this file is replaced.
    if (Converged && Use.Mask && !Use.MaskIsDefaultArg &&
        constantMask(Use, Ctx)) {
      CharSourceRange Range = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Use.Mask->getSourceRange()),
          Ctx.getSourceManager(), Ctx.getLangOpts());
      if (Range.isValid() && !Use.Mask->getBeginLoc().isMacroID())
        Diag << FixItHint::CreateReplacement(Range, "0xffffffff");
    }
  }
  if (Warp != 0)
    diag(Loc, "in the warp of threads %0..%1", DiagnosticIDs::Note)
        << unsigned(32 * Warp) << unsigned(32 * Warp + 31);
  Divergence D = FU.divergenceAt(Use.Site);
  if (D.isDiverged())
    noteDivergence(D);
  else
    diag(Loc, "all 32 lanes of the warp run this call", DiagnosticIDs::Note);
  noteTier(*this, Loc, Tier::Proven,
           Lanes + (llvm::popcount(Excluded) == 1 ? " runs" : " run") +
               " it outside its mask");
  noteLanes(*this, Loc, MaskLanes, Arrive);
  noteConsequence(*this, Loc, Consequence::Trap,
                  "an illegal instruction in -G builds; in -O3 builds the "
                  "call runs silently or returns 0");
}

} // namespace clang::tidy::warp
