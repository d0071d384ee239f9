//===--- CudaDefaults.cpp - CUDA flags clang needs to parse a .cu ---------===//

#include "CudaDefaults.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
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

std::optional<NvccVersion> parseNvccVersion(StringRef Text) {
  SmallVector<StringRef, 3> Parts;
  Text.trim().split(Parts, '.');
  NvccVersion V;
  unsigned Build = 0;
  if (Parts.size() < 2 || Parts.size() > 3 ||
      Parts[0].getAsInteger(10, V.Major) || Parts[1].getAsInteger(10, V.Minor))
    return std::nullopt;
  if (Parts.size() == 3 && !Parts[2].getAsInteger(10, Build))
    V.Build = Build;
  return V;
}

std::optional<NvccVersion> parseVersionJson(StringRef Text) {
  Expected<json::Value> Doc = json::parse(Text);
  if (!Doc) {
    consumeError(Doc.takeError());
    return std::nullopt;
  }
  const json::Object *Root = Doc->getAsObject();
  auto VersionOf = [&](StringRef Component) -> std::optional<NvccVersion> {
    const json::Object *C = Root ? Root->getObject(Component) : nullptr;
    if (std::optional<StringRef> V = C ? C->getString("version") : std::nullopt)
      return parseNvccVersion(*V);
    return std::nullopt;
  };
  if (std::optional<NvccVersion> V = VersionOf("cuda_nvcc"))
    return V;
  // The SDK's third number is its update, not nvcc's build.
  std::optional<NvccVersion> V = VersionOf("cuda");
  if (V)
    V->Build.reset();
  return V;
}

std::optional<NvccVersion> parseVersionTxt(StringRef Text) {
  StringRef Rest = Text.trim();
  if (!Rest.consume_front("CUDA Version"))
    return std::nullopt;
  return parseNvccVersion(
      Rest.trim().take_while([](char C) { return isDigit(C) || C == '.'; }));
}

/// Returns nvcc's version from a pip-style `nvidia_cuda_nvcc-X.Y.Z.dist-info`
/// directory inside \p Dir.
static std::optional<NvccVersion> distInfoVersion(StringRef Dir) {
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.consume_front("nvidia_cuda_nvcc-") &&
        Name.consume_back(".dist-info"))
      return parseNvccVersion(Name);
  }
  return std::nullopt;
}

/// Returns nvcc's version for the toolkit at \p Path.
static std::optional<NvccVersion> detectNvccVersion(StringRef Path,
                                                    const CudaInstall &Cuda) {
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Json =
          MemoryBuffer::getFile(Path + "/version.json"))
    if (std::optional<NvccVersion> V = parseVersionJson((*Json)->getBuffer()))
      return V;
  // pip wheels: <site-packages>/nvidia/cuda_nvcc is the root, the
  // dist-info sits in <site-packages>.
  StringRef Parent = sys::path::parent_path(Path);
  for (std::string Dir : {(Path + "/dist-info").str(), Parent.str(),
                          sys::path::parent_path(Parent).str()})
    if (std::optional<NvccVersion> V = distInfoVersion(Dir))
      return V;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Txt =
          MemoryBuffer::getFile(Path + "/version.txt"))
    if (std::optional<NvccVersion> V = parseVersionTxt((*Txt)->getBuffer()))
      return V;
  if (Cuda.HeaderVersion)
    return NvccVersion{Cuda.HeaderVersion->Major, Cuda.HeaderVersion->Minor,
                       std::nullopt};
  return std::nullopt;
}

std::vector<std::string> nvccVersionDefines(const CudaInstall &Cuda) {
  if (!Cuda.Nvcc)
    return {};
  std::vector<std::string> Defines = {
      "-D__CUDACC_VER_MAJOR__=" + std::to_string(Cuda.Nvcc->Major),
      "-D__CUDACC_VER_MINOR__=" + std::to_string(Cuda.Nvcc->Minor)};
  if (Cuda.Nvcc->Build)
    Defines.push_back("-D__CUDACC_VER_BUILD__=" +
                      std::to_string(*Cuda.Nvcc->Build));
  return Defines;
}

/// The directory of nvcc_builtins.h: `<prefix>/share/warp-lint/include`
/// beside `<prefix>/bin/warp-lint`, in the build tree as when installed;
/// empty when it is not there.
static const std::string &nvccBuiltinsDir() {
  static const std::string Dir = [] {
    SmallString<256> Path(sys::fs::getMainExecutable(nullptr, nullptr));
    sys::path::remove_filename(Path); // bin
    sys::path::remove_filename(Path); // prefix
    sys::path::append(Path, "share", "warp-lint", "include");
    SmallString<256> Header(Path);
    sys::path::append(Header, "nvcc_builtins.h");
    return sys::fs::exists(Header) ? std::string(Path) : std::string();
  }();
  return Dir;
}

std::vector<std::string> nvccBuildFlags(const CudaInstall &Cuda) {
  std::vector<std::string> Flags = nvccVersionDefines(Cuda);
  if (!Flags.empty() && !nvccBuiltinsDir().empty())
    Flags.insert(Flags.end(), {"-isystem", nvccBuiltinsDir(), "-include",
                               "nvcc_builtins.h"});
  return Flags;
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
  Cuda.Nvcc = detectNvccVersion(Path, Cuda);
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
    Extra.insert(
        Extra.end(),
        {"-Xclang",
         "-target-sdk-version=" + std::to_string(Cuda.HeaderVersion->Major) +
             "." + std::to_string(Cuda.HeaderVersion->Minor)});

  std::vector<std::string> Result;
  if (Args.empty())
    return Extra;
  Result.push_back(Args.front());
  Result.insert(Result.end(), Extra.begin(), Extra.end());
  Result.insert(Result.end(), Args.begin() + 1, Args.end());
  return Result;
}

} // namespace warplint
