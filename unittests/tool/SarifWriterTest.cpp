//===--- SarifWriterTest.cpp - SARIF 2.1.0 structure ----------------------===//

#include "SarifWriter.h"
#include "RuleMetadata.h"
#include "WriterTestSupport.h"
#include "gtest/gtest.h"

using namespace warplint;
using llvm::json::Array;
using llvm::json::Object;

namespace {

/// Returns the first run of \p Log.
const Object &run(const llvm::json::Value &Log) {
  return *Log.getAsObject()->getArray("runs")->front().getAsObject();
}

TEST(SarifWriter, ToolAndRules) {
  llvm::json::Value Log = toSarif(
      {sampleFinding("/repo")},
      {"/repo", "1.2.3", {"warp-stale-mask", "warp-divergent-full-mask"}});
  EXPECT_EQ(*Log.getAsObject()->getString("version"), "2.1.0");
  const Object *Driver = run(Log).getObject("tool")->getObject("driver");
  EXPECT_EQ(*Driver->getString("name"), "warp-lint");
  EXPECT_EQ(*Driver->getString("version"), "1.2.3");
  // No address is made up: informationUri only when the build sets one.
  if (InformationUri.empty())
    EXPECT_FALSE(Driver->get("informationUri"));
  else
    EXPECT_EQ(*Driver->getString("informationUri"), InformationUri);
  const Array &Rules = *Driver->getArray("rules");
  ASSERT_EQ(Rules.size(), 2u);
  const Object &Rule = *Rules[0].getAsObject(); // Sorted by id.
  EXPECT_EQ(*Rule.getString("id"), "warp-divergent-full-mask");
  // Without --doc-base-url (nor one set at build time) no helpUri: the help
  // names the installed page instead.
  if (DocsBaseUrl.empty()) {
    EXPECT_FALSE(Rule.get("helpUri"));
    EXPECT_NE(Rule.getObject("help")->getString("text")->find(
                  "/usr/share/doc/warp-lint/docs/checks/"
                  "warp-divergent-full-mask.md"),
              llvm::StringRef::npos);
  } else {
    EXPECT_EQ(*Rule.getString("helpUri"),
              DocsBaseUrl.str() + "warp-divergent-full-mask.md");
  }
  EXPECT_FALSE(Rule.getObject("shortDescription")->getString("text")->empty());
}

TEST(SarifWriter, ResultLocationsAreRepoRelative) {
  llvm::json::Value Log =
      toSarif({sampleFinding("/repo")}, {"/repo", "1", {"warp-stale-mask"}});
  const Object &Run = run(Log);
  EXPECT_EQ(*Run.getObject("originalUriBaseIds")
                 ->getObject("%SRCROOT%")
                 ->getString("uri"),
            "file:///repo/");
  const Object &R = *Run.getArray("results")->front().getAsObject();
  EXPECT_EQ(*R.getString("ruleId"), "warp-divergent-full-mask");
  EXPECT_EQ(*R.getInteger("ruleIndex"), 0); // Before warp-stale-mask.
  EXPECT_EQ(*R.getString("level"), "error");
  EXPECT_EQ(*R.getObject("message")->getString("text"),
            "full warp mask passed to '__shfl_down_sync' in divergent code");
  const Object &Phys = *R.getArray("locations")
                            ->front()
                            .getAsObject()
                            ->getObject("physicalLocation");
  EXPECT_EQ(*Phys.getObject("artifactLocation")->getString("uri"), "src/k.cu");
  EXPECT_EQ(*Phys.getObject("artifactLocation")->getString("uriBaseId"),
            "%SRCROOT%");
  EXPECT_EQ(*Phys.getObject("region")->getInteger("startLine"), 6);
  EXPECT_EQ(*Phys.getObject("region")->getInteger("startColumn"), 35);
}

TEST(SarifWriter, NotesBecomeRelatedLocations) {
  llvm::json::Value Log = toSarif({sampleFinding("/repo")}, {"/repo", "1", {}});
  const Object &R = *run(Log).getArray("results")->front().getAsObject();
  const Array &Related = *R.getArray("relatedLocations");
  ASSERT_EQ(Related.size(), 2u);
  const Object &Second = *Related[1].getAsObject();
  EXPECT_EQ(*Second.getInteger("id"), 1);
  EXPECT_EQ(*Second.getObject("message")->getString("text"),
            "collective inside 'warp_sum' called here");
  EXPECT_EQ(*Second.getObject("physicalLocation")
                 ->getObject("artifactLocation")
                 ->getString("uri"),
            "include/my%20dir/reduce.cuh");
}

TEST(SarifWriter, Fixes) {
  llvm::json::Value Log = toSarif({sampleFinding("/repo")}, {"/repo", "1", {}});
  const Object &R = *run(Log).getArray("results")->front().getAsObject();
  const Object &Change = *R.getArray("fixes")
                              ->front()
                              .getAsObject()
                              ->getArray("artifactChanges")
                              ->front()
                              .getAsObject();
  EXPECT_EQ(*Change.getObject("artifactLocation")->getString("uri"),
            "src/k.cu");
  const Object &Repl = *Change.getArray("replacements")->front().getAsObject();
  const Object &Region = *Repl.getObject("deletedRegion");
  EXPECT_EQ(*Region.getInteger("startLine"), 6);
  EXPECT_EQ(*Region.getInteger("startColumn"), 52);
  EXPECT_EQ(*Region.getInteger("endColumn"), 62);
  EXPECT_EQ(*Repl.getObject("insertedContent")->getString("text"), "m");
}

TEST(SarifWriter, FilesOutsideTheRootGetAbsoluteUris) {
  bool Relative = true;
  EXPECT_EQ(sarifUri("/usr/local/cuda/include/cuda.h", "/repo", Relative),
            "file:///usr/local/cuda/include/cuda.h");
  EXPECT_FALSE(Relative);
  EXPECT_EQ(sarifUri("/repository/x.cu", "/repo", Relative),
            "file:///repository/x.cu");
  EXPECT_EQ(sarifUri("/repo/a+b.cu", "/repo", Relative), "a%2Bb.cu");
  EXPECT_TRUE(Relative);
}

TEST(SarifWriter, LevelRule) {
  EXPECT_EQ(findingLevel("full warp mask passed in divergent code"), "error");
  EXPECT_EQ(findingLevel("lanes may deadlock before Volta"), "warning");
  EXPECT_EQ(findingLevel("potentially stale mask"), "warning");
  EXPECT_EQ(findingLevel("Potentially stale"), "warning");
  EXPECT_EQ(findingLevel("mayhem in the warp"), "error");
}

TEST(SarifWriter, InvocationSaysWhetherTheRunCompleted) {
  llvm::json::Value Clean =
      toSarif({sampleFinding("/repo")}, {"/repo", "1", {"warp-stale-mask"}});
  const Array &Ok = *run(Clean).getArray("invocations");
  ASSERT_EQ(Ok.size(), 1u);
  EXPECT_EQ(*Ok[0].getAsObject()->getBoolean("executionSuccessful"), true);
  EXPECT_FALSE(Ok[0].getAsObject()->get("toolExecutionNotifications"));

  SarifOptions O{"/repo", "1", {"warp-stale-mask"}};
  O.Notifications.push_back(
      {"use of undeclared identifier 'x' (translation unit /repo/src/k.cu "
       "does not compile: its findings may be incomplete)",
       {"/repo/src/k.cu", 10, 2, 5}});
  O.Notifications.push_back({"/repo/src/j.cu: internal error: crashed", {}});
  llvm::json::Value Failed = toSarif({sampleFinding("/repo")}, O);
  const Object &Inv =
      *run(Failed).getArray("invocations")->front().getAsObject();
  EXPECT_EQ(*Inv.getBoolean("executionSuccessful"), false);
  const Array &N = *Inv.getArray("toolExecutionNotifications");
  ASSERT_EQ(N.size(), 2u);
  const Object &First = *N[0].getAsObject();
  EXPECT_EQ(*First.getString("level"), "error");
  const Object &Phys = *First.getArray("locations")
                            ->front()
                            .getAsObject()
                            ->getObject("physicalLocation");
  EXPECT_EQ(*Phys.getObject("artifactLocation")->getString("uri"), "src/k.cu");
  EXPECT_EQ(*Phys.getObject("region")->getInteger("startLine"), 2);
  EXPECT_FALSE(N[1].getAsObject()->get("locations"));
  // The findings of the units that did compile are still there.
  EXPECT_EQ(run(Failed).getArray("results")->size(), 1u);
}

} // namespace

