//===--- SarifMerge.h - per-unit SARIF files as one log ---------*- C++ -*-===//
///
/// \file `warp-lint --merge DIR` joins the `*.warp-lint.sarif` files the
/// launcher wrote under DIR (recursively, in path order) into one SARIF log
/// for code scanning: one run, the union of the rules (ruleIndex
/// recomputed), every result once (a finding in a header that several units
/// include is reported by each of them: the same rule, file, region and
/// fingerprint is one result), and an invocation that is successful only
/// when every unit's was, with all their notifications.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_SARIFMERGE_H
#define WARP_LINT_TOOL_SARIFMERGE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace warplint {

struct MergedSarif {
  llvm::json::Value Log = nullptr;
  size_t Files = 0;
  size_t Results = 0;
  bool Complete = true; ///< Every unit's run was successful.
};

/// Merges the per-unit SARIF files under \p Dir. A file that is not a SARIF
/// log is an error naming it; none at all is an error too.
llvm::Expected<MergedSarif> mergeSarifDir(llvm::StringRef Dir);

} // namespace warplint

#endif
