//===--- Witness.h - why lanes of a warp differ at a point ------*- C++ -*-===//
//
// The uniformity analysis is sound in the may-vary direction: it says where
// lanes *may* differ, as a compiler needs. A bug report needs the other
// direction, a positive reason. WitnessSearch finds one for a point the
// analysis finds diverged, asking the lane evaluator, in order:
//  - Proven: a block shape (from the unit's launches, or any 1-D block of
//    whole warps), a warp, and lanes of it that exist but cannot reach the
//    point, from lane arithmetic and constants alone;
//  - Conditional: the same once one named runtime value takes a value (a
//    parameter, blockDim.x, a bound loaded at a uniform address), with the
//    values for which it happens ("not a multiple of 32");
//  - Data: which lanes arrive depends on data each lane loads from its own
//    address;
//  - Potential: none of these (the analysis lost track of a value).
// A caller (a check) decides whether a witness makes a finding (what the
// lanes that do not arrive do next, which lanes a shuffle reads): the search
// hands it each witness in turn until one is accepted.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_WITNESS_H
#define WARP_LINT_ANALYSIS_WITNESS_H

#include "KernelLaunches.h"
#include "LaneSets.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace clang::warp {

/// How a finding knows that lanes of a warp differ (see the file comment).
enum class Tier : uint8_t { Proven, Conditional, Data, Potential };

/// "proven", "conditional", "data", "potential".
llvm::StringRef tierName(Tier T);
/// The tier named \p Name, if it is one.
std::optional<Tier> parseTier(llvm::StringRef Name);

/// A warp in which a point is reached by some of its lanes and not others.
struct LaneWitness {
  Tier T = Tier::Potential;
  /// The block evaluated in; nullopt: any 1-D block of whole warps.
  std::optional<BlockExtents> Block;
  uint64_t Warp = 0;
  LaneSet Live = AllLanes; ///< lanes of the warp that exist
  /// Lanes that may reach the point (Proven and Conditional only).
  LaneSet Arrive = 0;
  /// Whether Arrive is exact (every branch on the way is known in each
  /// lane), not only the lanes that may arrive.
  bool Exact = false;
  /// Conditional: the runtime value, the value it was given, and the
  /// values for which lanes split ("is not a multiple of 32").
  const Expr *Runtime = nullptr;
  int64_t RuntimeValue = 0;
  std::string Condition;
  /// A second runtime value given a value with the first, when the split
  /// needs both (`base + lane < n`).
  const Expr *Runtime2 = nullptr;
  int64_t RuntimeValue2 = 0;
  /// Conditional on the launch shape: blockDim.x not a multiple of 32.
  bool ByLaunchShape = false;
  /// Data: the per-lane load the split reads.
  const Expr *DataLoad = nullptr;
  /// The iteration of the loop around the point the lanes were found in
  /// (0 for the first), when a loop's counter decides.
  std::optional<unsigned> Iteration;

  /// The lanes the finding is about among those that do not arrive (those
  /// a stale mask names); all of them by default.
  LaneSet Named = AllLanes;

  /// Lanes that exist and certainly do not reach the point.
  LaneSet absent() const { return Live & ~Arrive; }
  /// Whether lanes are known one by one (Proven, Conditional).
  bool hasLanes() const { return T == Tier::Proven || T == Tier::Conditional; }
};

class WitnessSearch {
public:
  /// Searches in \p Reach's function; \p Shapes are the blocks its launches
  /// show (empty: an unknown block).
  WitnessSearch(LaneReach &Reach, llvm::ArrayRef<BlockExtents> Shapes)
      : Reach(Reach), Shapes(Shapes) {}

  /// Hands \p Accept the witnesses that \p S, reached under divergence
  /// \p D, has, strongest tier first, until it accepts one; returns that
  /// one. The evaluator's block and bindings are as they were on return,
  /// except while \p Accept runs (it may ask the evaluator and \p Reach in
  /// the witness' block and binding).
  std::optional<LaneWitness>
  find(const Stmt *S, const Divergence &D,
       llvm::function_ref<bool(const LaneWitness &)> Accept);
  /// Also offers warps that every lane reaches (for questions about the
  /// lanes that arrive, not those that do not).
  void offerWholeWarps() { WholeWarps = true; }
  /// Accepts a warp's lanes only where every branch on the way is known
  /// (LaneWitness::Exact), so warps need no look where one is not.
  void acceptExactLanesOnly() { ExactLanesOnly = true; }

  /// The witness for \p S in the evaluator's present block and bindings,
  /// in \p Warp: the lanes that may reach it.
  LaneWitness at(const Stmt *S, uint64_t Warp);

private:
  /// Tries every warp of the present block in the iterations of the
  /// stepped loop around \p S where lanes leave it (inEveryWarp's part).
  std::optional<LaneWitness>
  inLoopIterations(const Stmt *S, Tier T,
                   llvm::function_ref<bool(const LaneWitness &)> Accept,
                   LaneWitness Template);
  /// Tries every warp of the present block; returns an accepted witness.
  std::optional<LaneWitness>
  inEveryWarp(const Stmt *S, Tier T,
              llvm::function_ref<bool(const LaneWitness &)> Accept,
              LaneWitness Template);
  /// The values tried for a runtime value, and how lanes split over them.
  std::string conditionOn(const Stmt *S, const RuntimeValue &R);

  /// Whether a branch of the divergence searched gives two live lanes of
  /// \p Warp known, different outcomes (else no lane certainly misses the
  /// point there).
  bool mightSplit(uint64_t Warp);
  /// Whether following \p Loop's iterations can change which lanes reach
  /// \p S: its condition splits them, or a branch on the way reads its
  /// \p Counter.
  bool loopMatters(const Stmt *S, const ForStmt &Loop, const VarDecl *Counter);

  LaneReach &Reach;
  llvm::ArrayRef<BlockExtents> Shapes;
  bool WholeWarps = false;
  bool ExactLanesOnly = false;
  /// The divergence find is searching.
  const Divergence *Current = nullptr;
  /// How many more warps the search may evaluate (each one walks the CFG
  /// with lane sets): past it the witness falls to the data or potential
  /// tier, so that a huge kernel costs a bounded time.
  unsigned Budget = 4000;
};

/// "a 64x1x1 block" or "a 1-D block of whole warps".
std::string describeBlock(const std::optional<BlockExtents> &Block);

} // namespace clang::warp

#endif
