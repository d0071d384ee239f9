//===--- JsonWriter.h - findings as warp-lint's JSON ------------*- C++ -*-===//
///
/// \file The `--format=json` output: an array of findings whose schema is
/// documented in docs/cli.md. Fix offsets are byte offsets into the file.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_JSONWRITER_H
#define WARP_LINT_TOOL_JSONWRITER_H

#include "Finding.h"
#include "llvm/Support/JSON.h"

namespace warplint {

/// Returns the JSON array for \p Findings.
llvm::json::Value toJson(llvm::ArrayRef<Finding> Findings);

} // namespace warplint

#endif
