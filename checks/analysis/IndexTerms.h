//===--- IndexTerms.h - lane values of element index terms ------*- C++ -*-===//
//
// The exchange-race tables (WarpExchanges.h) evaluate every term of every
// element index in each lane of each sample warp, in each iteration of the
// loops around the access. Accesses that index with the same term share its
// values: `listK[pos]` and `listV[pos]`, read and written, all read `pos`.
// A term built only from constants, thread registers and variables never
// assigned after their initializer has one value per lane wherever it is
// read, given how the evaluator binds what it reads (the loop counters in
// that iteration); such terms are kept by their structure, any other by the
// expression itself, per sample warp and bindings. A term's lanes are found
// all at once from its operands' (LaneReach::valuesOf), each kept by what
// it reads: `tid` in `2 * tid - (tid & (stride - 1))` once for every stride.
// In the other warps a term is mostly the first warp's lanes moved
// (LaneReach::shiftsOf): those lanes are the first warp's plus the move.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_INDEXTERMS_H
#define WARP_LINT_ANALYSIS_INDEXTERMS_H

#include "LaneSets.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace clang::warp {

class IndexTermValues {
public:
  /// \p Written: the variables the function assigns after their
  /// declaration (where they are read decides their value); \p Warps: the
  /// sample warps asked, the first one first.
  IndexTermValues(LaneReach &Reach,
                  const llvm::DenseSet<const VarDecl *> &Written,
                  llvm::ArrayRef<uint64_t> Warps);

  /// The value of the term \p E in lane \p Lane of warp \p Warp under the
  /// evaluator's bindings now, as LaneEvaluator::valueIn gives it; sets
  /// \p ReadWarp when that value read threadIdx.x.
  std::optional<int64_t> valueIn(const Expr *E, unsigned Lane, uint64_t Warp,
                                 bool &ReadWarp);

  /// One warp's lanes of a term (all of them once any is asked for).
  struct Lanes {
    LaneValues Values;
    LaneSet Known = 0;
    LaneSet ReadWarp = 0;
  };
  /// The values of the term \p E in warp \p Warp, valueIn's, in the lanes
  /// \p Wanted at least (one look-up for the warp's lanes). The reference
  /// holds until the next call.
  const Lanes &lanesIn(const Expr *E, uint64_t Warp, LaneSet Wanted);

  /// Whether \p E's value is the same wherever the function reads it
  /// (under the same bindings), so that equal terms share it.
  bool sameWherever(const Expr *E) const;

private:
  struct Term {
    LaneReach::Inputs In;
    /// The block and the bindings of In the rows were computed under; a
    /// row is keyed by their position here and its warp.
    std::vector<std::pair<unsigned, LaneReach::Bindings>> Seen;
    /// The position in Seen of the bindings at evaluator generation
    /// SeenGeneration.
    unsigned SeenGeneration = ~0u, Now = 0;
    /// Whether the analysis finds the term uniform: then one lane's value
    /// is every lane's.
    bool Uniform = false;
    llvm::DenseMap<std::pair<unsigned, uint64_t>, Lanes> Rows;
    /// By position in Seen: what each warp's row is the first warp's moved
    /// by.
    llvm::DenseMap<unsigned, LaneReach::WarpShifts> Shifts;
  };
  Term &termOf(const Expr *E);
  /// The row of \p T for warp \p Warp under the bindings now.
  Lanes &rowOf(Term &T, uint64_t Warp);
  /// What \p E's row (its term \p T) in warp \p Warp is the first warp's
  /// moved by under the bindings now, if the operators show it.
  std::optional<int64_t> shiftOf(Term &T, const Expr *E, uint64_t Warp);

  LaneReach &Reach;
  const llvm::DenseSet<const VarDecl *> &Written;
  const std::vector<uint64_t> Warps;
  std::deque<Term> Terms;
  llvm::DenseMap<const Expr *, Term *> ByExpr;
  std::map<llvm::FoldingSetNodeID, Term *> ByStructure;
};

} // namespace clang::warp

#endif
