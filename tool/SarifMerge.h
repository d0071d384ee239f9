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
/// Given the build's compile database, it merges only the files of units
/// that database still compiles: a unit removed from the build leaves its
/// object and SARIF behind, and its old findings must not come back. A
/// file is matched by its object (the file's name less
/// `.warp-lint.sarif`, against the database's `output` entries) or by the
/// unit the file names (`run.properties.unit`, against `file` entries).
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_SARIFMERGE_H
#define WARP_LINT_TOOL_SARIFMERGE_H

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace warplint {

struct MergedSarif {
  llvm::json::Value Log = nullptr;
  size_t Files = 0;
  size_t Results = 0;
  bool Complete = true; ///< Every unit's run was successful.
  size_t Stale = 0;     ///< Files left out: their unit is not in the build.
};

/// The units a build compiles: absolute objects and sources.
struct BuildUnits {
  llvm::StringSet<> Objects;
  llvm::StringSet<> Sources;
};

/// Merges the per-unit SARIF files under \p Dir (those of \p Units only,
/// when given). A file that is not a SARIF log is an error naming it; none
/// at all is an error too.
llvm::Expected<MergedSarif> mergeSarifDir(llvm::StringRef Dir,
                                          const BuildUnits *Units = nullptr);

} // namespace warplint

#endif
