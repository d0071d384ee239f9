//===--- ShuffleWidthCheck.cpp - warp-shuffle-width -----------------------===//

#include "ShuffleWidthCheck.h"
#include "analysis/LaneSets.h"

namespace clang::tidy::warp {

/// The value of \p E when it is a constant of the function: a literal, a
/// template argument at its instantiated value, a local that is only
/// initialized with one (the same in every lane of every warp).
static std::optional<int64_t> constantValue(const Expr *E,
                                            LaneEvaluator &Eval) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  std::optional<std::vector<int64_t>> Values = Eval.valuesIn(E, 0);
  if (!Values || Eval.dependsOnWarp(E) ||
      llvm::any_of(*Values, [&](int64_t V) { return V != Values->front(); }))
    return std::nullopt;
  return Values->front();
}

void ShuffleWidthCheck::checkFunction(const FunctionDecl *FD,
                                      const FunctionUniformity &FU,
                                      WarpAnalysis &WA) {
  LaneEvaluator Eval(FU, WA.context());
  FU.forEachCollective([&](const CollectiveUse &Use) {
    const Stmt *S = Use.Site;
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || Use.Info->Kind != CollectiveKind::Shuffle ||
        Call->getNumArgs() <= CollectiveInfo::LaneArg)
      return;
    const Expr *WidthArg = Call->getNumArgs() > CollectiveInfo::WidthArg
                               ? Call->getArg(CollectiveInfo::WidthArg)
                               : nullptr;
    bool Written = WidthArg && !isa<CXXDefaultArgExpr>(WidthArg);
    std::optional<int64_t> Width = Written ? constantValue(WidthArg, Eval) : 32;
    if (!Width)
      return;
    if (!isValidShuffleWidth(*Width)) {
      if (firstReportAt(WidthArg->getBeginLoc())) {
        diag(WidthArg->getBeginLoc(), "width %0 of '%1' is not a power of "
                                      "two in 1..32: the result is undefined")
            << *Width << Use.Info->Name;
        noteInstantiation(FD);
        noteTier(*this, WidthArg->getBeginLoc(), Tier::Proven,
                 "the width is the constant " + std::to_string(*Width));
        noteConsequence(*this, WidthArg->getBeginLoc(), Consequence::Undefined,
                        "the Programming Guide leaves the result undefined");
      }
      return;
    }
    // srcLane is taken modulo width by definition; offsets are not.
    if (Use.Info->Lane == ShuffleLane::Absolute)
      return;
    const Expr *Offset = Call->getArg(CollectiveInfo::LaneArg);
    std::optional<int64_t> Value = constantValue(Offset, Eval);
    if (!Value || uint64_t(*Value) < uint64_t(*Width) ||
        !firstReportAt(Offset->getBeginLoc()))
      return;
    bool Xor = Use.Info->Lane == ShuffleLane::Xor;
    diag(Offset->getBeginLoc(),
         "%select{delta|laneMask}0 %1 of '%2' is at or above width %3: %select{"
         "every lane gets its own value back|lanes read across their segment "
         "of %3 or their own value}0")
        << Xor << *Value << Use.Info->Name << *Width;
    noteInstantiation(FD);
    noteTier(*this, Offset->getBeginLoc(), Tier::Proven,
             "the offset and the width are constants");
    noteConsequence(*this, Offset->getBeginLoc(), Consequence::WrongValues,
                    Xor ? "lanes read outside their segment or their own "
                          "value"
                        : "every lane gets its own value back");
  });
}

void ShuffleWidthCheck::noteInstantiation(const FunctionDecl *FD) {
  if (!FD->isTemplateInstantiation())
    return;
  SourceLocation At = FD->getPointOfInstantiation();
  if (At.isValid())
    diag(At, "in the instantiation of %0 here", DiagnosticIDs::Note) << FD;
}

} // namespace clang::tidy::warp
