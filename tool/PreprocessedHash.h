//===--- PreprocessedHash.h - what a unit's preprocessing read --*- C++ -*-===//
///
/// \file The input half of a result-cache key (ResultCache.h): the unit is
/// preprocessed with its own command (the analysis's file system, so the
/// files are stamped for --fix) and every file the preprocessor enters is
/// hashed with its path and text, in order. That is at least as strict as
/// hashing the preprocessed text, and also covers comments (NOLINT) and
/// offsets, which a finding's location depends on.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_PREPROCESSEDHASH_H
#define WARP_LINT_TOOL_PREPROCESSEDHASH_H

#include "InputManifest.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>

namespace warplint {

/// Preprocesses \p File with \p Command (already adjusted) on \p FS and
/// returns the hex hash of what it read, or nothing when preprocessing
/// failed (the unit is then analysed and not cached). With \p Record, also
/// appends what was read to that manifest.
std::optional<std::string>
hashPreprocessedInputs(const clang::tooling::CompileCommand &Command,
                       llvm::StringRef File,
                       llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                       InputManifest *Record = nullptr);

} // namespace warplint

#endif
