//===--- FindingFacts.cpp - tier, consequence and lanes of a finding ------===//

#include "FindingFacts.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace warplint {

StringRef tierName(Tier T) {
  switch (T) {
  case Tier::Proven:
    return "proven";
  case Tier::Conditional:
    return "conditional";
  case Tier::Data:
    return "data";
  case Tier::Potential:
    return "potential";
  }
  llvm_unreachable("unknown tier");
}

std::optional<Tier> parseTier(StringRef Name) {
  return StringSwitch<std::optional<Tier>>(Name.trim())
      .Case("proven", Tier::Proven)
      .Case("conditional", Tier::Conditional)
      .Case("data", Tier::Data)
      .Case("potential", Tier::Potential)
      .Default(std::nullopt);
}

StringRef tierLevel(Tier T) {
  switch (T) {
  case Tier::Proven:
    return "error";
  case Tier::Conditional:
  case Tier::Data:
    return "warning";
  case Tier::Potential:
    return "note";
  }
  llvm_unreachable("unknown tier");
}

/// Returns the tier a note message's prefix names, if it names one.
static std::optional<Tier> tierOfNote(StringRef Message) {
  if (Message.starts_with("witness: "))
    return Tier::Proven;
  if (Message.starts_with("condition: "))
    return Tier::Conditional;
  if (Message.starts_with("data: "))
    return Tier::Data;
  if (Message.starts_with("potential: "))
    return Tier::Potential;
  return std::nullopt;
}

/// Parses `0x` followed by one to eight hex digits.
static std::optional<uint32_t> parseLaneSet(StringRef Text) {
  if (!Text.consume_front_insensitive("0x") || Text.empty() || Text.size() > 8)
    return std::nullopt;
  uint32_t Value = 0;
  if (Text.getAsInteger(16, Value))
    return std::nullopt;
  return Value;
}

std::optional<LanePicture> parseLaneNote(StringRef Message) {
  if (!Message.consume_front("lanes: "))
    return std::nullopt;
  SmallVector<StringRef, 6> Words;
  Message.split(Words, ' ', -1, /*KeepEmpty=*/false);
  // Later words (a comment the checks may add) are ignored.
  if (Words.size() < 4 || Words[0] != "mask" || Words[2] != "arrive")
    return std::nullopt;
  std::optional<uint32_t> Mask = parseLaneSet(Words[1]);
  std::optional<uint32_t> Arrive = parseLaneSet(Words[3].rtrim(",;."));
  if (!Mask || !Arrive)
    return std::nullopt;
  return LanePicture{*Mask, *Arrive};
}

FindingFacts readFindingFacts(ArrayRef<std::string> NoteMessages) {
  FindingFacts Facts;
  bool HaveConsequence = false;
  for (StringRef Message : NoteMessages) {
    if (!Facts.TierNoted)
      if (std::optional<Tier> T = tierOfNote(Message)) {
        Facts.Level = *T;
        Facts.TierNoted = true;
        continue;
      }
    if (!HaveConsequence && Message.consume_front("consequence: ")) {
      auto [Class, Text] = Message.split(':');
      Class = Class.trim();
      // A class is one lower-case word (`wrong-values`); anything else is
      // prose that happens to start with the prefix.
      if (!Class.empty() &&
          all_of(Class, [](char C) { return isLower(C) || C == '-'; })) {
        Facts.Consequence = Class.str();
        Facts.ConsequenceText = Text.trim().str();
        HaveConsequence = true;
      }
      continue;
    }
    if (!Facts.Lanes)
      Facts.Lanes = parseLaneNote(Message);
  }
  return Facts;
}

std::string laneStrip(uint32_t Lanes) {
  std::string Strip(32, '.');
  for (unsigned L = 0; L < 32; ++L)
    if (Lanes & (uint32_t(1) << L))
      Strip[L] = '#';
  return Strip;
}

} // namespace warplint
