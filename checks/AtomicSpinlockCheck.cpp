//===--- AtomicSpinlockCheck.cpp - warp-atomic-spinlock -------------------===//

#include "AtomicSpinlockCheck.h"
#include "FixItText.h"
#include "analysis/LockPatterns.h"
#include "analysis/LockSections.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/BitVector.h"

namespace clang::tidy::warp {

void AtomicSpinlockCheck::onEndOfTranslationUnit() {
  Helpers.clear();
  WarpCheckBase::onEndOfTranslationUnit();
}

void AtomicSpinlockCheck::checkFunction(const FunctionDecl *FD,
                                        const FunctionUniformity &FU,
                                        WarpAnalysis &WA) {
  // One thread per block: no other lane of the warp contends for the lock.
  if (WA.launchedOneThreadPerBlock(FD))
    return;
  ASTContext &Ctx = WA.context();
  const Stmt *HelperLoop = Helpers.helperAcquire(FD, Ctx);
  const FunctionUniformity::BodyOutline &Outline = FU.outline();
  llvm::ArrayRef<const Stmt *> Items = Outline.LoopsAndCalls;
  // A loop spins on a lock only when a call inside it may take one (an
  // atomic, or a try-lock helper): most loops hold none and are not looked
  // into. Marks each such call's enclosing loops, innermost first.
  llvm::BitVector HoldsTake(Items.size());
  for (size_t I = 0; I < Items.size(); ++I)
    if (const auto *Call = dyn_cast<CallExpr>(Items[I]);
        Call && Helpers.mayTakeLock(Call))
      for (int L = Outline.EnclosingLoop[I]; L >= 0 && !HoldsTake[L];
           L = Outline.EnclosingLoop[L])
        HoldsTake.set(L);
  // Loops and calls of lock helpers, in the order they are written.
  for (size_t I = 0; I < Items.size(); ++I) {
    const Stmt *Loop = nullptr;
    const auto *Call = dyn_cast<CallExpr>(Items[I]);
    if (!Call) {
      // A lock helper's own loop is reported where it is called.
      if (HoldsTake[I] && Items[I] != HelperLoop)
        Loop = Items[I];
    } else if (!isa<CXXOperatorCallExpr>(Call)) {
      if (const FunctionDecl *Callee = calledDefinition(Call))
        Loop = Helpers.helperAcquire(Callee, Ctx);
    }
    if (Loop)
      if (std::optional<LockAcquire> A = Helpers.spinAcquire(Loop, Ctx))
        report(*A, Items[I], FU, WA);
  }
}

/// Returns the statements of \p Section up to its release, one a line,
/// indented one level deeper than \p Indent; nullopt when one has no text
/// of its own in the file.
static std::optional<std::string>
indentedSection(const CriticalSection &Section, const std::string &Indent,
                ASTContext &Ctx) {
  std::string Text;
  for (const Stmt *S : Section.After.take_front(Section.End + 1)) {
    std::string T = fileText(S->getSourceRange(), Ctx);
    CharSourceRange R = statementRange(S, Ctx);
    if (T.empty() || R.isInvalid())
      return std::nullopt;
    Text += Indent + "    " +
            Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts())
                .str() +
            "\n";
  }
  return Text;
}

/// Returns the mechanical rewrite of the spin loop \p Site: the lane-safe
/// loop with \p Section inside it, so that no lane leaves holding the lock.
/// Only for a bare spin loop followed by a release, with no synchronization
/// in between.
static std::optional<FixItHint> laneSafeLoop(const Stmt *Site,
                                             const CriticalSection &Section,
                                             ASTContext &Ctx) {
  if (Section.Sync || !Section.Release || Section.End == 0)
    return std::nullopt;
  const Expr *Cond = bareSpinCondition(Site);
  std::optional<std::string> Indent =
      indentationAt(Site->getBeginLoc(), Ctx.getSourceManager());
  if (!Cond || !Indent)
    return std::nullopt;
  std::string CondText = fileText(Cond->getSourceRange(), Ctx);
  if (CondText.empty())
    return std::nullopt;
  std::optional<std::string> Body = indentedSection(Section, *Indent, Ctx);
  CharSourceRange First = statementRange(Site, Ctx);
  CharSourceRange Last = statementRange(Section.After[Section.End], Ctx);
  if (!Body || First.isInvalid() || Last.isInvalid())
    return std::nullopt;
  std::string Done = "warp_lock_done";
  const std::string &I = *Indent;
  return FixItHint::CreateReplacement(
      CharSourceRange::getCharRange(First.getBegin(), Last.getEnd()),
      "for (bool " + Done + " = false; !" + Done + ";) {\n" + I + "  if (!(" +
          CondText + ")) {\n" + *Body + I + "    " + Done + " = true;\n" + I +
          "  }\n" + I + "}");
}

