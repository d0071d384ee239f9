//===--- CudaDefaults.h - CUDA flags clang needs to parse a .cu -*- C++ -*-===//
///
/// \file Detects the CUDA toolkit and computes the flags clang needs to parse
/// a CUDA translation unit the way warp-lint analyses it (the device pass of
/// one GPU architecture). Shared by every way a command line is built: the
/// default command for a bare file, user `--` arguments and compile databases.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_CUDADEFAULTS_H
#define WARP_LINT_TOOL_CUDADEFAULTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// The GPU architecture analysed when neither the user nor the database names
/// one (the H200 the runtime tests run on).
inline constexpr llvm::StringLiteral DefaultGpuArch = "sm_90";

/// A CUDA SDK version as `CUDA_VERSION` spells it (13000 = 13.0).
struct CudaVersion {
  unsigned Major = 0;
  unsigned Minor = 0;
};

/// The version nvcc predefines as __CUDACC_VER_MAJOR__, _MINOR__ and
/// _BUILD__ (13.0.88: nvcc's own build number, not the SDK's).
struct NvccVersion {
  unsigned Major = 0;
  unsigned Minor = 0;
  std::optional<unsigned> Build;
};

/// What warp-lint knows about the CUDA toolkit it points clang at.
struct CudaInstall {
  std::string Path;            ///< Toolkit root; empty when none was found.
  bool HasVersionFile = false; ///< version.txt or version.json exists.
  bool HasCccl = false;        ///< include/cccl exists (CUDA 13 layout).
  std::optional<CudaVersion> HeaderVersion; ///< From include/cuda.h.
  std::optional<NvccVersion> Nvcc;          ///< See inspectCudaInstall.
};

/// Where detection looks, injectable so tests can use fake toolkits.
struct CudaSearchEnv {
  std::string ExplicitPath; ///< --cuda-path; wins when non-empty.
  std::function<std::optional<std::string>(llvm::StringRef)> GetEnv;
  std::function<std::optional<std::string>(llvm::StringRef)> FindProgram;
  std::vector<std::string> FallbackPaths = {"/usr/local/cuda"};

  /// The process environment and PATH.
  static CudaSearchEnv fromProcess(llvm::StringRef ExplicitPath);
};

/// Parses `#define CUDA_VERSION 13000` out of the text of cuda.h.
std::optional<CudaVersion> parseCudaVersionHeader(llvm::StringRef Text);

/// Parses a version such as `13.0.88` (build optional).
std::optional<NvccVersion> parseNvccVersion(llvm::StringRef Text);

/// Reads nvcc's version from a toolkit's version.json (`cuda_nvcc`).
std::optional<NvccVersion> parseVersionJson(llvm::StringRef Text);

/// Reads the version of a CUDA 11-style version.txt (`CUDA Version 11.8.89`).
std::optional<NvccVersion> parseVersionTxt(llvm::StringRef Text);

/// The `-D` flags for the macros nvcc predefines from its version, so that
/// code guarded on them takes the path the real build takes (none when the
/// version is unknown; _BUILD__ only when the build number is known).
std::vector<std::string> nvccVersionDefines(const CudaInstall &Cuda);

/// The flags that make a clang command see what an nvcc build sees:
/// nvccVersionDefines, and the declarations of the nvcc builtins clang
/// lacks (`-isystem <dir> -include nvcc_builtins.h`, from the warp-lint
/// installation), which code guarded on a recent nvcc may call.
std::vector<std::string> nvccBuildFlags(const CudaInstall &Cuda);

/// Picks the toolkit root: --cuda-path, $CUDA_PATH, $CUDA_HOME, the parent of
/// the directory holding `nvcc` on PATH, then the fallbacks. Only directories
/// that exist count; returns an empty path when none does.
std::string findCudaPath(const CudaSearchEnv &Env);

/// Inspects the toolkit at \p Path (layout and version). nvcc's version
/// comes from version.json, else a pip-style `nvidia_cuda_nvcc-X.Y.Z.dist-info`
/// directory (in `<root>/dist-info` or next to the root), else version.txt,
/// else include/cuda.h (no build number).
CudaInstall inspectCudaInstall(llvm::StringRef Path);

/// Returns \p Args (a clang command line, argv[0] first, the input file
/// somewhere after) with every CUDA default it lacks inserted right after
/// argv[0], so that `-x cuda` applies to the input. See docs/cli.md.
std::vector<std::string> addCudaDefaults(llvm::ArrayRef<std::string> Args,
                                         const CudaInstall &Cuda,
                                         llvm::StringRef GpuArch);

/// Returns whether \p Args contain an argument equal to or starting with one
/// of \p Spellings (for `-foo` and `-foo=value` alike).
bool hasArg(llvm::ArrayRef<std::string> Args,
            llvm::ArrayRef<llvm::StringRef> Spellings);

} // namespace warplint

#endif
