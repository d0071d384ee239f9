//===--- InputManifest.h - a unit's inputs, known cheaply -------*- C++ -*-===//
///
/// \file Knowing a unit's cache key (ResultCache.h) takes preprocessing it,
/// which on a CUDA unit (the runtime wrapper headers, libstdc++) is most of
/// a warm run. Like ccache's direct mode, a manifest remembers what the last
/// preprocessing of the unit read, keyed on what can be known without it
/// (the commands, configuration and tool version):
///  - every file entered, by absolute path, with a hash of its text;
///  - every place the preprocessor could have looked for an `#include` or
///    `__has_include` name before it found one (each search directory
///    joined with the name, and the including file's own directory for a
///    quoted name), and whether something was there.
/// When every file still has its text and every such place is still as it
/// was, the preprocessor would enter the same files in the same order, so
/// the unit's key is the one recorded. The second list is what catches a
/// new header that shadows an old one earlier in the include path, which a
/// list of files alone would miss.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_INPUTMANIFEST_H
#define WARP_LINT_TOOL_INPUTMANIFEST_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct InputManifest {
  struct EnteredFile {
    std::string Path;
    uint64_t TextHash;
  };
  struct Probe {
    std::string Path;
    bool Exists;
  };
  std::vector<EnteredFile> Files;
  std::vector<Probe> Probes;
  /// The result-cache key these inputs gave.
  std::string ResultKey;
  /// A lookup could not be written down (a header map, a framework): the
  /// manifest is not kept.
  bool Incomplete = false;

  /// Whether preprocessing the unit now would read exactly these inputs.
  /// Reads each file through \p FS (so it is stamped for --fix).
  bool stillHolds(llvm::vfs::FileSystem &FS) const;
};

/// The hash of a file's text, as the manifest keeps it.
uint64_t hashText(llvm::StringRef Text);

llvm::json::Value toJson(const InputManifest &M);
std::optional<InputManifest> inputManifestFromJson(const llvm::json::Value &V);

} // namespace warplint

#endif
