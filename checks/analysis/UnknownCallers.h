//===--- UnknownCallers.h - device functions no code in the unit calls -*- C++
//-*-===//
//
// A header-only library's device functions are often called only from its
// users' units: in the library's own unit nothing calls them, and what their
// parameters hold is unknown. This finds those entry points.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_UNKNOWNCALLERS_H
#define WARP_LINT_ANALYSIS_UNKNOWNCALLERS_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

namespace clang::warp {

class UnknownCallers {
public:
  /// Records every function the translation unit of \p Ctx refers to (calls,
  /// address taken, template instantiations included).
  explicit UnknownCallers(ASTContext &Ctx);

  /// Whether \p FD is a __device__ function with external linkage that no
  /// code in the unit refers to: its callers, and so its arguments, are
  /// unknown. Kernels, lambdas, constructors, destructors, conversions and
  /// virtual functions are never such entry points.
  bool isEntry(const FunctionDecl *FD) const;
  /// Whether \p FD is of a kind that can be such an entry point (what
  /// isEntry asks before looking at the unit).
  static bool mayBeEntry(const FunctionDecl *FD);

  /// A direct call of a function, and the function it is written in.
  struct CallSite {
    const CallExpr *Call;
    const FunctionDecl *Caller;
  };
  /// Every call of \p FD in the unit, when the unit refers to it only by
  /// calling it directly (no address taken, no dependent call of its name);
  /// nullopt otherwise.
  std::optional<llvm::ArrayRef<CallSite>>
  onlyCalledAt(const FunctionDecl *FD) const;

  /// Whether code of the unit launches kernels from the device
  /// (launchesFromDevice), seen in the same walk.
  bool launchesFromDevice() const { return DeviceLaunches; }

private:
  bool DeviceLaunches = false;
  llvm::DenseMap<const Decl *, llvm::SmallVector<CallSite, 2>> Calls;
  /// How many times the unit names each function, calls included (a
  /// function it never names has no entry).
  llvm::DenseMap<const Decl *, unsigned> References;
  /// Names called through dependent expressions, which name no declaration
  /// until instantiation: a function of that name counts as called.
  llvm::StringSet<> DependentNames;
};

} // namespace clang::warp

#endif
