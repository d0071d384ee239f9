//===--- RunResults.cpp - the units of a run, merged ----------------------===//

#include "RunResults.h"
#include "Finding.h"
#include "Fingerprints.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace warplint {

std::string describeDiagnostic(const ClangTidyError &E) {
  LineTable Lines;
  std::vector<Finding> F = toFindings({E}, Lines);
  if (F.front().Loc.File.empty())
    return E.Message.Message;
  return formatv("{0}:{1}:{2}: {3}", F.front().Loc.File, F.front().Loc.Line,
                 F.front().Loc.Column, E.Message.Message)
      .str();
}

std::string UnitFailure::describe() const {
  if (!InternalError.empty())
    return File + ": " + InternalError + "; its findings are lost";
  size_t N = CompileErrors.size();
  const ClangTidyError &First = CompileErrors[FirstError < N ? FirstError : 0];
  return formatv("{0} does not compile ({1} error{2}, the first: {3}); its "
                 "findings may be incomplete",
                 File, N, N == 1 ? "" : "s", describeDiagnostic(First))
      .str();
}

std::string SkippedUnit::describe() const {
  if (NotGenerated)
    return "skipped " + File + ": not generated yet (build it to lint it)";
  return "skipped " + File + ": " + Reason;
}

bool RunResults::complete() const {
  return Failures.empty() && llvm::all_of(Skipped, [](const SkippedUnit &S) {
           return S.NotGenerated;
         });
}

bool RunResults::hasFindings() const {
  return any_of(Diagnostics,
                [](const ClangTidyError &E) { return !isCompilerError(E); });
}

void RunResults::computeFingerprints() {
  LineTable Lines;
  std::vector<Finding> All = toFindings(Diagnostics, Lines);
  assignFingerprints(All, Functions, Lines);
  Fingerprints.clear();
  for (Finding &F : All)
    Fingerprints.push_back(std::move(F.Fingerprint));
}

unsigned RunResults::keepDiagnostics(function_ref<bool(size_t)> Keep) {
  std::vector<ClangTidyError> KeptDiags;
  std::vector<std::string> KeptPrints;
  unsigned Dropped = 0;
  for (size_t I = 0; I < Diagnostics.size(); ++I) {
    if (!Keep(I)) {
      Dropped += !isCompilerError(Diagnostics[I]);
      continue;
    }
    KeptDiags.push_back(std::move(Diagnostics[I]));
    if (I < Fingerprints.size())
      KeptPrints.push_back(std::move(Fingerprints[I]));
  }
  Diagnostics = std::move(KeptDiags);
  Fingerprints = std::move(KeptPrints);
  return Dropped;
}

std::string diagnosticKey(const ClangTidyError &E) {
  SmallString<256> File(E.Message.FilePath);
  if (!File.empty() && sys::path::is_relative(File) &&
      !E.BuildDirectory.empty())
    sys::path::make_absolute(E.BuildDirectory, File);
  sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  std::string Key = File.str().str();
  for (const std::string &Part : {std::to_string(E.Message.FileOffset),
                                  E.DiagnosticName, E.Message.Message}) {
    Key += '\0';
    Key += Part;
  }
  return Key;
}

RunResults mergeUnits(std::vector<UnitResult> Units) {
  RunResults R;
  StringSet<> Seen;
  for (UnitResult &U : Units) {
    ++R.UnitsAnalysed;
    R.CacheHits += U.FromCache;
    R.SuppressedNolint += U.SuppressedNolint;
    R.SuppressedNonUser += U.SuppressedNonUser;
    R.Seen.merge(U.Seen);
    R.Functions.add(U.Functions);
    UnitFailure Failure;
    Failure.File = U.File;
    Failure.InternalError = U.InternalError;
    for (size_t I = 0; I < U.Errors.size(); ++I) {
      ClangTidyError &E = U.Errors[I];
      if (isCompilerError(E)) {
        if (int(I) == U.FirstError)
          Failure.FirstError = Failure.CompileErrors.size();
        Failure.CompileErrors.push_back(E);
      }
      if (Seen.insert(diagnosticKey(E)).second)
        R.Diagnostics.push_back(std::move(E));
    }
    if (!Failure.InternalError.empty() || !Failure.CompileErrors.empty())
      R.Failures.push_back(std::move(Failure));
  }
  return R;
}

} // namespace warplint
