//===--- Summary.h - what a run did, in a few lines -------------*- C++ -*-===//
///
/// \file The lines that end a run on stderr: how many units in how long,
/// how many findings in how many files, by tier, by check and by file (the
/// files with most first), and the units that were skipped or did not
/// compile. A CI log then ends with what a reviewer asks first.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_SUMMARY_H
#define WARP_LINT_TOOL_SUMMARY_H

#include "RunResults.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint {

struct RunStats {
  size_t Units = 0; ///< Units the run set out to analyse.
  unsigned Jobs = 1;
  double Seconds = 0;
  bool CacheOn = false;
  size_t Excluded = 0; ///< Units left out by --exclude.
  std::string Root;    ///< File names are shown relative to it.
};

/// Prints the summary of \p Results (as reported: after the filters).
void printSummary(llvm::raw_ostream &OS, const RunResults &Results,
                  const RunStats &Stats);

/// Returns \p Path relative to \p Root when it is inside, else itself.
std::string displayPath(llvm::StringRef Path, llvm::StringRef Root);

} // namespace warplint

#endif
