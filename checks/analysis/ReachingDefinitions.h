//===--- ReachingDefinitions.h - which assignments reach a use --*- C++ -*-===//
//
// The classic forward may-analysis "which definitions of a variable reach
// this point", over the CFG of one function. It is solved on first demand,
// for every variable defined so far at once: each definition is a bit, a
// block's effect is its gen and kill sets, and one worklist pass carries
// bit vectors between blocks. Solving variable by variable swept every block
// once per variable, which on a kernel with hundreds of assigned locals was
// the analysis's largest single cost. A variable with one definition needs
// no solving: that definition reaches every use.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_REACHINGDEFINITIONS_H
#define WARP_LINT_ANALYSIS_REACHINGDEFINITIONS_H

#include "ElementPositions.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang::warp {

class ReachingDefinitions {
public:
  /// Indices into a variable's definition list, ascending.
  using DefSet = llvm::SmallVector<unsigned, 2>;

  /// \p Elements indexes \p Cfg; both outlive this object.
  ReachingDefinitions(const CFG &Cfg, const ElementPositions &Elements);

  /// Records \p At, an element of the CFG, as the next definition of \p Var
  /// (any key naming one storage location: a variable, or one field of it).
  /// A null \p At defines \p Var at the function's entry (a parameter). A
  /// definition that does not \p Kill writes only part of \p Var (an
  /// element, a field, a may-write through a call): the definitions before
  /// it still reach past it. Defining a variable after it was asked about
  /// is not supported.
  void define(const void *Var, const Stmt *At, bool Kills = true);
  /// The definitions of \p Var (as indices in the order define() saw them)
  /// that reach \p Use, an element of the CFG: a path leads from the
  /// definition to the use with no other killing definition of \p Var on
  /// it. Empty when \p Use is not an element of the CFG.
  DefSet reaching(const void *Var, const Stmt *Use);
  /// Whether \p Use is an element of the CFG (reaching() knows it).
  bool isElement(const Stmt *Use);

private:
  using Position = ElementPositions::Position;
  struct Definition {
    const Stmt *At;
    bool Kills;
    Position Where;      ///< set when solved; the entry block for a null At
    bool Placed = false; ///< whether At is an element of the CFG
  };
  struct Variable {
    llvm::SmallVector<Definition, 2> Defs;
    /// The solution holding this variable's bits, once solved.
    int Solution = -1;
    unsigned FirstBit = 0; ///< its definitions are bits FirstBit, FirstBit+1…
  };
  /// The definitions reaching the entry of each block, for the variables
  /// solved together.
  struct Solution {
    std::vector<llvm::BitVector> In;
  };

  void solvePending();

  const CFG &Cfg;
  const ElementPositions &Elements;
  llvm::DenseMap<const void *, Variable> Defined;
  /// Variables with two or more definitions not solved yet.
  std::vector<const void *> Pending;
  std::vector<Solution> Solved;
};

} // namespace clang::warp

#endif
