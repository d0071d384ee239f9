//===--- RuleHelp.cpp - the longer texts SARIF gives each rule ------------===//
///
/// \file fullDescription and help of each rule (RuleMetadata.h). Kept apart
/// from the one-line descriptions: these are written for the alert page of
/// code scanning, the short ones for its list.
///
//===----------------------------------------------------------------------===//

#include "RuleMetadata.h"
#include "llvm/ADT/StringSwitch.h"
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

std::string ruleFullDescription(StringRef CheckId) {
  StringRef Known =
      StringSwitch<StringRef>(CheckId)
          .Case("warp-divergent-full-mask",
                "A warp collective (__shfl_*_sync, __ballot_sync, "
                "__syncwarp, ...) is given a mask naming all 32 lanes where "
                "some lanes of the warp took another branch or left early. "
                "On Volta and later the call then reads undefined values "
                "from the missing lanes or hangs waiting for them.")
          .Case("warp-stale-mask",
                "A lane mask was computed (by __ballot_sync or "
                "__activemask) before the warp diverged further, and is "
                "used by a collective after that divergence: it names lanes "
                "that no longer reach the collective, which is undefined "
                "behaviour on Volta and later.")
          .Case("warp-uniform-address-atomic",
                "Every lane of a warp performs an atomic read-modify-write "
                "on the same address. The hardware serializes them; a "
                "warp-level reduction followed by one atomic per warp does "
                "the same work with 1/32 of the atomics.")
          .Case("warp-atomic-spinlock",
                "A lock taken per thread by spinning on atomicCAS or "
                "atomicExch, with the critical section after the loop. "
                "Lanes of one warp contend for the lock: this deadlocks "
                "before Volta and on AMD GPUs, and serializes the warp on "
                "Volta and later.")
          .Case("warp-mask-excludes-caller",
                "A constant mask that leaves out lanes which make the call: "
                "a lane calling a collective must be named in its mask.")
          .Case("warp-implicit-synchronous",
                "Code that relies on the lanes of a warp running in "
                "lockstep (pre-Volta warp-synchronous programming) without "
                "__syncwarp; independent thread scheduling breaks it.")
          .Default("");
  if (!Known.empty())
    return Known.str();
  return ruleShortDescription(CheckId) + ".";
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
  H.Text = Full + " Documentation, examples and fixes: " + HelpUri.str();
  H.Markdown = "**" + CheckId.str() + "**: " + escapeMarkdown(Full) +
               "\n\nSee [" + CheckId.str() + "](" + HelpUri.str() +
               ") for examples, the fixes warp-lint offers and how to "
               "suppress a finding.";
  return H;
}

} // namespace warplint
