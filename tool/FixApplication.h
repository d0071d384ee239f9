//===--- FixApplication.h - the fixes of a whole run, applied once -*- C++
//-*-===//
///
/// \file warp-lint gathers the fixes of every unit of a run before it writes
/// anything. Each finding's fix is whole on its own (a declaration it needs
/// travels with it), so a header fixed from two units, or two findings that
/// insert the same declaration, carry identical replacements: they are
/// applied once, by file, offset, length and text. A fix that would overlap
/// another differently is left out whole, never half applied.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FIXAPPLICATION_H
#define WARP_LINT_TOOL_FIXAPPLICATION_H

#include "FileStamps.h"
#include "clang-tidy/ClangTidy.h"
#include "clang/Tooling/Core/Replacement.h"
#include <map>

namespace warplint {

/// One replacement, by byte offset into the file as the analysis read it.
struct PlannedEdit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

/// The edits of a run, by file (the path symlinks lead to).
struct FixPlan {
  std::map<std::string, std::vector<PlannedEdit>> Files;
  unsigned Fixes = 0;   ///< Findings with a fix.
  unsigned Planned = 0; ///< Of those, fixes that are applied.
  /// One line for each fix left out because it overlaps another.
  std::vector<std::string> LeftOut;
};

/// Plans the fixes of \p Errors (in order: earlier fixes win overlaps).
FixPlan planFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

/// Returns \p Code (of \p File) with \p Edits applied, insertions at one
/// offset in plan order before a replacement starting there, then cleaned
/// up and formatted as clang-tidy's --fix does with \p FormatStyle.
llvm::Expected<std::string> applyEdits(llvm::StringRef File,
                                       llvm::StringRef Code,
                                       llvm::ArrayRef<PlannedEdit> Edits,
                                       llvm::StringRef FormatStyle = "none");

/// \p Errors with every replacement an earlier error already carries
/// removed: one exported YAML document is one translation unit, and
/// clang-apply-replacements (like clang-tidy) applies identical
/// replacements of one unit as many times as they appear.
std::vector<clang::tidy::ClangTidyError>
withoutRepeatedReplacements(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

/// What applying a plan did.
struct FixOutcome {
  unsigned FilesWritten = 0;
  std::vector<std::string> Failures; ///< One line per file not written.
};

/// Writes every file of \p Plan: locked, checked against \p Seen (what the
/// analysis read), formatted as the file's FormatStyle asks (as clang-tidy
/// does), then replaced with writeFile.
FixOutcome applyFixPlan(const FixPlan &Plan, const FileStamps &Seen,
                        clang::tidy::ClangTidyContext &Context);

} // namespace warplint

#endif
