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
#include "clang/AST/DeclBase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang::tidy::warp {

class ReachingDefinitions {
public:
  /// Indices into a variable's definition list, ascending.
  using DefSet = llvm::SmallVector<unsigned, 2>;

  explicit ReachingDefinitions(const CFG &Cfg);

  /// Records \p At, an element of the CFG, as the next definition of \p Var.
  void define(const Decl *Var, const Stmt *At);
  /// The definitions of \p Var (as indices in the order define() saw them)
  /// that reach \p Use, an element of the CFG: a path leads from the
  /// definition to the use with no other definition of \p Var on it.
  DefSet reaching(const Decl *Var, const Stmt *Use);

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
  };
  /// For one variable: the definitions reaching the entry of each block, and
  /// each block's own definitions in element order.
  struct Solution {
    std::vector<DefSet> In;
    llvm::DenseMap<unsigned, llvm::SmallVector<LocalDef, 1>> InBlock;
  };

  void locateElements();
  Solution solve(llvm::ArrayRef<const Stmt *> Defs) const;

  const CFG &Cfg;
  /// Where each statement element is; filled on the first solve.
  llvm::DenseMap<const Stmt *, Position> Positions;
  llvm::DenseMap<const Decl *, llvm::SmallVector<const Stmt *, 2>> Defined;
  llvm::DenseMap<const Decl *, Solution> Solved;
};

} // namespace clang::tidy::warp

#endif
