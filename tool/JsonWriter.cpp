//===--- JsonWriter.cpp - findings as warp-lint's JSON --------------------===//

#include "JsonWriter.h"

using namespace llvm;
using json::Array;
using json::Object;

namespace warplint {

json::Value toJson(ArrayRef<Finding> Findings) {
  Array Out;
  for (const Finding &F : Findings) {
    Array Notes;
    for (const FindingNote &N : F.Notes)
      Notes.push_back(Object{{"message", N.Message},
                             {"file", N.Loc.File},
                             {"line", N.Loc.Line},
                             {"column", N.Loc.Column}});
    Array Fixes;
    for (const FindingFix &X : F.Fixes)
      Fixes.push_back(Object{{"file", X.Loc.File},
                             {"offset", X.Loc.Offset},
                             {"length", X.Length},
                             {"replacement", X.Replacement}});
    Object O{{"check", F.Check},
             {"level", F.Level},
             {"tier", tierName(F.Facts.Level)},
             {"message", F.Message},
             {"file", F.Loc.File},
             {"line", F.Loc.Line},
             {"column", F.Loc.Column},
             {"notes", std::move(Notes)},
             {"fixes", std::move(Fixes)}};
    if (!F.Facts.Consequence.empty())
      O["consequence"] = F.Facts.Consequence;
    if (F.Facts.Lanes)
      O["lanes"] = Object{{"mask", int64_t(F.Facts.Lanes->Mask)},
                          {"arrive", int64_t(F.Facts.Lanes->Arrive)}};
    Out.push_back(std::move(O));
  }
  return Out;
}

} // namespace warplint
