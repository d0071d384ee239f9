//===--- ShipPiecesTest.cpp - fingerprints, columns, shards, diffs --------===//

#include "Baseline.h"
#include "DiffFilter.h"
#include "Fingerprints.h"
#include "Shards.h"
#include "gtest/gtest.h"

using namespace warplint;

namespace {

TEST(Utf16Column, CountsCodeUnits) {
  EXPECT_EQ(utf16Column("abc", 3), 3u);
  // "é" is 2 bytes, 1 unit; the clef U+1D11E 4 bytes, 2 units.
  EXPECT_EQ(utf16Column("\xC3\xA9x", 3), 2u);
  EXPECT_EQ(utf16Column("\xF0\x9D\x84\x9Ex", 5), 3u);
  EXPECT_EQ(utf16Column("ab", 4), 4u); // Past the end: bytes.
}

TEST(Fingerprints, IgnoreWhitespaceAndLineNumbers) {
  EXPECT_EQ(normalizeLineText("  v += f( a,\tb );"), "v+=f(a,b);");
  Finding A, B, C;
  A.Check = B.Check = C.Check = "warp-x";
  A.Loc = {"/r/k.cu", 10, 2, 3};
  B.Loc = {"/r/k.cu", 50, 7, 3};
  C.Loc = {"/r/k.cu", 90, 9, 3};
  std::vector<Finding> Fs = {B, A, C};
  FunctionIndex Functions;
  Functions.add({{"/r/k.cu", 0, 60, "f"}, {"/r/k.cu", 61, 100, "g"}});
  LineTable Lines; // The files do not exist: empty line texts.
  assignFingerprints(Fs, Functions, Lines);
  // A and B share function and text: occurrences 1 and 2 in file order.
  EXPECT_EQ(Fs[1].Fingerprint.substr(0, 32), Fs[0].Fingerprint.substr(0, 32));
  EXPECT_EQ(Fs[1].Fingerprint.substr(32), ":1");
  EXPECT_EQ(Fs[0].Fingerprint.substr(32), ":2");
  // C is in another function.
  EXPECT_NE(Fs[2].Fingerprint.substr(0, 32), Fs[0].Fingerprint.substr(0, 32));
  EXPECT_EQ(Functions.enclosing("/r/k.cu", 70), "g");
  EXPECT_EQ(Functions.enclosing("/r/other.cu", 70), "");
}

TEST(Shards, PartitionAndValidate) {
  std::vector<std::string> Files = {"/e.cu", "/a.cu", "/d.cu", "/b.cu",
                                    "/c.cu"};
  std::vector<std::string> All;
  for (unsigned I = 1; I <= 3; ++I) {
    std::vector<std::string> S = selectShard(Files, {I, 3});
    EXPECT_LE(S.size(), 2u);
    All.insert(All.end(), S.begin(), S.end());
  }
  llvm::sort(All);
  EXPECT_EQ(All, (std::vector<std::string>{"/a.cu", "/b.cu", "/c.cu", "/d.cu",
                                           "/e.cu"}));
  // Sorted by path: /a and /d in shard 1, in input order.
  EXPECT_EQ(selectShard(Files, {1, 3}),
            (std::vector<std::string>{"/a.cu", "/d.cu"}));
  for (const char *Bad : {"0/1", "2/1", "1/0", "a/b", "1", ""}) {
    llvm::Expected<Shard> S = parseShard(Bad);
    EXPECT_FALSE(bool(S)) << Bad;
    if (!S)
      llvm::consumeError(S.takeError());
  }
}

TEST(DiffFilter, HunksOfTheNewFile) {
  ChangedLines C = ChangedLines::parse(
      "diff --git a/k.cu b/k.cu\n--- a/k.cu\n+++ b/k.cu\n"
      "@@ -3 +3 @@ void f() {\n-a\n+b\n"
      "@@ -10,0 +11,2 @@\n+x\n+y\n"
      "@@ -20,3 +21,0 @@\n-p\n-q\n-r\n"
      "diff --git a/gone.cu b/gone.cu\n--- a/gone.cu\n+++ /dev/null\n"
      "@@ -1 +0,0 @@\n-z\n",
      "/nonexistent-top");
  EXPECT_TRUE(C.touches("/nonexistent-top/k.cu", 3));
  EXPECT_FALSE(C.touches("/nonexistent-top/k.cu", 4));
  EXPECT_TRUE(C.touches("/nonexistent-top/k.cu", 11));
  EXPECT_TRUE(C.touches("/nonexistent-top/k.cu", 12));
  EXPECT_FALSE(C.touches("/nonexistent-top/k.cu", 13));
  // Deleted after line 21: lines 21 and 22 count.
  EXPECT_TRUE(C.touches("/nonexistent-top/k.cu", 21));
  EXPECT_TRUE(C.touches("/nonexistent-top/k.cu", 22));
  EXPECT_FALSE(C.touches("/nonexistent-top/gone.cu", 1));
}

TEST(Baseline, ReadsWarpLintFingerprints) {
  llvm::Expected<Baseline> B = Baseline::parse(
      R"({"runs":[{"results":[{"ruleId":"warp-x","partialFingerprints":)"
      R"({"warpLintHash/v1":"ab:1"},"locations":[{"physicalLocation":)"
      R"({"artifactLocation":{"uri":"src/k.cu"}}}]}]}]})",
      "b.sarif");
  ASSERT_TRUE(bool(B));
  EXPECT_TRUE(B->contains("warp-x", "src/k.cu", "ab:1"));
  EXPECT_FALSE(B->contains("warp-x", "src/k.cu", "ab:2"));
  EXPECT_FALSE(B->contains("warp-y", "src/k.cu", "ab:1"));
  llvm::Expected<Baseline> Bad = Baseline::parse("[]", "b.sarif");
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

} // namespace
