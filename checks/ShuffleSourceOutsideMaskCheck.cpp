//===--- ShuffleSourceOutsideMaskCheck.cpp --------------------------------===//
//
// warp-shuffle-source-outside-mask
//
//===----------------------------------------------------------------------===//

#include "ShuffleSourceOutsideMaskCheck.h"
#include "analysis/MaskProvenance.h"
#include "llvm/Support/Format.h"

namespace clang::tidy::warp {

namespace {
/// The lanes of one warp that read outside the mask, and what they read.
struct OutsideReads {
  LaneSet Readers = 0;
  LaneSet Sources = 0;
  LaneSet Mask = 0; ///< the mask of the first reader
  uint64_t Warp = 0;
};
} // namespace

/// The width of \p Use's shuffle in lane \p L: its operand, the tile's
/// width, or 32 when it is left out.
static std::optional<int64_t>
widthIn(const CollectiveUse &Use, LaneEvaluator &E, unsigned L, uint64_t W) {
  if (Use.GroupWidth)
    return Use.GroupWidth;
  const Expr *Width = collectiveOperand(Use, CollectiveInfo::WidthArg);
  return Width ? E.valueIn(Width, L, W) : std::optional<int64_t>(32);
}

/// The lanes of \p Use that read outside the mask, with the loop counters'
/// values bound now.
static std::optional<OutsideReads>
outsideReadsIn(const CollectiveUse &Use, const CallExpr *Call,
               const Expr *LaneOperand, LaneReach &Reach, bool ByWarp) {
  LaneEvaluator &Eval = Reach.evaluator();
  for (uint64_t W : LaneEvaluator::warpSamples(ByWarp)) {
    // Lanes that provably never run the call read nothing.
    LaneSet Reaching = Reach.mayReach(Use.Site, W);
    std::array<std::optional<LaneSet>, 32> Masks = maskInLanes(Use, Eval, W);
    OutsideReads Out;
    Out.Warp = W;
    for (unsigned L = 0; L < 32; ++L) {
      // A lane outside its own mask is warp-mask-excludes-caller's finding.
      if (!(Reaching >> L & 1) || !Masks[L] || !(*Masks[L] >> L & 1))
        continue;
      std::optional<int64_t> Operand = Eval.valueIn(LaneOperand, L, W);
      std::optional<int64_t> Width = widthIn(Use, Eval, L, W);
      if (!Operand || !Width || !isValidShuffleWidth(*Width))
        continue;
      unsigned Src =
          shuffleSourceLane(Use.Info->Lane, L, *Operand, unsigned(*Width));
      if (Src == L || (*Masks[L] >> Src & 1))
        continue;
      if (!Out.Readers)
        Out.Mask = *Masks[L];
      Out.Readers |= 1u << L;
      Out.Sources |= 1u << Src;
    }
    if (Out.Readers)
      return Out;
  }
  return std::nullopt;
}

static std::optional<OutsideReads> outsideReads(const CollectiveUse &Use,
                                                LaneReach &Reach) {
  const auto *Call = dyn_cast<CallExpr>(Use.Site);
  if (!Call || Call->getNumArgs() <= CollectiveInfo::LaneArg)
    return std::nullopt;
  const Expr *LaneOperand = Call->getArg(CollectiveInfo::LaneArg);
  LaneEvaluator &Eval = Reach.evaluator();
  maskInLanes(Use, Eval, 0);
  Eval.valuesIn(LaneOperand, 0);
  bool ByWarp = Reach.dependsOnWarp() || Eval.sawThreadIndex();
  // Offsets from a counted loop (`for (o = 16; o > 0; o /= 2)`) are tried
  // one iteration at a time.
  std::optional<OutsideReads> Found;
  forEachCounterValue(Use.Site, Reach.function(), Eval, [&] {
    Found = outsideReadsIn(Use, Call, LaneOperand, Reach, ByWarp);
    return !Found;
  });
  return Found;
}

/// The lanes of \p W's warp that read a lane \p W shows absent, in some
/// iteration of the counted loops around the shuffle.
static std::optional<OutsideReads>
absentReads(const CollectiveUse &Use, const LaneWitness &W, LaneReach &Reach) {
  const Expr *LaneOperand = collectiveOperand(Use, CollectiveInfo::LaneArg);
  LaneEvaluator &Eval = Reach.evaluator();
  std::optional<OutsideReads> Found;
  forEachCounterValue(Use.Site, Reach.function(), Eval, [&] {
    OutsideReads Out;
    Out.Warp = W.Warp;
    Out.Mask = AllLanes;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(W.Arrive >> L & 1))
        continue;
      std::optional<int64_t> Operand = Eval.valueIn(LaneOperand, L, W.Warp);
      std::optional<int64_t> Width = widthIn(Use, Eval, L, W.Warp);
      if (!Operand || !Width || !isValidShuffleWidth(*Width))
        continue;
      unsigned Src =
          shuffleSourceLane(Use.Info->Lane, L, *Operand, unsigned(*Width));
      if (W.absent() >> Src & 1) {
        Out.Readers |= 1u << L;
        Out.Sources |= 1u << Src;
      }
    }
    if (Out.Readers)
      Found = Out;
    return !Found;
  });
  return Found;
}

