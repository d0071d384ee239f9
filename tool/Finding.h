//===--- Finding.h - one reported problem, independent of format -*- C++
//-*-===//
///
/// \file The shape the SARIF and JSON writers share: a clang-tidy error with
/// file offsets turned into lines and columns.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FINDING_H
#define WARP_LINT_TOOL_FINDING_H

#include "FindingFacts.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>
#include <vector>

namespace warplint {

/// A place in a file; Line and Column are 1-based, Column counts bytes like
/// clang's diagnostics.
struct Location {
  std::string File; ///< Absolute path; empty for none (a command-line macro).
  unsigned Offset = 0;
  unsigned Line = 0;
  unsigned Column = 0;
  /// Column counted in UTF-16 code units, as SARIF's default columnKind
  /// wants it (differs from Column on lines with non-ASCII text before it);
  /// 0 when not resolved.
  unsigned Utf16Column = 0;
};

struct FindingNote {
  std::string Message;
  Location Loc;
};

/// One replacement of a fix: Length bytes at Loc become Replacement.
struct FindingFix {
  Location Loc;
  unsigned Length = 0;
  Location End; ///< Where the replaced bytes end.
  std::string Replacement;
};

struct Finding {
  std::string Check;
  /// "error", "warning" or "note": by tier (tierLevel), or by findingLevel
  /// when no note gives the tier; compile errors and warnings made errors
  /// (WarningsAsErrors) are "error".
  std::string Level;
  std::string Message;
  Location Loc;
  std::vector<FindingNote> Notes;
  std::vector<FindingFix> Fixes;
  /// partialFingerprints value (see Fingerprints.h); empty for none.
  std::string Fingerprint;
  /// Tier, consequence and lane picture, read from the notes.
  FindingFacts Facts;
};

/// The severity rule for findings without a tier note (FindingFacts.h): a
/// message that hedges ("may", "potentially") is a warning, a definite
/// finding an error. The checks worded their messages that way before they
/// named tiers (docs/cli.md).
llvm::StringRef findingLevel(llvm::StringRef Message);

/// Turns offsets into lines and columns, reading each file once.
class LineTable {
public:
  /// Fills Line, Column and Utf16Column of a location whose File and
  /// Offset are set.
  void resolve(Location &Loc);
  /// Returns the text of line \p Line (1-based) of \p File, without its
  /// line break; empty when unknown.
  llvm::StringRef lineText(llvm::StringRef File, unsigned Line);
  /// Returns the whole text of \p File; empty when unreadable.
  llvm::StringRef fileText(llvm::StringRef File);
  /// Returns the number of lines of \p File (0 when unreadable).
  unsigned lineCount(llvm::StringRef File);

private:
  struct FileLines {
    std::unique_ptr<llvm::MemoryBuffer> Text;
    std::vector<unsigned> Starts;
  };
  FileLines &load(llvm::StringRef File);
  llvm::StringMap<FileLines> Files;
};

/// Returns the 1-based column of byte \p ByteColumn (1-based) of \p Line in
/// UTF-16 code units: a UTF-8 sequence of 4 bytes is 2 units, every other
/// character 1 (a stray byte counts as one character).
unsigned utf16Column(llvm::StringRef Line, unsigned ByteColumn);

/// Returns the level of \p E as Finding::Level describes it.
std::string diagnosticLevel(const clang::tidy::ClangTidyError &E,
                            const FindingFacts &Facts);

/// Returns the facts (FindingFacts.h) of \p E's notes.
FindingFacts factsOf(const clang::tidy::ClangTidyError &E);

/// Converts clang-tidy's errors; a compiler error is always an "error".
std::vector<Finding> toFindings(llvm::ArrayRef<clang::tidy::ClangTidyError>,
                                LineTable &Lines);

} // namespace warplint

#endif
