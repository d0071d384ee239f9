//===--- RuleMetadata.cpp - what SARIF says about each check --------------===//

#include "RuleMetadata.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace warplint {

std::string ruleHelpUri(StringRef CheckId) {
  return (Twine(DocsBaseUrl) + CheckId + ".md").str();
}

std::string ruleShortDescription(StringRef CheckId) {
  // Code scanning shows this next to every alert; keep each to one line.
  StringRef Known =
      StringSwitch<StringRef>(CheckId)
          .Case("warp-divergent-full-mask",
                "Full-warp mask given to a warp collective where the warp may "
                "be diverged")
          .Case("warp-stale-mask",
                "Lane mask computed before further divergence and used after "
                "it")
          .Case("warp-uniform-address-atomic",
                "Every lane performs an atomic on the same address")
          .Case("warp-atomic-spinlock",
                "Per-thread atomicCAS/atomicExch spin lock that lanes of one "
                "warp can contend for")
          .Case("warp-mask-excludes-caller",
                "Constant narrow mask while lanes outside it make the call")
          .Case("warp-implicit-synchronous",
                "Pre-Volta warp-synchronous code without __syncwarp")
          .Default("");
  if (!Known.empty())
    return Known.str();
  return (Twine("warp-lint check ") + CheckId).str();
}

} // namespace warplint
