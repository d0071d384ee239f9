//===--- ElementAccesses.h - reads and writes of shared elements -*- C++
//-*-===//
//
// The reads and writes of memory that the lanes of a warp can share: a
// `__shared__` or `__device__` variable, or what a pointer parameter points
// to (global memory in a kernel, whatever the caller passes in a helper).
// Each access names its element as an object (the variable or parameter and
// the members on the way) and a linear index into it, written as a sum of
// integer expressions with constant factors, so that the lane evaluator can
// compute it per lane:
//
//   s[w][lane]          s,      32 * w + lane           (float s[4][32])
//   *(p + lane + 16)    s,      lane + 16               (float *p = s)
//   red[i].dist         red,    i, member .dist
//   sm.dist[lane ^ 1]   sm.dist, lane ^ 1
//
// Pointer locals are followed into their initializer when nothing writes
// them afterwards; a cast to another element type starts a new object, the
// local it initializes.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_ELEMENTACCESSES_H
#define WARP_LINT_ANALYSIS_ELEMENTACCESSES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace clang::warp {

/// Where one element lives.
struct ElementAddress {
  /// The variable or pointer parameter (or cast pointer local) whose
  /// elements are counted.
  const ValueDecl *Root = nullptr;
  /// The members between the root and the indexed array (`sm.dist`).
  llvm::SmallVector<const FieldDecl *, 1> Path;
  /// The members after the index (`red[i].dist`).
  llvm::SmallVector<const FieldDecl *, 1> Member;
  /// The type the index counts in, when an array (for naming `s[1][5]`).
  QualType Indexed;
  struct Term {
    const Expr *E;
    int64_t Scale;
  };
  /// The index is Constant plus the sum of Scale * E.
  llvm::SmallVector<Term, 2> Terms;
  int64_t Constant = 0;

  /// Whether \p O names elements of the same array (the same root and
  /// path) whose members may overlap.
  bool sameArray(const ElementAddress &O) const;
  /// `s[1][5]`, `red[16].dist`: the element at \p Index named in source
  /// terms.
  std::string name(int64_t Index) const;
};

/// One read or write (or both: `s[i] += v`, `++s[i]`) of an element.
struct ElementAccess {
  const Expr *E = nullptr; ///< the lvalue that names the element
  bool Reads = false;
  bool Writes = false;
  /// For a plain write, the value stored (to tell a store of the same value
  /// in every lane).
  const Expr *Stored = nullptr;
  ElementAddress Address;
};

/// The accesses of one function body.
struct ElementAccesses {
  /// In source order. Atomics, and elements whose address escapes (`&s[i]`
  /// passed on), are not accesses here.
  std::vector<ElementAccess> Accesses;
  /// The locals and parameters the body writes after their declaration:
  /// an index that reads one may differ between two points.
  llvm::DenseSet<const VarDecl *> Written;
};

/// The accesses in \p FD's body to elements that other lanes can reach.
ElementAccesses elementAccesses(const FunctionDecl *FD, ASTContext &Ctx);

} // namespace clang::warp

#endif
