//===--- FileWritingTest.cpp - writes that never leave a file half done ---===//

#include "FileWriting.h"
#include "FileStamps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include <sys/stat.h>
#include <unistd.h>

using namespace warplint;
using ::testing::HasSubstr;

namespace {

class FileWriting : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warp-lint-write", D));
    Dir = D.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) { return Dir + "/" + Name.str(); }
  std::string read(llvm::StringRef Name) {
    auto B = llvm::MemoryBuffer::getFile(path(Name));
    return B ? (*B)->getBuffer().str() : "<unreadable>";
  }
  struct stat stat(llvm::StringRef Name) {
    struct stat St{};
    ::lstat(path(Name).c_str(), &St);
    return St;
  }
  std::string Dir;
};

TEST_F(FileWriting, CreatesAndReplaces) {
  ASSERT_FALSE(bool(writeFile(path("new.txt"), "one")));
  EXPECT_EQ(read("new.txt"), "one");
  ASSERT_FALSE(bool(writeFile(path("new.txt"), "two")));
  EXPECT_EQ(read("new.txt"), "two");
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  int Entries = 0;
  for (llvm::sys::fs::directory_iterator End; It != End && !EC;
       It.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1) << "no temporary file left behind";
}

TEST_F(FileWriting, KeepsTheMode) {
  for (mode_t Mode : {0600, 0755, 0640}) {
    ASSERT_FALSE(bool(writeFile(path("m"), "x")));
    ASSERT_EQ(::chmod(path("m").c_str(), Mode), 0);
    ASSERT_FALSE(bool(writeFile(path("m"), "y")));
    EXPECT_EQ(stat("m").st_mode & 07777, Mode);
  }
}

TEST_F(FileWriting, FollowsSymlinksAndKeepsThem) {
  ASSERT_FALSE(bool(writeFile(path("target"), "old")));
  ASSERT_EQ(::symlink("target", path("link").c_str()), 0);
  ASSERT_FALSE(bool(writeFile(path("link"), "new")));
  EXPECT_TRUE(S_ISLNK(stat("link").st_mode));
  EXPECT_EQ(read("target"), "new");
  ASSERT_EQ(::symlink("nowhere", path("dangling").c_str()), 0);
  llvm::Error E = writeFile(path("dangling"), "x");
  EXPECT_THAT(llvm::toString(std::move(E)),
              HasSubstr("symbolic link to nothing"));
}

TEST_F(FileWriting, RewritesHardLinksInPlace) {
  ASSERT_FALSE(bool(writeFile(path("a"), "a longer old text")));
  ASSERT_EQ(::link(path("a").c_str(), path("b").c_str()), 0);
  ino_t Ino = stat("a").st_ino;
  ASSERT_FALSE(bool(writeFile(path("a"), "new")));
  EXPECT_EQ(stat("a").st_ino, Ino);
  EXPECT_EQ(read("b"), "new");
}

TEST_F(FileWriting, RefusesReadOnlyFilesAndDirectories) {
  ASSERT_FALSE(bool(writeFile(path("ro"), "keep")));
  ASSERT_EQ(::chmod(path("ro").c_str(), 0444), 0);
  llvm::Error E = writeFile(path("ro"), "changed");
  EXPECT_EQ(llvm::toString(std::move(E)),
            "cannot write " + path("ro") + ": the file is read-only");
  EXPECT_EQ(read("ro"), "keep");
  E = writeFile(Dir, "x");
  EXPECT_THAT(llvm::toString(std::move(E)), HasSubstr("it is a directory"));
}

TEST_F(FileWriting, WritesDevicesThrough) {
  EXPECT_FALSE(bool(writeFile("/dev/null", "x")));
  llvm::Error E = writeFile("/dev/full", "x");
  EXPECT_EQ(llvm::toString(std::move(E)),
            "cannot write /dev/full: No space left on device");
}

TEST_F(FileWriting, RefusesNonRegularInputs) {
  EXPECT_THAT(llvm::toString(checkRegularFile("/dev/zero")),
              HasSubstr("a character device"));
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_THAT(llvm::toString(checkRegularFile(path("fifo"))),
              HasSubstr("a FIFO"));
  EXPECT_THAT(llvm::toString(checkRegularFile(Dir)), HasSubstr("a directory"));
  llvm::Expected<std::string> R = readRegularFile(path("fifo"));
  ASSERT_FALSE(bool(R));
  EXPECT_THAT(llvm::toString(R.takeError()),
              HasSubstr("cannot read " + path("fifo")));
}

// A lock this process holds is taken once (flock locks of one process on
// two descriptors would block each other) and moves to the new file when
// writeFile replaces the old one.
TEST_F(FileWriting, LocksOnceAndFollowsTheReplacement) {
  ASSERT_FALSE(bool(writeFile(path("locked"), "a")));
  ASSERT_FALSE(bool(lockFile(path("locked"), std::chrono::milliseconds(100))));
  ASSERT_FALSE(bool(lockFile(path("locked"), std::chrono::milliseconds(100))));
  ASSERT_FALSE(bool(writeFile(path("locked"), "b")));
  ASSERT_FALSE(bool(lockFile(path("locked"), std::chrono::milliseconds(100))));
  EXPECT_EQ(read("locked"), "b");
}

// --fix refuses a file that changed since the analysis read it.
TEST_F(FileWriting, StampsTellAChangedFile) {
  ASSERT_FALSE(bool(writeFile(path("k.cu"), "int x;\n")));
  StampingFileSystem FS(llvm::vfs::getRealFileSystem());
  ASSERT_TRUE(bool(FS.openFileForRead(path("k.cu"))));
  FileStamps Seen = FS.takeStamps();
  EXPECT_FALSE(bool(Seen.checkUnchanged(path("k.cu"))));
  ASSERT_FALSE(bool(writeFile(path("k.cu"), "int y = 1;\n")));
  EXPECT_THAT(llvm::toString(Seen.checkUnchanged(path("k.cu"))),
              HasSubstr("changed while warp-lint analysed it"));
}

} // namespace
