//===--- FixApplication.cpp - the fixes of a whole run, applied once ------===//

#include "FixApplication.h"
#include "ChunkedCleanup.h"
#include "FileWriting.h"
#include "Finding.h"
#include "clang/Format/Format.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <csignal>
#include <set>
#include <signal.h>
#include <tuple>
#include <unordered_set>

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

/// Returns `file:line:col` of \p E for a one-line message.
static std::string where(const ClangTidyError &E, LineTable &Lines) {
  std::vector<Finding> F = toFindings({E}, Lines);
  return formatv("{0}:{1}:{2}", F.front().Loc.File, F.front().Loc.Line,
                 F.front().Loc.Column)
      .str();
}

namespace {
/// The edits planned in one file, indexed so that a new edit is compared
/// only with its neighbours: a run with thousands of fixes in one file
/// must not compare each with all.
class FileEdits {
public:
  explicit FileEdits(std::vector<PlannedEdit> &Edits) : Edits(Edits) {}

  bool has(const PlannedEdit &E) const { return Keys.count(key(E)) != 0; }

  /// Whether \p E overlaps an edit planned here.
  bool overlapsAny(const PlannedEdit &E) const {
    // Planned edits start at most MaxLength before anything they reach.
    unsigned From = E.Offset > MaxLength ? E.Offset - MaxLength : 0;
    for (auto It = ByOffset.lower_bound(From);
         It != ByOffset.end() && It->first <= E.Offset + E.Length; ++It)
      if (overlap(Edits[It->second], E))
        return true;
    return false;
  }

  void add(PlannedEdit E) {
    Keys.insert(key(E));
    MaxLength = std::max(MaxLength, E.Length);
    ByOffset.emplace(E.Offset, Edits.size());
    Edits.push_back(std::move(E));
  }

private:
  static std::string key(const PlannedEdit &E) {
    return formatv("{0}:{1}:", E.Offset, E.Length).str() + E.Text;
  }
  std::vector<PlannedEdit> &Edits;
  std::multimap<unsigned, size_t> ByOffset;
  std::unordered_set<std::string> Keys;
  unsigned MaxLength = 0;
};
} // namespace