void ShuffleSourceOutsideMaskCheck::checkExitedSources(
    const CollectiveUse &Use, const FunctionUniformity &FU, WarpAnalysis &WA,
    StringRef Spelling) {
  // A full mask names every source, but a source that has left the kernel
  // gives nothing: the value read is undefined (0 on sm_90).
  Divergence D = FU.divergenceAt(Use.Site);
  if (!D.isDiverged())
    return;
  auto Callers = [&WA](const FunctionDecl *FD) {
    return WA.fateAfterReturn(FD);
  };
  // Live absent lanes make it warp-divergent-full-mask's finding.
  if (fateOf(FU, Use.Site, D, &Use, std::nullopt, WA, Callers).F !=
      AbsentFate::Exits)
    return;
  LaneReach &Reach = WA.laneReach(FU);
  std::vector<BlockExtents> Shapes = WA.launchShapes(FU.decl());
  WitnessSearch Search(Reach, Shapes);
  std::optional<OutsideReads> Reads;
  std::optional<LaneWitness> W =
      Search.find(Use.Site, D, [&](const LaneWitness &W) {
        if (!W.hasLanes() || !reportsTier(W.T))
          return false;
        Reads = absentReads(Use, W, Reach);
        return Reads.has_value();
      });
  SourceLocation Loc = Use.Site->getBeginLoc();
  if (!W || !firstReportAt(Loc))
    return;
  ASTContext &Ctx = WA.context();
  diag(Loc, "%0 of '%1' read %2, which %3 left the kernel: the values read "
            "are undefined")
      << describeLanes(Reads->Readers)
      << (Spelling.empty() ? StringRef(Use.Info->Name) : Spelling)
      << describeLanes(Reads->Sources)
      << (llvm::popcount(Reads->Sources) == 1 ? "has" : "have");
  noteDivergence(D);
  noteExitedReads(Loc, Use, *W, Reads->Readers, D, Ctx);
}

/// The `__ballot_sync(m, p)` that mask \p Mask is: the call itself, or the
/// initializer of a local that is never assigned.
static const CallExpr *ballotOf(const Expr *Mask, LaneEvaluator &Eval) {
  if (!Mask)
    return nullptr;
  const Expr *E = Mask->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && Eval.isReadOnlyLocal(VD))
      E = VD->getInit();
  const CallExpr *Source = maskSource(E);
  std::optional<CollectiveUse> Use =
      Source ? matchCollective(Source) : std::nullopt;
  if (!Use || Use->Info->Kind != CollectiveKind::Vote ||
      Use->Info->Name != "__ballot_sync" || Source->getNumArgs() < 2)
    return nullptr;
  return Source;
}

