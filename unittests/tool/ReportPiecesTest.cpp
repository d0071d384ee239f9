//===--- ReportPiecesTest.cpp - progress, summary, threshold, HTML --------===//

#include "FailThreshold.h"
#include "HtmlWriter.h"
#include "Progress.h"
#include "Summary.h"
#include "TextReport.h"
#include "WriterTestSupport.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace warplint;
using ::testing::HasSubstr;
using ::testing::Not;
using Clock = ProgressReporter::Clock;

namespace {

/// The message of \p E's error, or "" when it holds a value.
template <typename T> std::string errorOf(llvm::Expected<T> E) {
  return E ? std::string() : llvm::toString(E.takeError());
}

TEST(Progress, LinesInALogAtASaneRate) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Clock::time_point T0{};
  ProgressReporter P(ProgressMode::Lines, 100, OS, T0);
  // A hundred units in one second: one line (the first tenth), not 100.
  for (int I = 0; I < 100; ++I)
    P.unitDone("u.cu", T0 + std::chrono::milliseconds(10 * I + 1000));
  EXPECT_EQ(llvm::StringRef(Out).count('\n'), 1u) << Out;
  EXPECT_THAT(Out, HasSubstr("warp-lint: [10/100] u.cu"));
}

TEST(Progress, SlowUnitsEachGetALine) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Clock::time_point T0{};
  ProgressReporter P(ProgressMode::Lines, 24, OS, T0);
  for (int I = 1; I <= 24; ++I)
    P.unitDone("k" + std::to_string(I) + ".cu",
               T0 + std::chrono::seconds(2 * I));
  // Every tenth that is crossed, but the last (the summary follows).
  EXPECT_THAT(Out, HasSubstr("[3/24] k3.cu (6.0 s)"));
  EXPECT_THAT(Out, Not(HasSubstr("[24/24]")));
  EXPECT_GE(llvm::StringRef(Out).count('\n'), 8u);
  EXPECT_LE(llvm::StringRef(Out).count('\n'), 10u);
}

TEST(Progress, TerminalRewritesOneLine) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  ProgressReporter P(ProgressMode::Terminal, 2, OS);
  P.unitDone("a.cu");
  P.clear();
  EXPECT_EQ(Out, "\r\x1b[K[1/2] a.cu\r\x1b[K");
}

TEST(Progress, Modes) {
  EXPECT_EQ(parseProgressMode("auto", true), ProgressMode::Terminal);
  EXPECT_EQ(parseProgressMode("auto", false), ProgressMode::Lines);
  EXPECT_EQ(parseProgressMode("none", true), ProgressMode::None);
  EXPECT_FALSE(parseProgressMode("bar", true));
}

Finding withTier(const char *TierNote, const char *Level) {
  Finding F = sampleFinding("/repo");
  F.Facts = readFindingFacts({TierNote});
  F.Level = Level;
  return F;
}

TEST(FailThreshold, ByLevelAndByTier) {
  Finding Proven = withTier("witness: w", "error");
  Finding Data = withTier("data: d", "warning");
  Finding Potential = withTier("potential: p", "note");
  auto T = [](const char *V) {
    llvm::Expected<FailThreshold> R = FailThreshold::parse(V);
    EXPECT_TRUE(bool(R)) << V;
    return *R;
  };
  EXPECT_TRUE(T("any").fails(Potential));
  EXPECT_FALSE(T("never").fails(Proven));
  EXPECT_TRUE(T("error").fails(Proven));
  EXPECT_FALSE(T("error").fails(Data));
  EXPECT_TRUE(T("warning").fails(Data));
  EXPECT_FALSE(T("warning").fails(Potential));
  EXPECT_TRUE(T("conditional").fails(Proven));
  EXPECT_FALSE(T("conditional").fails(Data));
  EXPECT_TRUE(T("data").fails(Data));
  EXPECT_TRUE(T("potential").fails(Potential));
  EXPECT_THAT(errorOf(FailThreshold::parse("severe")), HasSubstr("--fail-on"));
}

