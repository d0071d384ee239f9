//===--- ButterflyLoops.h - xor-shuffle all-reduce loops --------*- C++ -*-===//
//
// A butterfly all-reduce combines a variable with the lane at distance
// 16, 8, 4, 2 and 1 (or the same offsets upward) by `__shfl_xor_sync`:
//
//   for (int o = 16; o > 0; o /= 2)
//     v += __shfl_xor_sync(0xffffffff, v, o);
//
// Afterwards every lane holds the same value, so v is warp-uniform after the
// loop although each step reads another lane's value.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_BUTTERFLYLOOPS_H
#define WARP_LINT_ANALYSIS_BUTTERFLYLOOPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::warp {

struct ButterflyLoop {
  const Stmt *Loop = nullptr;   ///< the for statement
  const VarDecl *Var = nullptr; ///< the variable reduced
  const Stmt *Update = nullptr; ///< the statement that combines it
};

/// The butterfly all-reduce loops of the function \p Cfg was built from,
/// by their update statement.
llvm::DenseMap<const Stmt *, ButterflyLoop> findButterflyLoops(const CFG &Cfg,
                                                               ASTContext &Ctx);

} // namespace clang::warp

#endif