bool ShuffleSourceOutsideMaskCheck::checkBallotBroadcast(
    const CollectiveUse &Use, const FunctionUniformity &FU, WarpAnalysis &WA) {
  const auto *Call = dyn_cast<CallExpr>(Use.Site);
  if (!Call || Use.Info->Lane != ShuffleLane::Absolute ||
      Call->getNumArgs() <= CollectiveInfo::LaneArg || !reportsTier(Tier::Data))
    return false;
  LaneEvaluator &Eval = WA.laneReach(FU).evaluator();
  const CallExpr *Ballot = ballotOf(Use.Mask, Eval);
  if (!Ballot)
    return false;
  ASTContext &Ctx = WA.context();
  // One source lane for every caller.
  const Expr *LaneOperand = Call->getArg(CollectiveInfo::LaneArg);
  Expr::EvalResult R;
  if (LaneOperand->isValueDependent() || !LaneOperand->EvaluateAsInt(R, Ctx))
    return false;
  int64_t Source = R.Val.getInt().getExtValue();
  if (Source < 0 || Source > 31)
    return false;
  // The ballot over the whole warp of a predicate each lane loads.
  Expr::EvalResult BallotMask;
  const Expr *Predicate = Ballot->getArg(1)->IgnoreParenImpCasts();
  if (Ballot->getArg(0)->isValueDependent() ||
      !Ballot->getArg(0)->EvaluateAsInt(BallotMask, Ctx) ||
      !isFullMask(BallotMask.Val.getInt().getZExtValue()) ||
      FU.valueOf(Predicate).V != Variance::Data)
    return false;
  // The shuffle runs where the predicate holds: its callers are the lanes
  // the mask names, and the source lane is one of them only if its own
  // predicate holds.
  const IfStmt *Guard = nullptr;
  for (const Stmt *Child = Use.Site, *P = FU.parentOf(Child); P && !Guard;
       Child = P, P = FU.parentOf(P))
    if (const auto *If = dyn_cast<IfStmt>(P);
        If && If->getThen() == Child &&
        sameExpr(If->getCond()->IgnoreParenImpCasts(), Predicate, Ctx))
      Guard = If;
  if (!Guard)
    return false;
  // A source lane whose predicate is known to hold is always named.
  if (std::optional<int64_t> Holds = Eval.valueIn(Predicate, Source, 0);
      Holds && *Holds)
    return false;
  SourceLocation Loc = Use.Site->getBeginLoc();
  if (!firstReportAt(Loc))
    return true;
  std::string Lane = "lane " + std::to_string(Source);
  diag(Loc, "'%0' reads %1, which its mask names only where %1's own '%2' "
            "holds: when it does not, the lanes that call read a lane outside "
            "the mask, and the values read are undefined")
      << Use.Info->Name << Lane << shownText(Predicate, Ctx);
  diag(Ballot->getBeginLoc(), "the mask is the ballot of '%0' here",
       DiagnosticIDs::Note)
      << shownText(Predicate, Ctx);
  diag(Guard->getBeginLoc(), "only the lanes where it holds call the shuffle",
       DiagnosticIDs::Note);
  noteTier(*this, Loc, Tier::Data,
           "whether " + Lane + " is in the mask depends on '" +
               shownText(Predicate, Ctx) +
               "', which each lane loads from its own address");
  noteConsequence(*this, Loc, Consequence::WrongValues,
                  "the calling lanes get undefined values (0 on sm_90)");
  diag(LaneOperand->getBeginLoc(),
       "read from the first lane of the mask instead: '__ffs(mask) - 1'",
       DiagnosticIDs::Note);
  return true;
}

void ShuffleSourceOutsideMaskCheck::noteExitedReads(
    SourceLocation Loc, const CollectiveUse &Shuffle, const LaneWitness &W,
    LaneSet Readers, const Divergence &D, ASTContext &Ctx) {
  diag(collectiveOperand(Shuffle, CollectiveInfo::LaneArg)->getBeginLoc(),
       "the source lane is computed from this operand", DiagnosticIDs::Note);
  noteWitness(*this, Loc, W, "leave before it", Ctx);
  noteLanes(*this, Loc, AllLanes, W.Arrive);
  noteConsequence(*this, Loc, Consequence::WrongValues,
                  describeLanes(Readers) +
                      " get undefined values (0 on sm_90)");
  if (const Stmt *Exit = D.Branches.front().Exit)
    diag(Exit->getBeginLoc(),
         "keep these lanes in the warp with a neutral value instead of "
         "leaving, so that every lane the shuffle reads is there",
         DiagnosticIDs::Note);
}