TEST(FailThreshold, TierList) {
  llvm::Expected<std::string> List = parseTierList(" potential ,proven,proven");
  ASSERT_TRUE(bool(List));
  EXPECT_EQ(*List, "proven,potential");
  EXPECT_THAT(errorOf(parseTierList("proven,certain")), HasSubstr("'certain'"));
  EXPECT_THAT(errorOf(parseTierList(",")), HasSubstr("at least one"));
}

TEST(LaneSvg, TwoRowsOf32LanesAndTheMissingInRed) {
  std::string Svg = laneSvg({0xffffffffu, 0x0000ffffu});
  EXPECT_EQ(llvm::StringRef(Svg).count("<rect "), 64u);
  EXPECT_EQ(llvm::StringRef(Svg).count("fill=\"#cf222e\""), 16u);
  EXPECT_EQ(llvm::StringRef(Svg).count("fill=\"#1a7f37\""), 16u);
  EXPECT_EQ(llvm::StringRef(Svg).count("fill=\"#0969da\""), 32u);
  EXPECT_THAT(Svg, HasSubstr("lane 16: named but never arrives"));
}

TEST(Html, EscapesAndGroupsByFile) {
  Finding F = sampleFinding("/repo");
  F.Message = "mask <0xffffffff> & \"lanes\"";
  F.Facts = readFindingFacts({"lanes: mask 0xffffffff arrive 0x0000ffff"});
  LineTable Lines;
  HtmlOptions O;
  O.Root = "/repo";
  O.ToolVersion = "9.9";
  std::string Page = toHtml({F}, Lines, O);
  EXPECT_THAT(Page,
              HasSubstr("mask &lt;0xffffffff&gt; &amp; &quot;lanes&quot;"));
  EXPECT_THAT(Page, HasSubstr("<h2>src/k.cu</h2>"));
  EXPECT_THAT(Page, HasSubstr("<svg class=\"lanes\""));
  EXPECT_THAT(Page, HasSubstr("Content-Security-Policy"));
}

TEST(Summary, CountsByTierCheckAndFile) {
  clang::tidy::ClangTidyError A("warp-a", clang::tidy::ClangTidyError::Warning,
                                "/", false);
  A.Message.Message = "a";
  A.Notes.emplace_back("data: d");
  clang::tidy::ClangTidyError B = A;
  B.DiagnosticName = "warp-b";
  B.Notes.clear();
  RunResults R;
  R.Diagnostics = {A, A, B};
  R.CacheHits = 2;
  R.Skipped.push_back({"gen.cu", "no such file", true});
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  RunStats S;
  S.Units = 24;
  S.Jobs = 2;
  S.Seconds = 12.34;
  S.CacheOn = true;
  printSummary(OS, R, S);
  EXPECT_THAT(Out, HasSubstr("warp-lint: 24 units in 12.3 s (-j 2, 2 from "
                             "the cache): 3 findings in 1 file\n"));
  EXPECT_THAT(Out, HasSubstr("by tier: 1 proven, 2 data\n"));
  EXPECT_THAT(Out, HasSubstr("by check: warp-a 2, warp-b 1\n"));
  EXPECT_THAT(Out, HasSubstr("not analysed: 1 unit not generated yet\n"));
}

TEST(TextReport, LaneStripsAfterTheLanesNote) {
  clang::tidy::ClangTidyError E("warp-a", clang::tidy::ClangTidyError::Warning,
                                "/", false);
  E.Notes.emplace_back("lanes: mask 0xffffffff arrive 0x0000ffff");
  E.Notes.emplace_back("lanes diverge here");
  std::vector<clang::tidy::ClangTidyError> Out = withLaneStrips({E});
  EXPECT_EQ(Out[0].Notes[0].Message,
            "lanes: mask 0xffffffff arrive 0x0000ffff\n"
            "    mask   ################################\n"
            "    arrive ################................");
  EXPECT_EQ(Out[0].Notes[1].Message, "lanes diverge here");
}

} // namespace
