//===--- ReachingDefinitions.h - which assignments reach a use --*- C++ -*-===//
//
// The classic forward may-analysis "which definitions of a variable reach
// this point", over the CFG of one function. It is solved per variable on
// first demand and only over that variable's definitions, so that a check
// asking about a few mask variables pays for those alone, and a variable
// assigned many times costs in proportion to the definitions that actually
// reach each use (usually one or two), not to all of them.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_REACHINGDEFINITIONS_H
#define WARP_LINT_ANALYSIS_REACHINGDEFINITIONS_H

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang::warp {

class ReachingDefinitions {
public:
  /// Indices into a variable's definition list, ascending.
  using DefSet = llvm::SmallVector<unsigned, 2>;

  explicit ReachingDefinitions(const CFG &Cfg);

  /// Records \p At, an element of the CFG, as the next definition of \p Var
  /// (any key naming one storage location: a variable, or one field of it).
  /// A null \p At defines \p Var at the function's entry (a parameter). A
  /// definition that does not \p Kill writes only part of \p Var (an
  /// element, a field, a may-write through a call): the definitions before
  /// it still reach past it.
  void define(const void *Var, const Stmt *At, bool Kills = true);
  /// The definitions of \p Var (as indices in the order define() saw them)
  /// that reach \p Use, an element of the CFG: a path leads from the
  /// definition to the use with no other killing definition of \p Var on
  /// it. Empty when \p Use is not an element of the CFG.
  DefSet reaching(const void *Var, const Stmt *Use);
  /// Whether \p Use is an element of the CFG (reaching() knows it).
  bool isElement(const Stmt *Use);

private:
  struct Position {
    unsigned Block;
    unsigned Index; ///< element index inside the block
  };
  /// A definition inside a block: its element index and its index in the
  /// variable's definition list.
  struct LocalDef {
    unsigned Element;
    unsigned Def;
    bool Kills;
  };
  struct Definition {
    const Stmt *At;
    bool Kills;
  };
  /// For one variable: the definitions reaching the entry of each block, and
  /// each block's own definitions in element order.
  struct Solution {
    std::vector<DefSet> In;
    llvm::DenseMap<unsigned, llvm::SmallVector<LocalDef, 1>> InBlock;
  };

  void locateElements();
  Solution solve(llvm::ArrayRef<Definition> Defs) const;

  const CFG &Cfg;
  /// Where each statement element is; filled on the first solve.
  llvm::DenseMap<const Stmt *, Position> Positions;
  llvm::DenseMap<const void *, llvm::SmallVector<Definition, 2>> Defined;
  llvm::DenseMap<const void *, Solution> Solved;
};

} // namespace clang::warp

#endif
