//===--- OptionValidationTest.cpp - command-line value checks -------------===//

#include "OptionValidation.h"
#include "gtest/gtest.h"

using namespace warplint;

namespace {

/// Returns whether \p V failed, consuming the error.
template <typename T> bool failed(llvm::Expected<T> V) {
  if (V)
    return false;
  llvm::consumeError(V.takeError());
  return true;
}

TEST(OptionValidation, Format) {
  EXPECT_EQ(*parseFormat("text"), OutputFormat::Text);
  EXPECT_EQ(*parseFormat("sarif"), OutputFormat::Sarif);
  EXPECT_EQ(*parseFormat("json"), OutputFormat::Json);
  auto Bad = parseFormat("xml");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "invalid --format 'xml': expected text, sarif, json or html");
  EXPECT_TRUE(failed(parseFormat("")));
  EXPECT_TRUE(failed(parseFormat("SARIF")));
}

TEST(OptionValidation, Jobs) {
  EXPECT_EQ(*parseJobs("1"), 1u);
  EXPECT_EQ(*parseJobs("8"), 8u);
  EXPECT_GE(*parseJobs("0"), 1u); // One per core.
  for (const char *Bad : {"", "-1", "x", "2x", "1.5", "100000"}) {
    auto J = parseJobs(Bad);
    EXPECT_FALSE(bool(J)) << Bad;
    if (!J)
      EXPECT_NE(llvm::toString(J.takeError()).find("invalid -j"),
                std::string::npos);
  }
}

TEST(OptionValidation, CheckList) {
  llvm::StringSet<> Known = {"warp-divergent-full-mask", "warp-stale-mask"};
  EXPECT_FALSE(bool(validateCheckList("warp-*", Known)));
  EXPECT_FALSE(bool(validateCheckList("-*,warp-stale-mask", Known)));
  EXPECT_FALSE(bool(validateCheckList("warp-*,-warp-stale-mask", Known)));
  EXPECT_FALSE(bool(validateCheckList("clang-diagnostic-*", Known)));
  EXPECT_FALSE(bool(validateCheckList("warp-stale*", Known)));
  llvm::Error E = validateCheckList("-*, warp-stael-mask", Known);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "unknown check 'warp-stael-mask' in --checks");
  E = validateCheckList("-warp-nope", Known);
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
}

} // namespace
