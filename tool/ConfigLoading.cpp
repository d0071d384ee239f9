//===--- ConfigLoading.cpp - clang-tidy configuration for warp-lint -------===//

#include "ConfigLoading.h"
#include "FileWriting.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include <mutex>

using namespace llvm;
using namespace clang::tidy;

namespace warplint {

/// Returns an error carrying the one-line \p Message.
static Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message.str());
}

/// The first broken `.clang-tidy` any provider read, as one line.
static std::mutex ConfigFileErrorLock;
static std::string ConfigFileError;

/// Parses \p Config without printing: returns the first YAML problem as
/// `file:line:col: message` in \p Problem.
static ErrorOr<ClangTidyOptions> parseQuietly(MemoryBufferRef Config,
                                              std::string &Problem) {
  return parseConfigurationWithDiags(Config, [&](const SMDiagnostic &D) {
    if (Problem.empty())
      Problem = formatv("{0}:{1}:{2}: {3}", D.getFilename(), D.getLineNo(),
                        D.getColumnNo() + 1, D.getMessage())
                    .str();
  });
}

/// Reads a discovered `.clang-tidy` as clang-tidy does, but quietly: a broken
/// one is remembered for takeConfigFileError (clang-tidy prints its YAML
/// diagnostics over several lines for every file under it, then ignores it).
static ErrorOr<ClangTidyOptions> readConfigFile(MemoryBufferRef Config) {
  std::string Problem;
  ErrorOr<ClangTidyOptions> Parsed = parseQuietly(Config, Problem);
  if (Parsed)
    return Parsed;
  std::lock_guard<std::mutex> Guard(ConfigFileErrorLock);
  if (ConfigFileError.empty())
    ConfigFileError = "invalid configuration " +
                      (Problem.empty() ? Config.getBufferIdentifier().str() +
                                             ": " + Parsed.getError().message()
                                       : Problem);
  return ClangTidyOptions(); // Unused: the run stops on the error.
}

namespace {
/// Reads .clang-tidy files as clang-tidy does (quietly, see readConfigFile).
/// Unless --checks was given, when a project's configuration enables no
/// warp- check at all (e.g. `Checks: '-*,bugprone-*'`) it re-enables them:
/// running warp-lint asks for its checks. A project that names warp- checks
/// keeps exactly its choice.
class ProjectOptionsProvider : public FileOptionsProvider {
public:
  ProjectOptionsProvider(const ClangTidyOptions &Defaults,
                         const ClangTidyOptions &Overrides,
                         bool AddWarpDefaults)
      : FileOptionsProvider(ClangTidyGlobalOptions(), Defaults, Overrides,
                            {{".clang-tidy", readConfigFile}}),
        AddWarpDefaults(AddWarpDefaults) {
    // The constructor taking handlers leaves the file system unset.
    FS = vfs::createPhysicalFileSystem();
  }

  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    std::vector<OptionsSource> Sources =
        FileOptionsProvider::getRawOptions(FileName);
    if (!AddWarpDefaults)
      return Sources;
    // The first source is the built-in default (`warp-*`); look at what the
    // project's files say.
    bool ProjectNamesWarp = false;
    for (size_t I = 1; I < Sources.size(); ++I)
      ProjectNamesWarp |= Sources[I].first.Checks &&
                          StringRef(*Sources[I].first.Checks).contains("warp-");
    if (!ProjectNamesWarp) {
      ClangTidyOptions Extra;
      Extra.Checks = DefaultChecks.str();
      Sources.emplace_back(Extra, "warp-lint default checks");
    }
    return Sources;
  }

private:
  bool AddWarpDefaults;
};
} // namespace

Error takeConfigFileError() {
  std::lock_guard<std::mutex> Guard(ConfigFileErrorLock);
  if (ConfigFileError.empty())
    return Error::success();
  return fail(std::exchange(ConfigFileError, ""));
}

Expected<ProviderFactory> makeProviderFactory(const ConfigInputs &In) {
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = DefaultChecks.str();
  Defaults.User = sys::Process::GetEnv("USER");

  ClangTidyOptions Overrides;
  if (In.Checks)
    Overrides.Checks = *In.Checks;
  if (In.HeaderFilter)
    Overrides.HeaderFilterRegex = *In.HeaderFilter;
  if (In.WarningsAsErrors)
    Overrides.WarningsAsErrors = *In.WarningsAsErrors;
  for (const auto &[Key, Value] : In.CheckOptions)
    Overrides.CheckOptions[Key] = ClangTidyOptions::ClangTidyValue(Value);

  if (In.Config && In.ConfigFile)
    return fail("--config and --config-file are mutually exclusive");

  std::optional<std::string> Text = In.Config;
  std::string Source = "<command-line-config>";
  if (In.ConfigFile) {
    Expected<std::string> Read = readRegularFile(*In.ConfigFile);
    if (!Read)
      return fail("config file: " + toString(Read.takeError()));
    Text = std::move(*Read);
    Source = *In.ConfigFile;
  }

  if (!Text) {
    bool ChecksGiven = In.Checks.has_value();
    return ProviderFactory(
        [Defaults, Overrides,
         ChecksGiven]() -> std::unique_ptr<ClangTidyOptionsProvider> {
          return std::make_unique<ProjectOptionsProvider>(Defaults, Overrides,
                                                          !ChecksGiven);
        });
  }
  std::string Problem;
  ErrorOr<ClangTidyOptions> Parsed =
      parseQuietly(MemoryBufferRef(*Text, Source), Problem);
  if (!Parsed)
    return fail("invalid configuration " +
                (Problem.empty() ? Source + ": " + Parsed.getError().message()
                                 : Problem));
  ClangTidyOptions Config = *Parsed;
  return ProviderFactory([Defaults, Overrides, Config] {
    return std::make_unique<ConfigOptionsProvider>(
        ClangTidyGlobalOptions(), Defaults, Config, Overrides,
        vfs::createPhysicalFileSystem());
  });
}

} // namespace warplint
