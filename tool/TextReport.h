//===--- TextReport.h - findings as clang-tidy prints them ------*- C++ -*-===//
///
/// \file The text report is clang-tidy's own (handleErrors), byte for byte,
/// with one addition: after a `lanes: mask … arrive …` note come two strips
/// of 32 lanes, lane 0 leftmost, so the picture of the witness warp reads
/// without decoding hex (FindingFacts.h).
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_TEXTREPORT_H
#define WARP_LINT_TOOL_TEXTREPORT_H

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/Error.h"

namespace warplint {

/// Returns \p Diags with the lane strips appended to each lanes note:
///   `lanes: mask 0xffffffff arrive 0x0000ffff`
///   `    mask   ################################`
///   `    arrive ################................`
std::vector<clang::tidy::ClangTidyError>
withLaneStrips(llvm::ArrayRef<clang::tidy::ClangTidyError> Diags);

/// Prints \p Diags (with lane strips) on stdout as clang-tidy does, colour
/// when stdout is a terminal or the configuration's UseColor says so.
void printText(llvm::ArrayRef<clang::tidy::ClangTidyError> Diags,
               clang::tidy::ClangTidyContext &Context);

/// Returns what printText would print, without colour.
llvm::Expected<std::string>
renderText(llvm::ArrayRef<clang::tidy::ClangTidyError> Diags,
           clang::tidy::ClangTidyContext &Context);

/// Returns the error of stdout, if writing to it failed, and clears it (an
/// error left on outs() would end the process with "LLVM ERROR"). \p Closed:
/// fd 1 was closed at start, so anything written went nowhere.
llvm::Error checkStdout(bool Closed);

} // namespace warplint

#endif
