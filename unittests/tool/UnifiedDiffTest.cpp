//===--- UnifiedDiffTest.cpp - --fix --dry-run's diff ---------------------===//

#include "UnifiedDiff.h"
#include "gtest/gtest.h"

using namespace warplint;

namespace {

TEST(UnifiedDiff, OneLineChanged) {
  std::string Before = "a\nb\nc\nd\ne\nf\ng\nh\n";
  // "d" -> "D".
  EXPECT_EQ(unifiedDiff("a/k.cu", "b/k.cu", Before, {{6, 1, "D"}}),
            "--- a/k.cu\n+++ b/k.cu\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n"
            " e\n f\n g\n");
}

TEST(UnifiedDiff, InsertedLineShiftsLaterHunks) {
  std::string Before;
  for (int I = 1; I <= 20; ++I)
    Before += "l" + std::to_string(I) + "\n";
  size_t L2 = Before.find("l2\n"), L18 = Before.find("l18\n");
  std::string Diff =
      unifiedDiff("a/f", "b/f", Before,
                  {{unsigned(L2), 0, "new\n"}, {unsigned(L18), 3, "L18"}}, 1);
  EXPECT_EQ(Diff, "--- a/f\n+++ b/f\n"
                  "@@ -1,3 +1,4 @@\n l1\n-l2\n+new\n+l2\n l3\n"
                  "@@ -17,3 +18,3 @@\n l17\n-l18\n+L18\n l19\n");
}

TEST(UnifiedDiff, NoNewlineAtEnd) {
  EXPECT_EQ(unifiedDiff("a/f", "b/f", "x\ny", {{2, 1, "z"}}),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at "
            "end of file\n+z\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, NothingChanged) {
  EXPECT_EQ(unifiedDiff("a/f", "b/f", "x\n", {}), "");
}

// Many edits far apart in a big file: the work follows the edits.
TEST(UnifiedDiff, ManyHunks) {
  std::string Before;
  std::vector<PlannedEdit> Edits;
  for (int I = 0; I < 20000; ++I) {
    if (I % 10 == 0)
      Edits.push_back({unsigned(Before.size()), 1, "Y"});
    Before += "x = 1;\n";
  }
  std::string Diff = unifiedDiff("a/f", "b/f", Before, Edits, 0);
  size_t Hunks = 0;
  for (size_t P = Diff.find("\n@@ "); P != std::string::npos;
       P = Diff.find("\n@@ ", P + 1))
    ++Hunks;
  EXPECT_EQ(Hunks, 2000u);
  EXPECT_NE(Diff.find("@@ -19991,1 +19991,1 @@\n-x = 1;\n+Y = 1;\n"),
            std::string::npos);
}

} // namespace
