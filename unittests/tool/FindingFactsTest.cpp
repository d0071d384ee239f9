//===--- FindingFactsTest.cpp - tiers, consequences and lanes -------------===//

#include "FindingFacts.h"
#include "Finding.h"
#include "JsonWriter.h"
#include "SarifWriter.h"
#include "WriterTestSupport.h"
#include "gtest/gtest.h"

using namespace warplint;
using clang::tidy::ClangTidyError;

namespace {

/// A warning whose notes say \p Notes (no file: the facts need none).
ClangTidyError warningWithNotes(std::vector<std::string> Notes,
                                std::string Message = "full warp mask") {
  ClangTidyError E("warp-divergent-full-mask", ClangTidyError::Warning, "/",
                   false);
  E.Message.Message = std::move(Message);
  for (std::string &N : Notes)
    E.Notes.emplace_back(N);
  return E;
}

TEST(FindingFacts, EachTierPrefix) {
  EXPECT_EQ(readFindingFacts({"witness: lane 17 takes the else branch"}).Level,
            Tier::Proven);
  EXPECT_EQ(readFindingFacts({"condition: when n % 32 != 0"}).Level,
            Tier::Conditional);
  EXPECT_EQ(readFindingFacts({"data: depends on in[i]"}).Level, Tier::Data);
  EXPECT_EQ(readFindingFacts({"potential: if a caller diverges"}).Level,
            Tier::Potential);
  EXPECT_TRUE(readFindingFacts({"data: x"}).TierNoted);
}

TEST(FindingFacts, NoTierNoteIsProvenByDefault) {
  FindingFacts F = readFindingFacts({"lanes diverge here"});
  EXPECT_EQ(F.Level, Tier::Proven);
  EXPECT_FALSE(F.TierNoted);
  EXPECT_TRUE(F.Consequence.empty());
  EXPECT_FALSE(F.Lanes);
}

TEST(FindingFacts, FirstTierNoteCounts) {
  FindingFacts F = readFindingFacts(
      {"lanes diverge here", "data: loaded", "witness: not this one"});
  EXPECT_EQ(F.Level, Tier::Data);
}

TEST(FindingFacts, PrefixMustStartTheMessage) {
  EXPECT_FALSE(readFindingFacts({"the witness: is elsewhere"}).TierNoted);
  EXPECT_FALSE(readFindingFacts({"witness:no space"}).TierNoted);
}

TEST(FindingFacts, Consequence) {
  FindingFacts F = readFindingFacts(
      {"witness: lane 3", "consequence: wrong-values: lanes 16..31 read 0"});
  EXPECT_EQ(F.Consequence, "wrong-values");
  EXPECT_EQ(F.ConsequenceText, "lanes 16..31 read 0");
  // Prose that happens to start like one is not a class.
  EXPECT_TRUE(
      readFindingFacts({"consequence: The warp hangs"}).Consequence.empty());
}

TEST(FindingFacts, LaneNote) {
  std::optional<LanePicture> L =
      parseLaneNote("lanes: mask 0xffffffff arrive 0x0000ffff");
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Mask, 0xffffffffu);
  EXPECT_EQ(L->Arrive, 0x0000ffffu);
  L = parseLaneNote("lanes: mask 0xFF arrive 0x1");
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Mask, 0xffu);
  EXPECT_EQ(L->Arrive, 1u);
  EXPECT_FALSE(parseLaneNote("lanes: mask ffffffff arrive 0x1"));
  EXPECT_FALSE(parseLaneNote("lanes: mask 0x1ffffffff arrive 0x1"));
  EXPECT_FALSE(parseLaneNote("lanes: arrive 0x1 mask 0x1"));
  EXPECT_FALSE(parseLaneNote("lanes diverge here"));
  EXPECT_FALSE(parseLaneNote("lanes: mask 0x1"));
  FindingFacts F = readFindingFacts(
      {"witness: w", "lanes: mask 0xffffffff arrive 0x0000ffff"});
  ASSERT_TRUE(F.Lanes);
  EXPECT_EQ(F.Lanes->Arrive, 0xffffu);
}

TEST(FindingFacts, LaneStripLaneZeroLeftmost) {
  EXPECT_EQ(laneStrip(0xffffffffu), std::string(32, '#'));
  EXPECT_EQ(laneStrip(0x0000ffffu),
            std::string(16, '#') + std::string(16, '.'));
  EXPECT_EQ(laneStrip(0x1u), "#" + std::string(31, '.'));
  EXPECT_EQ(laneStrip(0x80000000u), std::string(31, '.') + "#");
}

TEST(FindingFacts, TierNames) {
  for (Tier T : {Tier::Proven, Tier::Conditional, Tier::Data, Tier::Potential})
    EXPECT_EQ(parseTier(tierName(T)), T);
  EXPECT_FALSE(parseTier("certain"));
}

// The level follows the tier; without a tier note, the older word rule.
TEST(FindingLevel, ByTierElseByWords) {
  auto Level = [](ClangTidyError E) { return diagnosticLevel(E, factsOf(E)); };
  EXPECT_EQ(Level(warningWithNotes({"witness: w"})), "error");
  EXPECT_EQ(Level(warningWithNotes({"condition: c"})), "warning");
  EXPECT_EQ(Level(warningWithNotes({"data: d"})), "warning");
  EXPECT_EQ(Level(warningWithNotes({"potential: p"})), "note");
  // The tier wins over the words.
  EXPECT_EQ(Level(warningWithNotes({"witness: w"}, "lanes may not arrive")),
            "error");
  EXPECT_EQ(Level(warningWithNotes({}, "lanes may not arrive")), "warning");
  EXPECT_EQ(Level(warningWithNotes({}, "lanes do not arrive")), "error");
  ClangTidyError AsError = warningWithNotes({"potential: p"});
  AsError.IsWarningAsError = true;
  EXPECT_EQ(Level(AsError), "error");
}

TEST(FindingFacts, JsonFields) {
  Finding F = sampleFinding("/repo");
  F.Facts = readFindingFacts({"condition: n % 32 != 0",
                              "consequence: hang: lanes wait at a barrier",
                              "lanes: mask 0xffffffff arrive 0x0000ffff"});
  llvm::json::Value V = toJson({F});
  const llvm::json::Object &O = *V.getAsArray()->front().getAsObject();
  EXPECT_EQ(*O.getString("tier"), "conditional");
  EXPECT_EQ(*O.getString("consequence"), "hang");
  EXPECT_EQ(*O.getObject("lanes")->getInteger("mask"), 0xffffffffLL);
  EXPECT_EQ(*O.getObject("lanes")->getInteger("arrive"), 0xffffLL);
  // Without them: a tier only.
  V = toJson({sampleFinding("/repo")});
  const llvm::json::Object &Plain = *V.getAsArray()->front().getAsObject();
  EXPECT_EQ(*Plain.getString("tier"), "proven");
  EXPECT_FALSE(Plain.get("consequence"));
  EXPECT_FALSE(Plain.get("lanes"));
}

TEST(FindingFacts, SarifProperties) {
  Finding F = sampleFinding("/repo");
  F.Facts = readFindingFacts({"data: d", "consequence: race: racecheck"});
  SarifOptions O;
  O.Root = "/repo";
  llvm::json::Value Log = toSarif({F}, O);
  const llvm::json::Object &R =
      *(*Log.getAsObject()->getArray("runs")->front().getAsObject()->getArray(
          "results"))[0]
           .getAsObject();
  EXPECT_EQ(*R.getObject("properties")->getString("tier"), "data");
  EXPECT_EQ(*R.getObject("properties")->getString("consequence"), "race");
}

} // namespace
