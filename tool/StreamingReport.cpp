//===--- StreamingReport.cpp - findings printed as units finish -----------===//

#include "StreamingReport.h"
#include "RunResults.h"
#include "TextReport.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace warplint {

StreamingReport::StreamingReport(size_t Units, bool StableOrder, Target To,
                                 clang::tidy::ClangTidyContext &Context,
                                 Filter Keep)
    : StableOrder(StableOrder), To(To), Context(Context),
      Keep(std::move(Keep)) {
  if (StableOrder)
    Waiting.resize(Units);
}

void StreamingReport::unitDone(size_t Index, const UnitResult &R) {
  if (!StableOrder) {
    print(R.Errors);
    return;
  }
  Waiting[Index] = R.Errors;
  for (; Next < Waiting.size() && Waiting[Next]; ++Next) {
    print(*Waiting[Next]);
    Waiting[Next].reset();
  }
}

void StreamingReport::print(const std::vector<ClangTidyError> &Errors) {
  std::vector<ClangTidyError> New;
  for (const ClangTidyError &E : Errors) {
    if (Hold && Hold(E)) {
      Held.insert(diagnosticKey(E));
      continue;
    }
    if (Seen.insert(diagnosticKey(E)).second && Keep(E))
      New.push_back(E);
  }
  if (New.empty() || WriteError)
    return;
  PrintedAny = true;
  if (To == Target::Stdout) {
    printText(New, Context);
    if (Error E = checkStdout(false))
      WriteError = toString(std::move(E));
    return;
  }
  Expected<std::string> Text = renderText(New, Context);
  if (!Text) {
    WriteError = toString(Text.takeError());
    return;
  }
  errs() << *Text;
  errs().flush();
}

void StreamingReport::printHeld(const std::vector<ClangTidyError> &Final) {
  Hold = nullptr;
  std::vector<ClangTidyError> Still;
  for (const ClangTidyError &E : Final)
    if (Held.count(diagnosticKey(E)))
      Still.push_back(E);
  Held.clear();
  print(Still);
}

Error StreamingReport::takeError() {
  if (!WriteError)
    return Error::success();
  return createStringError(*std::exchange(WriteError, std::nullopt));
}

} // namespace warplint
