//===--- RuleMetadata.h - what SARIF says about each check ------*- C++ -*-===//

#ifndef WARP_LINT_TOOL_RULEMETADATA_H
#define WARP_LINT_TOOL_RULEMETADATA_H

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

/// Returns the documentation URL of \p CheckId.
std::string ruleHelpUri(llvm::StringRef CheckId);

/// Returns a one-sentence description of \p CheckId.
std::string ruleShortDescription(llvm::StringRef CheckId);

//===--- Rule help (RuleHelp.cpp) -----------------------------------------===//
// What code scanning shows when an alert is opened: the longer description
// and the help text, and the documentation address under a chosen base.

/// Returns the documentation URL of \p CheckId under \p DocBaseUrl (a
/// trailing '/' is added when missing; empty means DocsBaseUrl).
std::string ruleHelpUri(llvm::StringRef CheckId, llvm::StringRef DocBaseUrl);

/// Returns a paragraph saying what \p CheckId finds and why it matters.
std::string ruleFullDescription(llvm::StringRef CheckId);

/// A rule's help, plain and as GitHub-flavoured Markdown.
struct RuleHelp {
  std::string Text;
  std::string Markdown;
};

/// Returns the help of \p CheckId, pointing at \p HelpUri.
RuleHelp ruleHelp(llvm::StringRef CheckId, llvm::StringRef HelpUri);

} // namespace warplint

#endif
