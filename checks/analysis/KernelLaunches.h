//===--- KernelLaunches.h - block shapes of kernel launches -----*- C++ -*-===//
//
// Finds the kernel launches (`k<<<grid, block>>>`) of a translation unit and
// whether each kernel is only ever launched with a warp-aligned block: a 1-D
// block, or a dim3 whose x extent is a constant multiple of 32. In such a
// kernel threadIdx.y and threadIdx.z are the same in every lane of a warp.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_KERNELLAUNCHES_H
#define WARP_LINT_ANALYSIS_KERNELLAUNCHES_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::warp {

/// Maps each launched kernel to whether all of its launches are aligned.
llvm::DenseMap<const FunctionDecl *, bool>
findWarpAlignedLaunches(ASTContext &Ctx);

} // namespace clang::tidy::warp

#endif
