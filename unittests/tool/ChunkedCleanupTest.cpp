//===--- ChunkedCleanupTest.cpp - the fix cleanup in pieces ---------------===//

#include "ChunkedCleanup.h"
#include "gtest/gtest.h"

using namespace warplint;
using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace {

TEST(PieceBoundaries, BetweenTopLevelDeclarationsOnly) {
  std::string Code = "int a;\n"                   // 0
                     "void f() {\n  int b;\n}\n"  // 7
                     "#define X {\n"              // 29
                     "namespace n {\nint c;\n}\n" // 41, the } at 62
                     "struct S { int d; };\n";    // 64
  std::vector<unsigned> Cuts = pieceBoundaries(Code, false);
  // After `int a;`, after f's body, after the namespace, not inside f nor
  // inside the namespace, and not at the directive.
  EXPECT_EQ(Cuts, (std::vector<unsigned>{7, 41, 64}));
  // When cutting inside namespaces is fine (no formatting), also there.
  Cuts = pieceBoundaries(Code, true);
  EXPECT_EQ(Cuts, (std::vector<unsigned>{7, 41, 62, 64}));
}

TEST(PieceBoundaries, CommentsAndStringsHoldNoBraces) {
  std::string Code = "const char *s = \"{\"; // {\n/* { */ int a;\nint b;\n";
  EXPECT_EQ(pieceBoundaries(Code, false), (std::vector<unsigned>{26, 41}));
}

/// A file of \p N functions, each with a fix that leaves a stray comma for
/// the cleanup to remove.
std::string manyFunctions(unsigned N, Replacements &Fixes) {
  std::string Code;
  for (unsigned I = 0; I < N; ++I) {
    Code += "struct S" + std::to_string(I) + " {\n  S" + std::to_string(I) +
            "() : a(1), b(2) {}\n  int a, b;\n};\n";
    // Delete `b(2)`, leaving `a(1), {}`: the cleanup removes the comma.
    size_t At = Code.rfind("b(2)");
    llvm::cantFail(Fixes.add(Replacement("k.cu", At, 4, "")));
  }
  return Code;
}

TEST(CleanupAndFormat, PiecesGiveWhatTheWholeFileGives) {
  Replacements Fixes;
  std::string Code = manyFunctions(300, Fixes);
  clang::format::FormatStyle Style = clang::format::getNoStyle();
  llvm::Expected<Replacements> Whole =
      clang::format::cleanupAroundReplacements(Code, Fixes, Style);
  ASSERT_TRUE(bool(Whole));
  llvm::Expected<Replacements> Pieces =
      cleanupAndFormat("k.cu", Code, Fixes, Style);
  ASSERT_TRUE(bool(Pieces));
  std::string A =
      llvm::cantFail(clang::tooling::applyAllReplacements(Code, *Whole));
  std::string B =
      llvm::cantFail(clang::tooling::applyAllReplacements(Code, *Pieces));
  EXPECT_EQ(A, B);
  EXPECT_EQ(B.find(", {}"), std::string::npos) << "the cleanup ran";
}

// A large file with few fixes: only the pieces around them are processed,
// with the result the whole file gives.
TEST(CleanupAndFormat, SparseFixesInALargeFile) {
  Replacements Fixes, Shifted;
  std::string Fixed = manyFunctions(3, Fixes);
  std::string Filler;
  for (unsigned I = 0; Filler.size() < (1u << 21); ++I)
    Filler +=
        "int filler" + std::to_string(I) + " = " + std::to_string(I) + ";\n";
  std::string Code = Filler + Fixed + Filler;
  for (const Replacement &R : Fixes)
    llvm::cantFail(Shifted.add(
        Replacement("k.cu", R.getOffset() + Filler.size(), R.getLength(), "")));
  clang::format::FormatStyle Style = clang::format::getNoStyle();
  llvm::Expected<Replacements> Whole =
      clang::format::cleanupAroundReplacements(Code, Shifted, Style);
  ASSERT_TRUE(bool(Whole));
  llvm::Expected<Replacements> Pieces =
      cleanupAndFormat("k.cu", Code, Shifted, Style);
  ASSERT_TRUE(bool(Pieces));
  EXPECT_EQ(
      llvm::cantFail(clang::tooling::applyAllReplacements(Code, *Whole)),
      llvm::cantFail(clang::tooling::applyAllReplacements(Code, *Pieces)));
}

TEST(CleanupAndFormat, WithAStyleTheSameToo) {
  Replacements Fixes;
  std::string Code = "namespace n {\n" + manyFunctions(200, Fixes) + "}\n";
  Replacements Shifted;
  for (const Replacement &R : Fixes)
    llvm::cantFail(Shifted.add(
        Replacement("k.cu", R.getOffset() + 14, R.getLength(), "")));
  clang::format::FormatStyle Style = clang::format::getLLVMStyle();
  llvm::Expected<Replacements> Whole =
      clang::format::cleanupAroundReplacements(Code, Shifted, Style);
  ASSERT_TRUE(bool(Whole));
  llvm::Expected<Replacements> WholeFormatted =
      clang::format::formatReplacements(Code, *Whole, Style);
  ASSERT_TRUE(bool(WholeFormatted));
  llvm::Expected<Replacements> Pieces =
      cleanupAndFormat("k.cu", Code, Shifted, Style);
  ASSERT_TRUE(bool(Pieces));
  EXPECT_EQ(
      llvm::cantFail(
          clang::tooling::applyAllReplacements(Code, *WholeFormatted)),
      llvm::cantFail(clang::tooling::applyAllReplacements(Code, *Pieces)));
}

} // namespace
