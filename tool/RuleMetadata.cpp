//===--- RuleMetadata.cpp - what SARIF says about each check --------------===//
//
// The descriptions come from checks/CheckList.def, the one list of checks.
//
//===----------------------------------------------------------------------===//

#include "RuleMetadata.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace warplint {

static constexpr RuleInfo Rules[] = {
#define WARP_CHECK(Id, Class, Short, Full, Level, Doc)                         \
  {Id, Short, Full, Level, Doc},
#include "CheckList.def"
};

ArrayRef<RuleInfo> knownRules() { return Rules; }

const RuleInfo *lookupRule(StringRef CheckId) {
  for (const RuleInfo &R : Rules)
    if (R.Id == CheckId)
      return &R;
  return nullptr;
}

std::string ruleHelpUri(StringRef CheckId) {
  if (DocsBaseUrl.empty())
    return "";
  return (Twine(DocsBaseUrl) + CheckId + ".md").str();
}

std::string ruleShortDescription(StringRef CheckId) {
  // Code scanning shows this next to every alert; keep each to one line.
  if (const RuleInfo *R = lookupRule(CheckId))
    return R->ShortDescription.str();
  return (Twine("warp-lint check ") + CheckId).str();
}

std::string ruleFullDescription(StringRef CheckId) {
  if (const RuleInfo *R = lookupRule(CheckId))
    return R->FullDescription.str();
  return ruleShortDescription(CheckId);
}

} // namespace warplint
