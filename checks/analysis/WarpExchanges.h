//===--- WarpExchanges.h - lanes racing through shared memory ---*- C++ -*-===//
//
// Lanes of one warp exchange values through memory (a warp reduction in
// shared memory, a value passed to the neighbour lane). Since Volta nothing
// orders one lane's write and another lane's read of the same element
// unless both lanes pass a barrier between them (BarrierSteps): without one
// they race. This finds, per lane, which lane writes the element another
// lane of its warp reads in the same step:
//  - ElementAccesses gives each access's element as a sum of terms;
//  - the lane evaluator computes the terms in each lane of the sample warps
//    and each iteration of the counted loops around the access (a term the
//    same in every lane but not known, or such a term plus the lane index,
//    stays a symbol that two accesses share);
//  - LaneReach says which lanes run the access;
//  - BarrierSteps says which pairs of accesses (in which iterations) may
//    run in one step.
// A helper whose pointer and index parameters its callers decide is
// analysed with the values of each call in the unit, and the lanes that
// make the call.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_WARPEXCHANGES_H
#define WARP_LINT_ANALYSIS_WARPEXCHANGES_H

#include "ElementAccesses.h"
#include "LaneSets.h"
#include "WarpAnalysis.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::warp {

/// How certain a race is (the finding tiers).
enum class RaceTier {
  Proven,   ///< two lanes the lane arithmetic names
  Data,     ///< the element, or whether a lane gets there, depends on data
  Potential ///< the lanes or the elements are not known
};

/// A read of an element that another lane of the same warp may write with
/// no barrier between the two.
struct ExchangeRace {
  const Expr *Read = nullptr;  ///< the element read
  const Expr *Write = nullptr; ///< the element written
  /// The statements holding them (the same one for `s[i] += s[i + 16]`).
  const Stmt *ReadStatement = nullptr;
  const Stmt *WriteStatement = nullptr;
  RaceTier Tier = RaceTier::Potential;

  /// The two lanes, where the lane arithmetic found them.
  struct Lanes {
    uint64_t Warp = 0;
    unsigned Writer = 0, Reader = 0;
    /// The element, when its index is a number ("red[16]"); empty when it
    /// is known only relative to a symbol (`s[base + lane]`).
    std::string Element;
  };
  std::optional<Lanes> Pair;
  /// The counter of the innermost counted loop around both, and its value
  /// at the write and at the read (different when the read is in the next
  /// iteration).
  const VarDecl *Counter = nullptr;
  int64_t WriteCount = 0, ReadCount = 0;
  bool NextIteration = false;
  /// Data: the branch condition or the index that depends on data, and
  /// which it is.
  const Expr *DataCause = nullptr;
  bool DataIndex = false;
  /// Whether the cause is on the write's side (else the read's).
  bool DataOnWrite = false;
  /// The variable or pointer parameter whose element it is.
  const ValueDecl *Root = nullptr;
  /// The root is a pointer parameter of a helper whose callers are not
  /// known: the race assumes every lane passes the same pointer.
  bool AssumesSharedPointer = false;
  /// The call whose argument values the helper was analysed with.
  const CallExpr *Via = nullptr;
  const FunctionDecl *Caller = nullptr;
};

/// The races of \p FD, whose analysis is \p FU and lane sets \p Reach: at
/// most one per pair of read and write, in the order of the reads, the
/// most certain first.
std::vector<ExchangeRace> findExchangeRaces(const FunctionDecl *FD,
                                            const FunctionUniformity &FU,
                                            LaneReach &Reach, WarpAnalysis &WA);

/// Whether \p S orders the memory accesses of the lanes that run it: a
/// warp collective, a barrier, or a call of a function that runs one.
bool ordersLanes(const Stmt *S, WarpAnalysis &WA);

} // namespace clang::warp

#endif
