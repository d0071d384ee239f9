//===--- Launcher.h - linting each unit inside the build --------*- C++ -*-===//
///
/// \file `warp-lint [options] --launcher <compiler> <args...>` is a compiler
/// launcher (CMAKE_CUDA_COMPILER_LAUNCHER / CMAKE_CXX_COMPILER_LAUNCHER =
/// `warp-lint;--launcher`): it lints the unit being compiled with the flags
/// of that very compile, as if it were the one entry of a compile database
/// (so nvcc commands are translated exactly as with -p), writes the findings
/// as SARIF next to the object (`<object>.warp-lint.sarif`), then runs the
/// compiler and returns its status. It therefore runs wherever and however
/// the build runs (ninja -j, distcc or icecream wrapping the compiler after
/// it). `--merge DIR` joins the per-unit SARIF files into one log.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_LAUNCHER_H
#define WARP_LINT_TOOL_LAUNCHER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace warplint {

/// What the launcher needs from a compile command.
struct LauncherCompile {
  std::vector<std::string> Command; ///< The compiler and its arguments.
  std::string Source;               ///< Absolute.
  std::string Object;               ///< Absolute; where the SARIF goes.
  std::string DatabaseDir;          ///< A temporary one-entry database.
};

/// Finds the source (the argument after -c, else the last existing file
/// with a C, C++ or CUDA extension) and the object (-o, --output-file) of
/// \p Command, and writes the one-entry compile database for it into a new
/// temporary directory.
llvm::Expected<LauncherCompile>
prepareLauncherCompile(llvm::ArrayRef<std::string> Command);

/// Removes the temporary database of \p C.
void removeLauncherDatabase(const LauncherCompile &C);

/// Replaces this process with the compiler; returns only on failure, with
/// the exit status of the contract (2) after a one-line error.
int execCompiler(const LauncherCompile &C);

} // namespace warplint

#endif
