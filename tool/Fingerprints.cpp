//===--- Fingerprints.cpp - finding identities that survive edits ---------===//

#include "Fingerprints.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA1.h"
#include <algorithm>
#include <map>
#include <numeric>

using namespace llvm;

namespace warplint {

std::string normalizeLineText(StringRef Line) {
  std::string Out;
  for (char C : Line)
    if (!isSpace(C))
      Out += C;
  return Out;
}

/// The hash of what identifies \p F, as 32 hex digits.
static std::string identityHash(const Finding &F, StringRef Function,
                                StringRef Line) {
  SHA1 H;
  H.update(F.Check);
  H.update(StringRef("\0", 1));
  H.update(Function);
  H.update(StringRef("\0", 1));
  H.update(normalizeLineText(Line));
  std::array<uint8_t, 20> Digest = H.final();
  return toHex(ArrayRef<uint8_t>(Digest).take_front(16), /*LowerCase=*/true);
}

void assignFingerprints(MutableArrayRef<Finding> Findings,
                        const FunctionIndex &Functions, LineTable &Lines) {
  // File order, not report order: the numbering must not depend on which
  // unit reported a header's finding first.
  std::vector<size_t> Order(Findings.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const Location &L = Findings[A].Loc, &R = Findings[B].Loc;
    return std::tie(L.File, L.Offset) < std::tie(R.File, R.Offset);
  });
  std::map<std::pair<std::string, std::string>, unsigned> Seen;
  for (size_t I : Order) {
    Finding &F = Findings[I];
    if (F.Loc.File.empty())
      continue;
    std::string Hash =
        identityHash(F, Functions.enclosing(F.Loc.File, F.Loc.Offset),
                     Lines.lineText(F.Loc.File, F.Loc.Line));
    unsigned N = ++Seen[{F.Loc.File, Hash}];
    F.Fingerprint = Hash + ":" + std::to_string(N);
  }
}

} // namespace warplint