void ShuffleSourceOutsideMaskCheck::checkExitedSourcesInCallee(
    const CallExpr *Call, const FunctionUniformity &FU, WarpAnalysis &WA) {
  // The helper's shuffles run with the lanes the call has: those that left
  // before the call are sources that give nothing, as in the function
  // itself (checkExitedSources).
  const FunctionDecl *Callee = Call->getDirectCallee();
  Callee = Callee ? Callee->getDefinition() : nullptr;
  if (!Callee || Callee == FU.decl())
    return;
  Divergence D = FU.divergenceAt(Call);
  if (!D.isDiverged())
    return;
  const FunctionUniformity *Helper = WA.function(Callee);
  if (!Helper)
    return;
  // Its full-mask shuffles that every lane entering it runs.
  ASTContext &Ctx = WA.context();
  llvm::SmallVector<const CollectiveUse *, 4> Shuffles;
  Helper->forEachCollective([&](const CollectiveUse &Use) {
    if (Use.Info->Kind == CollectiveKind::Shuffle &&
        Use.Info->Lane != ShuffleLane::None &&
        constantMask(Use, Ctx) == AllLanes &&
        !Helper->divergenceAt(Use.Site).isDiverged())
      Shuffles.push_back(&Use);
  });
  if (Shuffles.empty())
    return;
  auto Callers = [&WA](const FunctionDecl *FD) {
    return WA.fateAfterReturn(FD);
  };
  if (fateOf(FU, Call, D, nullptr, std::nullopt, WA, Callers).F !=
      AbsentFate::Exits)
    return;
  LaneReach &Reach = WA.laneReach(FU);
  LaneReach HelperReach(*Helper, Ctx);
  std::vector<BlockExtents> Shapes = WA.launchShapes(FU.decl());
  WitnessSearch Search(Reach, Shapes);
  std::optional<OutsideReads> Reads;
  const CollectiveUse *Reader = nullptr;
  std::optional<LaneWitness> W =
      Search.find(Call, D, [&](const LaneWitness &W) {
        if (!W.hasLanes() || !reportsTier(W.T))
          return false;
        // The helper's lane arithmetic in the witness' block.
        HelperReach.evaluator().setBlock(W.Block);
        for (const CollectiveUse *Use : Shuffles)
          if ((Reads = absentReads(*Use, W, HelperReach))) {
            Reader = Use;
            return true;
          }
        return false;
      });
  SourceLocation Loc = Call->getBeginLoc();
  if (!W || !firstReportAt(Loc))
    return;
  diag(Loc, "%0 of '%1' read %2 through '%3', which %4 left the kernel: the "
            "values read are undefined")
      << describeLanes(Reads->Readers) << Callee->getNameAsString()
      << describeLanes(Reads->Sources) << Reader->Info->Name
      << (llvm::popcount(Reads->Sources) == 1 ? "has" : "have");
  noteDivergence(D);
  diag(Reader->Site->getBeginLoc(), "the shuffle runs here, with the full mask",
       DiagnosticIDs::Note);
  noteExitedReads(Loc, *Reader, *W, Reads->Readers, D, Ctx);
}

void ShuffleSourceOutsideMaskCheck::checkFunction(const FunctionDecl *FD,
                                                  const FunctionUniformity &FU,
                                                  WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  LaneReach *Reach = nullptr; // asked for at the first narrow mask only
  FU.forEachCollective([&](const CollectiveUse &Use) {
    const Stmt *S = Use.Site;
    if (Use.Info->Kind != CollectiveKind::Shuffle ||
        Use.Info->Lane == ShuffleLane::None)
      return;
    std::optional<LaneSet> Constant = constantMask(Use, Ctx);
    if (Constant && *Constant == AllLanes) {
      checkExitedSources(Use, FU, WA);
      return;
    }
    if (!Reach)
      Reach = &WA.laneReach(FU);
    std::optional<OutsideReads> R = outsideReads(Use, *Reach);
    SourceLocation Loc = S->getBeginLoc();
    if (!R) {
      checkBallotBroadcast(Use, FU, WA);
      return;
    }
    if (!firstReportAt(Loc))
      return;
    std::string Mask;
    llvm::raw_string_ostream(Mask) << llvm::format_hex(R->Mask, 10);
    diag(Loc, "%0 of '%1' read %2, which mask %3 does not name: the values "
              "read are undefined")
        << describeLanes(R->Readers) << Use.Info->Name
        << describeLanes(R->Sources) << Mask;
    const auto *Call = cast<CallExpr>(S);
    diag(Call->getArg(CollectiveInfo::LaneArg)->getBeginLoc(),
         "the source lane is computed from this operand", DiagnosticIDs::Note);
    if (R->Warp != 0)
      diag(Loc, "in the warp of threads %0..%1", DiagnosticIDs::Note)
          << unsigned(32 * R->Warp) << unsigned(32 * R->Warp + 31);
    noteTier(*this, Loc, Tier::Proven,
             describeLanes(R->Readers) + " read " + describeLanes(R->Sources) +
                 " outside the mask");
    noteLanes(*this, Loc, R->Mask, Reach->mayReach(S, R->Warp));
    noteConsequence(*this, Loc, Consequence::WrongValues,
                    describeLanes(R->Readers) +
                        " get undefined values (0 on sm_90)");
  });
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *Use) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || Use)
      return;
    // A tile's shuffle reads within the tile, whose lanes are all named.
    if (std::optional<GroupCollective> G = matchGroupCollective(Call)) {
      if (G->TileWidth && G->Use.Info->Kind == CollectiveKind::Shuffle &&
          collectiveOperand(G->Use, CollectiveInfo::LaneArg))
        checkExitedSources(G->Use, FU, WA, G->Spelling);
      return;
    }
    checkExitedSourcesInCallee(Call, FU, WA);
  });
}

} // namespace clang::tidy::warp
