//===--- KernelLaunches.h - block shapes of kernel launches -----*- C++ -*-===//
//
// Finds the kernel launches of a translation unit (`k<<<grid, block>>>`,
// also inside launch helpers that take the kernel as an argument, such as
// `launch(kernel, grid, block, args...)`) and what each shows of the block's
// shape. A kernel whose every launch has a block whose x extent is a multiple
// of 32 (or a 1-D block) has warps that lie within one row of the block, so
// threadIdx.y and threadIdx.z are the same in all lanes of a warp.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_KERNELLAUNCHES_H
#define WARP_LINT_ANALYSIS_KERNELLAUNCHES_H

#include "ExtentValues.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <vector>

namespace clang::warp {

/// What a launch shows of its block.
struct BlockShape {
  std::optional<int64_t> X, Y, Z; ///< the extents that are constants
  bool XWarpMultiple = false;     ///< x is a multiple of 32 (constant or not)
  bool OneDimensional = false;    ///< y and z are 1 (an integer, dim3(n))

  /// Warps lie within one row: threadIdx.y/z are warp-uniform.
  bool warpAligned() const { return OneDimensional || XWarpMultiple; }
  /// The block is one thread (`k<<<n, 1>>>`): every warp has one lane.
  bool oneThread() const { return X == 1 && OneDimensional; }
};

struct KernelLaunch {
  const FunctionDecl *Kernel = nullptr; ///< its canonical declaration
  /// The `<<<…>>>` launch, or the call of the launch helper that passes the
  /// kernel.
  const Expr *Site = nullptr;
  BlockShape Block;
  /// The values the x extent can take where it is not a constant but host
  /// code bounds it (`min(n, 256)`, `n` rounded up to a power of two).
  ExtentValues XValues;
};

/// Whether \p Call, written in \p In, launches a kernel from device code
/// (dynamic parallelism): a launch or a launch API call in a kernel or a
/// function written `__device__`, or in code nested in one.
bool launchesFromDevice(const CallExpr *Call, const FunctionDecl *In);

/// Every launch of a kernel in the translation unit of \p Ctx. Without
/// \p DeviceCodeLaunches (no call in the unit launchesFromDevice), the
/// bodies of device-only functions are not looked into.
std::vector<KernelLaunch> findKernelLaunches(ASTContext &Ctx,
                                             bool DeviceCodeLaunches);

} // namespace clang::warp

#endif
