//===--- FailThreshold.cpp - which findings fail a run --------------------===//

#include "FailThreshold.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace warplint {

/// Ranks a level, most severe first; nothing for an unknown one.
static std::optional<unsigned> levelRank(StringRef Level) {
  return StringSwitch<std::optional<unsigned>>(Level)
      .Case("error", 0)
      .Case("warning", 1)
      .Case("note", 2)
      .Default(std::nullopt);
}

Expected<FailThreshold> FailThreshold::parse(StringRef Value) {
  FailThreshold T;
  Value = Value.trim();
  if (Value == "any")
    return T;
  if (Value == "never") {
    T.K = Kind::Never;
    return T;
  }
  if (std::optional<unsigned> Rank = levelRank(Value)) {
    T.K = Kind::Level;
    T.Rank = *Rank;
    return T;
  }
  if (std::optional<Tier> Rank = parseTier(Value)) {
    T.K = Kind::Tier;
    T.Rank = unsigned(*Rank);
    return T;
  }
  return createStringError(
      "invalid --fail-on '" + Value +
      "': expected any, never, a level (error, warning, note) or a tier "
      "(proven, conditional, data, potential)");
}

bool FailThreshold::fails(const Finding &F) const {
  switch (K) {
  case Kind::Any:
    return true;
  case Kind::Never:
    return false;
  case Kind::Level:
    return levelRank(F.Level).value_or(0) <= Rank;
  case Kind::Tier:
    return unsigned(F.Facts.Level) <= Rank;
  }
  llvm_unreachable("unknown threshold");
}

Expected<std::string> parseTierList(StringRef Value) {
  SmallVector<StringRef, 4> Names;
  Value.split(Names, ',', -1, /*KeepEmpty=*/false);
  bool Have[4] = {false, false, false, false};
  for (StringRef Name : Names) {
    std::optional<Tier> T = parseTier(Name);
    if (!T)
      return createStringError("invalid --tiers '" + Value + "': '" +
                               Name.trim() +
                               "' is not proven, conditional, data or "
                               "potential");
    Have[unsigned(*T)] = true;
  }
  std::string List;
  for (Tier T : {Tier::Proven, Tier::Conditional, Tier::Data, Tier::Potential})
    if (Have[unsigned(T)])
      List += (List.empty() ? "" : ",") + tierName(T).str();
  if (List.empty())
    return createStringError("invalid --tiers '" + Value +
                             "': name at least one tier");
  return List;
}

} // namespace warplint
