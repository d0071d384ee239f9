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
  EXPECT_EQ(findCudaPath(
                env({{"CUDA_PATH", "/does/not/exist"}, {"CUDA_HOME", Root}})),
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
  EXPECT_THAT(Args,
              ElementsAre("clang++", "-x", "cuda", "--cuda-path=" + Root,
                          "--cuda-gpu-arch=sm_80", "--cuda-device-only",
                          "-nocudalib", "-Wno-unknown-cuda-version",
                          "-std=c++17", "-isystem", Root + "/include/cccl",
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

TEST(NvccVersion, Parses) {
  std::optional<NvccVersion> V = parseNvccVersion("13.0.88");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major, 13u);
  EXPECT_EQ(V->Minor, 0u);
  EXPECT_EQ(V->Build, 88u);
  V = parseNvccVersion("12.4");
  ASSERT_TRUE(V);
  EXPECT_FALSE(V->Build);
  EXPECT_FALSE(parseNvccVersion("twelve"));
  EXPECT_FALSE(parseNvccVersion("12"));
}

TEST(NvccVersion, FromVersionFiles) {
  std::optional<NvccVersion> V = parseVersionJson(
      R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"},
          "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.4.131"}})");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Minor, 4u);
  EXPECT_EQ(V->Build, 131u);
  // Without cuda_nvcc the SDK's third number is an update, not a build.
  V = parseVersionJson(R"({"cuda": {"version": "12.4.1"}})");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major, 12u);
  EXPECT_FALSE(V->Build);
  EXPECT_FALSE(parseVersionJson("not json"));
  V = parseVersionTxt("CUDA Version 11.8.89\n");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major, 11u);
  EXPECT_EQ(V->Build, 89u);
}

TEST_F(FakeCuda, NvccVersionDefines) {
  write("include/cuda.h", "#define CUDA_VERSION 12040\n");
  EXPECT_THAT(
      nvccVersionDefines(inspectCudaInstall(Root)),
      ElementsAre("-D__CUDACC_VER_MAJOR__=12", "-D__CUDACC_VER_MINOR__=4"));
  // A pip-style toolkit names nvcc's version in a dist-info directory.
  ASSERT_FALSE(llvm::sys::fs::create_directories(
      Root + "/dist-info/nvidia_cuda_nvcc-12.4.99.dist-info"));
  EXPECT_THAT(nvccVersionDefines(inspectCudaInstall(Root)),
              ElementsAre("-D__CUDACC_VER_MAJOR__=12",
                          "-D__CUDACC_VER_MINOR__=4",
                          "-D__CUDACC_VER_BUILD__=99"));
  // version.json wins.
  write("version.json", R"({"cuda_nvcc": {"version": "12.4.131"}})");
  EXPECT_THAT(nvccVersionDefines(inspectCudaInstall(Root)),
              Contains("-D__CUDACC_VER_BUILD__=131"));
  EXPECT_THAT(nvccVersionDefines(CudaInstall()), ElementsAre());
}

} // namespace
