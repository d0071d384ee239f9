//===--- ConfigLoading.cpp - clang-tidy configuration for warp-lint -------===//

#include "ConfigLoading.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace clang::tidy;

namespace warplint {

namespace {
/// Reads .clang-tidy files as clang-tidy does, but when a project's
/// configuration enables no warp- check at all (e.g. `Checks: '-*,bugprone-*'`)
/// re-enables them: running warp-lint asks for its checks. A project that
/// names warp- checks keeps exactly its choice.
class WarpDefaultsProvider : public FileOptionsProvider {
public:
  using FileOptionsProvider::FileOptionsProvider;

  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    std::vector<OptionsSource> Sources =
        FileOptionsProvider::getRawOptions(FileName);
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
};
} // namespace

/// Returns an error carrying the one-line \p Message.
static Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message.str());
}

Expected<ProviderFactory> makeProviderFactory(const ConfigInputs &In) {
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = DefaultChecks.str();
  Defaults.User = sys::Process::GetEnv("USER");

  ClangTidyOptions Overrides;
  if (In.Checks)
    Overrides.Checks = *In.Checks;

  if (In.Config && In.ConfigFile)
    return fail("--config and --config-file are mutually exclusive");

  std::optional<std::string> Text = In.Config;
  std::string Source = "<command-line-config>";
  if (In.ConfigFile) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(*In.ConfigFile);
    if (!Buf)
      return fail("cannot read config file " + *In.ConfigFile + ": " +
                  Buf.getError().message());
    Text = (*Buf)->getBuffer().str();
    Source = *In.ConfigFile;
  }

  if (!Text) {
    bool ChecksGiven = In.Checks.has_value();
    return ProviderFactory(
        [Defaults, Overrides, ChecksGiven]() -> std::unique_ptr<ClangTidyOptionsProvider> {
          if (ChecksGiven)
            return std::make_unique<FileOptionsProvider>(
                ClangTidyGlobalOptions(), Defaults, Overrides,
                vfs::createPhysicalFileSystem());
          return std::make_unique<WarpDefaultsProvider>(
              ClangTidyGlobalOptions(), Defaults, Overrides,
              vfs::createPhysicalFileSystem());
        });
  }
  ErrorOr<ClangTidyOptions> Parsed =
      parseConfiguration(MemoryBufferRef(*Text, Source));
  if (!Parsed)
    return fail("invalid configuration in " + Source + ": " +
                Parsed.getError().message());
  ClangTidyOptions Config = *Parsed;
  return ProviderFactory([Defaults, Overrides, Config] {
    return std::make_unique<ConfigOptionsProvider>(
        ClangTidyGlobalOptions(), Defaults, Config, Overrides,
        vfs::createPhysicalFileSystem());
  });
}

} // namespace warplint
