//===--- ImplicitSynchronousCheck.cpp - warp-implicit-synchronous ---------===//

#include "ImplicitSynchronousCheck.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <tuple>

namespace clang::tidy::warp {

ImplicitSynchronousCheck::ImplicitSynchronousCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : WarpCheckBase(Name, Context),
      Tiers(Options.getLocalOrGlobal("Tiers", "proven,conditional,data")) {}

void ImplicitSynchronousCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  WarpCheckBase::storeOptions(Opts);
  Options.store(Opts, "Tiers", Tiers);
}

bool ImplicitSynchronousCheck::reportsTier(RaceTier T) const {
  StringRef Name = T == RaceTier::Proven ? "proven"
                   : T == RaceTier::Data ? "data"
                                         : "potential";
  llvm::SmallVector<StringRef, 4> Listed;
  StringRef(Tiers).split(Listed, ',');
  return llvm::any_of(Listed, [&](StringRef S) { return S.trim() == Name; });
}

/// The statement of a block that holds \p S.
static const Stmt *blockStatement(const Stmt *S, const FunctionUniformity &FU) {
  for (const Stmt *P = FU.parentOf(S); P; S = P, P = FU.parentOf(P))
    if (isa<CompoundStmt>(P))
      return S;
  return S;
}

/// The statement whose reads one warning reports: the statement of a block
/// that holds \p S, or the whole `if` when \p S is in the body of one whose
/// condition reads a racing element too (`if (d[t] > d[t + s]) d[t] = d[t +
/// s];` is one step).
static const Stmt *anchorOf(const Stmt *S, const FunctionUniformity &FU,
                            const llvm::SmallPtrSetImpl<const Stmt *> &Tests) {
  for (const Stmt *P = S; P; P = FU.parentOf(P))
    if (Tests.contains(P))
      return blockStatement(P, FU);
  return blockStatement(S, FU);
}

void ImplicitSynchronousCheck::checkFunction(const FunctionDecl *FD,
                                             const FunctionUniformity &FU,
                                             WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  FU.forEachCallSite([&](const Stmt *S, const CollectiveUse *) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      checkLegacyCall(Call, FU, Ctx);
  });
  LaneReach &Reach = WA.laneReach(FU);
  std::vector<ExchangeRace> Races = findExchangeRaces(FD, FU, Reach, WA);
  if (Races.empty())
    return;
  // One warning per statement of a block, in source order.
  llvm::SmallPtrSet<const Stmt *, 8> Tests;
  for (const ExchangeRace &R : Races) {
    const Stmt *Child = R.Read;
    for (const Stmt *P = FU.parentOf(Child); P; Child = P, P = FU.parentOf(P))
      if (const auto *If = dyn_cast<IfStmt>(P); If && If->getCond() == Child)
        Tests.insert(If);
  }
  std::vector<Group> Groups;
  for (const ExchangeRace &R : Races) {
    if (!reportsTier(R.Tier))
      continue;
    const Stmt *Anchor = anchorOf(R.ReadStatement, FU, Tests);
    auto It = llvm::find_if(Groups,
                            [&](const Group &G) { return G.Anchor == Anchor; });
    if (It == Groups.end())
      It = Groups.insert(Groups.end(), {Anchor, {}});
    It->Races.push_back(&R);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Groups, [&](const Group &A, const Group &B) {
    return SM.isBeforeInTranslationUnit(A.Anchor->getBeginLoc(),
                                        B.Anchor->getBeginLoc());
  });
  SourceLocation LastFix;
  for (const Group &G : Groups)
    if (report(G, FU, Reach, LastFix, Ctx))
      LastFix = G.Anchor->getEndLoc();
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
  diag(Loc,
       "witness: '%0' names no lanes: it takes part with whichever lanes "
       "reach it together",
       DiagnosticIDs::Note)
      << Legacy->Name;
  diag(Loc,
       "consequence: undefined: nvcc rejects it for sm_70 and later; where "
       "it is still built, which lanes take part is undefined since Volta",
       DiagnosticIDs::Note);
}

//===----------------------------------------------------------------------===//
// Exchanges through memory
//===----------------------------------------------------------------------===//

/// " when 's' is 16" for the counter of \p R at \p Value, or "".
static std::string when(const ExchangeRace &R, int64_t Value) {
  if (!R.Counter)
    return "";
  return " when '" + R.Counter->getNameAsString() + "' is " +
         std::to_string(Value);
}

/// The element \p R's lanes meet at, as messages name it: `red[16]`, or
/// the written expression when the index is known only relative to a
/// value the lanes share.
static std::string element(const ExchangeRace &R, const ASTContext &Ctx) {
  if (R.Pair && !R.Pair->Element.empty())
    return R.Pair->Element;
  return shownText(R.Write, Ctx);
}

