//===--- Finding.cpp - one reported problem, independent of format --------===//

#include "Finding.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace warplint {

StringRef findingLevel(StringRef Message) {
  // Whole words only: "mayhem" does not hedge.
  while (!Message.empty()) {
    Message = Message.drop_until(isAlpha);
    StringRef Word = Message.take_while(isAlpha);
    if (Word.equals_insensitive("may") ||
        Word.equals_insensitive("potentially"))
      return "warning";
    Message = Message.drop_front(Word.size());
  }
  return "error";
}

FindingFacts factsOf(const ClangTidyError &E) {
  std::vector<std::string> Messages;
  for (const clang::tooling::DiagnosticMessage &N : E.Notes)
    Messages.push_back(N.Message);
  return readFindingFacts(Messages);
}

std::string diagnosticLevel(const ClangTidyError &E,
                            const FindingFacts &Facts) {
  if (E.DiagLevel == ClangTidyError::Error || E.IsWarningAsError)
    return "error";
  if (Facts.TierNoted)
    return tierLevel(Facts.Level).str();
  return findingLevel(E.Message.Message).str();
}

LineTable::FileLines &LineTable::load(StringRef File) {
  auto [It, Inserted] = Files.try_emplace(File);
  FileLines &L = It->second;
  if (Inserted) {
    L.Starts.push_back(0);
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
            MemoryBuffer::getFile(File)) {
      L.Text = std::move(*Buf);
      StringRef Text = L.Text->getBuffer();
      for (size_t I = 0; I < Text.size(); ++I)
        if (Text[I] == '\n')
          L.Starts.push_back(I + 1);
    }
  }
  return L;
}

void LineTable::resolve(Location &Loc) {
  if (Loc.File.empty())
    return;
  FileLines &L = load(Loc.File);
  auto Next = std::upper_bound(L.Starts.begin(), L.Starts.end(), Loc.Offset);
  Loc.Line = Next - L.Starts.begin();
  Loc.Column = Loc.Offset - *(Next - 1) + 1;
  Loc.Utf16Column = utf16Column(lineText(Loc.File, Loc.Line), Loc.Column);
}

StringRef LineTable::lineText(StringRef File, unsigned Line) {
  FileLines &L = load(File);
  if (!L.Text || Line == 0 || Line > L.Starts.size())
    return "";
  StringRef Text = L.Text->getBuffer();
  size_t Begin = L.Starts[Line - 1];
  size_t End = Line < L.Starts.size() ? L.Starts[Line] : Text.size();
  if (Begin > Text.size())
    return "";
  return Text.slice(Begin, End).rtrim("\r\n");
}

StringRef LineTable::fileText(StringRef File) {
  FileLines &L = load(File);
  return L.Text ? L.Text->getBuffer() : StringRef();
}

unsigned LineTable::lineCount(StringRef File) {
  FileLines &L = load(File);
  return L.Text ? L.Starts.size() : 0;
}

unsigned utf16Column(StringRef Line, unsigned ByteColumn) {
  unsigned Units = 0;
  size_t Before = std::min<size_t>(ByteColumn - 1, Line.size());
  for (size_t I = 0; I < Before; ++I) {
    unsigned char C = Line[I];
    if ((C & 0xC0) == 0x80)
      continue; // A continuation byte: part of the character counted.
    Units += (C & 0xF8) == 0xF0 ? 2 : 1;
  }
  // Past the end of the line (an end-of-line offset): bytes count as units.
  if (ByteColumn - 1 > Line.size())
    Units += ByteColumn - 1 - Line.size();
  return Units + 1;
}

/// Makes \p Path absolute against the directory the error was found in.
static std::string absolutePath(StringRef Path, StringRef BuildDir) {
  if (Path.empty())
    return "";
  SmallString<256> Abs(Path);
  if (sys::path::is_relative(Abs) && !BuildDir.empty())
    sys::path::make_absolute(BuildDir, Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// Returns a resolved location for \p Path at \p Offset.
static Location locate(StringRef Path, unsigned Offset, StringRef BuildDir,
                       LineTable &Lines) {
  Location Loc;
  Loc.File = absolutePath(Path, BuildDir);
  Loc.Offset = Offset;
  Lines.resolve(Loc);
  return Loc;
}

std::vector<Finding> toFindings(ArrayRef<ClangTidyError> Errors,
                                LineTable &Lines) {
  std::vector<Finding> Result;
  for (const ClangTidyError &E : Errors) {
    Finding F;
    F.Check = E.DiagnosticName;
    F.Message = E.Message.Message;
    F.Facts = factsOf(E);
    F.Level = diagnosticLevel(E, F.Facts);
    F.Loc = locate(E.Message.FilePath, E.Message.FileOffset, E.BuildDirectory,
                   Lines);
    for (const clang::tooling::DiagnosticMessage &N : E.Notes)
      F.Notes.push_back({N.Message, locate(N.FilePath, N.FileOffset,
                                           E.BuildDirectory, Lines)});
    for (const auto &FileAndReplacements : E.Message.Fix)
      for (const clang::tooling::Replacement &R : FileAndReplacements.second) {
        FindingFix Fix;
        Fix.Loc =
            locate(R.getFilePath(), R.getOffset(), E.BuildDirectory, Lines);
        Fix.Length = R.getLength();
        Fix.End = locate(R.getFilePath(), R.getOffset() + R.getLength(),
                         E.BuildDirectory, Lines);
        Fix.Replacement = R.getReplacementText().str();
        F.Fixes.push_back(std::move(Fix));
      }
    Result.push_back(std::move(F));
  }
  return Result;
}

} // namespace warplint