void AtomicSpinlockCheck::report(const LockAcquire &A, const Stmt *Site,
                                 const FunctionUniformity &FU,
                                 WarpAnalysis &WA) {
  ASTContext &Ctx = WA.context();
  std::optional<WarpValue> Address = contendedAddress(A, Site, FU, WA);
  if (!Address)
    return;
  // At the atomic that takes the lock (or the call of the lock helper).
  SourceLocation Loc =
      Site != A.Loop ? Site->getBeginLoc() : A.TakeSite->getBeginLoc();
  if (Loc.isMacroID())
    Loc = Ctx.getSourceManager().getExpansionLoc(Loc);
  if (!firstReportAt(Loc))
    return;
  CriticalSection Section = criticalSection(A, Site, FU, WA);
  diagnose(A, Site, Loc, *Address, Section, Ctx);
  addNotes(A, Site, Loc, Section);
  noteTier(*this, Loc,
           Address->isUniform()           ? Tier::Proven
           : Address->V == Variance::Data ? Tier::Data
                                          : Tier::Potential,
           Address->isUniform()
               ? "every lane spins on the same lock word"
               : "lanes whose lock words coincide contend for the lock");
  if (Section.Sync)
    noteConsequence(*this, Section.Sync->getBeginLoc(), Consequence::Hang,
                    "the section waits for lanes that spin on the lock");
  else
    noteConsequence(*this, Loc, Consequence::Portability,
                    "deadlocks before Volta and on AMD GPUs; on Volta and "
                    "later the lanes take the lock one by one (about 45,000x "
                    "slower than an atomic, measured on an H200)");
}

void AtomicSpinlockCheck::diagnose(const LockAcquire &A, const Stmt *Site,
                                   SourceLocation Loc, const WarpValue &Address,
                                   const CriticalSection &Section,
                                   ASTContext &Ctx) {
  std::string Take = atomicName(A.Atomic);
  StringRef Contend = Address.isUniform() ? "contend" : "may contend";
  auto Diag =
      Section.Sync
          ? diag(Loc, "spin lock taken per lane with '%0' hangs: lanes of "
                      "one warp %1 for it and the critical section waits "
                      "for lanes that are still spinning")
          : diag(Loc, "spin lock taken per lane with '%0': lanes of one "
                      "warp %1 for it, which deadlocks before Volta and on "
                      "AMD GPUs and serializes the warp on Volta and later");
  Diag << Take << Contend;
  if (std::optional<FixItHint> Fix = laneSafeLoop(Site, Section, Ctx))
    Diag << *Fix;
}

void AtomicSpinlockCheck::addNotes(const LockAcquire &A, const Stmt *Site,
                                   SourceLocation Loc,
                                   const CriticalSection &Section) {
  if (Site != A.Loop)
    diag(A.Loop->getBeginLoc(), "the lock is taken by spinning here",
         DiagnosticIDs::Note);
  if (Section.Sync) {
    diag(Section.Sync->getBeginLoc(),
         "this synchronizes lanes while others of the warp spin on the lock",
         DiagnosticIDs::Note);
    return;
  }
  if (!Section.Release) {
    diag(
        Loc,
        "take the lock once per warp instead: one lane acquires, __syncwarp(), "
        "the warp runs the section, __syncwarp(), that lane releases",
        DiagnosticIDs::Note);
    return;
  }
  if (Section.End == 1)
    diag(Section.After[0]->getBeginLoc(),
         "if the critical section is a single read-modify-write, the matching "
         "atomic (atomicAdd, atomicMax, ...) replaces the lock",
         DiagnosticIDs::Note);
  if (Section.End > 0 && releaseNeedsFence(Section))
    diag(Section.Release->getBeginLoc(),
         "no __threadfence() before the release: writes of the critical "
         "section may not be visible to the next holder",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::warp
