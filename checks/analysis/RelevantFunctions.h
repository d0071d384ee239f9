//===--- RelevantFunctions.h - functions the warp checks can act on -*- C++
//-*-===//
//
// Most device functions of a template-heavy unit (CuTe's layouts, a
// library's numeric helpers) touch no warp collective, atomic, legacy
// warp-synchronous intrinsic or volatile memory, and call nothing that
// does: no check can report anything in them. Finding that takes one walk
// over the body, far less than the CFG and fixpoint of the analysis.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_RELEVANTFUNCTIONS_H
#define WARP_LINT_ANALYSIS_RELEVANTFUNCTIONS_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::warp {

class RelevantFunctions {
public:
  /// Whether \p FD, or a function it calls or constructs with, runs a warp
  /// collective, an atomic, a barrier, a legacy warp intrinsic or inline
  /// asm, or reads or writes volatile or shared memory; also whether it
  /// makes a call that cannot be followed (a dependent or indirect one). A
  /// kernel it launches does not count: the kernel runs in warps of its own.
  bool mayMatter(const FunctionDecl *FD);

private:
  enum class State : uint8_t { InProgress, No, Yes };
  llvm::DenseMap<const FunctionDecl *, State> Known;
  /// Calls back into a function under way seen so far.
  unsigned OpenCycles = 0;
  bool walk(const Stmt *S);
  bool walkChildren(const Stmt *S);
};

} // namespace clang::warp

#endif
