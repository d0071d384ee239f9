//===--- SarifWriter.cpp - findings as SARIF 2.1.0 ------------------------===//

#include "SarifWriter.h"
#include "Fingerprints.h"
#include "RuleMetadata.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using json::Array;
using json::Object;

namespace warplint {

static constexpr StringLiteral SrcRoot = "%SRCROOT%";

/// Percent-encodes everything but RFC 3986 unreserved characters and '/'.
static std::string percentEncode(StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("-._~/").contains(C)) {
      Out += C;
      continue;
    }
    Out += '%';
    Out += hexdigit(C >> 4, /*LowerCase=*/false);
    Out += hexdigit(C & 15, /*LowerCase=*/false);
  }
  return Out;
}

std::string sarifUri(StringRef Path, StringRef Root, bool &Relative) {
  StringRef Dir = Root.rtrim('/');
  StringRef Rel = Path;
  // Whole components only: /repository is not inside /repo.
  if (!Dir.empty() && Rel.consume_front(Dir) && Rel.starts_with("/")) {
    Relative = true;
    return percentEncode(Rel.ltrim('/'));
  }
  Relative = false;
  return "file://" + percentEncode(Path);
}

/// Returns the artifactLocation for \p File.
static Object artifactLocation(StringRef File, StringRef Root) {
  bool Relative = false;
  std::string Uri = sarifUri(File, Root, Relative);
  Object A{{"uri", Uri}};
  if (Relative)
    A["uriBaseId"] = SrcRoot;
  return A;
}

/// The column of \p Loc as the run's columnKind (utf16CodeUnits) counts.
static unsigned column(const Location &Loc) {
  return Loc.Utf16Column ? Loc.Utf16Column : Loc.Column;
}

/// Returns a physicalLocation pointing at the start of \p Loc.
static Object physicalLocation(const Location &Loc, StringRef Root) {
  return Object{{"artifactLocation", artifactLocation(Loc.File, Root)},
                {"region", Object{{"startLine", Loc.Line},
                                  {"startColumn", column(Loc)}}}};
}

/// Returns the result's code flow: one thread flow through the notes in
/// order, ending at the finding itself (code scanning shows it as a path).
static Array codeFlows(const Finding &F, StringRef Root) {
  Array Steps;
  for (const FindingNote &N : F.Notes)
    if (!N.Loc.File.empty())
      Steps.push_back(
          Object{{"location",
                  Object{{"physicalLocation", physicalLocation(N.Loc, Root)},
                         {"message", Object{{"text", N.Message}}}}}});
  if (Steps.empty() || F.Loc.File.empty())
    return {};
  Steps.push_back(Object{
      {"location", Object{{"physicalLocation", physicalLocation(F.Loc, Root)},
                          {"message", Object{{"text", F.Message}}}}}});
  return Array{
      Object{{"threadFlows", Array{Object{{"locations", std::move(Steps)}}}}}};
}

/// Returns the result's fixes: one fix with a change per file.
static Array fixes(const Finding &F, StringRef Root) {
  StringMap<Array> ByFile;
  std::vector<std::string> Order;
  for (const FindingFix &Fix : F.Fixes) {
    if (Fix.Loc.File.empty())
      continue;
    if (!ByFile.count(Fix.Loc.File))
      Order.push_back(Fix.Loc.File);
    ByFile[Fix.Loc.File].push_back(
        Object{{"deletedRegion", Object{{"startLine", Fix.Loc.Line},
                                        {"startColumn", column(Fix.Loc)},
                                        {"endLine", Fix.End.Line},
                                        {"endColumn", column(Fix.End)}}},
               {"insertedContent", Object{{"text", Fix.Replacement}}}});
  }
  if (Order.empty())
    return {};
  Array Changes;
  for (const std::string &File : Order)
    Changes.push_back(Object{{"artifactLocation", artifactLocation(File, Root)},
                             {"replacements", std::move(ByFile[File])}});
  return Array{Object{{"description", Object{{"text", "apply the fix-it"}}},
                      {"artifactChanges", std::move(Changes)}}};
}

