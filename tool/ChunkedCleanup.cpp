//===--- ChunkedCleanup.cpp - clang-format's fix cleanup, file in pieces --===//

#include "ChunkedCleanup.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;
using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace warplint {

std::vector<unsigned> pieceBoundaries(StringRef Code, bool InsideNamespaces) {
  clang::SourceManagerForFile Env("piece.cu", Code);
  clang::SourceManager &SM = Env.get();
  clang::FileID ID = SM.getMainFileID();
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus17 = true;
  Lang.CUDA = true;
  clang::Lexer Lex(ID, SM.getBufferOrFake(ID), SM, Lang);
  Lex.SetCommentRetentionState(false);
  std::vector<unsigned> Out;
  // Open braces: whether each one opens a namespace-like block.
  std::vector<bool> Braces;
  unsigned Parens = 0, CodeDepth = 0;
  // The first two tokens of the declaration being read, to tell
  // `namespace x {` and `extern "C" {` from other braces.
  clang::tok::TokenKind First = clang::tok::unknown,
                        LastKind = clang::tok::semi;
  bool FirstIsExtern = false;
  bool InDirective = false;
  clang::Token Tok;
  while (!Lex.LexFromRawLexer(Tok) || Tok.isNot(clang::tok::eof)) {
    if (Tok.is(clang::tok::eof))
      break;
    if (Tok.isAtStartOfLine()) {
      InDirective = Tok.is(clang::tok::hash);
      bool Outside =
          Parens == 0 && (InsideNamespaces ? CodeDepth == 0 : Braces.empty());
      if (!InDirective && Outside &&
          (LastKind == clang::tok::semi || LastKind == clang::tok::r_brace)) {
        // The line's start (rfind looks before the offset given).
        size_t NewLine = Code.rfind('\n', SM.getFileOffset(Tok.getLocation()));
        unsigned LineStart = NewLine == StringRef::npos ? 0 : NewLine + 1;
        if (LineStart > 0 && (Out.empty() || Out.back() < LineStart))
          Out.push_back(LineStart);
      }
    }
    if (InDirective)
      continue;
    clang::tok::TokenKind K = Tok.getKind();
    if (K == clang::tok::raw_identifier) {
      StringRef Name = Tok.getRawIdentifier();
      if (First == clang::tok::unknown) {
        First = Name == "namespace" ? clang::tok::kw_namespace
                                    : clang::tok::raw_identifier;
        FirstIsExtern = Name == "extern";
      }
    } else if (First == clang::tok::unknown && K != clang::tok::l_brace &&
               K != clang::tok::r_brace && K != clang::tok::semi) {
      First = K;
    }
    switch (K) {
    case clang::tok::l_paren:
    case clang::tok::l_square:
      ++Parens;
      break;
    case clang::tok::r_paren:
    case clang::tok::r_square:
      Parens -= Parens > 0;
      break;
    case clang::tok::l_brace: {
      bool Namespace =
          First == clang::tok::kw_namespace ||
          (FirstIsExtern && LastKind == clang::tok::string_literal);
      Braces.push_back(Namespace);
      CodeDepth += !Namespace;
      First = clang::tok::unknown;
      FirstIsExtern = false;
      break;
    }
    case clang::tok::r_brace:
      if (!Braces.empty()) {
        CodeDepth -= !Braces.back();
        Braces.pop_back();
      }
      First = clang::tok::unknown;
      FirstIsExtern = false;
      break;
    case clang::tok::semi:
      if (Parens == 0) {
        First = clang::tok::unknown;
        FirstIsExtern = false;
      }
      break;
    default:
      break;
    }
    LastKind = K;
  }
  return Out;
}

/// Cleanup and formatting of one whole piece of code, as clang-tidy does.
static Expected<Replacements> whole(StringRef Code, const Replacements &R,
                                    const clang::format::FormatStyle &Style) {
  Expected<Replacements> Cleaned =
      clang::format::cleanupAroundReplacements(Code, R, Style);
  if (!Cleaned)
    return Cleaned.takeError();
  return clang::format::formatReplacements(Code, *Cleaned, Style);
}

Expected<Replacements>
cleanupAndFormat(StringRef File, StringRef Code, const Replacements &Replaces,
                 const clang::format::FormatStyle &Style) {
  if (Replaces.size() <= FixesPerPiece && Code.size() <= WholeFileBytes)
    return whole(Code, Replaces, Style);
  // Formatting a piece must not start inside a namespace (its indentation
  // would be lost); the cleanup alone may.
  std::vector<unsigned> Cuts = pieceBoundaries(Code, Style.DisableFormat);
  std::vector<Replacement> All(Replaces.begin(), Replaces.end());
  // The first cut at or after Offset, or the end of the code.
  auto CutAtOrAfter = [&](unsigned Offset) -> unsigned {
    auto It = llvm::lower_bound(Cuts, Offset);
    return It == Cuts.end() ? Code.size() : *It;
  };
  // The last cut at or before Offset, or the start of the code.
  auto CutAtOrBefore = [&](unsigned Offset) -> unsigned {
    auto It = llvm::upper_bound(Cuts, Offset);
    return It == Cuts.begin() ? 0 : *std::prev(It);
  };
  auto EndOf = [](const Replacement &R) {
    return R.getOffset() + R.getLength();
  };
  Replacements Result;
  unsigned Done = 0; // The code before this is in a processed piece.
  for (size_t Next = 0; Next < All.size();) {
    // A piece: from the cut before its first fix to a cut after its last,
    // with at most FixesPerPiece fixes, and no long stretch without one.
    unsigned Start = std::max(Done, CutAtOrBefore(All[Next].getOffset()));
    size_t End = Next + 1;
    unsigned Reach = EndOf(All[Next]);
    unsigned Stop = CutAtOrAfter(std::max(Reach, Start + 1));
    while (End < All.size() && Stop < Code.size()) {
      const Replacement &R = All[End];
      bool Separated = R.getOffset() >= Stop;
      if (Separated && (End - Next >= FixesPerPiece ||
                        R.getOffset() - Reach > PieceGapBytes))
        break;
      Reach = std::max(Reach, EndOf(R));
      Stop = CutAtOrAfter(std::max(Reach, Start + 1));
      ++End;
    }
    if (Stop >= Code.size()) {
      // No cut after: the piece runs to the end, with every fix left.
      Stop = Code.size();
      End = All.size();
    }
    StringRef Piece = Code.slice(Start, Stop);
    Replacements Local;
    for (size_t I = Next; I < End; ++I)
      if (Error E = Local.add(Replacement(File, All[I].getOffset() - Start,
                                          All[I].getLength(),
                                          All[I].getReplacementText())))
        return std::move(E);
    Expected<Replacements> Piecewise = whole(Piece, Local, Style);
    if (!Piecewise)
      return Piecewise.takeError();
    for (const Replacement &R : *Piecewise)
      if (Error E =
              Result.add(Replacement(File, R.getOffset() + Start, R.getLength(),
                                     R.getReplacementText()))) {
        // Pieces that meet at a cut disagree: process the file whole.
        consumeError(std::move(E));
        return whole(Code, Replaces, Style);
      }
    Next = End;
    Done = Stop;
  }
  return Result;
}

} // namespace warplint
