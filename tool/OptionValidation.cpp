//===--- OptionValidation.cpp - checks on command-line values -------------===//

#include "OptionValidation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Threading.h"

using namespace llvm;

namespace warplint {

/// Returns an error carrying the one-line \p Message.
static Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message.str());
}

Expected<OutputFormat> parseFormat(StringRef Value) {
  std::optional<OutputFormat> F =
      StringSwitch<std::optional<OutputFormat>>(Value)
          .Case("text", OutputFormat::Text)
          .Case("sarif", OutputFormat::Sarif)
          .Case("json", OutputFormat::Json)
          .Case("html", OutputFormat::Html)
          .Default(std::nullopt);
  if (!F)
    return fail("invalid --format '" + Value +
                "': expected text, sarif, json or html");
  return *F;
}

Expected<unsigned> parseJobs(StringRef Value) {
  unsigned Jobs = 0;
  if (Value.getAsInteger(10, Jobs) || Jobs > 1024)
    return fail("invalid -j '" + Value +
                "': expected a number of jobs (0 for one per core)");
  // 0: the cores this process may run on (its affinity mask, as `nproc`).
  if (Jobs == 0)
    Jobs = std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  return Jobs;
}

Error validateCheckList(StringRef Checks, const StringSet<> &KnownChecks) {
  SmallVector<StringRef, 8> Items;
  Checks.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items) {
    Item = Item.trim();
    Item.consume_front("-");
    if (Item.starts_with("warp-") && !Item.contains('*') &&
        !KnownChecks.contains(Item))
      return fail("unknown check '" + Item + "' in --checks");
  }
  return Error::success();
}

} // namespace warplint
