//===--- Baseline.cpp - findings recorded earlier, not reported -----------===//

#include "Baseline.h"
#include "Fingerprints.h"
#include "SarifWriter.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace warplint {

static std::string key(StringRef RuleId, StringRef Uri, StringRef Print) {
  return (RuleId + Twine('\0') + Uri + Twine('\0') + Print).str();
}

Expected<Baseline> Baseline::load(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text)
    return createStringError("cannot read the baseline " + Path + ": " +
                             Text.getError().message());
  return parse((*Text)->getBuffer(), Path);
}

Expected<Baseline> Baseline::parse(StringRef Text, StringRef Name) {
  Expected<json::Value> Doc = json::parse(Text);
  if (!Doc)
    return createStringError("the baseline " + Name +
                             " is not JSON: " + toString(Doc.takeError()));
  const json::Object *Log = Doc->getAsObject();
  const json::Array *Runs = Log ? Log->getArray("runs") : nullptr;
  if (!Runs)
    return createStringError("the baseline " + Name +
                             " is not a SARIF log (no runs)");
  Baseline B;
  size_t Results = 0;
  for (const json::Value &Run : *Runs) {
    const json::Object *R = Run.getAsObject();
    const json::Array *Rs = R ? R->getArray("results") : nullptr;
    if (!Rs)
      continue;
    for (const json::Value &V : *Rs) {
      const json::Object *Result = V.getAsObject();
      if (!Result)
        continue;
      ++Results;
      const json::Object *Prints = Result->getObject("partialFingerprints");
      std::optional<StringRef> Print =
          Prints ? Prints->getString(FingerprintKey) : std::nullopt;
      std::optional<StringRef> Rule = Result->getString("ruleId");
      const json::Array *Locs = Result->getArray("locations");
      std::optional<StringRef> Uri;
      if (Locs && !Locs->empty())
        if (const json::Object *L = Locs->front().getAsObject())
          if (const json::Object *P = L->getObject("physicalLocation"))
            if (const json::Object *A = P->getObject("artifactLocation"))
              Uri = A->getString("uri");
      if (Print && Rule && Uri)
        B.Keys.insert(key(*Rule, *Uri, *Print));
    }
  }
  if (Results && B.Keys.empty())
    return createStringError("the baseline " + Name + " has no " +
                             FingerprintKey +
                             " fingerprints (write it with this warp-lint: "
                             "--format=sarif)");
  return B;
}

bool Baseline::contains(StringRef RuleId, StringRef Uri,
                        StringRef Fingerprint) const {
  return Keys.contains(key(RuleId, Uri, Fingerprint));
}

unsigned dropBaselined(RunResults &Results, const Baseline &Base,
                       StringRef SarifRoot) {
  LineTable Lines;
  std::vector<Finding> All = toFindings(Results.Diagnostics, Lines);
  return Results.keepDiagnostics([&](size_t I) {
    if (isCompilerError(Results.Diagnostics[I]) || All[I].Loc.File.empty() ||
        I >= Results.Fingerprints.size())
      return true;
    bool Relative = false;
    std::string Uri = sarifUri(All[I].Loc.File, SarifRoot, Relative);
    return !Base.contains(All[I].Check, Uri, Results.Fingerprints[I]);
  });
}

} // namespace warplint
