//===--- SarifMerge.cpp - per-unit SARIF files as one log -----------------===//

#include "SarifMerge.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace llvm;
using json::Array;
using json::Object;

namespace warplint {

/// What makes two results of different units one.
static std::string resultKey(const Object &R) {
  std::string Key;
  raw_string_ostream OS(Key);
  if (std::optional<StringRef> Rule = R.getString("ruleId"))
    OS << *Rule;
  OS << '\0';
  if (const json::Value *L = R.get("locations"))
    OS << *L;
  OS << '\0';
  if (const json::Value *P = R.get("partialFingerprints"))
    OS << *P;
  OS << '\0';
  if (const json::Value *M = R.get("message"))
    OS << *M;
  return Key;
}

/// Whether the per-unit file \p Path, holding \p Run, is of a unit of
/// \p Units.
static bool inBuild(StringRef Path, const Object &Run,
                    const BuildUnits &Units) {
  StringRef ObjectFile = Path;
  ObjectFile.consume_back(".warp-lint.sarif");
  SmallString<256> Real;
  if (Units.Objects.count(ObjectFile) ||
      (!sys::fs::real_path(ObjectFile, Real) && Units.Objects.count(Real)))
    return true;
  if (const Object *Props = Run.getObject("properties"))
    if (std::optional<StringRef> Unit = Props->getString("unit"))
      return Units.Sources.count(*Unit) != 0;
  // Neither its object nor its unit is known: when the database names
  // outputs, the object would be among them.
  return Units.Objects.empty();
}

Expected<MergedSarif> mergeSarifDir(StringRef Dir, const BuildUnits *Units) {
  if (!sys::fs::is_directory(Dir))
    return createStringError("--merge: no such directory: " + Dir);
  std::vector<std::string> Paths;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (StringRef(It->path()).ends_with(".warp-lint.sarif"))
      Paths.push_back(It->path());
  llvm::sort(Paths);
  if (Paths.empty())
    return createStringError("--merge: no *.warp-lint.sarif file under " + Dir);

  MergedSarif M;
  std::optional<Object> First; // Run properties taken from the first file.
  std::map<std::string, json::Value> Rules;
  Array Results, Notifications;
  StringSet<> Seen;
  for (const std::string &Path : Paths) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
    if (!Text)
      return createStringError("--merge: cannot read " + Path + ": " +
                               Text.getError().message());
    Expected<json::Value> Doc = json::parse((*Text)->getBuffer());
    const Object *Log = Doc ? Doc->getAsObject() : nullptr;
    const Array *Runs = Log ? Log->getArray("runs") : nullptr;
    if (!Doc)
      consumeError(Doc.takeError());
    if (!Runs || Runs->empty() || !(*Runs)[0].getAsObject())
      return createStringError("--merge: " + Path + " is not a SARIF log");
    const Object &Run = *(*Runs)[0].getAsObject();
    if (Units && !inBuild(Path, Run, *Units)) {
      ++M.Stale;
      continue;
    }
    ++M.Files;
    if (!First)
      First = Run;
    if (const Object *Tool = Run.getObject("tool"))
      if (const Object *Driver = Tool->getObject("driver"))
        if (const Array *Rs = Driver->getArray("rules"))
          for (const json::Value &R : *Rs)
            if (const Object *RO = R.getAsObject())
              if (std::optional<StringRef> Id = RO->getString("id"))
                Rules.emplace(Id->str(), R);
    if (const Array *Inv = Run.getArray("invocations"))
      for (const json::Value &I : *Inv)
        if (const Object *IO = I.getAsObject()) {
          if (IO->getBoolean("executionSuccessful") == false)
            M.Complete = false;
          if (const Array *N = IO->getArray("toolExecutionNotifications"))
            for (const json::Value &One : *N)
              Notifications.push_back(One);
        }
    if (const Array *Rs = Run.getArray("results"))
      for (const json::Value &R : *Rs)
        if (const Object *RO = R.getAsObject())
          if (Seen.insert(resultKey(*RO)).second)
            Results.push_back(R);
  }

  Array RuleList;
  std::map<std::string, int64_t> Index;
  for (auto &[Id, Rule] : Rules) {
    Index[Id] = RuleList.size();
    RuleList.push_back(std::move(Rule));
  }
  for (json::Value &R : Results) {
    Object &RO = *R.getAsObject();
    if (std::optional<StringRef> Id = RO.getString("ruleId"))
      RO["ruleIndex"] = Index[Id->str()];
  }
  M.Results = Results.size();
  if (!First)
    return createStringError("--merge: no *.warp-lint.sarif file under " + Dir +
                             " is of a unit of the build (" +
                             std::to_string(M.Stale) + " left out)");
  Object Run = std::move(*First);
  Run.erase("properties"); // The first unit's name is not the merged log's.
  if (Object *Tool = Run.getObject("tool"))
    if (Object *Driver = Tool->getObject("driver"))
      (*Driver)["rules"] = std::move(RuleList);
  Object Invocation{{"executionSuccessful", M.Complete}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  Run["invocations"] = Array{std::move(Invocation)};
  Run["results"] = std::move(Results);
  M.Log = Object{{"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/"
                             "errata01/os/schemas/sarif-schema-2.1.0.json"},
                 {"version", "2.1.0"},
                 {"runs", Array{std::move(Run)}}};
  return M;
}

} // namespace warplint
