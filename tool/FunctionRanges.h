//===--- FunctionRanges.h - which function a finding is in ------*- C++ -*-===//
///
/// \file A SARIF fingerprint names the function a finding is in, so that it
/// survives edits elsewhere in the file but not a move into another
/// function. clang-tidy's errors carry only an offset: each unit records
/// where its function definitions lie (outside system headers), and a
/// finding's enclosing function is the innermost range holding its offset.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FUNCTIONRANGES_H
#define WARP_LINT_TOOL_FUNCTIONRANGES_H

#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <string>
#include <vector>

namespace warplint {

/// A function definition: bytes [Begin, End] of File.
struct FunctionRange {
  std::string File; ///< Absolute, without dots.
  unsigned Begin = 0;
  unsigned End = 0;
  std::string Name; ///< Qualified, without template arguments.
  /// For a kernel, its name in every unit (clang::warp::kernelUsr); else
  /// empty.
  std::string KernelUsr;
};

/// Returns a consumer that appends the unit's function definitions to
/// \p Out when the translation unit is complete. Only declarations are
/// walked (namespaces, classes, templates), never statements: it costs
/// next to nothing beside the analysis.
std::unique_ptr<clang::ASTConsumer>
makeFunctionRangeCollector(std::vector<FunctionRange> &Out);

/// The ranges of a whole run, by file.
class FunctionIndex {
public:
  void add(const std::vector<FunctionRange> &Ranges);
  /// Returns the name of the innermost function holding \p Offset of
  /// \p File, or "" when none does.
  std::string enclosing(llvm::StringRef File, unsigned Offset) const {
    const FunctionRange *R = innermost(File, Offset);
    return R ? R->Name : "";
  }
  /// The innermost function holding \p Offset of \p File, if any.
  const FunctionRange *innermost(llvm::StringRef File, unsigned Offset) const;

private:
  /// Each file's ranges by start, an enclosing range before the ranges it
  /// holds (sorted when first asked: a run asks once per finding, and a
  /// large file has thousands of both).
  mutable llvm::StringMap<std::vector<FunctionRange>> ByFile;
  mutable bool Sorted = true;
};

} // namespace warplint

#endif
