//===--- PathFilter.cpp - --exclude patterns ------------------------------===//

#include "PathFilter.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warplint {

Error PathFilter::add(StringRef Text) {
  StringRef P = Text.trim();
  if (P.empty())
    return createStringError("--exclude: empty pattern");
  Pattern Pat;
  // A slash at the end only says "a directory"; one elsewhere anchors.
  P = P.rtrim('/');
  Pat.Anchored = P.contains('/');
  P = P.ltrim('/');
  SmallVector<StringRef, 8> Parts;
  P.split(Parts, '/', -1, /*KeepEmpty=*/false);
  if (Parts.empty())
    return createStringError("--exclude: pattern '" + Text + "' names no path");
  for (StringRef Part : Parts) {
    if (Part == "**") {
      Pat.Parts.push_back(std::nullopt);
      continue;
    }
    Expected<GlobPattern> G = GlobPattern::create(Part);
    if (!G)
      return createStringError("--exclude: bad pattern '" + Text +
                               "': " + toString(G.takeError()));
    Pat.Parts.push_back(std::move(*G));
  }
  Patterns.push_back(std::move(Pat));
  return Error::success();
}

/// Whether \p Parts (from \p P on) match a prefix of \p Path (from \p I on):
/// a match that ends at a directory covers what lies under it.
static bool matchPrefix(ArrayRef<std::optional<GlobPattern>> Parts, size_t P,
                        ArrayRef<StringRef> Path, size_t I) {
  if (P == Parts.size())
    return true;
  if (!Parts[P]) {
    for (size_t J = I; J <= Path.size(); ++J)
      if (matchPrefix(Parts, P + 1, Path, J))
        return true;
    return false;
  }
  if (I == Path.size())
    return false;
  return Parts[P]->match(Path[I]) && matchPrefix(Parts, P + 1, Path, I + 1);
}

bool PathFilter::excludes(StringRef Path) const {
  if (Patterns.empty())
    return false;
  StringRef Rel = Path;
  StringRef Dir = StringRef(Root).rtrim('/');
  bool Inside = !Dir.empty() && Rel.consume_front(Dir) &&
                (Rel.empty() || Rel.starts_with("/"));
  if (!Inside)
    Rel = Path;
  SmallVector<StringRef, 16> Parts;
  Rel.split(Parts, '/', -1, /*KeepEmpty=*/false);
  for (const Pattern &P : Patterns) {
    if (P.Anchored) {
      if (matchPrefix(P.Parts, 0, Parts, 0))
        return true;
      continue;
    }
    for (size_t I = 0; I < Parts.size(); ++I)
      if (matchPrefix(P.Parts, 0, Parts, I))
        return true;
  }
  return false;
}

} // namespace warplint
