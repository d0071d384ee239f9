//===--- NvccCommandTranslationTest.cpp - nvcc -> clang commands ----------===//

#include "NvccCommandTranslation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include <map>

using namespace warplint;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

namespace {

/// Splits a command the way the compile database does.
std::vector<std::string> split(llvm::StringRef Command) {
  llvm::BumpPtrAllocator A;
  llvm::StringSaver S(A);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine(Command, S, Tokens);
  return std::vector<std::string>(Tokens.begin(), Tokens.end());
}

/// Options files the tests can read, by absolute path.
std::map<std::string, std::string> Files;

llvm::Expected<std::string> readFake(llvm::StringRef Path) {
  auto It = Files.find(Path.str());
  if (It == Files.end())
    return llvm::createStringError(std::errc::no_such_file_or_directory,
                                   "no such file");
  return It->second;
}

std::vector<std::string> translate(llvm::StringRef Command,
                                   llvm::StringRef File = "/src/k.cu") {
  auto R = translateNvccCommand(split(Command), File, "/build", readFake);
  EXPECT_TRUE(bool(R)) << (R ? "" : llvm::toString(R.takeError()));
  return R ? *R : std::vector<std::string>{};
}

TEST(NvccTranslation, RecognisesNvcc) {
  EXPECT_TRUE(isNvccCompiler("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(isNvccCompiler("nvcc"));
  EXPECT_TRUE(isNvccCompiler("C:/cuda/bin/nvcc.exe"));
  EXPECT_FALSE(isNvccCompiler("/usr/bin/clang++"));
  EXPECT_FALSE(isNvccCompiler("nvcc-wrapper"));
}

// CMake 3.25, Ninja, CUDA_SEPARABLE_COMPILATION ON, CUDA_ARCHITECTURES 90.
TEST(NvccTranslation, CMakeNinjaCommand) {
  EXPECT_THAT(
      translate("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
                "-DFOO=1 -I/src/inc  "
                "--generate-code=arch=compute_90,code=[compute_90,sm_90] "
                "--expt-relaxed-constexpr -Xcompiler=-Wall,-fPIC -std=c++17 "
                "-x cu -rdc=true -c /src/k.cu -o CMakeFiles/k.dir/k.cu.o"),
      ElementsAre("clang++", "-DFOO=1", "-I/src/inc", "-fPIC", "-std=c++17",
                  "-x", "cuda", "-fgpu-rdc", "--cuda-gpu-arch=sm_90",
                  "/src/k.cu"));
}

// CMake with Unix Makefiles writes include paths into an options file,
// relative to the entry's directory.
TEST(NvccTranslation, ExpandsOptionsFiles) {
  Files["/build/CMakeFiles/k.dir/includes_CUDA.rsp"] =
      "-I\"/src/my inc\" -isystem /opt/dep/include\n-DQUOTED=\"a b\"";
  EXPECT_THAT(
      translate("nvcc -DFOO=1 --options-file "
                "CMakeFiles/k.dir/includes_CUDA.rsp -x cu -c /src/k.cu"),
      ElementsAre("clang++", "-DFOO=1", "-I/src/my inc", "-isystem",
                  "/opt/dep/include", "-DQUOTED=a b", "-x", "cuda",
                  "/src/k.cu"));
  Files["/abs/flags.rsp"] = "-optf nested.rsp -DOUTER";
  Files["/build/nested.rsp"] = "-DINNER";
  EXPECT_THAT(translate("nvcc -optf=/abs/flags.rsp -c /src/k.cu"),
              ElementsAre("clang++", "-DINNER", "-DOUTER", "/src/k.cu"));
}

TEST(NvccTranslation, MissingOptionsFileIsAnError) {
  auto R = translateNvccCommand(split("nvcc --options-file gone.rsp k.cu"),
                                "k.cu", "/build", readFake);
  ASSERT_FALSE(bool(R));
  EXPECT_THAT(llvm::toString(R.takeError()),
              ::testing::HasSubstr("/build/gone.rsp"));
}

TEST(NvccTranslation, ArchitectureSpellings) {
  EXPECT_THAT(translate("nvcc -arch=sm_80 -c k.cu"),
              Contains("--cuda-gpu-arch=sm_80"));
  EXPECT_THAT(translate("nvcc -arch sm_75 -c k.cu"),
              Contains("--cuda-gpu-arch=sm_75"));
  EXPECT_THAT(translate("nvcc --gpu-architecture=compute_86 -c k.cu"),
              Contains("--cuda-gpu-arch=sm_86"));
  EXPECT_THAT(translate("nvcc -gencode arch=compute_80,code=sm_80 "
                        "-gencode arch=compute_90a,code=sm_90a -c k.cu"),
              Contains("--cuda-gpu-arch=sm_90a"));
  EXPECT_THAT(translate("nvcc -gencode=arch=compute_70,code=\\\"sm_70,"
                        "compute_70\\\" -c k.cu"),
              Contains("--cuda-gpu-arch=sm_70"));
  EXPECT_THAT(translate("nvcc -arch=compute_90 -code=sm_90,compute_90 k.cu"),
              Contains("--cuda-gpu-arch=sm_90"));
  // native/all leave the choice to warp-lint's default.
  for (auto *Cmd : {"nvcc -arch=native k.cu", "nvcc -arch=all-major k.cu"})
    for (const std::string &A : translate(Cmd))
      EXPECT_FALSE(llvm::StringRef(A).starts_with("--cuda-gpu-arch")) << Cmd;
}

TEST(NvccTranslation, PicksTheHighestRealArch) {
  EXPECT_EQ(pickGpuArch({"compute_90", "sm_80", "sm_86"}), "sm_86");
  EXPECT_EQ(pickGpuArch({"compute_90", "compute_80"}), "sm_90");
  EXPECT_EQ(pickGpuArch({"sm_90", "sm_90a"}), "sm_90a");
  EXPECT_EQ(pickGpuArch({"sm_100f"}), "sm_100");
  EXPECT_EQ(pickGpuArch({}), "");
}

TEST(NvccTranslation, RelocatableDeviceCode) {
  for (auto *Cmd : {"nvcc -rdc=true -c k.cu", "nvcc -rdc true -c k.cu",
                    "nvcc --relocatable-device-code=true -c k.cu",
                    "nvcc -dc k.cu", "nvcc --device-c k.cu"})
    EXPECT_THAT(translate(Cmd), Contains("-fgpu-rdc")) << Cmd;
  EXPECT_THAT(translate("nvcc -rdc=false -c k.cu"), Not(Contains("-fgpu-rdc")));
}

TEST(NvccTranslation, KeepsPreprocessorAndStandard) {
  EXPECT_THAT(translate("nvcc -D A=1 -U B --define-macro C -isystem=/sys "
                        "-include pre.h --pre-include=pre2.h --std c++20 "
                        "--include-path /i2 k.cu"),
              ElementsAre("clang++", "-DA=1", "-UB", "-DC", "-isystem", "/sys",
                          "-include", "pre.h", "-include", "pre2.h",
                          "-std=c++20", "-I/i2", "/src/k.cu"));
}

TEST(NvccTranslation, FiltersHostCompilerFlags) {
  EXPECT_THAT(
      translate("nvcc -Xcompiler -fPIC,-O3,-Wextra,-march=native "
                "--compiler-options=-DHOST,-pthread k.cu"),
      ElementsAre("clang++", "-fPIC", "-DHOST", "-pthread", "/src/k.cu"));
  // Forwarded by -forward-unknown-to-host-compiler.
  EXPECT_THAT(
      translate("nvcc -forward-unknown-to-host-compiler -fPIC -Wall "
                "-fopenmp -fvisibility=hidden k.cu"),
      ElementsAre("clang++", "-fPIC", "-fvisibility=hidden", "/src/k.cu"));
}

TEST(NvccTranslation, DropsWhatClangDoesNotNeed) {
  std::vector<std::string> Args = translate(
      "nvcc -ccbin /usr/bin/g++-12 --compiler-bindir=/usr/bin/g++ "
      "--expt-extended-lambda --extended-lambda --diag_suppress=177,550 "
      "--diag-suppress 20012 -Xcudafe --diag_suppress=esa_on_defaulted "
      "-Xptxas -v,-warn-spills -Xnvlink --suppress-stack-size-warning "
      "-lineinfo --use_fast_math -G -g -O3 -O --threads 4 -t=2 "
      "--default-stream per-thread -Werror all-warnings "
      "-Werror=cross-execution-space-call -Wno-deprecated-gpu-targets "
      "--keep --keep-dir /tmp/k -MD -MT out.o -MF out.d -maxrregcount=64 "
      "-m64 --machine 64 -res-usage -cudart shared -x cu -c k.cu -o k.o");
  EXPECT_THAT(Args, ElementsAre("clang++", "-x", "cuda", "/src/k.cu"));
}

// nvcc predefines its version; the command's own -D comes later and wins.
TEST(NvccTranslation, DefinesNvccVersionMacrosFirst) {
  auto R = translateNvccCommand(
      split("nvcc -D__CUDACC_VER_BUILD__=1 -c /src/k.cu"), "/src/k.cu",
      "/build", readFake,
      {"-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0",
       "-D__CUDACC_VER_BUILD__=88"});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_THAT(*R, ElementsAre("clang++", "-D__CUDACC_VER_MAJOR__=13",
                              "-D__CUDACC_VER_MINOR__=0",
                              "-D__CUDACC_VER_BUILD__=88",
                              "-D__CUDACC_VER_BUILD__=1", "/src/k.cu"));
}

} // namespace
