//===--- InputManifest.cpp - a unit's inputs, checked without preprocessing
//===//

#include "InputManifest.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace warplint {

uint64_t hashText(StringRef Text) { return xxh3_64bits(Text); }

bool InputManifest::stillHolds(vfs::FileSystem &FS) const {
  if (Files.empty())
    return false;
  for (const Probe &P : Probes)
    if (FS.exists(P.Path) != P.Exists)
      return false;
  for (const EnteredFile &F : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
        FS.getBufferForFile(F.Path, /*FileSize=*/-1,
                            /*RequiresNullTerminator=*/false);
    if (!Text || hashText((*Text)->getBuffer()) != F.TextHash)
      return false;
  }
  return true;
}

json::Value toJson(const InputManifest &M) {
  json::Array Files, Probes;
  for (const InputManifest::EnteredFile &F : M.Files)
    Files.push_back(json::Array{F.Path, utohexstr(F.TextHash)});
  for (const InputManifest::Probe &P : M.Probes)
    Probes.push_back(json::Array{P.Path, P.Exists});
  return json::Object{{"manifest", 1},
                      {"key", M.ResultKey},
                      {"files", std::move(Files)},
                      {"probes", std::move(Probes)}};
}

std::optional<InputManifest> inputManifestFromJson(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O || O->getInteger("manifest") != 1)
    return std::nullopt;
  std::optional<StringRef> Key = O->getString("key");
  const json::Array *Files = O->getArray("files"),
                    *Probes = O->getArray("probes");
  if (!Key || !Files || !Probes)
    return std::nullopt;
  InputManifest M;
  M.ResultKey = Key->str();
  for (const json::Value &FV : *Files) {
    const json::Array *A = FV.getAsArray();
    std::optional<StringRef> Path, Hash;
    if (A && A->size() == 2) {
      Path = (*A)[0].getAsString();
      Hash = (*A)[1].getAsString();
    }
    uint64_t H;
    if (!Path || !Hash || Hash->getAsInteger(16, H))
      return std::nullopt;
    M.Files.push_back({Path->str(), H});
  }
  for (const json::Value &PV : *Probes) {
    const json::Array *A = PV.getAsArray();
    std::optional<StringRef> Path;
    std::optional<bool> Exists;
    if (A && A->size() == 2) {
      Path = (*A)[0].getAsString();
      Exists = (*A)[1].getAsBoolean();
    }
    if (!Path || !Exists)
      return std::nullopt;
    M.Probes.push_back({Path->str(), *Exists});
  }
  return M;
}

} // namespace warplint
