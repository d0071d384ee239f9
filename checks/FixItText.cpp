//===--- FixItText.cpp - source text helpers for fix-its ------------------===//

#include "FixItText.h"
#include "analysis/WarpCollectives.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warp {

std::string fileText(SourceRange Range, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return "";
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

std::string shownText(const Expr *E, const ASTContext &Ctx) {
  std::string Text = fileText(E->getSourceRange(), Ctx);
  if (!Text.empty())
    return Text;
  llvm::raw_string_ostream OS(Text);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return Text;
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
  std::optional<Token> Next = Lexer::findNextToken(
      R.getEnd().getLocWithOffset(-1), SM, Ctx.getLangOpts());
  // DeclStmt ranges already end at the semicolon.
  if (Next && Next->is(tok::semi) &&
      SM.getFileOffset(Next->getLocation()) >= SM.getFileOffset(R.getEnd()))
    R.setEnd(Next->getEndLoc());
  return R;
}

/// Calls whose repetition changes nothing: index reads and pure intrinsics.
static bool isRepeatableCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  if (FD->hasAttr<ConstAttr>() || FD->hasAttr<PureAttr>() || FD->isConstexpr())
    return true;
  return ::clang::warp::isRepeatableIntrinsic(FD->getName());
}

bool isRepeatable(const Expr *E) {
  if (!E)
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAssignmentOp())
      return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->isIncrementDecrementOp())
      return false;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (!isRepeatableCall(Call))
      return false;
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return isRepeatable(POE->getResultExpr());
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (!isRepeatable(CE))
        return false;
  return true;
}

/// Adds the names declared or referenced below \p S to \p Out.
static void collectNames(const Stmt *S, llvm::StringSet<> &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *ND = dyn_cast<NamedDecl>(D); ND && ND->getIdentifier())
        Out.insert(ND->getName());
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (DRE->getDecl()->getIdentifier())
      Out.insert(DRE->getDecl()->getName());
  } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    if (ME->getMemberDecl()->getIdentifier())
      Out.insert(ME->getMemberDecl()->getName());
  }
  for (const Stmt *Child : S->children())
    collectNames(Child, Out);
}

std::string FreshNames::get(llvm::StringRef Base, const FunctionDecl *FD,
                            const ASTContext &Ctx) {
  if (FD != Function) {
    Given.clear();
    Used.clear();
    Function = FD;
    // The names the function declares or refers to, collected once (a
    // name only in a comment does not clash).
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getIdentifier())
        Used.insert(P->getName());
    collectNames(FD->getBody(), Used);
  }
  for (unsigned I = 0;; ++I) {
    std::string Name = I ? (Base + llvm::Twine(I)).str() : Base.str();
    if (!Given.contains(Name) && !Used.contains(Name)) {
      Given.insert(Name);
      return Name;
    }
  }
}

} // namespace clang::tidy::warp
