//===--- Output.cpp - reporting a run's findings --------------------------===//

#include "Output.h"
#include "FileWriting.h"
#include "FixApplication.h"
#include "HtmlWriter.h"
#include "JsonWriter.h"
#include "SarifWriter.h"
#include "TextReport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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

/// The run's problems as SARIF notifications: each compile error of each
/// failed unit, each crash, each unit skipped.
static std::vector<SarifNotification> notifications(const RunResults &R) {
  std::vector<SarifNotification> Out;
  for (const SkippedUnit &S : R.Skipped) {
    SarifNotification N;
    N.Message = S.describe();
    N.Level = S.NotGenerated ? "note" : "error";
    Out.push_back(std::move(N));
  }
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

/// The findings of \p Results that are not compile errors, with their
/// fingerprints.
static std::vector<Finding> findingsOnly(const RunResults &Results,
                                         LineTable &Lines) {
  std::vector<ClangTidyError> Findings;
  std::vector<std::string> Prints;
  const std::vector<ClangTidyError> &Diags = Results.Diagnostics;
  for (size_t I = 0; I < Diags.size(); ++I)
    if (!isCompilerError(Diags[I])) {
      Findings.push_back(Diags[I]);
      Prints.push_back(I < Results.Fingerprints.size() ? Results.Fingerprints[I]
                                                       : std::string());
    }
  std::vector<Finding> Converted = toFindings(Findings, Lines);
  for (size_t I = 0; I < Converted.size(); ++I)
    Converted[I].Fingerprint = Prints[I];
  return Converted;
}

/// Returns the report of \p Results in a format other than text.
static std::string document(const RunResults &Results,
                            const OutputSettings &Settings) {
  LineTable Lines;
  if (Settings.Format == OutputFormat::Json)
    return formatv("{0:2}", toJson(toFindings(Results.Diagnostics, Lines)))
               .str() +
           "\n";
  std::vector<Finding> Findings = findingsOnly(Results, Lines);
  if (Settings.Format == OutputFormat::Html) {
    HtmlOptions HO;
    HO.Root = Settings.SarifRoot;
    HO.ToolVersion = Settings.ToolVersion;
    HO.Notifications = notifications(Results);
    return toHtml(Findings, Lines, HO);
  }
  SarifOptions SO{Settings.SarifRoot, Settings.ToolVersion, Settings.RuleIds,
                  notifications(Results)};
  SO.DocBaseUrl = Settings.DocBaseUrl;
  SO.Unit = Settings.Unit;
  SO.ObjectFile = Settings.ObjectFile;
  return formatv("{0:2}", toSarif(Findings, SO)).str() + "\n";
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

  std::string Text;
  if (Settings.Format == OutputFormat::Text) {
    if (Settings.OutputFile.empty()) {
      if (!Settings.TextStreamed)
        printText(Diags, Context);
      return checkStdout(Settings.StdoutClosed);
    }
    Expected<std::string> Rendered = renderText(Diags, Context);
    if (!Rendered)
      return Rendered.takeError();
    Text = std::move(*Rendered);
  } else {
    Text = document(Results, Settings);
  }
  if (!Settings.OutputFile.empty())
    return writeFile(Settings.OutputFile, Text);
  outs() << Text;
  return checkStdout(Settings.StdoutClosed);
}

} // namespace warplint
