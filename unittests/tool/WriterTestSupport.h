//===--- WriterTestSupport.h - findings for the writer tests ----*- C++ -*-===//

#ifndef WARP_LINT_UNITTESTS_TOOL_WRITERTESTSUPPORT_H
#define WARP_LINT_UNITTESTS_TOOL_WRITERTESTSUPPORT_H

#include "Finding.h"

namespace warplint {

/// A finding with a note in another file and a one-replacement fix, as the
/// writers receive it.
inline Finding sampleFinding(const std::string &Root) {
  Finding F;
  F.Check = "warp-divergent-full-mask";
  F.Message = "full warp mask passed to '__shfl_down_sync' in divergent code";
  F.Level = findingLevel(F.Message).str();
  F.Loc = {Root + "/src/k.cu", 120, 6, 35};
  F.Notes.push_back({"lanes diverge here", {Root + "/src/k.cu", 109, 6, 24}});
  F.Notes.push_back({"collective inside 'warp_sum' called here",
                     {Root + "/include/my dir/reduce.cuh", 40, 3, 5}});
  FindingFix Fix;
  Fix.Loc = {Root + "/src/k.cu", 137, 6, 52};
  Fix.Length = 10;
  Fix.End = {Root + "/src/k.cu", 147, 6, 62};
  Fix.Replacement = "m";
  F.Fixes.push_back(Fix);
  return F;
}

} // namespace warplint

#endif
