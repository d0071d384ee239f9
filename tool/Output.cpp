//===--- Output.cpp - reporting a run's findings
//---------------------------===//

#include "Output.h"
#include "FileWriting.h"
#include "FixApplication.h"
#include "JsonWriter.h"
#include "SarifWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;
using namespace clang::tidy;

namespace warplint {

std::string defaultSarifRoot() {
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return "";
  // Look for the work tree ourselves: nothing is executed, not even git.
  for (StringRef Dir = Cwd; !Dir.empty(); Dir = sys::path::parent_path(Dir))
    if (sys::fs::exists(Dir + "/.git"))
      return Dir.str();
  return Cwd.str().str();
}

/// Returns the error of stdout, if writing to it failed, and clears it (an
/// error left on outs() would end the process with "LLVM ERROR").
static Error checkStdout(bool Closed) {
  outs().flush();
  std::error_code EC;
  if (outs().has_error())
    EC = outs().error();
  else if (Closed && outs().tell() > 0)
    EC = std::make_error_code(std::errc::bad_file_descriptor);
  outs().clear_error();
  if (!EC)
    return Error::success();
  return createStringError(EC, "cannot write the report to stdout: " +
                                   EC.message());
}

/// Returns what \p Print writes to stdout, which goes to a temporary file
/// meanwhile (handleErrors prints only there).
static Expected<std::string> captureStdout(function_ref<void()> Print) {
  outs().flush();
  int FD = -1;
  SmallString<128> Temp;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("warp-lint-report", "txt", FD, Temp))
    return createStringError(EC,
                             "cannot create a temporary file: " + EC.message());
  int Saved = dup(STDOUT_FILENO);
  dup2(FD, STDOUT_FILENO);
  Print();
  Error Failed = checkStdout(false);
  dup2(Saved, STDOUT_FILENO);
  close(Saved);
  close(FD);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Temp);
  sys::fs::remove(Temp);
  if (Failed)
    return std::move(Failed);
  if (!Text)
    return createStringError(Text.getError(), "cannot read back the report: " +
                                                  Text.getError().message());
  return (*Text)->getBuffer().str();
}

/// The run's problems as SARIF notifications: each compile error of each
/// failed unit, and each crash.
static std::vector<SarifNotification> notifications(const RunResults &R) {
  std::vector<SarifNotification> Out;
  for (const UnitFailure &F : R.Failures) {
    if (!F.InternalError.empty()) {
      Out.push_back({F.describe(), Location()});
      continue;
    }
    LineTable Lines;
    for (const Finding &E : toFindings(F.CompileErrors, Lines))
      Out.push_back({E.Message + " (translation unit " + F.File +
                         " does not compile: its findings may be incomplete)",
                     E.Loc});
  }
  return Out;
}

Error report(const RunResults &Results, ClangTidyContext &Context,
             const OutputSettings &Settings) {
  const std::vector<ClangTidyError> &Diags = Results.Diagnostics;
  // Export first: the offsets refer to the files before any fix.
  if (!Settings.ExportFixes.empty()) {
    std::string Yaml;
    raw_string_ostream OS(Yaml);
    exportReplacements(Diags.empty() ? "" : Diags.front().Message.FilePath,
                       withoutRepeatedReplacements(Diags), OS);
    if (Error E = writeFile(Settings.ExportFixes, Yaml))
      return E;
  }

  auto PrintText = [&] {
    unsigned WErrors = 0;
    if (!Diags.empty())
      handleErrors(Diags, Context, FB_NoFix, WErrors, vfs::getRealFileSystem());
  };
  std::string Text;
  if (Settings.Format == OutputFormat::Text) {
    if (Settings.OutputFile.empty()) {
      PrintText();
      return checkStdout(Settings.StdoutClosed);
    }
    Expected<std::string> Captured = captureStdout(PrintText);
    if (!Captured)
      return Captured.takeError();
    Text = std::move(*Captured);
  } else {
    LineTable Lines;
    json::Value Doc = json::Value(nullptr);
    if (Settings.Format == OutputFormat::Sarif) {
      std::vector<ClangTidyError> Findings;
      std::vector<std::string> Prints;
      for (size_t I = 0; I < Diags.size(); ++I)
        if (!isCompilerError(Diags[I])) {
          Findings.push_back(Diags[I]);
          Prints.push_back(I < Results.Fingerprints.size()
                               ? Results.Fingerprints[I]
                               : std::string());
        }
      std::vector<Finding> Converted = toFindings(Findings, Lines);
      for (size_t I = 0; I < Converted.size(); ++I)
        Converted[I].Fingerprint = Prints[I];
      SarifOptions SO{Settings.SarifRoot, Settings.ToolVersion,
                      Settings.RuleIds, notifications(Results)};
      SO.DocBaseUrl = Settings.DocBaseUrl;
      Doc = toSarif(Converted, SO);
    } else {
      Doc = toJson(toFindings(Diags, Lines));
    }
    Text = formatv("{0:2}", Doc).str() + "\n";
  }
  if (!Settings.OutputFile.empty())
    return writeFile(Settings.OutputFile, Text);
  outs() << Text;
  return checkStdout(Settings.StdoutClosed);
}

} // namespace warplint
