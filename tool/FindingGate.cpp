//===--- FindingGate.cpp - the filters a finding passes -------------------===//

#include "FindingGate.h"
#include "Runner.h"

using clang::tidy::ClangTidyError;

namespace warplint {

bool FindingGate::excluded(const ClangTidyError &E) {
  if (isCompilerError(E) || Excludes.empty())
    return false;
  Finding F = toFindings({E}, Lines).front();
  return !F.Loc.File.empty() && Excludes.excludes(F.Loc.File);
}

bool FindingGate::unchanged(const ClangTidyError &E) {
  if (isCompilerError(E) || !Changed)
    return false;
  Finding F = toFindings({E}, Lines).front();
  if (!F.Loc.File.empty() && Changed->touches(F.Loc.File, F.Loc.Line))
    return false;
  return llvm::none_of(F.Notes, [&](const FindingNote &N) {
    return !N.Loc.File.empty() && Changed->touches(N.Loc.File, N.Loc.Line);
  });
}

} // namespace warplint
