//===--- CompileCommands.h - the command each file is linted with -*- C++
//-*-===//
///
/// \file Builds the clang command line for every input up front, from a
/// compile database (nvcc commands translated, clang ones used as they are),
/// from the arguments after `--`, or from the CUDA defaults alone, so that
/// every input error is known before any file is analysed.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_COMPILECOMMANDS_H
#define WARP_LINT_TOOL_COMPILECOMMANDS_H

#include "CudaDefaults.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>

namespace warplint {

/// How every command is completed.
struct CommandSettings {
  CudaInstall Cuda;
  std::string GpuArch = DefaultGpuArch.str(); ///< Used when none is named.
  bool GpuArchFromUser = false; ///< --cuda-gpu-arch given: overrides the DB.
  bool HostPass = false;        ///< Also run a --cuda-host-only pass.
  std::string ResourceDir;      ///< clang's headers (-resource-dir).
  std::vector<std::string> ExtraArgs; ///< After `--`.
  bool HaveDashDash = false;
};

/// Returns whether a command compiling \p File compiles CUDA.
bool isCudaCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File);

/// Completes a clang command line: extra arguments, CUDA defaults (CUDA
/// files only), the architecture override and the resource directory.
/// Returns one command, or two with --host-pass.
std::vector<std::vector<std::string>>
finalizeCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File,
                const CommandSettings &Settings);

/// Loads `<BuildDir>/compile_commands.json` (\p BuildDir may also name the
/// file itself), translating nvcc commands with \p NvccDefines (see
/// nvccBuildFlags).
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompileDatabase(llvm::StringRef BuildDir,
                    std::vector<std::string> NvccDefines = {});

/// Returns the first nvcc command of \p Database that could not be
/// translated (an unreadable options file) as `file: why`; empty if none.
/// \p Database must come from loadCompileDatabase.
std::string
firstTranslationError(const clang::tooling::CompilationDatabase &Database);

/// A database of commands computed ahead of time; safe to share between
/// threads because nothing in it changes.
class PrecomputedDatabase : public clang::tooling::CompilationDatabase {
public:
  void add(clang::tooling::CompileCommand Command);
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override;

private:
  llvm::StringMap<std::vector<clang::tooling::CompileCommand>> Commands;
  std::vector<std::string> Files;
};

/// Computes the commands for \p Files (absolute paths) from \p Database, or
/// from the settings alone when it is null.
llvm::Expected<std::unique_ptr<PrecomputedDatabase>>
computeCommands(llvm::ArrayRef<std::string> Files,
                const clang::tooling::CompilationDatabase *Database,
                const CommandSettings &Settings);

/// Every `.cu` file of \p Database, in database order, without duplicates.
std::vector<std::string>
cudaFilesOf(const clang::tooling::CompilationDatabase &Database);

} // namespace warplint

#endif
