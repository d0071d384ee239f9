//===--- WarpCollectives.h - the one table of warp intrinsics ---*- C++ -*-===//
//
// Every warp collective, atomic and lock primitive that the checks reason
// about is described here and nowhere else.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_WARPCOLLECTIVES_H
#define WARP_LINT_ANALYSIS_WARPCOLLECTIVES_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang::tidy::warp {

enum class CollectiveKind { Shuffle, Vote, Match, Reduce, SyncWarp };

/// How the value a collective returns varies across the participating lanes.
enum class CollectiveResult {
  Uniform,        ///< same in every participating lane (ballot, any, reduce)
  UniformIfSrc,   ///< uniform when the source-lane argument is uniform
  Varying,        ///< differs per lane (shfl_up/down/xor, match_any)
  None            ///< no result (__syncwarp)
};

struct CollectiveInfo {
  llvm::StringLiteral Name;
  CollectiveKind Kind;
  CollectiveResult Result;
  int SrcLaneArg; ///< argument holding the source lane, or -1
};

/// Returns the table entry for the collective named \p Name, if any.
const CollectiveInfo *lookupCollective(llvm::StringRef Name);

/// A call of a warp collective found in the source: a CUDA intrinsic or an
/// inline PTX shfl.sync / vote.sync / bar.warp.sync.
struct CollectiveUse {
  const CollectiveInfo *Info = nullptr;
  const Stmt *Site = nullptr;   ///< the CallExpr or GCCAsmStmt
  const Expr *Mask = nullptr;   ///< the member-mask operand, when an expression
  std::optional<uint64_t> ImmediateMask; ///< a PTX immediate mask operand
  bool MaskIsDefaultArg = false;
};

/// Recognises \p S as a warp collective.
std::optional<CollectiveUse> matchCollective(const Stmt *S);

/// Returns the callee name of \p Call when it names a free function, also for
/// dependent calls in templates (UnresolvedLookupExpr).
llvm::StringRef calleeName(const CallExpr *Call);

enum class AtomicOp { Add, Sub, Inc, Dec, Min, Max, And, Or, Xor, CAS, Exch };

struct AtomicInfo {
  AtomicOp Op;
  bool ReadModifyWrite; ///< false for CAS/Exch (lock primitives)
};

/// Recognises atomicAdd/…/atomicCAS and their _block/_system variants.
std::optional<AtomicInfo> matchAtomic(const CallExpr *Call);

/// Returns whether \p Name is a block- or grid-level barrier.
bool isBarrierName(llvm::StringRef Name);

/// Returns whether \p Mask names all 32 lanes.
inline bool isFullMask(uint64_t Mask) {
  return (Mask & 0xffffffffu) == 0xffffffffu;
}

} // namespace clang::tidy::warp

#endif
