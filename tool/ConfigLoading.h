//===--- ConfigLoading.h - clang-tidy configuration for warp-lint -*- C++
//-*-===//
///
/// \file Builds clang-tidy's options providers exactly as clang-tidy does
/// (`.clang-tidy` discovery, `--config`, `--config-file`, `--checks`
/// appended last), with `warp-*` as the default check list.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_CONFIGLOADING_H
#define WARP_LINT_TOOL_CONFIGLOADING_H

#include "Runner.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace warplint {

/// The default `--checks`: every check this binary has.
inline constexpr llvm::StringLiteral DefaultChecks = "warp-*";

struct ConfigInputs {
  std::optional<std::string> Checks;           ///< --checks
  std::optional<std::string> Config;           ///< --config (YAML/JSON text)
  std::optional<std::string> ConfigFile;       ///< --config-file
  std::optional<std::string> HeaderFilter;     ///< --header-filter
  std::optional<std::string> WarningsAsErrors; ///< --warnings-as-errors
  /// Check options set on the command line (--tiers), over any file's.
  std::vector<std::pair<std::string, std::string>> CheckOptions;
};

/// Validates the inputs once (a bad config is a usage error) and returns a
/// factory making one provider per translation unit.
llvm::Expected<ProviderFactory> makeProviderFactory(const ConfigInputs &In);

/// Returns (and forgets) the first broken `.clang-tidy` that a provider of
/// makeProviderFactory read, as a one-line error; success if none was.
llvm::Error takeConfigFileError();

} // namespace warplint

#endif
