//===--- FixApplication.cpp - the fixes of a whole run, applied once
//-------===//

#include "FixApplication.h"
#include "FileWriting.h"
#include "Finding.h"
#include "clang/Format/Format.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <set>
#include <tuple>

using namespace llvm;
using clang::tidy::ClangTidyError;
using clang::tooling::Replacement;

namespace warplint {

/// Returns the file a replacement edits: absolute, symlinks resolved (two
/// spellings of one file are one file).
static std::string editedFile(StringRef Path, StringRef BuildDir) {
  SmallString<256> Abs(Path);
  if (sys::path::is_relative(Abs) && !BuildDir.empty())
    sys::path::make_absolute(BuildDir, Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  SmallString<256> Real;
  if (!sys::fs::real_path(Abs, Real))
    return Real.str().str();
  return Abs.str().str();
}

/// Returns whether \p A and \p B cannot both apply. Insertions at one
/// offset can (they go in order), and an insertion at either end of a
/// replaced range goes beside it.
static bool overlap(const PlannedEdit &A, const PlannedEdit &B) {
  if (A.Length == 0 && B.Length == 0)
    return false;
  if (A.Length == 0)
    return B.Offset < A.Offset && A.Offset < B.Offset + B.Length;
  if (B.Length == 0)
    return A.Offset < B.Offset && B.Offset < A.Offset + A.Length;
  return A.Offset < B.Offset + B.Length && B.Offset < A.Offset + A.Length;
}

static bool sameEdit(const PlannedEdit &A, const PlannedEdit &B) {
  return A.Offset == B.Offset && A.Length == B.Length && A.Text == B.Text;
}

/// Returns `file:line:col` of \p E for a one-line message.
static std::string where(const ClangTidyError &E) {
  LineTable Lines;
  std::vector<Finding> F = toFindings({E}, Lines);
  return formatv("{0}:{1}:{2}", F.front().Loc.File, F.front().Loc.Line,
                 F.front().Loc.Column)
      .str();
}

FixPlan planFixes(ArrayRef<ClangTidyError> Errors) {
  FixPlan Plan;
  for (const ClangTidyError &E : Errors) {
    if (E.Message.Fix.empty())
      continue;
    ++Plan.Fixes;
    // The fix's edits not planned yet; all or none of them go in.
    std::vector<std::pair<std::string, PlannedEdit>> New;
    bool Conflict = false;
    for (const auto &FileAndReplacements : E.Message.Fix)
      for (const Replacement &R : FileAndReplacements.second) {
        if (!R.isApplicable())
          continue;
        std::string File = editedFile(R.getFilePath(), E.BuildDirectory);
        PlannedEdit Edit{R.getOffset(), R.getLength(),
                         R.getReplacementText().str()};
        const std::vector<PlannedEdit> &Have = Plan.Files[File];
        if (any_of(Have,
                   [&](const PlannedEdit &P) { return sameEdit(P, Edit); }))
          continue;
        Conflict |= any_of(
            Have, [&](const PlannedEdit &P) { return overlap(P, Edit); });
        New.emplace_back(File, std::move(Edit));
      }
    for (size_t I = 0; I < New.size() && !Conflict; ++I)
      for (size_t J = 0; J < I && !Conflict; ++J)
        Conflict = New[I].first == New[J].first &&
                   overlap(New[I].second, New[J].second);
    if (Conflict) {
      Plan.LeftOut.push_back(formatv("fix of {0} [{1}] left out: it overlaps "
                                     "another fix",
                                     where(E), E.DiagnosticName));
      continue;
    }
    ++Plan.Planned;
    for (auto &[File, Edit] : New)
      Plan.Files[File].push_back(std::move(Edit));
  }
  // Files only a left-out fix named.
  for (auto It = Plan.Files.begin(); It != Plan.Files.end();)
    It = It->second.empty() ? Plan.Files.erase(It) : std::next(It);
  return Plan;
}

std::vector<ClangTidyError>
withoutRepeatedReplacements(ArrayRef<ClangTidyError> Errors) {
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  std::vector<ClangTidyError> Out(Errors.begin(), Errors.end());
  for (ClangTidyError &E : Out)
    for (auto &FileAndReplacements : E.Message.Fix) {
      clang::tooling::Replacements Kept;
      for (const Replacement &R : FileAndReplacements.second) {
        auto Key = std::make_tuple(
            editedFile(R.getFilePath(), E.BuildDirectory), R.getOffset(),
            R.getLength(), R.getReplacementText().str());
        if (Seen.insert(Key).second)
          consumeError(Kept.add(R));
      }
      FileAndReplacements.second = std::move(Kept);
    }
  return Out;
}

Expected<std::string> applyEdits(StringRef File, StringRef Code,
                                 ArrayRef<PlannedEdit> Edits,
                                 StringRef FormatStyle) {
  // Insertions at one offset become one, so clang's Replacements (which
  // the formatter takes) hold them without conflict.
  std::vector<size_t> Order(Edits.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    return std::make_tuple(Edits[A].Offset, Edits[A].Length != 0, A) <
           std::make_tuple(Edits[B].Offset, Edits[B].Length != 0, B);
  });
  std::vector<PlannedEdit> Merged;
  for (size_t I : Order) {
    const PlannedEdit &E = Edits[I];
    if (!Merged.empty() && E.Length == 0 && Merged.back().Length == 0 &&
        Merged.back().Offset == E.Offset) {
      Merged.back().Text += E.Text;
      continue;
    }
    Merged.push_back(E);
  }
  clang::tooling::Replacements Replaces;
  for (const PlannedEdit &E : Merged)
    if (Error Err = Replaces.add(Replacement(File, E.Offset, E.Length, E.Text)))
      return std::move(Err);
  Expected<clang::format::FormatStyle> Style =
      clang::format::getStyle(FormatStyle, File, "none", Code);
  if (!Style)
    return Style.takeError();
  Expected<clang::tooling::Replacements> Cleaned =
      clang::format::cleanupAroundReplacements(Code, Replaces, *Style);
  if (!Cleaned)
    return Cleaned.takeError();
  Expected<clang::tooling::Replacements> Formatted =
      clang::format::formatReplacements(Code, *Cleaned, *Style);
  if (!Formatted)
    return Formatted.takeError();
  return clang::tooling::applyAllReplacements(Code, *Formatted);
}

FixOutcome applyFixPlan(const FixPlan &Plan, const FileStamps &Seen,
                        clang::tidy::ClangTidyContext &Context) {
  FixOutcome Out;
  for (const auto &Entry : Plan.Files) {
    const std::string &File = Entry.first;
    const std::vector<PlannedEdit> &Edits = Entry.second;
    auto Fail = [&](Error E) {
      Out.Failures.push_back(toString(std::move(E)));
    };
    // Wait a while for another run's write; never forever, so two runs
    // that each hold the other's file cannot wait on each other. A file
    // locked only for this write (not an input) is released after it.
    bool Input = holdsFileLock(File);
    if (Error E = lockFile(File, std::chrono::seconds(60))) {
      Fail(std::move(E));
      continue;
    }
    llvm::scope_exit Release([&] {
      if (!Input)
        releaseFileLock(File);
    });
    if (Error E = Seen.checkUnchanged(File)) {
      Fail(std::move(E));
      continue;
    }
    Expected<std::string> Code = readRegularFile(File);
    if (!Code) {
      Fail(Code.takeError());
      continue;
    }
    Expected<std::string> Fixed = applyEdits(
        File, *Code, Edits, *Context.getOptionsForFile(File).FormatStyle);
    if (!Fixed) {
      Out.Failures.push_back("cannot fix " + File + ": " +
                             toString(Fixed.takeError()));
      continue;
    }
    if (*Fixed == *Code)
      continue;
    if (Error E = writeFile(File, *Fixed)) {
      Fail(std::move(E));
      continue;
    }
    ++Out.FilesWritten;
  }
  return Out;
}

} // namespace warplint
