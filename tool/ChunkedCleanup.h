//===--- ChunkedCleanup.h - clang-format's fix cleanup, file in pieces -*- C++
//-*-===//
///
/// \file After the fixes of a file are applied, clang-tidy's --fix runs
/// clang-format's cleanup (stray commas, emptied namespaces) and formatting
/// over the lines they touch. clang-format compares every line of the file
/// with every changed range, so a large file with thousands of fixes takes
/// time that grows with their product. This runs the same two steps on
/// pieces of the file instead, each cut between two top-level
/// declarations and holding a bounded number of fixes, and leaves out the
/// code no fix is near: the cost then grows with the file at most. A file
/// of ordinary size with few fixes is processed whole, exactly as
/// clang-tidy does.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_CHUNKEDCLEANUP_H
#define WARP_LINT_TOOL_CHUNKEDCLEANUP_H

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"

namespace warplint {

/// The fixes a piece holds before it may end; a file with this many or
/// fewer, and no larger than WholeFileBytes, is processed whole.
inline constexpr unsigned FixesPerPiece = 64;
inline constexpr unsigned WholeFileBytes = 1 << 20;
/// A piece ends before a stretch this long without a fix.
inline constexpr unsigned PieceGapBytes = 16 << 10;

/// Returns \p Replaces of \p Code (named \p File) after clang-format's
/// cleanupAroundReplacements and formatReplacements with \p Style.
llvm::Expected<clang::tooling::Replacements>
cleanupAndFormat(llvm::StringRef File, llvm::StringRef Code,
                 const clang::tooling::Replacements &Replaces,
                 const clang::format::FormatStyle &Style);

/// Returns the offsets where \p Code may be cut into pieces: the start of
/// each line that begins after a top-level declaration ended (a `;` or `}`
/// outside any brace but, when \p InsideNamespaces, a namespace's or an
/// `extern "C"` block's), outside preprocessor directives.
std::vector<unsigned> pieceBoundaries(llvm::StringRef Code,
                                      bool InsideNamespaces);

} // namespace warplint

#endif
