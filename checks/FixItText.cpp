//===--- FixItText.cpp - source text helpers for fix-its ------------------===//

#include "FixItText.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Regex.h"

namespace clang::tidy::warp {

std::string fileText(SourceRange Range, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return "";
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

std::optional<std::string> indentationAt(SourceLocation Loc,
                                         const SourceManager &SM) {
  if (Loc.isMacroID())
    return std::nullopt;
  std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(Loc);
  StringRef Before = SM.getBufferData(Pos.first).substr(0, Pos.second);
  size_t LineStart = Before.rfind('\n');
  StringRef Prefix =
      Before.substr(LineStart == StringRef::npos ? 0 : LineStart + 1);
  if (!Prefix.trim().empty())
    return std::nullopt;
  return Prefix.str();
}

CharSourceRange statementRange(const Stmt *S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid())
    return R;
  std::optional<Token> Next =
      Lexer::findNextToken(R.getEnd().getLocWithOffset(-1), SM,
                           Ctx.getLangOpts());
  // DeclStmt ranges already end at the semicolon.
  if (Next && Next->is(tok::semi) &&
      SM.getFileOffset(Next->getLocation()) >= SM.getFileOffset(R.getEnd()))
    R.setEnd(Next->getEndLoc());
  return R;
}

std::string FreshNames::get(llvm::StringRef Base, const FunctionDecl *FD,
                            const ASTContext &Ctx) {
  std::string Body = fileText(FD->getSourceRange(), Ctx);
  for (unsigned I = 0;; ++I) {
    std::string Name = I ? (Base + llvm::Twine(I)).str() : Base.str();
    if (!Given.contains(Name) && !llvm::Regex("\\b" + Name + "\\b").match(Body)) {
      Given.insert(Name);
      return Name;
    }
  }
}

} // namespace clang::tidy::warp
