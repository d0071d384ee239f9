//===--- HtmlSample.cpp - an HTML report with lane pictures, for a browser ===//
///
/// \file `warp-lint-html-sample <source.cu> <out.html>` writes the HTML
/// report of two findings in \p source.cu that carry a tier, a consequence
/// and a lane picture, as the checks attach them (FindingFacts.h), so that
/// the browser test (run_cli_tests.py, group html-report) can check that
/// lane pictures render whether or not the checks of this build attach
/// them yet.
///
//===----------------------------------------------------------------------===//

#include "FileWriting.h"
#include "HtmlWriter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace warplint;

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: warp-lint-html-sample <source.cu> <out.html>\n";
    return 2;
  }
  std::string Source = argv[1];
  LineTable Lines;
  llvm::StringRef Text = Lines.fileText(Source);
  if (Text.empty()) {
    llvm::errs() << "warp-lint-html-sample: cannot read " << Source << "\n";
    return 2;
  }
  // Two findings at the first two shuffles of the file.
  std::vector<Finding> Findings;
  size_t From = 0;
  const uint32_t Arrive[] = {0x0000ffffu, 0x7fffffffu};
  for (int I = 0; I < 2; ++I) {
    size_t At = Text.find("__shfl", From);
    if (At == llvm::StringRef::npos)
      At = From;
    From = At + 1;
    Finding F;
    F.Check = "warp-divergent-full-mask";
    F.Message = "full warp mask passed to a shuffle in divergent code";
    F.Loc.File = Source;
    F.Loc.Offset = At;
    Lines.resolve(F.Loc);
    std::vector<std::string> Notes = {
        I == 0 ? "witness: in a 32x1 block, lanes 16..31 take the else branch"
               : "condition: the last warp is partial when n % 32 != 0",
        "consequence: wrong-values: values read from lanes that left are "
        "undefined",
        "lanes: mask 0xffffffff arrive 0x" +
            llvm::utohexstr(Arrive[I], /*LowerCase=*/true, 8)};
    for (const std::string &N : Notes)
      F.Notes.push_back({N, F.Loc});
    F.Facts = readFindingFacts(Notes);
    F.Level = tierLevel(F.Facts.Level).str();
    Findings.push_back(std::move(F));
  }
  HtmlOptions O;
  O.ToolVersion = "sample";
  if (llvm::Error E = writeFile(argv[2], toHtml(Findings, Lines, O))) {
    llvm::errs() << "warp-lint-html-sample: " << llvm::toString(std::move(E))
                 << "\n";
    return 2;
  }
  return 0;
}
