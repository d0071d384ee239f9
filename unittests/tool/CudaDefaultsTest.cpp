//===--- CudaDefaultsTest.cpp - toolkit detection and default flags -------===//

#include "CudaDefaults.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace warplint;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

namespace {

/// A fake toolkit in a fresh temporary directory.
class FakeCuda : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fake-cuda", Dir));
    Root = Dir.str().str();
    ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/include"));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  void write(llvm::StringRef Rel, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Root + "/" + Rel.str(), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  CudaSearchEnv env(std::map<std::string, std::string> Vars = {},
                    std::string Nvcc = "") {
    CudaSearchEnv Env;
    Env.GetEnv = [Vars](llvm::StringRef N) -> std::optional<std::string> {
      auto It = Vars.find(N.str());
      if (It == Vars.end())
        return std::nullopt;
      return It->second;
    };
    Env.FindProgram = [Nvcc](llvm::StringRef) -> std::optional<std::string> {
      if (Nvcc.empty())
        return std::nullopt;
      return Nvcc;
    };
    Env.FallbackPaths = {};
    return Env;
  }
  std::string Root;
};

TEST(CudaVersionHeader, ParsesDefine) {
  auto V = parseCudaVersionHeader("#ifndef X\n#define CUDA_VERSION 13000\n");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major, 13u);
  EXPECT_EQ(V->Minor, 0u);
  V = parseCudaVersionHeader("#  define   CUDA_VERSION 12080 /* 12.8 */\n");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major, 12u);
  EXPECT_EQ(V->Minor, 8u);
}

TEST(CudaVersionHeader, IgnoresLookalikes) {
  EXPECT_FALSE(parseCudaVersionHeader("#define CUDA_VERSION_MAJOR 13\n"));
  EXPECT_FALSE(parseCudaVersionHeader("// #define CUDA_VERSION 13000\n"));
  EXPECT_FALSE(parseCudaVersionHeader("#define CUDA_VERSION\n"));
  EXPECT_FALSE(parseCudaVersionHeader(""));
}

TEST_F(FakeCuda, ExplicitPathWins) {
  CudaSearchEnv E = env({{"CUDA_PATH", Root}});
  E.ExplicitPath = "/somewhere/else";
  EXPECT_EQ(findCudaPath(E), "/somewhere/else");
}

TEST_F(FakeCuda, EnvironmentThenNvccOnPath) {
  EXPECT_EQ(findCudaPath(env({{"CUDA_HOME", Root}})), Root);
  EXPECT_EQ(findCudaPath(env({{"CUDA_PATH", "/does/not/exist"},
                              {"CUDA_HOME", Root}})),
            Root);
  ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/bin"));
  write("bin/nvcc", "");
  EXPECT_EQ(findCudaPath(env({}, Root + "/bin/nvcc")), Root);
  EXPECT_EQ(findCudaPath(env()), "");
}

TEST_F(FakeCuda, FallbackPath) {
  CudaSearchEnv E = env();
  E.FallbackPaths = {Root};
  EXPECT_EQ(findCudaPath(E), Root);
}

TEST_F(FakeCuda, WithoutVersionFileUsesCudaH) {
  write("include/cuda.h", "#define CUDA_VERSION 12040\n");
  CudaInstall C = inspectCudaInstall(Root);
  EXPECT_FALSE(C.HasVersionFile);
  EXPECT_FALSE(C.HasCccl);
  ASSERT_TRUE(C.HeaderVersion);
  std::vector<std::string> Args =
      addCudaDefaults({"clang++", "k.cu"}, C, "sm_90");
  EXPECT_THAT(Args, Contains("-target-sdk-version=12.4"));
  EXPECT_THAT(Args, Not(Contains(Root + "/include/cccl")));
}

TEST_F(FakeCuda, WithVersionJsonAndCccl) {
  write("include/cuda.h", "#define CUDA_VERSION 13000\n");
  write("version.json", "{}");
  ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/include/cccl"));
  CudaInstall C = inspectCudaInstall(Root);
  EXPECT_TRUE(C.HasVersionFile);
  EXPECT_TRUE(C.HasCccl);
  std::vector<std::string> Args =
      addCudaDefaults({"clang++", "k.cu"}, C, "sm_80");
  EXPECT_THAT(Args, ElementsAre("clang++", "-x", "cuda",
                                "--cuda-path=" + Root, "--cuda-gpu-arch=sm_80",
                                "--cuda-device-only", "-nocudalib",
                                "-Wno-unknown-cuda-version", "-std=c++17",
                                "-isystem", Root + "/include/cccl",
                                "-D_CG_CLUSTER_INTRINSICS_AVAILABLE", "k.cu"));
}

TEST_F(FakeCuda, KeepsWhatTheCommandAlreadySays) {
  write("include/cuda.h", "#define CUDA_VERSION 13000\n");
  CudaInstall C = inspectCudaInstall(Root);
  std::vector<std::string> Args = addCudaDefaults(
      {"clang++", "-std=c++20", "--cuda-gpu-arch=sm_80", "--cuda-host-only",
       "-Xclang", "-target-sdk-version=12.0", "-x", "cuda", "k.cu"},
      C, "sm_90");
  EXPECT_THAT(Args, Not(Contains("-std=c++17")));
  EXPECT_THAT(Args, Not(Contains("--cuda-gpu-arch=sm_90")));
  EXPECT_THAT(Args, Not(Contains("--cuda-device-only")));
  EXPECT_THAT(Args, Not(Contains("-target-sdk-version=13.0")));
  EXPECT_EQ(std::count(Args.begin(), Args.end(), "-x"), 1);
  EXPECT_EQ(Args.back(), "k.cu");
}

} // namespace
