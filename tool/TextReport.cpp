//===--- TextReport.cpp - findings as clang-tidy prints them --------------===//

#include "TextReport.h"
#include "FindingFacts.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>

using namespace llvm;
using namespace clang::tidy;

namespace warplint {

std::vector<ClangTidyError> withLaneStrips(ArrayRef<ClangTidyError> Diags) {
  std::vector<ClangTidyError> Out(Diags.begin(), Diags.end());
  for (ClangTidyError &E : Out)
    for (clang::tooling::DiagnosticMessage &N : E.Notes)
      if (std::optional<LanePicture> L = parseLaneNote(N.Message))
        N.Message += "\n    mask   " + laneStrip(L->Mask) + "\n    arrive " +
                     laneStrip(L->Arrive);
  return Out;
}

void printText(ArrayRef<ClangTidyError> Diags, ClangTidyContext &Context) {
  if (Diags.empty())
    return;
  unsigned WErrors = 0;
  handleErrors(withLaneStrips(Diags), Context, FB_NoFix, WErrors,
               vfs::getRealFileSystem());
}

Error checkStdout(bool Closed) {
  outs().flush();
  std::error_code EC;
  if (outs().has_error())
    EC = outs().error();
  else if (Closed && outs().tell() > 0)
    EC = std::make_error_code(std::errc::bad_file_descriptor);
  outs().clear_error();
  if (!EC)
    return Error::success();
  return createStringError(EC, "cannot write the report to stdout: " +
                                   EC.message());
}

Expected<std::string> renderText(ArrayRef<ClangTidyError> Diags,
                                 ClangTidyContext &Context) {
  // handleErrors prints only on stdout: point it at a temporary file
  // meanwhile.
  outs().flush();
  int FD = -1;
  SmallString<128> Temp;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("warp-lint-report", "txt", FD, Temp))
    return createStringError(EC,
                             "cannot create a temporary file: " + EC.message());
  int Saved = dup(STDOUT_FILENO);
  dup2(FD, STDOUT_FILENO);
  printText(Diags, Context);
  Error Failed = checkStdout(false);
  dup2(Saved, STDOUT_FILENO);
  close(Saved);
  close(FD);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Temp);
  sys::fs::remove(Temp);
  if (Failed)
    return std::move(Failed);
  if (!Text)
    return createStringError(Text.getError(), "cannot read back the report: " +
                                                  Text.getError().message());
  return (*Text)->getBuffer().str();
}

} // namespace warplint
