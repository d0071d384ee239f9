//===--- WarpOptionsTest.cpp - the analysis options, read one way ---------===//

#include "WarpOptions.h"
#include "gtest/gtest.h"

using namespace clang::tidy;
using namespace clang::tidy::warp;

namespace {

ClangTidyOptions::OptionMap
options(std::initializer_list<std::pair<const char *, const char *>> Pairs) {
  ClangTidyOptions::OptionMap M;
  for (const auto &[K, V] : Pairs)
    M[K] = ClangTidyOptions::ClangTidyValue(V);
  return M;
}

TEST(WarpOptionsTest, BooleansAsClangTidySpellsThem) {
  for (const char *T : {"true", "True", "on", "yes", "1", "7"})
    EXPECT_EQ(parseBoolOption(T), std::optional<bool>(true)) << T;
  for (const char *F : {"false", "off", "no", "0"})
    EXPECT_EQ(parseBoolOption(F), std::optional<bool>(false)) << F;
  EXPECT_EQ(parseBoolOption("maybe"), std::nullopt);
}

TEST(WarpOptionsTest, TheCheckOwnValueBeatsTheGlobalOne) {
  auto M = options({{"WarpAlignedBlockDimX", "true"},
                    {"warp-stale-mask.WarpAlignedBlockDimX", "off"}});
  EXPECT_FALSE(analysisOptionsOf(M, "warp-stale-mask").ThreadIdxYZUniform);
  EXPECT_TRUE(
      analysisOptionsOf(M, "warp-divergent-full-mask").ThreadIdxYZUniform);
  EXPECT_TRUE(setsAnalysisOptions(M, "warp-stale-mask"));
  EXPECT_FALSE(setsAnalysisOptions(M, "warp-divergent-full-mask"));
  EXPECT_FALSE(
      analysisOptionsOf(options({}), "warp-stale-mask").ThreadIdxYZUniform);
  // The front ends once disagreed on "on": the checks took it, --explain not.
  EXPECT_TRUE(analysisOptionsOf(options({{"WarpAlignedBlockDimX", "on"}}), "")
                  .ThreadIdxYZUniform);
}

} // namespace
