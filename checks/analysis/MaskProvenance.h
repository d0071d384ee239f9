//===--- MaskProvenance.h - where a lane mask was made ----------*- C++ -*-===//
//
// A mask made by __activemask(), __ballot_sync or __match_any_sync names
// lanes as they were where it was computed. Whether it still names the
// lanes that reach a collective using it depends on its provenance: which
// intrinsic made each definition that reaches the use, which divergent
// branches the lanes took in between, and whether those branches keep
// exactly the lanes the mask names (the ballot of the branch's own
// condition, a condition the same across each peer group). The answer is
// analysis, not reporting: warp-stale-mask reports what it finds here and
// owns only its diagnostics and fix-its.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_MASKPROVENANCE_H
#define WARP_LINT_ANALYSIS_MASKPROVENANCE_H

#include "FunctionUniformity.h"
#include "LaneSets.h"
#include "ReachingDefinitions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>

namespace clang::warp {

/// Where a mask value was made: the defining expression and the statement
/// whose divergence it was made under.
struct MaskDef {
  const Expr *Value = nullptr; ///< null for `++`/`--`
  const Stmt *At = nullptr;
};

/// The definitions of a function's locals, in the order they are written.
using MaskDefinitions =
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<MaskDef, 2>>;

/// A definition of a mask that reaches a use after the lanes diverged
/// further than where it was made.
struct StaleMaskDef {
  const MaskDef *Def = nullptr;
  const CallExpr *Source = nullptr; ///< the intrinsic that made the mask
  /// The divergent branches the lanes took between the definition and the
  /// use; none when only the helper that receives the mask splits them.
  Divergence Further;
};

/// Returns the local variable \p E reads, if it is a plain local (not a
/// parameter).
const VarDecl *localRead(const Expr *E);

/// Returns the warp intrinsic call that makes \p E (`__activemask()`,
/// `__ballot_sync(m, p)`, `__match_any_sync`), looking through casts.
const CallExpr *maskSource(const Expr *E);

/// Whether the mask \p Source makes, passed to a helper that first branches
/// on its lane-varying argument \p HelperArgument, names lanes that do not
/// reach the helper's collective: it names every lane that made it, and
/// the argument does not keep its peer groups whole.
bool helperSplits(const Expr *HelperArgument, const CallExpr *Source,
                  const FunctionUniformity &FU, ASTContext &Ctx);

/// Whether the stale \p Stale is the ballot of the very test its one
/// further branch makes, in any spelling (`i < n`, `!(i >= n)`): the lanes
/// there are those for which the predicate fails, none that it names.
bool isBallotOfBranchTest(const StaleMaskDef &Stale, ASTContext &Ctx);

/// The expression that names the lanes that made the mask \p Mask from
/// \p Source, for a ballot recomputed over them: the mask itself for
/// `__activemask()` and `__match_any_sync` (each peer group passes its own),
/// the ballot's own mask for `__ballot_sync` when it is a variable or a
/// constant. Null when there is none to repeat.
const Expr *lanesThatMade(const CallExpr *Source, const Expr *Mask,
                          ASTContext &Ctx);

/// The lanes of warp \p Warp that the mask \p Mask, defined at \p Def,
/// names: its value where the evaluator knows it in one of the lanes
/// \p Arrive, else the lanes that ran the definition together.
LaneSet maskLanes(LaneReach &Reach, const Stmt *Def, const Expr *Mask,
                  uint64_t Warp, LaneSet Arrive);

/// The provenance of the masks of one function: the definitions of its
/// locals (initializers and plain assignments, and parameters reassigned),
/// found in one walk, and which of them reach each use.
class MaskProvenance {
public:
  /// \p FU (and its CFG) outlive this object.
  explicit MaskProvenance(const FunctionUniformity &FU);

  /// Whether \p VD is assigned in the function (a reassigned parameter is a
  /// local in disguise).
  bool isReassigned(const VarDecl *VD) const { return Defs.count(VD) != 0; }

  /// The first definition of the local mask \p VD that reaches \p Use with
  /// the lanes diverged further since, when none reaching it is fresh for it
  /// (a mask refreshed inside a loop is fresh). Nullopt as well when one
  /// reaching definition is not made by a mask intrinsic: arithmetic or
  /// unknown provenance. Branches that keep exactly the lanes the mask names
  /// do not count; \p HelperArgument is the lane-varying argument that the
  /// helper receiving the mask branches on first, if any.
  std::optional<StaleMaskDef> staleDefinition(const VarDecl *VD,
                                              const Stmt *Use,
                                              const Expr *HelperArgument,
                                              ASTContext &Ctx);

  /// Whether \p Stale names none of the lanes that reach its use, with no
  /// lanes to find: it is the ballot of the test its one further branch
  /// makes (isBallotOfBranchTest), and nothing the test reads is assigned
  /// in the function after its first value, so the test and the ballot
  /// agree in every lane.
  bool namesNoCaller(const StaleMaskDef &Stale, ASTContext &Ctx) const;

  /// Whether collective \p Use reads only from lanes that pass \p Branch as
  /// it does: always for votes and barriers; for a shuffle, when it reads
  /// the side's leader (`__ffs(~pos) - 1`) or every source is known to.
  bool readsWithinBranch(const Stmt *Use, const DivergentBranch &Branch,
                         ASTContext &Ctx) const;

  /// The two different `__activemask()` calls that the source lane and the
  /// mask of collective \p Use are computed from (through locals defined
  /// once), the source lane's first; nullopt unless both come from one and
  /// they share none.
  std::optional<std::pair<const CallExpr *, const CallExpr *>>
  separateActivemasks(const CollectiveUse &Use) const;

private:
  const FunctionUniformity &FU;
  MaskDefinitions Defs;
  ReachingDefinitions Reaching;
};

} // namespace clang::warp

#endif
