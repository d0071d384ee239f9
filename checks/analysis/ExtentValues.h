//===--- ExtentValues.h - the values a host-computed extent can take -*- C++
//-*-===//
//
// A block extent computed on the host can take values its author did not
// mean to launch with: `nextPow2(n)` is 16 when n is 9..16. This finds the
// set of values an integer expression of host code can take where the code
// itself bounds it: constants and arithmetic on them, min and max, a power
// of two (`1 << k`, `pow(2, k)`, a local doubled or halved in a loop that
// runs until it reaches a runtime value), a clamp after it (`if (t < 32)
// t = 32;`), and helpers defined in the unit. A runtime value nothing bounds
// (a parameter, a load, a call the unit does not define) is any value, and
// so is anything computed from it but a power of two: a cap (`min(n, 256)`)
// bounds nothing, since n may well be whole warps. Values are those a launch
// accepts, 1..1024.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_EXTENTVALUES_H
#define WARP_LINT_ANALYSIS_EXTENTVALUES_H

#include "clang/AST/ASTContext.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::warp {

/// The values an extent can take, when host code bounds them.
struct ExtentValues {
  /// Sorted, unique, each in 1..1024; nullopt: any value (unbounded).
  std::optional<std::vector<int64_t>> Values;
  /// The runtime value the set depends on ("n"); empty when it depends on
  /// none (constants only).
  std::string Source;
  /// How the code bounds it ("a power of two", "at most 256"), for messages.
  std::string How;

  bool bounded() const { return Values.has_value(); }
};

/// The values integer expression \p E, written in host function \p F, can
/// take at \p At (writes to locals after \p At are not counted).
ExtentValues extentValues(const Expr *E, const FunctionDecl *F,
                          SourceLocation At, ASTContext &Ctx);

} // namespace clang::warp

#endif
