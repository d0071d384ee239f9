//===--- Fingerprints.h - finding identities that survive edits -*- C++ -*-===//
///
/// \file A finding's partialFingerprints value: what GitHub code scanning
/// uses to follow an alert across commits, and what --baseline matches. It
/// hashes the check id, the enclosing function's name (none outside a
/// function) and the text of the finding's line with all whitespace
/// removed, so edits elsewhere in the file, re-indentation and moving the
/// function leave it unchanged; `:<n>` numbers findings that would
/// otherwise share a value in one file (1, 2, ... in file order).
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FINGERPRINTS_H
#define WARP_LINT_TOOL_FINGERPRINTS_H

#include "Finding.h"
#include "FunctionRanges.h"

namespace warplint {

/// The partialFingerprints key warp-lint writes (versioned: a change of
/// what is hashed gets a new key, so old baselines do not match wrongly).
inline constexpr llvm::StringLiteral FingerprintKey = "warpLintHash/v1";

/// Returns \p Line without any whitespace.
std::string normalizeLineText(llvm::StringRef Line);

/// Sets the Fingerprint of every finding of \p Findings that has a file.
void assignFingerprints(llvm::MutableArrayRef<Finding> Findings,
                        const FunctionIndex &Functions, LineTable &Lines);

} // namespace warplint

#endif
