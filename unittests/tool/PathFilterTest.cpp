//===--- PathFilterTest.cpp - --exclude patterns --------------------------===//

#include "PathFilter.h"
#include "gtest/gtest.h"

using namespace warplint;

namespace {

PathFilter filter(std::initializer_list<const char *> Patterns) {
  PathFilter F;
  F.setRoot("/repo");
  for (const char *P : Patterns)
    EXPECT_FALSE(llvm::errorToBool(F.add(P))) << P;
  return F;
}

TEST(PathFilter, DirectoryAtAnyDepth) {
  PathFilter F = filter({"third_party/"});
  EXPECT_TRUE(F.excludes("/repo/third_party/cub/k.cu"));
  EXPECT_TRUE(F.excludes("/repo/src/third_party/x.cuh"));
  EXPECT_FALSE(F.excludes("/repo/src/third_party_x.cu"));
  EXPECT_FALSE(F.excludes("/repo/src/k.cu"));
  // Without the slash, the same.
  EXPECT_TRUE(filter({"third_party"}).excludes("/repo/a/third_party/k.cu"));
}

TEST(PathFilter, SlashInsideAnchorsAtTheRoot) {
  PathFilter F = filter({"src/gen"});
  EXPECT_TRUE(F.excludes("/repo/src/gen/k.cu"));
  EXPECT_FALSE(F.excludes("/repo/lib/src/gen/k.cu"));
  EXPECT_TRUE(filter({"/vendor"}).excludes("/repo/vendor/k.cu"));
  EXPECT_FALSE(filter({"/vendor"}).excludes("/repo/a/vendor/k.cu"));
}

TEST(PathFilter, Globs) {
  PathFilter F = filter({"*.gen.cu"});
  EXPECT_TRUE(F.excludes("/repo/a/b/k.gen.cu"));
  EXPECT_FALSE(F.excludes("/repo/a/b/k.cu"));
  // `*` stays in one component; `**` spans several.
  EXPECT_FALSE(filter({"src/*.cu"}).excludes("/repo/src/a/k.cu"));
  EXPECT_TRUE(filter({"src/*.cu"}).excludes("/repo/src/k.cu"));
  EXPECT_TRUE(filter({"src/**/*.cu"}).excludes("/repo/src/a/b/k.cu"));
  EXPECT_TRUE(filter({"src/**/*.cu"}).excludes("/repo/src/k.cu"));
}

TEST(PathFilter, OutsideTheRootByAbsolutePath) {
  PathFilter F = filter({"/usr/include"});
  EXPECT_TRUE(F.excludes("/usr/include/cuda/std/x.h"));
  EXPECT_FALSE(F.excludes("/repo/usr/x.h"));
}

TEST(PathFilter, BadPatterns) {
  PathFilter F;
  EXPECT_TRUE(llvm::errorToBool(F.add("")));
  EXPECT_TRUE(llvm::errorToBool(F.add("/")));
  EXPECT_TRUE(llvm::errorToBool(F.add("[z-a]")));
  EXPECT_TRUE(F.empty());
}

} // namespace