/// " as 'vs[tid + 16]'" when \p R's element has no number, or "".
static std::string readAs(const ExchangeRace &R, const ASTContext &Ctx) {
  if (R.Pair && R.Pair->Element.empty())
    return " as '" + shownText(R.Read, Ctx) + "'";
  return "";
}

std::string ImplicitSynchronousCheck::lanePair(const ExchangeRace &R,
                                               const ASTContext &Ctx) {
  const ExchangeRace::Lanes &P = *R.Pair;
  std::string Out = "in warp " + std::to_string(P.Warp) + ", lane " +
                    std::to_string(P.Writer) + " writes '" + element(R, Ctx) +
                    "'" + (R.NextIteration ? when(R, R.WriteCount) : "") +
                    " and lane " + std::to_string(P.Reader) + " reads it" +
                    readAs(R, Ctx) + " with offset " +
                    std::to_string(int64_t(P.Writer) - int64_t(P.Reader)) +
                    when(R, R.ReadCount);
  if (R.Via)
    Out = "through the call in " + describe(R.Caller) + ", " + Out;
  return Out;
}

void ImplicitSynchronousCheck::noteTierAndConsequence(const ExchangeRace &R,
                                                      ASTContext &Ctx) {
  SourceLocation Loc = R.Read->getBeginLoc();
  switch (R.Tier) {
  case RaceTier::Proven:
    diag(Loc, "witness: %0", DiagnosticIDs::Note) << lanePair(R, Ctx);
    break;
  case RaceTier::Data:
    if (R.DataIndex)
      diag(Loc,
           "data: which element is %select{read|written}0 depends on '%1', "
           "which differs between lanes by data",
           DiagnosticIDs::Note)
          << R.DataOnWrite << shownText(R.DataCause, Ctx);
    else
      diag(Loc,
           "data: whether lanes %select{read|write}0 it depends on '%1', "
           "which differs between lanes by data; %2",
           DiagnosticIDs::Note)
          << R.DataOnWrite << shownText(R.DataCause, Ctx) << lanePair(R, Ctx);
    break;
  case RaceTier::Potential:
    if (R.AssumesSharedPointer && R.Pair)
      diag(Loc, "potential: if every lane passes the same '%0', %1",
           DiagnosticIDs::Note)
          << R.Root->getName() << lanePair(R, Ctx);
    else
      diag(Loc,
           "potential: which lanes write and read the element is not known "
           "here (its index depends on parameters or on values not followed "
           "per lane)",
           DiagnosticIDs::Note);
    break;
  }
  if (R.Pair)
    diag(Loc,
         "consequence: race: lane %0 may read '%1' before or after lane %2 "
         "writes it; the lanes of a warp are scheduled independently since "
         "Volta, so the value read depends on their timing",
         DiagnosticIDs::Note)
        << R.Pair->Reader << element(R, Ctx) << R.Pair->Writer;
  else
    diag(Loc,
         "consequence: race: the read may see the element before or after "
         "the other lane writes it; the lanes of a warp are scheduled "
         "independently since Volta, so the value read depends on their "
         "timing",
         DiagnosticIDs::Note);
}