FixPlan planFixes(ArrayRef<ClangTidyError> Errors) {
  FixPlan Plan;
  std::map<std::string, FileEdits> Index;
  auto Edits = [&](const std::string &File) -> FileEdits & {
    auto It = Index.find(File);
    if (It == Index.end())
      It = Index.emplace(File, FileEdits(Plan.Files[File])).first;
    return It->second;
  };
  // Spellings of a path seen, and the file each one is.
  StringMap<std::string> Resolved;
  LineTable Lines;
  for (const ClangTidyError &E : Errors) {
    if (E.Message.Fix.empty()) {
      Plan.Status.push_back(FixStatus::NoFix);
      continue;
    }
    ++Plan.Fixes;
    // The fix's edits not planned yet; all or none of them go in.
    std::vector<std::pair<std::string, PlannedEdit>> New;
    bool Conflict = false;
    for (const auto &FileAndReplacements : E.Message.Fix)
      for (const Replacement &R : FileAndReplacements.second) {
        if (!R.isApplicable())
          continue;
        std::string Spelled =
            E.BuildDirectory + std::string(1, '\0') + R.getFilePath().str();
        auto [Slot, Fresh] = Resolved.try_emplace(Spelled);
        if (Fresh)
          Slot->second = editedFile(R.getFilePath(), E.BuildDirectory);
        const std::string &File = Slot->second;
        PlannedEdit Edit{R.getOffset(), R.getLength(),
                         R.getReplacementText().str()};
        FileEdits &Have = Edits(File);
        if (Have.has(Edit))
          continue;
        Conflict |= Have.overlapsAny(Edit);
        New.emplace_back(File, std::move(Edit));
      }
    for (size_t I = 0; I < New.size() && !Conflict; ++I)
      for (size_t J = 0; J < I && !Conflict; ++J)
        Conflict = New[I].first == New[J].first &&
                   overlap(New[I].second, New[J].second);
    if (Conflict) {
      Plan.LeftOut.push_back(formatv("fix of {0} [{1}] left out: it overlaps "
                                     "another fix",
                                     where(E, Lines), E.DiagnosticName));
      Plan.Status.push_back(FixStatus::Overlaps);
      continue;
    }
    ++Plan.Planned;
    Plan.Status.push_back(FixStatus::Applied);
    for (auto &[File, Edit] : New)
      Edits(File).add(std::move(Edit));
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
  Expected<FixedText> Fixed = fixText(File, Code, Edits, FormatStyle);
  if (!Fixed)
    return Fixed.takeError();
  return std::move(Fixed->Text);
}

Expected<FixedText> fixText(StringRef File, StringRef Code,
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
  Expected<clang::tooling::Replacements> Formatted =
      cleanupAndFormat(File, Code, Replaces, *Style);
  if (!Formatted)
    return Formatted.takeError();
  Expected<std::string> Text =
      clang::tooling::applyAllReplacements(Code, *Formatted);
  if (!Text)
    return Text.takeError();
  FixedText Out;
  Out.Text = std::move(*Text);
  for (const Replacement &R : *Formatted)
    Out.Edits.push_back(
        {R.getOffset(), R.getLength(), R.getReplacementText().str()});
  return Out;
}

PreparedFixes prepareFixes(const FixPlan &Plan, const FileStamps &Seen,
                           clang::tidy::ClangTidyContext &Context) {
  PreparedFixes Out;
  for (const auto &[File, Edits] : Plan.Files) {
    auto Fail = [&](Error E) {
      Out.Failures.push_back(toString(std::move(E)));
    };
    // Wait a while for another run's write; never forever, so two runs
    // that each hold the other's file cannot wait on each other. The lock
    // is held to the end of the run: the file is written after every other
    // one is ready.
    if (Error E = lockFile(File, std::chrono::seconds(60))) {
      Fail(std::move(E));
      continue;
    }
    if (Error E = Seen.checkUnchanged(File)) {
      Fail(std::move(E));
      continue;
    }
    Expected<std::string> Code = readRegularFile(File);
    if (!Code) {
      Fail(Code.takeError());
      continue;
    }
    Expected<FixedText> Fixed = fixText(
        File, *Code, Edits, *Context.getOptionsForFile(File).FormatStyle);
    if (!Fixed) {
      Out.Failures.push_back("cannot fix " + File + ": " +
                             toString(Fixed.takeError()));
      continue;
    }
    if (Fixed->Text != *Code)
      Out.Files.push_back({File, std::move(*Code), std::move(Fixed->Text),
                           std::move(Fixed->Edits)});
  }
  return Out;
}

namespace {
/// Holds back the signals that interrupt a run (Ctrl-C, a CI job's
/// SIGTERM) while files are renamed into place, so that a run stops either
/// before the first file changes or after the last one did.
class HoldInterrupts {
public:
  HoldInterrupts() {
    sigset_t Set;
    sigemptyset(&Set);
    for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
      sigaddset(&Set, Sig);
    pthread_sigmask(SIG_BLOCK, &Set, &Old);
  }
  ~HoldInterrupts() { pthread_sigmask(SIG_SETMASK, &Old, nullptr); }

private:
  sigset_t Old;
};
} // namespace

FixOutcome writeFixedFiles(ArrayRef<FixedFile> Files,
                           function_ref<void(const FixOutcome &)> WhileHeld) {
  FixOutcome Out;
  std::vector<StagedWrite> Staged;
  for (const FixedFile &F : Files) {
    Expected<StagedWrite> W = StagedWrite::prepare(F.Path, F.After);
    if (!W) {
      Out.Failures.push_back(toString(W.takeError()));
      continue;
    }
    Staged.push_back(std::move(*W));
  }
  if (!Out.Failures.empty()) {
    for (const FixedFile &F : Files)
      Out.NotWritten.push_back(F.Path);
    WhileHeld(Out);
    return Out; // The staged files are removed.
  }
  HoldInterrupts Hold;
  for (StagedWrite &W : Staged) {
    if (!Out.Failures.empty()) {
      Out.NotWritten.push_back(W.path());
      continue;
    }
    if (Error E = W.commit()) {
      Out.Failures.push_back(toString(std::move(E)));
      Out.NotWritten.push_back(W.path());
      continue;
    }
    Out.Written.push_back(W.path());
  }
  WhileHeld(Out);
  return Out;
}

} // namespace warplint
