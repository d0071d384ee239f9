//===--- UniformityPrinter.h - what the analysis holds, as text -*- C++ -*-===//
//
// The printer beside the warp-uniformity analysis (as LLVM keeps its
// analysis printers next to the analyses): for one statement of an analysed
// function, what the analysis recorded about it, as facts with places: the
// variance of each operand and where it entered (WarpValue::Origin), the
// branches and exits that split the lanes before it (divergenceAt), the
// launches seen, and whether WarpAlignedBlockDimX changes the answer. It
// reads the analysis' results and decides nothing itself; `warp-lint
// --explain` finds the statement and prints the facts.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_UNIFORMITYPRINTER_H
#define WARP_LINT_ANALYSIS_UNIFORMITYPRINTER_H

#include "WarpAnalysis.h"
#include "llvm/ADT/DenseSet.h"
#include <string>
#include <vector>

namespace clang::warp {

/// One thing the analysis believes, at a place in the source.
struct ExplainFact {
  std::string File;
  unsigned Line = 0, Column = 0;
  unsigned Depth = 0; ///< 0: about the subject; deeper: why the one above
  std::string Message;
};

/// The explanation of one statement in one function (each instantiation
/// of a template is its own function).
struct Explanation {
  std::string Function; ///< as diagnostics name it, template arguments too
  std::string Subject;  ///< what the statement is: "'__shfl_sync'", "branch"
  std::string File;
  unsigned Line = 0, Column = 0;
  std::vector<ExplainFact> Facts;
};

/// How well a statement answers "what is at this line": the collective or
/// atomic first, then a branch, a call, any expression.
enum class Rank { Collective, Atomic, Branch, Call, Expression, None };
Rank rankOf(const Stmt *S);

/// The condition of a branch statement, or null.
const Expr *branchCondition(const Stmt *S);

/// Prints what \p WA holds for statements of its functions; \p Flipped is
/// the same unit analysed with the other WarpAlignedBlockDimX.
class UniformityPrinter {
public:
  UniformityPrinter(ASTContext &Ctx, WarpAnalysis &WA, WarpAnalysis &Flipped,
                    bool WarpAligned)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), WA(WA), Flipped(Flipped),
        WarpAligned(WarpAligned) {}

  Explanation explain(const FunctionDecl *FD, const FunctionUniformity &FU,
                      const Stmt *Subject);

private:
  void fact(SourceLocation Loc, unsigned Depth, const Twine &Message);
  void fact(const Stmt *At, unsigned Depth, const Twine &Message) {
    fact(At ? At->getBeginLoc() : SourceLocation(), Depth, Message);
  }
  std::string text(const Stmt *S) const;
  std::string describe(const WarpValue &V) const;
  std::string paramNames(ParamSet Params) const;
  void explainValue(const Expr *E, unsigned Depth, StringRef Role);
  void explainOperands(const Expr *E, unsigned Depth,
                       llvm::DenseSet<const Decl *> &Seen);
  void explainLeaf(const Expr *E, unsigned Depth);
  /// Where a looked-up value comes from: a local's declaration, the place
  /// its variance entered.
  void explainSource(const Expr *E, unsigned Depth);
  void explainDivergence(const Stmt *S);
  void explainLaunches();
  void explainOption(const Stmt *Subject, const Expr *Condition);

  ASTContext &Ctx;
  const SourceManager &SM;
  WarpAnalysis &WA, &Flipped;
  bool WarpAligned;
  const FunctionDecl *FD = nullptr;
  const FunctionUniformity *FU = nullptr;
  Explanation *Out = nullptr;
};

} // namespace clang::warp

#endif
