//===--- JsonWriterTest.cpp - the documented JSON array -------------------===//

#include "JsonWriter.h"
#include "WriterTestSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace warplint;
using llvm::json::Object;

namespace {

TEST(JsonWriter, DocumentedShape) {
  llvm::json::Value V = toJson({sampleFinding("/repo")});
  const llvm::json::Array &A = *V.getAsArray();
  ASSERT_EQ(A.size(), 1u);
  const Object &F = *A[0].getAsObject();
  EXPECT_EQ(*F.getString("check"), "warp-divergent-full-mask");
  EXPECT_EQ(*F.getString("level"), "error");
  EXPECT_EQ(*F.getString("file"), "/repo/src/k.cu");
  EXPECT_EQ(*F.getInteger("line"), 6);
  EXPECT_EQ(*F.getInteger("column"), 35);
  const Object &Note = *F.getArray("notes")->front().getAsObject();
  EXPECT_EQ(*Note.getString("message"), "lanes diverge here");
  EXPECT_EQ(*Note.getString("file"), "/repo/src/k.cu");
  EXPECT_EQ(*Note.getInteger("line"), 6);
  EXPECT_EQ(*Note.getInteger("column"), 24);
  const Object &Fix = *F.getArray("fixes")->front().getAsObject();
  EXPECT_EQ(*Fix.getString("file"), "/repo/src/k.cu");
  EXPECT_EQ(*Fix.getInteger("offset"), 137);
  EXPECT_EQ(*Fix.getInteger("length"), 10);
  EXPECT_EQ(*Fix.getString("replacement"), "m");
  EXPECT_EQ(*F.getString("tier"), "proven");
  EXPECT_EQ(F.size(), 9u); // Exactly the documented keys.
}

TEST(JsonWriter, EmptyIsAnEmptyArray) {
  EXPECT_EQ(toJson({}), llvm::json::Value(llvm::json::Array{}));
}

// Offsets in clang-tidy's errors become 1-based lines and byte columns.
TEST(Findings, FromClangTidyErrors) {
  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("finding", "cu", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "line one\n  second line\nthird\n";
  }
  clang::tidy::ClangTidyError E(
      "warp-stale-mask", clang::tidy::ClangTidyError::Warning, "/", false);
  E.Message.Message = "mask may be stale";
  E.Message.FilePath = Path.str().str();
  E.Message.FileOffset = 11; // 's' of "second".
  clang::tooling::DiagnosticMessage Note("mask computed here");
  Note.FilePath = Path.str().str();
  Note.FileOffset = 0;
  E.Notes.push_back(Note);
  llvm::cantFail(E.Message.Fix[Path.str()].add(
      clang::tooling::Replacement(Path.str(), 23, 5, "3rd")));
  LineTable Lines;
  std::vector<Finding> F = toFindings({E}, Lines);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Level, "warning");
  EXPECT_EQ(F[0].Loc.Line, 2u);
  EXPECT_EQ(F[0].Loc.Column, 3u);
  EXPECT_EQ(F[0].Notes[0].Loc.Line, 1u);
  EXPECT_EQ(F[0].Notes[0].Loc.Column, 1u);
  ASSERT_EQ(F[0].Fixes.size(), 1u);
  EXPECT_EQ(F[0].Fixes[0].Loc.Line, 3u);
  EXPECT_EQ(F[0].Fixes[0].End.Column, 6u);
  llvm::sys::fs::remove(Path);
}

} // namespace
