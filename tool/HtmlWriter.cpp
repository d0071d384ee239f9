//===--- HtmlWriter.cpp - findings as one self-contained HTML page --------===//

#include "HtmlWriter.h"
#include "Summary.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace llvm;

namespace warplint {

std::string escapeHtml(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

// The lane colours; the browser test looks for them in a screenshot.
static constexpr StringLiteral Named = "#0969da";   // the mask names it
static constexpr StringLiteral Unnamed = "#d0d7de"; // not in the mask
static constexpr StringLiteral Arrives = "#1a7f37"; // named and arrives
static constexpr StringLiteral Missing = "#cf222e"; // named, never arrives
static constexpr StringLiteral Extra = "#8250df";   // arrives, not named

std::string laneSvg(const LanePicture &Lanes) {
  constexpr unsigned Cell = 14, Label = 52, Row = 18;
  std::string Svg;
  raw_string_ostream OS(Svg);
  unsigned Width = Label + 32 * Cell + 1, Height = 2 * Row + 14;
  unsigned NamedCount = popcount(Lanes.Mask);
  unsigned MissingCount = popcount(Lanes.Mask & ~Lanes.Arrive);
  OS << formatv("<svg class=\"lanes\" xmlns=\"http://www.w3.org/2000/svg\" "
                "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                "role=\"img\" aria-label=\"the mask names {2} lanes; {3} of "
                "them do not arrive\">",
                Width, Height, NamedCount, MissingCount);
  const char *Names[] = {"mask", "arrive"};
  for (unsigned R = 0; R < 2; ++R) {
    unsigned Y = R * Row;
    OS << formatv("<text x=\"0\" y=\"{0}\" class=\"lane-label\">{1}</text>",
                  Y + 12, Names[R]);
    for (unsigned L = 0; L < 32; ++L) {
      bool InMask = Lanes.Mask >> L & 1, Arrived = Lanes.Arrive >> L & 1;
      StringRef Fill;
      std::string What;
      if (R == 0) {
        Fill = InMask ? Named : Unnamed;
        What = InMask ? "named by the mask" : "not in the mask";
      } else if (InMask) {
        Fill = Arrived ? Arrives : Missing;
        What = Arrived ? "arrives" : "named but never arrives";
      } else {
        Fill = Arrived ? Extra : Unnamed;
        What = Arrived ? "arrives, not named by the mask" : "does not arrive";
      }
      OS << formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                    "fill=\"{4}\"><title>lane {5}: {6}</title></rect>",
                    Label + L * Cell, Y, Cell - 2, Row - 4, Fill, L, What);
    }
  }
  for (unsigned L = 0; L < 32; L += 8)
    OS << formatv("<text x=\"{0}\" y=\"{1}\" class=\"lane-number\">{2}</text>",
                  Label + L * Cell, 2 * Row + 10, L);
  OS << "</svg>";
  return Svg;
}

/// `file:line:col` of \p Loc, the file relative to \p Root.
static std::string place(const Location &Loc, StringRef Root) {
  if (Loc.File.empty())
    return "";
  return formatv("{0}:{1}:{2}", displayPath(Loc.File, Root), Loc.Line,
                 Loc.Column)
      .str();
}

/// Lines \p First..\p Last of \p File with numbers; \p Mark is highlighted
/// with a caret under column \p Column.
static void printCode(raw_ostream &OS, LineTable &Lines, StringRef File,
                      unsigned First, unsigned Last, unsigned Mark,
                      unsigned Column) {
  unsigned Count = Lines.lineCount(File);
  if (!Count || !Mark)
    return;
  First = std::max(1u, First);
  Last = std::min(Count, Last);
  OS << "<pre class=\"code\">";
  for (unsigned N = First; N <= Last; ++N) {
    StringRef Text = Lines.lineText(File, N);
    OS << formatv("<span class=\"ln\">{0,5}</span> ", N);
    if (N == Mark) {
      OS << "<span class=\"hit\">" << escapeHtml(Text) << "</span>\n";
      if (Column)
        OS << "<span class=\"ln\">     </span> <span class=\"caret\">"
           << std::string(Column - 1, ' ') << "^</span>\n";
    } else {
      OS << escapeHtml(Text) << "\n";
    }
  }
  OS << "</pre>";
}

/// The before and after of the lines \p F's fix changes, per file.
static void printFix(raw_ostream &OS, const Finding &F, LineTable &Lines,
                     StringRef Root) {
  std::map<std::string, std::vector<const FindingFix *>> ByFile;
  for (const FindingFix &X : F.Fixes)
    if (!X.Loc.File.empty())
      ByFile[X.Loc.File].push_back(&X);
  for (auto &[File, Edits] : ByFile) {
    StringRef Text = Lines.fileText(File);
    if (Text.empty())
      continue;
    llvm::sort(Edits, [](const FindingFix *A, const FindingFix *B) {
      return A->Loc.Offset < B->Loc.Offset;
    });
    // Whole lines around the edits: from the start of the first edit's
    // line to the end of the last edit's.
    size_t Begin = Edits.front()->Loc.Offset, End = Begin;
    for (const FindingFix *X : Edits)
      End = std::max<size_t>(End, X->Loc.Offset + X->Length);
    if (Begin > Text.size() || End > Text.size())
      continue;
    size_t LineBegin = Text.rfind('\n', Begin); // Looks before Begin.
    LineBegin = LineBegin == StringRef::npos ? 0 : LineBegin + 1;
    size_t LineEnd = Text.find('\n', End);
    if (LineEnd == StringRef::npos)
      LineEnd = Text.size();
    std::string After;
    size_t At = LineBegin;
    for (const FindingFix *X : Edits) {
      if (X->Loc.Offset < At)
        continue; // Overlapping edits are not a whole fix: skip.
      After += Text.slice(At, X->Loc.Offset).str() + X->Replacement;
      At = X->Loc.Offset + X->Length;
    }
    After += Text.slice(At, LineEnd).str();
    SmallVector<StringRef, 8> Old, New;
    Text.slice(LineBegin, LineEnd).split(Old, '\n');
    StringRef(After).split(New, '\n');
    OS << "<div class=\"fix\"><div class=\"fix-title\">fix in "
       << escapeHtml(displayPath(File, Root)) << "</div><pre class=\"diff\">";
    for (StringRef L : Old)
      OS << "<span class=\"del\">- " << escapeHtml(L) << "</span>\n";
    for (StringRef L : New)
      OS << "<span class=\"add\">+ " << escapeHtml(L) << "</span>\n";
    OS << "</pre></div>";
  }
}

static void printFinding(raw_ostream &OS, const Finding &F, size_t Id,
                         LineTable &Lines, StringRef Root) {
  StringRef Tier = tierName(F.Facts.Level);
  OS << formatv("<article class=\"finding\" id=\"finding-{0}\" "
                "data-tier=\"{1}\" data-check=\"{2}\">",
                Id, Tier, escapeHtml(F.Check));
  OS << "<h3><span class=\"badge level-" << escapeHtml(F.Level) << "\">"
     << escapeHtml(F.Level) << "</span> <span class=\"badge tier\">" << Tier
     << "</span>";
  if (!F.Facts.Consequence.empty())
    OS << " <span class=\"badge consequence\">"
       << escapeHtml(F.Facts.Consequence) << "</span>";
  OS << " <span class=\"where\">" << escapeHtml(place(F.Loc, Root))
     << "</span></h3>";
  OS << "<p class=\"message\">" << escapeHtml(F.Message)
     << " <code class=\"check\">[" << escapeHtml(F.Check) << "]</code></p>";
  printCode(OS, Lines, F.Loc.File, F.Loc.Line - std::min(F.Loc.Line, 2u),
            F.Loc.Line + 2, F.Loc.Line, F.Loc.Column);
  if (F.Facts.Lanes)
    OS << "<div class=\"lane-picture\"><div class=\"caption\">the witness "
          "warp: lanes the mask names, lanes that arrive</div>"
       << laneSvg(*F.Facts.Lanes)
       << "<div class=\"legend\"><span style=\"background:" << Named
       << "\"></span>named <span style=\"background:" << Arrives
       << "\"></span>arrives <span style=\"background:" << Missing
       << "\"></span>named, never arrives <span style=\"background:" << Extra
       << "\"></span>arrives, not named</div></div>";
  if (!F.Notes.empty()) {
    OS << "<ol class=\"notes\">";
    for (const FindingNote &N : F.Notes) {
      OS << "<li><span class=\"where\">" << escapeHtml(place(N.Loc, Root))
         << "</span> " << escapeHtml(N.Message);
      if (!N.Loc.File.empty())
        printCode(OS, Lines, N.Loc.File, N.Loc.Line, N.Loc.Line, N.Loc.Line, 0);
      OS << "</li>";
    }
    OS << "</ol>";
  }
  printFix(OS, F, Lines, Root);
  OS << "</article>\n";
}

static constexpr StringLiteral Style = R"css(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1f2328;
  background: #f6f8fa; }
header { background: #24292f; color: #fff; padding: 16px 24px; }
header h1 { margin: 0 0 4px; font-size: 20px; }
main { padding: 16px 24px; max-width: 1100px; }
nav ul { columns: 2; padding-left: 18px; }
section.file { margin: 24px 0; }
section.file > h2 { font: 600 16px ui-monospace, monospace; }
article.finding { background: #fff; border: 1px solid #d0d7de;
  border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
article.finding h3 { margin: 0; font-size: 14px; }
.badge { display: inline-block; padding: 0 7px; border-radius: 10px;
  font-size: 12px; border: 1px solid #d0d7de; }
.level-error { background: #ffebe9; } .level-warning { background: #fff8c5; }
.level-note { background: #ddf4ff; } .consequence { background: #fbefff; }
.where { font-family: ui-monospace, monospace; color: #57606a; }
.message { margin: 6px 0; }
pre { background: #f6f8fa; padding: 6px 8px; overflow-x: auto;
  font: 12px/1.4 ui-monospace, monospace; margin: 4px 0; }
.ln { color: #8c959f; user-select: none; }
.hit { background: #fff8c5; } .caret { color: #cf222e; }
.notes { margin: 6px 0; padding-left: 22px; }
.notes pre { margin: 2px 0 6px; }
.lane-picture { margin: 8px 0; }
.lane-picture .caption, .fix-title { color: #57606a; font-size: 12px; }
.lane-label, .lane-number { font: 11px ui-monospace, monospace;
  fill: #57606a; }
.legend { font-size: 12px; color: #57606a; }
.legend span { display: inline-block; width: 10px; height: 10px;
  margin: 0 3px 0 10px; vertical-align: middle; }
.diff .del { color: #82071e; background: #ffebe9; display: block; }
.diff .add { color: #116329; background: #dafbe1; display: block; }
.filters label { margin-right: 12px; }
.problems li { font-family: ui-monospace, monospace; }
.hidden { display: none; }
)css";

// Tier filters, and a count of the lane pictures the browser laid out
// (data-lane-strips on <html>) for whoever checks that they render.
static constexpr StringLiteral Script = R"js(
(function () {
  'use strict';
  function apply() {
    var shown = {};
    document.querySelectorAll('.filters input').forEach(function (box) {
      shown[box.value] = box.checked;
    });
    document.querySelectorAll('article.finding').forEach(function (f) {
      f.classList.toggle('hidden', shown[f.dataset.tier] === false);
    });
  }
  document.querySelectorAll('.filters input').forEach(function (box) {
    box.addEventListener('change', apply);
  });
  var drawn = 0;
  document.querySelectorAll('svg.lanes').forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    if (box.width > 0 && box.height > 0 &&
        svg.querySelectorAll('rect').length === 64)
      drawn++;
  });
  document.documentElement.dataset.laneStrips = String(drawn);
})();
)js";

std::string toHtml(ArrayRef<Finding> Findings, LineTable &Lines,
                   const HtmlOptions &Options) {
  std::string Page;
  raw_string_ostream OS(Page);
  // Files in order of first finding; findings in report order within.
  std::vector<std::string> Files;
  std::map<std::string, std::vector<size_t>> ByFile;
  size_t ByTier[4] = {0, 0, 0, 0};
  for (size_t I = 0; I < Findings.size(); ++I) {
    const std::string &File = Findings[I].Loc.File;
    if (!ByFile.count(File))
      Files.push_back(File);
    ByFile[File].push_back(I);
    ++ByTier[unsigned(Findings[I].Facts.Level)];
  }
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
        "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        "<meta name=\"viewport\" content=\"width=device-width\">"
        "<title>warp-lint report</title><style>"
     << Style << "</style></head><body>\n";
  OS << "<header><h1>warp-lint report</h1><div>" << Findings.size()
     << (Findings.size() == 1 ? " finding" : " findings") << " in "
     << Files.size() << (Files.size() == 1 ? " file" : " files");
  for (Tier T : {Tier::Proven, Tier::Conditional, Tier::Data, Tier::Potential})
    if (ByTier[unsigned(T)])
      OS << " · " << ByTier[unsigned(T)] << " " << tierName(T);
  OS << " · warp-lint " << escapeHtml(Options.ToolVersion)
     << "</div></header>\n<main>";
  if (!Options.Notifications.empty()) {
    OS << "<section class=\"problems\"><h2>Not analysed whole</h2><ul>";
    for (const SarifNotification &N : Options.Notifications)
      OS << "<li>" << escapeHtml(N.Level) << ": " << escapeHtml(N.Message)
         << "</li>";
    OS << "</ul></section>";
  }
  if (Findings.empty()) {
    OS << "<p>No findings.</p>";
  } else {
    OS << "<div class=\"filters\">Show tiers: ";
    for (Tier T :
         {Tier::Proven, Tier::Conditional, Tier::Data, Tier::Potential})
      if (ByTier[unsigned(T)])
        OS << "<label><input type=\"checkbox\" checked value=\"" << tierName(T)
           << "\"> " << tierName(T) << " (" << ByTier[unsigned(T)]
           << ")</label>";
    OS << "</div><nav><ul>";
    for (size_t I = 0; I < Files.size(); ++I)
      OS << formatv("<li><a href=\"#file-{0}\">{1}</a> ({2})</li>", I,
                    escapeHtml(displayPath(Files[I], Options.Root)),
                    ByFile[Files[I]].size());
    OS << "</ul></nav>\n";
  }
  for (size_t I = 0; I < Files.size(); ++I) {
    OS << formatv("<section class=\"file\" id=\"file-{0}\"><h2>{1}</h2>\n", I,
                  escapeHtml(Files[I].empty()
                                 ? std::string("(no file)")
                                 : displayPath(Files[I], Options.Root)));
    for (size_t Index : ByFile[Files[I]])
      printFinding(OS, Findings[Index], Index, Lines, Options.Root);
    OS << "</section>\n";
  }
  OS << "</main><script>" << Script << "</script></body></html>\n";
  return Page;
}

} // namespace warplint
