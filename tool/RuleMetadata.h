//===--- RuleMetadata.h - what SARIF says about each check ------*- C++ -*-===//

#ifndef WARP_LINT_TOOL_RULEMETADATA_H
#define WARP_LINT_TOOL_RULEMETADATA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace warplint {

/// The project's home page (SARIF tool.driver.informationUri), set when
/// warp-lint is built (-DWARP_LINT_HOME_URL=…); empty when not set: no
/// address is made up that might not exist.
#ifndef WARP_LINT_HOME_URL
#define WARP_LINT_HOME_URL ""
#endif
inline constexpr llvm::StringLiteral InformationUri = WARP_LINT_HOME_URL;

/// Where each check's documentation page lives by default: the project's
/// docs/checks/ when the home page is a repository known at build time,
/// else none (--doc-base-url gives one); a rule's helpUri is the base
/// followed by `<check-id>.md`.
#ifndef WARP_LINT_DOC_BASE_URL
#define WARP_LINT_DOC_BASE_URL ""
#endif
inline constexpr llvm::StringLiteral DocsBaseUrl = WARP_LINT_DOC_BASE_URL;

/// Where the installed package keeps the check pages, for the help text
/// when there is no address to link.
#ifndef WARP_LINT_INSTALLED_DOCS
#define WARP_LINT_INSTALLED_DOCS "/usr/share/doc/warp-lint/docs/checks"
#endif
inline constexpr llvm::StringLiteral InstalledDocs = WARP_LINT_INSTALLED_DOCS;

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

/// Returns the documentation URL of \p CheckId; empty when there is none.
std::string ruleHelpUri(llvm::StringRef CheckId);

/// Returns a one-sentence description of \p CheckId.
std::string ruleShortDescription(llvm::StringRef CheckId);

/// Returns the full description of \p CheckId (SARIF fullDescription).
std::string ruleFullDescription(llvm::StringRef CheckId);

//===--- Rule help (RuleHelp.cpp) -----------------------------------------===//
// What code scanning shows when an alert is opened: the longer description
// and the help text, and the documentation address under a chosen base.

/// Returns the documentation URL of \p CheckId under \p DocBaseUrl (a
/// trailing '/' is added when missing; empty means DocsBaseUrl, which may
/// be empty too: then there is none).
std::string ruleHelpUri(llvm::StringRef CheckId, llvm::StringRef DocBaseUrl);

/// A rule's help, plain and as GitHub-flavoured Markdown.
struct RuleHelp {
  std::string Text;
  std::string Markdown;
};

/// Returns the help of \p CheckId, pointing at \p HelpUri, or at the
/// installed page when it is empty.
RuleHelp ruleHelp(llvm::StringRef CheckId, llvm::StringRef HelpUri);

} // namespace warplint

#endif
