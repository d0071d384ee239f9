//===--- FixApplication.h - the fixes of a whole run, applied once -*- C++
//-*-===//
///
/// \file warp-lint gathers the fixes of every unit of a run before it writes
/// anything. Each finding's fix is whole on its own (a declaration it needs
/// travels with it), so a header fixed from two units, or two findings that
/// insert the same declaration, carry identical replacements: they are
/// applied once, by file, offset, length and text. A fix that would overlap
/// another differently is left out whole, never half applied. The files are
/// written all or none: every new text is complete on disk before the
/// first file is replaced.
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

/// What became of one finding's fix.
enum class FixStatus { NoFix, Applied, Overlaps };

/// The edits of a run, by file (the path symlinks lead to).
struct FixPlan {
  std::map<std::string, std::vector<PlannedEdit>> Files;
  unsigned Fixes = 0;   ///< Findings with a fix.
  unsigned Planned = 0; ///< Of those, fixes that are applied.
  /// One line for each fix left out because it overlaps another.
  std::vector<std::string> LeftOut;
  /// For each error planned, index for index.
  std::vector<FixStatus> Status;
};

/// Plans the fixes of \p Errors (in order: earlier fixes win overlaps), in
/// time linear in their number (but for the sort by offset).
FixPlan planFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

/// Returns \p Code (of \p File) with \p Edits applied, insertions at one
/// offset in plan order before a replacement starting there, then cleaned
/// up and formatted as clang-tidy's --fix does with \p FormatStyle.
llvm::Expected<std::string> applyEdits(llvm::StringRef File,
                                       llvm::StringRef Code,
                                       llvm::ArrayRef<PlannedEdit> Edits,
                                       llvm::StringRef FormatStyle = "none");

/// The fixed text of a file and the edits that make it from the original
/// (after formatting: what really changes), sorted by offset.
struct FixedText {
  std::string Text;
  std::vector<PlannedEdit> Edits;
};

/// applyEdits, also returning the edits as applied.
llvm::Expected<FixedText> fixText(llvm::StringRef File, llvm::StringRef Code,
                                  llvm::ArrayRef<PlannedEdit> Edits,
                                  llvm::StringRef FormatStyle = "none");

/// \p Errors with every replacement an earlier error already carries
/// removed: one exported YAML document is one translation unit, and
/// clang-apply-replacements (like clang-tidy) applies identical
/// replacements of one unit as many times as they appear.
std::vector<clang::tidy::ClangTidyError>
withoutRepeatedReplacements(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

/// One file a plan changes: its text as the analysis read it, and fixed.
struct FixedFile {
  std::string Path;
  std::string Before;
  std::string After;
  std::vector<PlannedEdit> Edits; ///< From Before to After, by offset.
};

/// The new text of every file of \p Plan, each file locked, checked
/// against \p Seen (what the analysis read) and formatted as its
/// FormatStyle asks (as clang-tidy does); files the fixes leave as they
/// are are not listed. One line per file that cannot be fixed.
struct PreparedFixes {
  std::vector<FixedFile> Files;
  std::vector<std::string> Failures;
};
PreparedFixes prepareFixes(const FixPlan &Plan, const FileStamps &Seen,
                           clang::tidy::ClangTidyContext &Context);

/// What writing the files did.
struct FixOutcome {
  std::vector<std::string> Written;    ///< Files replaced.
  std::vector<std::string> NotWritten; ///< Files left as they were.
  std::vector<std::string> Failures;   ///< One line per problem.
};

/// Writes \p Files all or none: each new text is staged (StagedWrite) and
/// only when every one is staged are they renamed into place, with
/// interrupting signals held back until \p WhileHeld has been told what was
/// written (an interrupt then stops the run only after it said so). Only a
/// rename that fails halfway (the disk gone) leaves some written: Written
/// says which.
FixOutcome
writeFixedFiles(llvm::ArrayRef<FixedFile> Files,
                llvm::function_ref<void(const FixOutcome &)> WhileHeld);

} // namespace warplint

#endif
