//===--- RuleMetadata.h - what SARIF says about each check ------*- C++ -*-===//

#ifndef WARP_LINT_TOOL_RULEMETADATA_H
#define WARP_LINT_TOOL_RULEMETADATA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace warplint {

/// Where each check's documentation page lives; a rule's helpUri is this
/// followed by `<check-id>.md`.
inline constexpr llvm::StringLiteral DocsBaseUrl =
    "https://github.com/warp-lint/warp-lint/blob/main/docs/checks/";

/// The project's home page (SARIF tool.driver.informationUri).
inline constexpr llvm::StringLiteral InformationUri =
    "https://github.com/warp-lint/warp-lint";

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

} // namespace warplint

#endif
