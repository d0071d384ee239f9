//===--- FixReport.cpp - what --fix did, finding by finding ---------------===//

#include "FixReport.h"
#include "Finding.h"
#include "Runner.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace warplint {

std::string relativeToCwd(StringRef Path) {
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return Path.str();
  StringRef Rel = Path;
  if (Rel.consume_front(Cwd) && Rel.starts_with("/"))
    return Rel.drop_front().str();
  return Path.str();
}

/// `N thing(s)`.
static std::string count(size_t N, StringRef One, StringRef Many) {
  return formatv("{0} {1}", N, N == 1 ? One : Many).str();
}

void printFixLines(raw_ostream &OS, ArrayRef<ClangTidyError> Diags,
                   const FixPlan &Plan, bool DryRun) {
  LineTable Lines;
  for (size_t I = 0; I < Diags.size() && I < Plan.Status.size(); ++I) {
    const ClangTidyError &E = Diags[I];
    if (isCompilerError(E))
      continue;
    Finding F = toFindings({E}, Lines).front();
    std::string Where = formatv("{0}:{1}:{2} [{3}]", relativeToCwd(F.Loc.File),
                                F.Loc.Line, F.Loc.Column, E.DiagnosticName);
    switch (Plan.Status[I]) {
    case FixStatus::Applied:
      OS << "warp-lint: " << (DryRun ? "would fix " : "fixed ") << Where
         << "\n";
      break;
    case FixStatus::NoFix:
      OS << "warp-lint: left " << Where << ": no automatic fix\n";
      break;
    case FixStatus::Overlaps:
      OS << "warp-lint: left " << Where
         << ": its fix overlaps another; run --fix again\n";
      break;
    }
  }
}

void printFixTotals(raw_ostream &OS, const FixPlan &Plan, size_t FilesChanged,
                    const FixOutcome *Outcome, size_t Findings) {
  std::string Applied =
      formatv("{0} of {1}", Plan.Planned,
              count(Plan.Fixes, "suggested fix", "suggested fixes"))
          .str();
  size_t Left = Findings - std::min<size_t>(Findings, Plan.Planned);
  if (!Outcome) {
    OS << "warp-lint: --dry-run: " << Applied << " would change "
       << count(FilesChanged, "file", "files") << "; nothing written\n";
    return;
  }
  if (Outcome->Failures.empty()) {
    OS << "warp-lint: applied " << Applied << " ("
       << count(Outcome->Written.size(), "file", "files") << " written); "
       << count(Left, "finding", "findings") << " left\n";
    return;
  }
  if (Outcome->Written.empty()) {
    OS << "warp-lint: applied 0 of "
       << count(Plan.Fixes, "suggested fix", "suggested fixes")
       << ": no file written (fixes are written all or none)\n";
    return;
  }
  // Only a rename that failed after others succeeded gets here.
  std::vector<std::string> Written, NotWritten;
  for (const std::string &F : Outcome->Written)
    Written.push_back(relativeToCwd(F));
  for (const std::string &F : Outcome->NotWritten)
    NotWritten.push_back(relativeToCwd(F));
  OS << "warp-lint: a write failed halfway: written: " << join(Written, ", ")
     << "; not written: " << join(NotWritten, ", ") << "\n";
}

} // namespace warplint
