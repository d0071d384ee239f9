//===--- UnifiedDiff.cpp - the change of a fixed file as a diff -----------===//

#include "UnifiedDiff.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace warplint {

namespace {
/// Where each line of a text starts; the last line may lack its newline.
class Lines {
public:
  explicit Lines(StringRef Text) : Text(Text) {
    Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n' && I + 1 < Text.size())
        Starts.push_back(I + 1);
  }
  /// The line holding byte \p Offset (an offset at the very end belongs to
  /// the last line).
  size_t lineOf(size_t Offset) const {
    return std::upper_bound(Starts.begin(), Starts.end(), Offset) -
           Starts.begin() - 1;
  }
  size_t count() const { return Text.empty() ? 0 : Starts.size(); }
  size_t begin(size_t Line) const { return Starts[Line]; }
  size_t end(size_t Line) const {
    return Line + 1 < Starts.size() ? Starts[Line + 1] : Text.size();
  }

private:
  StringRef Text;
  std::vector<size_t> Starts;
};

/// A run of old lines [First, Last] and the edits inside it.
struct Region {
  size_t First, Last;
  size_t EditBegin, EditEnd; ///< Indices into the edits.
};
} // namespace

/// Prints \p Text split in lines, each prefixed by \p Mark; a last line
/// without a newline gets git's marker.
static void printLines(raw_ostream &OS, char Mark, StringRef Text) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    bool Newline = Line.size() < Text.size();
    OS << Mark << Line << "\n";
    if (!Newline)
      OS << "\\ No newline at end of file\n";
    Text = Rest;
  }
}

/// Counts the lines of \p Text (a last line without newline counts).
static size_t countLines(StringRef Text) {
  if (Text.empty())
    return 0;
  return Text.count('\n') + (Text.back() == '\n' ? 0 : 1);
}

std::string unifiedDiff(StringRef OldName, StringRef NewName, StringRef Before,
                        ArrayRef<PlannedEdit> Edits, unsigned Context) {
  if (Edits.empty())
    return "";
  Lines Old(Before);
  size_t LineCount = Old.count();
  // The old lines each edit touches, merged where they meet.
  std::vector<Region> Regions;
  for (size_t I = 0; I < Edits.size(); ++I) {
    const PlannedEdit &E = Edits[I];
    size_t First = LineCount ? Old.lineOf(E.Offset) : 0;
    size_t Last =
        LineCount ? Old.lineOf(std::max<size_t>(E.Offset, E.Offset + E.Length))
                  : 0;
    if (!Regions.empty() && First <= Regions.back().Last + 1) {
      Regions.back().Last = std::max(Regions.back().Last, Last);
      Regions.back().EditEnd = I + 1;
      continue;
    }
    Regions.push_back({First, Last, I, I + 1});
  }
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "--- " << OldName << "\n+++ " << NewName << "\n";
  long Shift = 0; // New line numbers minus old ones so far.
  for (size_t R = 0; R < Regions.size();) {
    // One hunk: regions whose context would touch.
    size_t Next = R + 1;
    while (Next < Regions.size() &&
           Regions[Next].First <= Regions[Next - 1].Last + 2 * Context + 1)
      ++Next;
    size_t First = Regions[R].First > Context ? Regions[R].First - Context : 0;
    size_t Last = std::min(Regions[Next - 1].Last + Context,
                           LineCount ? LineCount - 1 : 0);
    std::string Body;
    raw_string_ostream BO(Body);
    size_t OldLines = 0, NewLines = 0;
    size_t Line = First;
    for (size_t I = R; I < Next; ++I) {
      const Region &G = Regions[I];
      for (; Line < G.First && LineCount; ++Line, ++OldLines, ++NewLines)
        BO << ' ' << Before.slice(Old.begin(Line), Old.end(Line));
      // The region's old lines and their new text.
      size_t Begin = LineCount ? Old.begin(G.First) : 0;
      size_t End = LineCount ? Old.end(G.Last) : 0;
      std::string New;
      size_t At = Begin;
      for (size_t J = G.EditBegin; J < G.EditEnd; ++J) {
        New += Before.slice(At, Edits[J].Offset).str() + Edits[J].Text;
        At = std::max<size_t>(At, Edits[J].Offset + Edits[J].Length);
      }
      New += Before.slice(At, End).str();
      StringRef OldText = Before.slice(Begin, End);
      printLines(BO, '-', OldText);
      printLines(BO, '+', New);
      OldLines += countLines(OldText);
      NewLines += countLines(New);
      Line = LineCount ? G.Last + 1 : 0;
    }
    for (; Line <= Last && Line < LineCount; ++Line, ++OldLines, ++NewLines)
      BO << ' ' << Before.slice(Old.begin(Line), Old.end(Line));
    // A context line that is the file's last, without newline.
    if (!Body.empty() && Body.back() != '\n')
      BO << "\n\\ No newline at end of file\n";
    size_t OldStart = OldLines ? First + 1 : First;
    size_t NewStart = NewLines ? First + 1 + Shift : First + Shift;
    OS << formatv("@@ -{0},{1} +{2},{3} @@\n", OldStart, OldLines, NewStart,
                  NewLines)
       << Body;
    Shift += long(NewLines) - long(OldLines);
    R = Next;
  }
  return Out;
}

} // namespace warplint