bool ImplicitSynchronousCheck::report(const Group &G,
                                      const FunctionUniformity &FU,
                                      LaneReach &Reach, SourceLocation LastFix,
                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The most certain race leads; among equals the first read, and for it
  // a write in its own statement (`vs[i] += vs[i + 16]`), else the nearest
  // write before it, else the nearest after it.
  auto Offset = [&](const Expr *E) {
    return SM.getFileOffset(SM.getExpansionLoc(E->getBeginLoc()));
  };
  auto Rank = [&](const ExchangeRace *R) {
    unsigned Read = Offset(R->Read), Write = Offset(R->Write);
    unsigned Distance =
        Write <= Read ? Read - Write : (1u << 30) + (Write - Read);
    return std::make_tuple(unsigned(R->Tier), Read,
                           R->WriteStatement != R->ReadStatement, Distance);
  };
  const ExchangeRace *Lead = G.Races.front();
  for (const ExchangeRace *R : G.Races)
    if (Rank(R) < Rank(Lead))
      Lead = R;
  SourceLocation Loc = Lead->Read->getBeginLoc();
  if (!firstReportAt(Loc))
    return false;
  const Stmt *Step = Lead->ReadStatement;
  bool OneStatement = llvm::all_of(
      G.Races, [&](const ExchangeRace *R) { return R->ReadStatement == Step; });
  const ExchangeRace *SameStep = nullptr;
  for (const ExchangeRace *R : G.Races)
    if (R->WriteStatement == Step && R->ReadStatement == Step && !SameStep)
      SameStep = R;
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  bool Fixed = false;
  {
    std::string Elem = element(*Lead, Ctx);
    StringRef Format =
        !Lead->Pair ? "'%0' is read while another lane may write it as '%1' "
                      "in the same step: without __syncwarp() between the "
                      "write and the read the lanes of a warp race (they do "
                      "not run in lockstep since Volta)"
        : Lead->NextIteration
            ? "lane %0 writes '%1'%2 while lane %3 reads it%4%5, with no "
              "__syncwarp() between the two steps: the lanes of a warp race "
              "(they do not run in lockstep since Volta)"
            : "lane %0 writes '%1' while lane %2 reads it%3 in the same "
              "step%4 (offset %5): without __syncwarp() between the write and "
              "the read the lanes of a warp race (they do not run in lockstep "
              "since Volta)";
    auto Diag = diag(Loc, Format);
    if (!Lead->Pair)
      Diag << shownText(Lead->Read, Ctx) << shownText(Lead->Write, Ctx);
    else if (Lead->NextIteration)
      Diag << Lead->Pair->Writer << Elem << when(*Lead, Lead->WriteCount)
           << Lead->Pair->Reader << readAs(*Lead, Ctx)
           << when(*Lead, Lead->ReadCount);
    else
      Diag << Lead->Pair->Writer << Elem << Lead->Pair->Reader
           << readAs(*Lead, Ctx) << when(*Lead, Lead->ReadCount)
           << std::to_string(int64_t(Lead->Pair->Writer) -
                             int64_t(Lead->Pair->Reader));
    // A potential race gets the suggestion only: its lanes are not known.
    bool MayFix = Lead->Tier != RaceTier::Potential;
    if (MayFix && OneStatement && SameStep && wholeWarps(Step, FU, Reach)) {
      // An earlier statement's write not yet ordered by a fixed step
      // before this one needs a __syncwarp() ahead of the reads too.
      bool AfterPending = llvm::any_of(G.Races, [&](const ExchangeRace *R) {
        const Stmt *W = R->WriteStatement;
        return W != Step && Before(W->getEndLoc(), Step->getBeginLoc()) &&
               (LastFix.isInvalid() || Before(LastFix, W->getBeginLoc()));
      });
      Fixed = addStepFix(Diag, Step, SameStep->Write, AfterPending, FU, Ctx);
    } else if (MayFix && !SameStep && wholeWarps(G.Anchor, FU, Reach) &&
               llvm::all_of(G.Races, [&](const ExchangeRace *R) {
                 return Before(R->WriteStatement->getEndLoc(),
                               G.Anchor->getBeginLoc());
               })) {
      Fixed = addBarrierFix(Diag, G.Anchor, FU, Ctx);
    }
  }
  if (Lead->WriteStatement != Lead->ReadStatement)
    diag(Lead->Write->getBeginLoc(), "written here", DiagnosticIDs::Note);
  llvm::SmallVector<const Expr *, 4> Reads{Lead->Read};
  for (const ExchangeRace *R : G.Races)
    if (!llvm::is_contained(Reads, R->Read)) {
      Reads.push_back(R->Read);
      diag(R->Read->getBeginLoc(), "another read in the same step races too",
           DiagnosticIDs::Note);
    }
  if (Lead->Via)
    diag(Lead->Via->getBeginLoc(), "the parameters hold what this call passes",
         DiagnosticIDs::Note);
  noteTierAndConsequence(*Lead, Ctx);
  if (!Fixed) {
    // The reads of other lanes' elements, each once, into registers.
    std::string Registers;
    llvm::StringSet<> Seen;
    for (const Expr *R : Reads) {
      std::string Text = shownText(R, Ctx);
      if (!Seen.insert(Text).second)
        continue;
      Registers += std::string(Registers.empty() ? "" : " ") + "const auto " +
                   Names.get("warp_read", FU.decl(), Ctx) + " = " + Text + ";";
    }
    diag(Step->getBeginLoc(),
         "suggested code: read what other lanes write into registers before "
         "the step ('%0'), then '__syncwarp();', the step using those "
         "registers, and '__syncwarp();' after it%select{|, each placed where "
         "every lane of the warp runs it, outside the branch that splits "
         "them}1 (or exchange the values with __shfl_down_sync)",
         DiagnosticIDs::Note)
        << Registers << !wholeWarps(Step, FU, Reach);
  }
  return Fixed;
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

bool ImplicitSynchronousCheck::addStepFix(DiagnosticBuilder &Diag,
                                          const Stmt *Step, const Expr *Writer,
                                          bool AfterPending,
                                          const FunctionUniformity &FU,
                                          ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(Step);
  if (!BO || !BO->isAssignmentOp() ||
      BO->getLHS()->IgnoreParenImpCasts() != Writer ||
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
