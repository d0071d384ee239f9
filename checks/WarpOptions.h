//===--- WarpOptions.h - the analysis options, read one way -----*- C++ -*-===//
//
// The analysis options come from the check options of .clang-tidy,
// --config and the command line. Both front ends read them here: each
// check with its own name, and warp-lint's --explain (which runs the
// analysis itself) with the name of the first enabled check that sets one.
// clang-tidy's rules hold: "<check>.<key>" before the global "<key>", and a
// boolean is YAML's true/false, on/off, yes/no or a number.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_WARPOPTIONS_H
#define WARP_LINT_WARPOPTIONS_H

#include "analysis/ValueEvaluator.h"
#include "clang-tidy/ClangTidyOptions.h"
#include <optional>

namespace clang::tidy::warp {

/// The value of option \p Key for check \p Check: "<Check>.<Key>", else the
/// global "<Key>"; nothing when neither is set.
std::optional<llvm::StringRef>
localOrGlobal(const ClangTidyOptions::OptionMap &Options, llvm::StringRef Check,
              llvm::StringRef Key);

/// A boolean option's value as clang-tidy reads it; nothing if it is none.
std::optional<bool> parseBoolOption(llvm::StringRef Value);

/// Whether check \p Check sets an analysis option of its own.
bool setsAnalysisOptions(const ClangTidyOptions::OptionMap &Options,
                         llvm::StringRef Check);

/// The analysis options check \p Check runs with (WarpAlignedBlockDimX).
::clang::warp::UniformityOptions
analysisOptionsOf(const ClangTidyOptions::OptionMap &Options,
                  llvm::StringRef Check);

} // namespace clang::tidy::warp

#endif
