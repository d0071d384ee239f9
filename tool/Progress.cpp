//===--- Progress.cpp - how far a run has come, on stderr -----------------===//

#include "Progress.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace warplint {

std::optional<ProgressMode> parseProgressMode(StringRef Value,
                                              bool StderrIsTerminal) {
  if (Value == "auto")
    return StderrIsTerminal ? ProgressMode::Terminal : ProgressMode::Lines;
  if (Value == "lines")
    return ProgressMode::Lines;
  if (Value == "none")
    return ProgressMode::None;
  return std::nullopt;
}

ProgressReporter::ProgressReporter(ProgressMode Mode, size_t Total,
                                   raw_ostream &OS, Clock::time_point Start)
    : Mode(Mode), Total(Total), OS(OS), Start(Start), LastLine(Start) {}

void ProgressReporter::unitDone(StringRef Name, Clock::time_point Now) {
  ++Done;
  if (Mode == ProgressMode::None)
    return;
  if (Mode == ProgressMode::Terminal) {
    OS << "\r\x1b[K[" << Done << "/" << Total << "] " << Name;
    OS.flush();
    LinePending = true;
    return;
  }
  // The last unit needs no line: the summary follows.
  if (Done == Total)
    return;
  unsigned Tenth = Done * 10 / Total;
  auto SinceLast = Now - LastLine;
  bool NewTenth = Tenth > LastTenth && SinceLast >= std::chrono::seconds(1);
  if (!NewTenth && SinceLast < std::chrono::seconds(30))
    return;
  LastTenth = Tenth;
  LastLine = Now;
  double Elapsed = std::chrono::duration<double>(Now - Start).count();
  OS << formatv("warp-lint: [{0}/{1}] {2} ({3:f1} s)\n", Done, Total, Name,
                Elapsed);
  OS.flush();
}

void ProgressReporter::clear() {
  if (!LinePending)
    return;
  OS << "\r\x1b[K";
  OS.flush();
  LinePending = false;
}

} // namespace warplint
