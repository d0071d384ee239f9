//===--- RuleHelp.cpp - the longer texts SARIF gives each rule ------------===//
///
/// \file The help of each rule (RuleMetadata.h) for the alert page of code
/// scanning, built from the descriptions of checks/CheckList.def, and the
/// documentation address under a chosen base.
///
//===----------------------------------------------------------------------===//

#include "RuleMetadata.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace warplint {

std::string ruleHelpUri(StringRef CheckId, StringRef DocBaseUrl) {
  if (DocBaseUrl.empty())
    return ruleHelpUri(CheckId);
  std::string Base = DocBaseUrl.str();
  if (!StringRef(Base).ends_with("/"))
    Base += '/';
  return Base + CheckId.str() + ".md";
}

/// Escapes what Markdown would read as emphasis (`__syncwarp`).
static std::string escapeMarkdown(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '_' || C == '*' || C == '`' || C == '[' || C == ']')
      Out += '\\';
    Out += C;
  }
  return Out;
}

RuleHelp ruleHelp(StringRef CheckId, StringRef HelpUri) {
  std::string Full = ruleFullDescription(CheckId);
  RuleHelp H;
  if (HelpUri.empty()) {
    // No address: the page that is sure to exist, the installed one.
    std::string Page = (InstalledDocs + "/" + CheckId + ".md").str();
    H.Text = Full + " Documentation, examples and fixes: " + Page +
             " (installed with warp-lint; docs/checks/ in its sources).";
    H.Markdown = "**" + CheckId.str() + "**: " + escapeMarkdown(Full) +
                 "\n\nExamples, the fixes warp-lint offers and how to "
                 "suppress a finding: `" +
                 Page +
                 "` (installed with warp-lint; `docs/checks/` in its "
                 "sources).";
    return H;
  }
  H.Text = Full + " Documentation, examples and fixes: " + HelpUri.str();
  H.Markdown = "**" + CheckId.str() + "**: " + escapeMarkdown(Full) +
               "\n\nSee [" + CheckId.str() + "](" + HelpUri.str() +
               ") for examples, the fixes warp-lint offers and how to "
               "suppress a finding.";
  return H;
}

} // namespace warplint
