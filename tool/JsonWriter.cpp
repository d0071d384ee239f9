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
    Out.push_back(Object{{"check", F.Check},
                         {"level", F.Level},
                         {"message", F.Message},
                         {"file", F.Loc.File},
                         {"line", F.Loc.Line},
                         {"column", F.Loc.Column},
                         {"notes", std::move(Notes)},
                         {"fixes", std::move(Fixes)}});
  }
  return Out;
}

} // namespace warplint
