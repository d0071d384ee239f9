//===--- CompileCommandsExport.h - the database as clang reads it -*- C++
//-*-===//
///
/// \file `--export-compile-commands DIR`: the compile database warp-lint
/// lints with, written for other clang tools. nvcc entries come out
/// translated (clang's spelling of every flag that matters, the CUDA
/// defaults added), so `clang-tidy-22 --load=libWarpLint.so -p DIR`,
/// `run-clang-tidy-22` and clangd parse an nvcc project the way warp-lint
/// does instead of failing on nvcc's options.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_COMPILECOMMANDSEXPORT_H
#define WARP_LINT_TOOL_COMPILECOMMANDSEXPORT_H

#include "CompileCommands.h"
#include "llvm/Support/JSON.h"

namespace warplint {

/// Returns `[{directory, file, arguments}]` for \p Files of \p Database
/// (from loadCompileDatabase), or for all its entries when \p Files is
/// empty, completed by \p Settings as warp-lint completes them. Settings
/// with an empty ResourceDir suit any clang 22 tool (each has its own).
llvm::Expected<llvm::json::Value>
exportCompileCommands(const clang::tooling::CompilationDatabase &Database,
                      llvm::ArrayRef<std::string> Files,
                      const CommandSettings &Settings);

} // namespace warplint

#endif
