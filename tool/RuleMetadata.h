//===--- RuleMetadata.h - what SARIF says about each check ------*- C++ -*-===//

#ifndef WARP_LINT_TOOL_RULEMETADATA_H
#define WARP_LINT_TOOL_RULEMETADATA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace warplint {

/// The project's home page (SARIF tool.driver.informationUri), and the one
/// place its address is spelled.
#define WARP_LINT_PROJECT_URL "https://github.com/warp-lint/warp-lint"
inline constexpr llvm::StringLiteral InformationUri = WARP_LINT_PROJECT_URL;

/// Where each check's documentation page lives by default (--doc-base-url
/// replaces it); a rule's helpUri is the base followed by `<check-id>.md`.
inline constexpr llvm::StringLiteral DocsBaseUrl =
    WARP_LINT_PROJECT_URL "/blob/main/docs/checks/";

/// One check as checks/CheckList.def describes it.
struct RuleInfo {
  llvm::StringLiteral Id;
  llvm::StringLiteral ShortDescription; ///< one line
  llvm::StringLiteral FullDescription;
  llvm::StringLiteral Level;   ///< default SARIF level: "warning", "error"
  llvm::StringLiteral DocPath; ///< relative to the repository root
};

/// Every check warp-lint has, in the order of CheckList.def.
llvm::ArrayRef<RuleInfo> knownRules();

/// Returns \p CheckId's entry, or null for an id that is not a warp- check.
const RuleInfo *lookupRule(llvm::StringRef CheckId);

/// Returns the documentation URL of \p CheckId.
std::string ruleHelpUri(llvm::StringRef CheckId);

/// Returns a one-sentence description of \p CheckId.
std::string ruleShortDescription(llvm::StringRef CheckId);

/// Returns the full description of \p CheckId (SARIF fullDescription).
std::string ruleFullDescription(llvm::StringRef CheckId);

//===--- Rule help (RuleHelp.cpp) -----------------------------------------===//
// What code scanning shows when an alert is opened: the longer description
// and the help text, and the documentation address under a chosen base.

/// Returns the documentation URL of \p CheckId under \p DocBaseUrl (a
/// trailing '/' is added when missing; empty means DocsBaseUrl).
std::string ruleHelpUri(llvm::StringRef CheckId, llvm::StringRef DocBaseUrl);

/// A rule's help, plain and as GitHub-flavoured Markdown.
struct RuleHelp {
  std::string Text;
  std::string Markdown;
};

/// Returns the help of \p CheckId, pointing at \p HelpUri.
RuleHelp ruleHelp(llvm::StringRef CheckId, llvm::StringRef HelpUri);

} // namespace warplint

#endif
