//===--- NvccCommandTranslation.h - nvcc command -> clang -------*- C++ -*-===//
///
/// \file Translates an nvcc compile command (as CMake writes it into
/// compile_commands.json) into a clang command line. Nothing is executed:
/// option files are read, never run. The table in docs/cli.md lists what each
/// nvcc option becomes.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_NVCCCOMMANDTRANSLATION_H
#define WARP_LINT_TOOL_NVCCCOMMANDTRANSLATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <string>
#include <vector>

namespace warplint {

/// Returns whether \p Argv0 names nvcc (any path, any `.exe`).
bool isNvccCompiler(llvm::StringRef Argv0);

/// Reads an options file; tests inject one, the tool reads the disk.
using ReadFileFn =
    std::function<llvm::Expected<std::string>(llvm::StringRef Path)>;

/// Reads \p Path from the real file system.
llvm::Expected<std::string> readFileFromDisk(llvm::StringRef Path);

/// Returns whether a host-compiler flag (from `-Xcompiler` or forwarded by
/// `-forward-unknown-to-host-compiler`) means the same to clang and matters
/// to parsing. Everything else (warnings, optimisation, codegen) is dropped.
bool isKeptHostFlag(llvm::StringRef Flag);

/// Picks one `sm_XX` out of nvcc's architecture options: the highest real
/// architecture, else the highest virtual one as `sm_XX`; empty for none or
/// for `native`/`all`/`all-major`.
std::string pickGpuArch(llvm::ArrayRef<std::string> ArchValues);

/// Translates \p Args (nvcc first) compiling \p File into a clang command
/// line (`clang++` first, \p File last). Relative option files are resolved
/// against \p Directory, the entry's directory. \p NvccDefines (see
/// nvccBuildFlags) come first, where nvcc's predefined macros would be,
/// so a `-D` of the command still wins.
llvm::Expected<std::vector<std::string>>
translateNvccCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File,
                     llvm::StringRef Directory,
                     const ReadFileFn &ReadFile = readFileFromDisk,
                     llvm::ArrayRef<std::string> NvccDefines = {});

} // namespace warplint

#endif
