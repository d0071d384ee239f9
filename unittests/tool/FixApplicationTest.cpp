//===--- FixApplicationTest.cpp - a run's fixes, applied once -------------===//

#include "FixApplication.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace warplint;
using clang::tidy::ClangTidyError;
using clang::tooling::Replacement;

namespace {

/// A finding of \p Check whose fix is \p Edits in /src/k.cu.
ClangTidyError finding(llvm::StringRef Check,
                       std::vector<std::pair<unsigned, std::string>> Edits,
                       unsigned Length = 0) {
  ClangTidyError E(Check.str(), ClangTidyError::Warning, "/src", false);
  E.Message.FilePath = "/src/k.cu";
  for (auto &[Offset, Text] : Edits)
    llvm::cantFail(E.Message.Fix["/src/k.cu"].add(
        Replacement("/src/k.cu", Offset, Text.empty() ? 0 : Length, Text)));
  return E;
}

const std::vector<PlannedEdit> &edits(const FixPlan &P) {
  return P.Files.begin()->second;
}

// Two findings carrying the same declaration (and a header finding seen
// from two units) plan it once.
TEST(FixPlan, IdenticalReplacementsOnce) {
  ClangTidyError A = finding("warp-x", {{10, "decl;"}, {20, "m"}}, 0);
  ClangTidyError B = finding("warp-x", {{10, "decl;"}, {30, "m"}}, 0);
  FixPlan P = planFixes({A, B, A});
  EXPECT_EQ(P.Fixes, 3u);
  EXPECT_EQ(P.Planned, 3u);
  ASSERT_EQ(P.Files.size(), 1u);
  EXPECT_EQ(edits(P).size(), 3u);
  EXPECT_TRUE(P.LeftOut.empty());
}

// A fix overlapping one already planned is left out whole: none of its
// edits go in, not even those that would fit.
TEST(FixPlan, OverlappingFixLeftOutWhole) {
  ClangTidyError A = finding("warp-x", {{10, "aaaa"}}, 4);
  ClangTidyError B = finding("warp-y", {{40, "b"}, {12, "cc"}}, 4);
  FixPlan P = planFixes({A, B});
  EXPECT_EQ(P.Planned, 1u);
  ASSERT_EQ(P.LeftOut.size(), 1u);
  EXPECT_THAT(P.LeftOut[0], ::testing::HasSubstr("[warp-y] left out"));
  ASSERT_EQ(edits(P).size(), 1u);
  EXPECT_EQ(edits(P)[0].Text, "aaaa");
}

// Different insertions at one offset both go in, in plan order, before a
// replacement starting there.
TEST(FixPlan, InsertionsAtOneOffsetKeepTheirOrder) {
  FixPlan P = planFixes({finding("warp-x", {{2, "B"}}, 0),
                         finding("warp-y", {{2, "A"}}, 0),
                         finding("warp-z", {{2, "c"}}, 1)});
  EXPECT_EQ(P.Planned, 3u);
  llvm::Expected<std::string> Out = applyEdits("/src/k.cu", "0123", edits(P));
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(*Out, "01BAc3");
}

// One exported YAML document is one unit to clang-apply-replacements, which
// would apply a repeated replacement twice: later findings drop it.
TEST(FixPlan, ExportDropsRepeatedReplacements) {
  std::vector<ClangTidyError> Out = withoutRepeatedReplacements(
      {finding("warp-x", {{10, "decl;"}, {20, "m"}}, 0),
       finding("warp-x", {{10, "decl;"}, {30, "m"}}, 0)});
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(Out[0].Message.Fix["/src/k.cu"].size(), 2u);
  const clang::tooling::Replacements &Second = Out[1].Message.Fix["/src/k.cu"];
  ASSERT_EQ(Second.size(), 1u);
  EXPECT_EQ(Second.begin()->getOffset(), 30u);
}

} // namespace
