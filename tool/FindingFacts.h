//===--- FindingFacts.h - tier, consequence and lanes of a finding -*- C++
//-*-===//
///
/// \file The checks attach machine-readable facts to each warning as notes
/// whose message starts with a fixed prefix (docs/cli.md, "Output: tiers,
/// consequences and lanes"):
///
///   witness: / condition: / data: / potential:  the tier (one of them)
///   consequence: <class>: <text>                 what goes wrong (optional)
///   lanes: mask 0x........ arrive 0x........     the witness warp (optional)
///
/// This file reads them back, so that every output (text, JSON, SARIF,
/// HTML), the summary and the failure threshold agree on them.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_FINDINGFACTS_H
#define WARP_LINT_TOOL_FINDINGFACTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace warplint {

/// How sure a finding is, most certain first.
enum class Tier { Proven, Conditional, Data, Potential };

/// The lanes a mask names and the lanes that arrive at the collective, bit L
/// for lane L, in the witness warp.
struct LanePicture {
  uint32_t Mask = 0;
  uint32_t Arrive = 0;
};

/// What a finding's notes say about it.
struct FindingFacts {
  Tier Level = Tier::Proven;
  bool TierNoted = false;  ///< A tier note was there (else Proven by default).
  std::string Consequence; ///< The class (`hang`, `race`, …); empty if none.
  std::string ConsequenceText; ///< What the note says after the class.
  std::optional<LanePicture> Lanes;
};

/// Returns the facts carried by \p NoteMessages (the first tier, consequence
/// and lanes note each count; a warning with no tier note is proven).
FindingFacts readFindingFacts(llvm::ArrayRef<std::string> NoteMessages);

/// Parses the lane picture of one note message (`lanes: mask 0x… arrive
/// 0x…`); nothing when \p Message is not one.
std::optional<LanePicture> parseLaneNote(llvm::StringRef Message);

/// Returns `proven`, `conditional`, `data` or `potential`.
llvm::StringRef tierName(Tier T);

/// Parses a tier name; nothing for anything else.
std::optional<Tier> parseTier(llvm::StringRef Name);

/// Returns the SARIF level of a finding of tier \p T: proven findings are
/// errors, conditional and data ones warnings, potential ones notes.
llvm::StringRef tierLevel(Tier T);

/// Returns the 32-character strip of \p Lanes, lane 0 leftmost: `#` for a
/// lane in the set, `.` for one that is not.
std::string laneStrip(uint32_t Lanes);

} // namespace warplint

#endif
