//===--- RuleMetadata.h - what SARIF says about each check ------*- C++ -*-===//

#ifndef WARP_LINT_TOOL_RULEMETADATA_H
#define WARP_LINT_TOOL_RULEMETADATA_H

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

/// Returns the documentation URL of \p CheckId.
std::string ruleHelpUri(llvm::StringRef CheckId);

/// Returns a one-sentence description of \p CheckId.
std::string ruleShortDescription(llvm::StringRef CheckId);

} // namespace warplint

#endif
