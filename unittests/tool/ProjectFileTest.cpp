//===--- ProjectFileTest.cpp - .warp-lint.yaml ----------------------------===//

#include "ProjectFile.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace warplint;
using ::testing::HasSubstr;

namespace {

/// The message of \p E's error, or "" when it holds a value.
template <typename T> std::string errorOf(llvm::Expected<T> E) {
  return E ? std::string() : llvm::toString(E.takeError());
}

const ProjectKey Keys[] = {{"build-dir", ProjectValueKind::Path},
                           {"jobs", ProjectValueKind::Text},
                           {"exclude", ProjectValueKind::List},
                           {"stable-order", ProjectValueKind::Flag}};

TEST(ProjectFile, ReadsKeysAndMakesPathsAbsolute) {
  llvm::Expected<ProjectFile> F =
      parseProjectFile("build-dir: build\njobs: 4\nexclude: [third_party/, "
                       "'**/*.gen.cu']\nstable-order: true\n",
                       "/repo/.warp-lint.yaml", Keys);
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Dir, "/repo");
  ASSERT_EQ(F->Settings.size(), 4u);
  EXPECT_EQ(F->Settings[0].Values, std::vector<std::string>{"/repo/build"});
  EXPECT_EQ(F->Settings[1].Values, std::vector<std::string>{"4"});
  EXPECT_EQ(F->Settings[2].Values,
            (std::vector<std::string>{"third_party/", "**/*.gen.cu"}));
  EXPECT_EQ(F->Settings[3].Values, std::vector<std::string>{"true"});
}

TEST(ProjectFile, ListMayBeOneValue) {
  llvm::Expected<ProjectFile> F =
      parseProjectFile("exclude: vendor\n", "/r/.warp-lint.yaml", Keys);
  ASSERT_TRUE(bool(F));
  EXPECT_EQ(F->Settings[0].Values, std::vector<std::string>{"vendor"});
}

TEST(ProjectFile, EmptyFileSetsNothing) {
  llvm::Expected<ProjectFile> F =
      parseProjectFile("# nothing yet\n", "/r/.warp-lint.yaml", Keys);
  ASSERT_TRUE(bool(F));
  EXPECT_TRUE(F->Settings.empty());
}

TEST(ProjectFile, ProblemsAreOneLineWithAPlace) {
  EXPECT_THAT(errorOf(parseProjectFile("jobs: 2\nbuild_dir: b\n",
                                       "/r/.warp-lint.yaml", Keys)),
              HasSubstr("/r/.warp-lint.yaml:2:1: unknown key 'build_dir'"));
  EXPECT_THAT(
      errorOf(parseProjectFile("jobs: [1, 2]\n", "/r/.warp-lint.yaml", Keys)),
      HasSubstr(".warp-lint.yaml:1:"));
  EXPECT_THAT(
      errorOf(parseProjectFile("jobs: [1, 2]\n", "/r/.warp-lint.yaml", Keys)),
      HasSubstr("expected a single value"));
  EXPECT_THAT(errorOf(parseProjectFile("stable-order: yes please\n",
                                       "/r/.warp-lint.yaml", Keys)),
              HasSubstr("expected true or false"));
  EXPECT_THAT(
      errorOf(parseProjectFile("- a\n- b\n", "/r/.warp-lint.yaml", Keys)),
      HasSubstr("expected a mapping"));
  llvm::Expected<ProjectFile> Broken =
      parseProjectFile("jobs: [1, \n", "/r/.warp-lint.yaml", Keys);
  ASSERT_FALSE(bool(Broken));
  std::string Message = llvm::toString(Broken.takeError());
  EXPECT_THAT(Message, HasSubstr("invalid project file /r/.warp-lint.yaml:"));
  EXPECT_EQ(Message.find('\n'), std::string::npos);
}

} // namespace