json::Value toSarif(ArrayRef<Finding> Findings, const SarifOptions &Options) {
  // Rules: every enabled check plus any other id a result names (a compiler
  // diagnostic enabled through --checks), in a stable order.
  std::vector<std::string> RuleIds = Options.RuleIds;
  for (const Finding &F : Findings)
    if (llvm::find(RuleIds, F.Check) == RuleIds.end())
      RuleIds.push_back(F.Check);
  llvm::sort(RuleIds);
  RuleIds.erase(std::unique(RuleIds.begin(), RuleIds.end()), RuleIds.end());

  Array Rules;
  for (const std::string &Id : RuleIds) {
    std::string HelpUri = ruleHelpUri(Id, Options.DocBaseUrl);
    RuleHelp Help = ruleHelp(Id, HelpUri);
    Object Rule{
        // No "name": SARIF1001 wants it omitted when it would equal the id.
        {"id", Id},
        {"shortDescription", Object{{"text", ruleShortDescription(Id)}}},
        {"fullDescription", Object{{"text", ruleFullDescription(Id)}}},
        {"help", Object{{"text", Help.Text}, {"markdown", Help.Markdown}}}};
    if (!HelpUri.empty())
      Rule["helpUri"] = HelpUri;
    if (const RuleInfo *Known = lookupRule(Id))
      Rule["defaultConfiguration"] = Object{{"level", Known->Level}};
    Rules.push_back(std::move(Rule));
  }

  Array Results;
  for (const Finding &F : Findings) {
    Object R{
        {"ruleId", F.Check},
        {"ruleIndex", int64_t(llvm::find(RuleIds, F.Check) - RuleIds.begin())},
        {"level", F.Level},
        {"message", Object{{"text", F.Message}}}};
    if (!F.Loc.File.empty())
      R["locations"] = Array{
          Object{{"physicalLocation", physicalLocation(F.Loc, Options.Root)}}};
    Array Related;
    for (const FindingNote &N : F.Notes) {
      if (N.Loc.File.empty())
        continue;
      Related.push_back(
          Object{{"id", int64_t(Related.size())},
                 {"physicalLocation", physicalLocation(N.Loc, Options.Root)},
                 {"message", Object{{"text", N.Message}}}});
    }
    if (!Related.empty())
      R["relatedLocations"] = std::move(Related);
    Array Flows = codeFlows(F, Options.Root);
    if (!Flows.empty())
      R["codeFlows"] = std::move(Flows);
    if (!F.Fingerprint.empty())
      R["partialFingerprints"] = Object{{FingerprintKey, F.Fingerprint}};
    Object Properties{{"tier", tierName(F.Facts.Level)}};
    if (!F.Facts.Consequence.empty())
      Properties["consequence"] = F.Facts.Consequence;
    R["properties"] = std::move(Properties);
    Array Fixes = fixes(F, Options.Root);
    if (!Fixes.empty())
      R["fixes"] = std::move(Fixes);
    Results.push_back(std::move(R));
  }

  std::string RootUri = "file://" + percentEncode(Options.Root);
  if (!StringRef(RootUri).ends_with("/"))
    RootUri += '/';
  Object Driver{{"name", "warp-lint"},
                {"version", Options.ToolVersion},
                {"rules", std::move(Rules)}};
  if (!InformationUri.empty())
    Driver["informationUri"] = InformationUri;
  Array Notifications;
  bool Successful = true;
  for (const SarifNotification &N : Options.Notifications) {
    Successful &= N.Level != "error";
    Object Entry{{"level", N.Level}, {"message", Object{{"text", N.Message}}}};
    if (!N.Loc.File.empty())
      Entry["locations"] = Array{
          Object{{"physicalLocation", physicalLocation(N.Loc, Options.Root)}}};
    Notifications.push_back(std::move(Entry));
  }
  Object Invocation{{"executionSuccessful", Successful}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  Object Run{
      {"tool", Object{{"driver", std::move(Driver)}}},
      {"invocations", Array{std::move(Invocation)}},
      // Columns count UTF-16 code units (SARIF's default, stated for
      // readers that assume bytes); Location::Utf16Column.
      {"columnKind", "utf16CodeUnits"},
      {"originalUriBaseIds", Object{{SrcRoot, Object{{"uri", RootUri}}}}},
      {"results", std::move(Results)}};
  if (!Options.Unit.empty())
    Run["properties"] =
        Object{{"unit", Options.Unit}, {"object", Options.ObjectFile}};
  return Object{{"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/"
                            "errata01/os/schemas/sarif-schema-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", Array{std::move(Run)}}};
}

} // namespace warplint
