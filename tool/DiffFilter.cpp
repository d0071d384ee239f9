//===--- DiffFilter.cpp - only what a change touched ----------------------===//

#include "DiffFilter.h"
#include "Finding.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace warplint {

/// \p Path with symlinks resolved (as itself when that fails): git names
/// files under the real work tree, findings as the compile command did.
static std::string realPath(StringRef Path) {
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    return Path.str();
  return Real.str().str();
}

/// Runs git with \p Args in \p Dir; returns its stdout, or its first line
/// of stderr as the error.
static Expected<std::string> git(ArrayRef<StringRef> Args, StringRef Dir) {
  ErrorOr<std::string> Git = sys::findProgramByName("git");
  if (!Git)
    return createStringError("git is not on PATH");
  SmallString<128> Out, Err;
  int OutFD, ErrFD;
  if (sys::fs::createTemporaryFile("warp-lint-git", "out", OutFD, Out) ||
      sys::fs::createTemporaryFile("warp-lint-git", "err", ErrFD, Err))
    return createStringError("cannot create a temporary file for git");
  sys::Process::SafelyCloseFileDescriptor(OutFD);
  sys::Process::SafelyCloseFileDescriptor(ErrFD);
  std::vector<StringRef> Argv = {*Git, "-C", Dir};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                          StringRef(Err)};
  std::string ExecError;
  int RC = sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects, 0, 0,
                               &ExecError);
  auto Read = [](StringRef P) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  std::string Stdout = Read(Out), Stderr = Read(Err);
  sys::fs::remove(Out);
  sys::fs::remove(Err);
  if (RC != 0) {
    StringRef First = StringRef(Stderr).trim().split('\n').first;
    return createStringError(First.empty() ? StringRef(ExecError) : First);
  }
  return Stdout;
}

Expected<ChangedLines> ChangedLines::fromGit(StringRef Rev, StringRef Dir) {
  Expected<std::string> Top = git({"rev-parse", "--show-toplevel"}, Dir);
  if (!Top)
    return createStringError("--diff-base: " + toString(Top.takeError()));
  std::string TopDir = StringRef(*Top).trim().str();
  // The work tree against REV: what a pull request's checkout adds to its
  // base. Plain output whatever the user's git configuration says.
  Expected<std::string> Diff =
      git({"-c", "core.quotePath=false", "diff", "-U0", "--no-color",
           "--no-ext-diff", "--no-textconv", Rev, "--"},
          TopDir);
  if (!Diff)
    return createStringError("--diff-base " + Rev.str() + ": " +
                             toString(Diff.takeError()));
  return parse(*Diff, TopDir);
}

/// Reads `N` or `N,M` of a hunk header: the first line and the count.
static std::pair<unsigned, unsigned> hunkRange(StringRef Spec) {
  auto [Start, Count] = Spec.split(',');
  unsigned S = 0, C = 1;
  Start.getAsInteger(10, S);
  if (!Count.empty())
    Count.getAsInteger(10, C);
  return {S, C};
}

ChangedLines ChangedLines::parse(StringRef Diff, StringRef TopDir) {
  ChangedLines Result;
  std::vector<std::pair<unsigned, unsigned>> *Current = nullptr;
  while (!Diff.empty()) {
    StringRef Line;
    std::tie(Line, Diff) = Diff.split('\n');
    if (Line.consume_front("+++ ")) {
      Current = nullptr;
      Line = Line.rtrim("\r\t");
      // A name git had to quote (a tab, a quote, a newline) keeps its
      // quotes; such files are not matched.
      if (!Line.consume_front("b/"))
        continue; // /dev/null: the file was deleted.
      SmallString<256> Path(TopDir);
      sys::path::append(Path, Line);
      Current = &Result.Ranges[realPath(Path)];
      continue;
    }
    if (!Current || !Line.starts_with("@@ "))
      continue;
    // @@ -a[,b] +c[,d] @@ ...
    StringRef Plus = Line.drop_front(3).split(' ').second.split(' ').first;
    if (!Plus.consume_front("+"))
      continue;
    auto [Start, Count] = hunkRange(Plus);
    if (Count == 0) // Lines removed after line Start: both neighbours count.
      Current->push_back({Start == 0 ? 1 : Start, Start + 1});
    else
      Current->push_back({Start, Start + Count - 1});
  }
  return Result;
}

bool ChangedLines::touches(StringRef File, unsigned Line) const {
  auto It = Ranges.find(realPath(File));
  if (It == Ranges.end())
    return false;
  for (const auto &[First, Last] : It->second)
    if (First <= Line && Line <= Last)
      return true;
  return false;
}

} // namespace warplint
