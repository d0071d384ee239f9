//===--- Output.cpp - reporting findings and applying fixes ---------------===//

#include "Output.h"
#include "JsonWriter.h"
#include "SarifWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
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

/// Applies fixes through handleErrors with stdout silenced: handleErrors
/// always prints the text report, which must not corrupt SARIF or JSON.
static void applyFixesQuietly(ArrayRef<ClangTidyError> Errors,
                              ClangTidyContext &Context) {
  outs().flush();
  int Saved = dup(STDOUT_FILENO);
  int Null = open("/dev/null", O_WRONLY);
  if (Saved >= 0 && Null >= 0)
    dup2(Null, STDOUT_FILENO);
  unsigned WErrors = 0;
  handleErrors(Errors, Context, FB_Fix, WErrors,
               vfs::getRealFileSystem());
  outs().flush();
  if (Saved >= 0 && Null >= 0)
    dup2(Saved, STDOUT_FILENO);
  if (Null >= 0)
    close(Null);
  if (Saved >= 0)
    close(Saved);
}

Error report(const std::vector<ClangTidyError> &Errors,
             ClangTidyContext &Context, const OutputSettings &Settings) {
  // Export first: the offsets refer to the files before any fix.
  if (!Settings.ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Settings.ExportFixes, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC, "cannot write %s: %s",
                               Settings.ExportFixes.c_str(),
                               EC.message().c_str());
    exportReplacements(Errors.empty() ? "" : Errors.front().Message.FilePath,
                       Errors, OS);
  }

  if (Settings.Format == OutputFormat::Text) {
    unsigned WErrors = 0;
    if (!Errors.empty())
      handleErrors(Errors, Context, Settings.Fix ? FB_Fix : FB_NoFix, WErrors,
                   vfs::getRealFileSystem());
    return Error::success();
  }

  LineTable Lines;
  std::vector<Finding> Findings = toFindings(Errors, Lines);
  json::Value Doc =
      Settings.Format == OutputFormat::Sarif
          ? toSarif(Findings, SarifOptions{Settings.SarifRoot,
                                           Settings.ToolVersion,
                                           Settings.RuleIds})
          : toJson(Findings);
  outs() << formatv("{0:2}", Doc) << "\n";
  outs().flush();
  if (Settings.Fix && !Errors.empty())
    applyFixesQuietly(Errors, Context);
  return Error::success();
}

} // namespace warplint