namespace {

TEST(SarifWriter, CodeScanningFields) {
  Finding F = sampleFinding("/repo");
  F.Fingerprint = "0123456789abcdef0123456789abcdef:1";
  F.Loc.Utf16Column = 33; // Two non-ASCII characters before it.
  SarifOptions O{"/repo", "1", {"warp-divergent-full-mask"}};
  O.DocBaseUrl = "https://docs.example.org/w";
  llvm::json::Value Log = toSarif({F}, O);
  const Object &Run = run(Log);
  EXPECT_EQ(*Run.getString("columnKind"), "utf16CodeUnits");
  const Object &Rule = *Run.getObject("tool")
                            ->getObject("driver")
                            ->getArray("rules")
                            ->front()
                            .getAsObject();
  EXPECT_EQ(*Rule.getString("helpUri"),
            "https://docs.example.org/w/warp-divergent-full-mask.md");
  EXPECT_FALSE(Rule.getObject("fullDescription")->getString("text")->empty());
  EXPECT_NE(
      Rule.getObject("help")
          ->getString("markdown")
          ->find("https://docs.example.org/w/warp-divergent-full-mask.md"),
      llvm::StringRef::npos);
  const Object &R = *Run.getArray("results")->front().getAsObject();
  EXPECT_EQ(*R.getObject("partialFingerprints")->getString("warpLintHash/v1"),
            F.Fingerprint);
  EXPECT_EQ(*R.getArray("locations")
                 ->front()
                 .getAsObject()
                 ->getObject("physicalLocation")
                 ->getObject("region")
                 ->getInteger("startColumn"),
            33);
  const Array &Steps = *R.getArray("codeFlows")
                            ->front()
                            .getAsObject()
                            ->getArray("threadFlows")
                            ->front()
                            .getAsObject()
                            ->getArray("locations");
  ASSERT_EQ(Steps.size(), 3u); // Two notes, then the finding.
  EXPECT_EQ(*Steps[0]
                 .getAsObject()
                 ->getObject("location")
                 ->getObject("message")
                 ->getString("text"),
            "lanes diverge here");
  EXPECT_EQ(*Steps[2]
                 .getAsObject()
                 ->getObject("location")
                 ->getObject("message")
                 ->getString("text"),
            F.Message);
}

} // namespace
