//===--- FixItText.h - source text helpers for fix-its ----------*- C++ -*-===//

#ifndef WARP_LINT_FIXITTEXT_H
#define WARP_LINT_FIXITTEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>

namespace clang::tidy::warp {

/// Returns the file text of \p Range, or "" when it is not plain file text
/// (e.g. it starts or ends inside a macro body).
std::string fileText(SourceRange Range, const ASTContext &Ctx);

/// Returns how a message names \p E: its file text, or the expression as
/// Clang prints it where the text is not in the file (inside a macro body).
std::string shownText(const Expr *E, const ASTContext &Ctx);

/// Returns the whitespace before \p Loc on its line, or nullopt when code
/// precedes it there (e.g. `} else if`), where a declaration cannot go.
std::optional<std::string> indentationAt(SourceLocation Loc,
                                         const SourceManager &SM);

/// Returns the range of the statement \p S including its trailing `;`, or
/// an invalid range when it is not plain file text.
CharSourceRange statementRange(const Stmt *S, const ASTContext &Ctx);

/// Returns whether evaluating \p E twice is the same as once: no
/// assignments, increments or calls other than reads of thread/block indices
/// and pure intrinsics.
bool isRepeatable(const Expr *E);

/// A name one declaration introduces for several fixes: the mask
/// `__ballot_sync` computes before an `if`, used by every collective in it.
/// Each fix must be whole on its own (NOLINT on one finding, or dropping it,
/// must not leave another fix using an undeclared name). Where diagnostics
/// are self-contained (clangd, warp-lint, which applies identical insertions
/// once) every fix carries the declaration. clang-tidy and
/// clang-apply-replacements apply identical insertions of one translation
/// unit as often as they appear, so there the first fix that is reported
/// carries it, and the next one does when NOLINT hid that one.
struct SharedName {
  std::string Name;
  bool Declared = false; ///< A reported fix carries the declaration.
};

/// Hands out identifiers that a function does not use yet, remembering those
/// already given to earlier fixes in the same function.
class FreshNames {
public:
  std::string get(llvm::StringRef Base, const FunctionDecl *FD,
                  const ASTContext &Ctx);
  void clear() {
    Given.clear();
    Used.clear();
    Function = nullptr;
  }

private:
  const FunctionDecl *Function = nullptr;
  llvm::StringSet<> Given;
  /// Identifiers spelled in the function, read once per function.
  llvm::StringSet<> Used;
};

} // namespace clang::tidy::warp

#endif
