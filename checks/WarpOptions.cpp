//===--- WarpOptions.cpp - the analysis options, read one way -------------===//

#include "WarpOptions.h"
#include "llvm/Support/YAMLParser.h"

namespace clang::tidy::warp {

static constexpr llvm::StringLiteral AlignedKey = "WarpAlignedBlockDimX";

std::optional<llvm::StringRef>
localOrGlobal(const ClangTidyOptions::OptionMap &Options, llvm::StringRef Check,
              llvm::StringRef Key) {
  auto It = Options.find((Check + "." + Key).str());
  if (It == Options.end())
    It = Options.find(Key);
  if (It == Options.end())
    return std::nullopt;
  return llvm::StringRef(It->getValue().Value);
}

std::optional<bool> parseBoolOption(llvm::StringRef Value) {
  if (std::optional<bool> B = llvm::yaml::parseBool(Value))
    return B;
  long long Number;
  if (!Value.getAsInteger(10, Number))
    return Number != 0;
  return std::nullopt;
}

bool setsAnalysisOptions(const ClangTidyOptions::OptionMap &Options,
                         llvm::StringRef Check) {
  return Options.count((Check + "." + AlignedKey).str()) != 0;
}

::clang::warp::UniformityOptions
analysisOptionsOf(const ClangTidyOptions::OptionMap &Options,
                  llvm::StringRef Check) {
  ::clang::warp::UniformityOptions O;
  if (std::optional<llvm::StringRef> V =
          localOrGlobal(Options, Check, AlignedKey))
    O.ThreadIdxYZUniform = parseBoolOption(*V).value_or(false);
  return O;
}

} // namespace clang::tidy::warp
