//===--- CudaDefaults.cpp - CUDA flags clang needs to parse a .cu ---------===//

#include "CudaDefaults.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace warplint {

CudaSearchEnv CudaSearchEnv::fromProcess(StringRef ExplicitPath) {
  CudaSearchEnv Env;
  Env.ExplicitPath = ExplicitPath.str();
  Env.GetEnv = [](StringRef Name) { return sys::Process::GetEnv(Name); };
  Env.FindProgram = [](StringRef Name) -> std::optional<std::string> {
    if (ErrorOr<std::string> P = sys::findProgramByName(Name))
      return *P;
    return std::nullopt;
  };
  return Env;
}

std::optional<CudaVersion> parseCudaVersionHeader(StringRef Text) {
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("define"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("CUDA_VERSION") || Line.empty() ||
        !isSpace(Line.front()))
      continue;
    unsigned Value = 0;
    // Only the number; a trailing comment or suffix does not matter.
    StringRef Digits = Line.ltrim().take_while(isDigit);
    if (Digits.empty() || Digits.getAsInteger(10, Value))
      continue;
    return CudaVersion{Value / 1000, (Value % 1000) / 10};
  }
  return std::nullopt;
}

/// Returns the toolkit root for the `nvcc` at \p Nvcc (`<root>/bin/nvcc`).
static std::string rootOfNvcc(StringRef Nvcc) {
  SmallString<256> Real;
  // /usr/bin/nvcc is often a symlink into the toolkit; follow it.
  if (sys::fs::real_path(Nvcc, Real))
    Real = Nvcc;
  return sys::path::parent_path(sys::path::parent_path(Real)).str();
}

std::string findCudaPath(const CudaSearchEnv &Env) {
  std::vector<std::string> Candidates;
  if (!Env.ExplicitPath.empty())
    return Env.ExplicitPath; // What the user asked for, even if it is broken.
  for (StringRef Var : {"CUDA_PATH", "CUDA_HOME"})
    if (Env.GetEnv)
      if (std::optional<std::string> V = Env.GetEnv(Var); V && !V->empty())
        Candidates.push_back(*V);
  if (Env.FindProgram)
    if (std::optional<std::string> Nvcc = Env.FindProgram("nvcc"))
      Candidates.push_back(rootOfNvcc(*Nvcc));
  Candidates.insert(Candidates.end(), Env.FallbackPaths.begin(),
                    Env.FallbackPaths.end());
  for (const std::string &C : Candidates)
    if (!C.empty() && sys::fs::is_directory(C + "/include"))
      return C;
  return "";
}

CudaInstall inspectCudaInstall(StringRef Path) {
  CudaInstall Cuda;
  Cuda.Path = Path.str();
  if (Path.empty())
    return Cuda;
  Cuda.HasVersionFile = sys::fs::exists(Path + "/version.txt") ||
                        sys::fs::exists(Path + "/version.json");
  Cuda.HasCccl = sys::fs::is_directory(Path + "/include/cccl");
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Header =
          MemoryBuffer::getFile(Path + "/include/cuda.h"))
    Cuda.HeaderVersion = parseCudaVersionHeader((*Header)->getBuffer());
  return Cuda;
}

bool hasArg(ArrayRef<std::string> Args, ArrayRef<StringRef> Spellings) {
  for (StringRef A : Args)
    for (StringRef S : Spellings)
      if (A.starts_with(S))
        return true;
  return false;
}

std::vector<std::string> addCudaDefaults(ArrayRef<std::string> Args,
                                         const CudaInstall &Cuda,
                                         StringRef GpuArch) {
  std::vector<std::string> Extra;
  auto Add = [&](ArrayRef<StringRef> Present, ArrayRef<StringRef> Flags) {
    if (!hasArg(Args, Present))
      for (StringRef F : Flags)
        Extra.push_back(F.str());
  };
  Add({"-x"}, {"-x", "cuda"});
  if (!Cuda.Path.empty())
    Add({"--cuda-path"}, {"--cuda-path=" + Cuda.Path});
  Add({"--cuda-gpu-arch", "--offload-arch"},
      {("--cuda-gpu-arch=" + GpuArch).str()});
  // The device pass is where warp collectives live; clang-tidy would
  // otherwise analyse both passes or the host one.
  Add({"--cuda-device-only", "--cuda-host-only", "--cuda-compile-host-device",
       "--offload-device-only", "--offload-host-only"},
      {"--cuda-device-only"});
  Add({"-nocudalib", "--no-cuda-lib"}, {"-nocudalib"});
  Add({"-Wno-unknown-cuda-version"}, {"-Wno-unknown-cuda-version"});
  Add({"-std=", "--std="}, {"-std=c++17"});
  // CUDA 13 moved CUB, Thrust and cuda/std under include/cccl.
  if (Cuda.HasCccl) {
    std::string Cccl = Cuda.Path + "/include/cccl";
    if (llvm::find(Args, Cccl) == Args.end())
      Extra.insert(Extra.end(), {"-isystem", Cccl});
  }
  // Cooperative groups hide this_cluster() from clang unless told.
  Add({"-D_CG_CLUSTER_INTRINSICS_AVAILABLE"},
      {"-D_CG_CLUSTER_INTRINSICS_AVAILABLE"});
  // Without version.txt/json clang assumes an old SDK and lowers <<<>>> to
  // the long-removed cudaConfigureCall.
  if (!Cuda.HasVersionFile && Cuda.HeaderVersion &&
      !hasArg(Args, {"-target-sdk-version="}))
    Extra.insert(Extra.end(),
                 {"-Xclang", "-target-sdk-version=" +
                                 std::to_string(Cuda.HeaderVersion->Major) +
                                 "." +
                                 std::to_string(Cuda.HeaderVersion->Minor)});

  std::vector<std::string> Result;
  if (Args.empty())
    return Extra;
  Result.push_back(Args.front());
  Result.insert(Result.end(), Extra.begin(), Extra.end());
  Result.insert(Result.end(), Args.begin() + 1, Args.end());
  return Result;
}

} // namespace warplint
