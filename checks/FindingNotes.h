//===--- FindingNotes.h - the facts every finding carries -------*- C++ -*-===//
//
// Every warp- finding says how warp-lint knows it (its tier: a witness, a
// condition on a runtime value, per-lane data, or only a possibility) and
// what the bug does on a GPU (its consequence), in notes whose message starts
// with a fixed word, so that front ends can read them back
// (docs/analysis.md, "Tiers"; docs/cli.md, "Output"):
//
//   note: witness: in a 64x1x1 block, lanes 16..31 of warp 0 ... (proven)
//   note: condition: lanes split only when 'n' is not a multiple of 32 ...
//   note: data: which lanes reach it depends on 'in[i]', ...
//   note: potential: ...
//   note: consequence: hang: ...
//   note: lanes: mask 0xffffffff arrive 0x0000ffff
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_FINDINGNOTES_H
#define WARP_LINT_FINDINGNOTES_H

#include "analysis/Witness.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warp {

using ::clang::warp::LaneSet;
using ::clang::warp::LaneWitness;
using ::clang::warp::Tier;

/// What a bug does on Volta and later, as runtime-tests measure it.
enum class Consequence {
  Hang,        ///< the warp never meets (lanes wait at a barrier)
  Trap,        ///< illegal instruction in -G builds, wrong values in -O3
  WrongValues, ///< values read from absent lanes are undefined (0 today)
  Race,        ///< lanes of one warp race on memory
  Undefined,   ///< undefined by the Programming Guide, silent today
  Slow,        ///< correct, but the warp serializes
  Portability  ///< deadlocks before Volta and on AMD GPUs
};

/// The consequence's name in notes and SARIF ("hang", "wrong-values").
llvm::StringRef consequenceName(Consequence C);

/// The tier note of a finding at \p At whose lanes \p W shows: what the
/// lanes of the witness do (\p What: "do not reach it").
void noteWitness(ClangTidyCheck &Check, SourceLocation At, const LaneWitness &W,
                 llvm::StringRef What, ASTContext &Ctx);
/// The tier note of a finding with no lane witness (a per-lane pattern the
/// check recognises: a lock, a narrow constant mask).
void noteTier(ClangTidyCheck &Check, SourceLocation At, Tier T,
              llvm::StringRef Text);
/// The consequence note.
void noteConsequence(ClangTidyCheck &Check, SourceLocation At, Consequence C,
                     llvm::StringRef Text);
/// The tier and consequence notes of a finding whose mask \p Mask names
/// none of the lanes that call (\p Why: the ballot whose condition they
/// fail): certain
/// wherever a lane gets there, whichever lanes those are.
void noteNoCallerNamed(ClangTidyCheck &Check, SourceLocation At,
                       llvm::StringRef Mask, llvm::StringRef Why);
/// The lane picture of a mask finding: the lanes \p Mask names and those
/// that \p Arrive.
void noteLanes(ClangTidyCheck &Check, SourceLocation At, LaneSet Mask,
               LaneSet Arrive);

} // namespace clang::tidy::warp

#endif
