//===--- Summary.cpp - what a run did, in a few lines ---------------------===//

#include "Summary.h"
#include "Finding.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace warplint {

std::string displayPath(StringRef Path, StringRef Root) {
  StringRef Dir = Root.rtrim('/');
  StringRef Rel = Path;
  if (!Dir.empty() && Rel.consume_front(Dir) && Rel.starts_with("/"))
    return Rel.drop_front().str();
  return Path.str();
}

/// `N thing` or `N things`.
static std::string count(size_t N, StringRef One, StringRef Many) {
  return formatv("{0} {1}", N, N == 1 ? One : Many).str();
}

/// `a 3, b 2, c 1` from counts, most first, then by name; at most \p Max
/// entries and `… N more`.
static std::string ranked(const std::map<std::string, size_t> &Counts,
                          size_t Max) {
  std::vector<std::pair<std::string, size_t>> Items(Counts.begin(),
                                                    Counts.end());
  llvm::sort(Items, [](const auto &A, const auto &B) {
    return A.second != B.second ? A.second > B.second : A.first < B.first;
  });
  std::string Out;
  for (size_t I = 0; I < Items.size() && I < Max; ++I)
    Out +=
        formatv("{0}{1} {2}", I ? ", " : "", Items[I].first, Items[I].second);
  if (Items.size() > Max)
    Out += formatv(", and {0} more", Items.size() - Max);
  return Out;
}

void printSummary(raw_ostream &OS, const RunResults &Results,
                  const RunStats &Stats) {
  std::map<std::string, size_t> ByCheck, ByFile;
  size_t ByTier[4] = {0, 0, 0, 0};
  size_t Findings = 0;
  LineTable Lines;
  for (const ClangTidyError &E : Results.Diagnostics) {
    if (isCompilerError(E))
      continue;
    ++Findings;
    ++ByCheck[E.DiagnosticName];
    ++ByTier[unsigned(factsOf(E).Level)];
    std::vector<Finding> F = toFindings({E}, Lines);
    ++ByFile[displayPath(F.front().Loc.File, Stats.Root)];
  }
  std::string Head =
      formatv("warp-lint: {0} in {1:f1} s (-j {2}",
              count(Stats.Units, "unit", "units"), Stats.Seconds, Stats.Jobs)
          .str();
  if (Stats.CacheOn)
    Head += formatv(", {0} from the cache", Results.CacheHits).str();
  if (Stats.Excluded)
    Head += formatv(", {0} excluded", Stats.Excluded).str();
  Head += "): ";
  if (!Findings)
    Head += "no findings";
  else
    Head += count(Findings, "finding", "findings") + " in " +
            count(ByFile.size(), "file", "files");
  OS << Head << "\n";
  if (Findings) {
    std::string Tiers;
    for (Tier T :
         {Tier::Proven, Tier::Conditional, Tier::Data, Tier::Potential})
      if (ByTier[unsigned(T)])
        Tiers += formatv("{0}{1} {2}", Tiers.empty() ? "" : ", ",
                         ByTier[unsigned(T)], tierName(T));
    OS << "warp-lint:   by tier: " << Tiers << "\n";
    OS << "warp-lint:   by check: " << ranked(ByCheck, ByCheck.size()) << "\n";
    OS << "warp-lint:   by file: " << ranked(ByFile, 10) << "\n";
  }
  size_t NotGenerated = llvm::count_if(
      Results.Skipped, [](const SkippedUnit &S) { return S.NotGenerated; });
  size_t Unreadable = Results.Skipped.size() - NotGenerated;
  size_t Failed = Results.Failures.size();
  if (NotGenerated || Unreadable || Failed) {
    std::vector<std::string> Parts;
    if (Unreadable)
      Parts.push_back(count(Unreadable, "unit", "units") +
                      " missing or unreadable");
    if (NotGenerated)
      Parts.push_back(count(NotGenerated, "unit", "units") +
                      " not generated yet");
    if (Failed)
      Parts.push_back(count(Failed, "unit", "units") + " not analysed whole");
    OS << "warp-lint:   not analysed: " << join(Parts, ", ") << "\n";
  }
}

} // namespace warplint
