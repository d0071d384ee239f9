//===--- ElementPositions.h - where a statement sits in a CFG ---*- C++ -*-===//
//
// Each statement a CFG lists as an element, with its block and its index
// among the block's elements: the first place when a statement is listed
// twice. Built once per function and shared by the analyses that order a
// definition and a use (reaching definitions, the values seen at a use).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_ELEMENTPOSITIONS_H
#define WARP_LINT_ANALYSIS_ELEMENTPOSITIONS_H

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang::warp {

class ElementPositions {
public:
  struct Position {
    unsigned Block; ///< the block's id
    unsigned Index; ///< the element's index inside the block
  };

  explicit ElementPositions(const CFG &Cfg) {
    unsigned Elements = 0;
    for (const CFGBlock *B : Cfg)
      Elements += B->size();
    Positions.reserve(Elements);
    for (const CFGBlock *B : Cfg) {
      unsigned Index = 0;
      for (const CFGElement &E : *B) {
        if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
          Positions.try_emplace(S->getStmt(), Position{B->getBlockID(), Index});
        ++Index;
      }
    }
  }

  /// Where \p S is first evaluated; nullopt when it is not an element.
  std::optional<Position> find(const Stmt *S) const {
    auto It = Positions.find(S);
    if (It == Positions.end())
      return std::nullopt;
    return It->second;
  }

private:
  llvm::DenseMap<const Stmt *, Position> Positions;
};

} // namespace clang::warp

#endif
