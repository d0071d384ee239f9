//===--- ProjectFile.h - the tool's own options, kept in the repo -*- C++
//-*-===//
///
/// \file `.warp-lint.yaml` holds what a project would otherwise repeat on
/// every command line (in CI, in pre-commit, by hand): the build directory,
/// the jobs, the baseline, the excludes, the failure threshold. It sits
/// beside `.clang-tidy`, which keeps the checks' configuration; warp-lint
/// finds it in the current directory or the closest directory above.
///
///   build-dir: build
///   exclude: [third_party/, '**/*.gen.cu']
///   baseline: warp-lint-baseline.sarif
///   fail-on: warning
///
/// Keys are the long option names. Relative paths are relative to the
/// file's directory. An option given on the command line wins; `--exclude`
/// adds to the file's list.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_PROJECTFILE_H
#define WARP_LINT_TOOL_PROJECTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint {

inline constexpr llvm::StringLiteral ProjectFileName = ".warp-lint.yaml";

/// How a key's value is read.
enum class ProjectValueKind {
  Text, ///< A scalar, used as it is.
  Path, ///< A scalar path, made absolute against the file's directory.
  List, ///< A scalar or a sequence of scalars.
  Flag, ///< true or false.
};

struct ProjectKey {
  llvm::StringLiteral Name;
  ProjectValueKind Kind;
};

struct ProjectSetting {
  std::string Key;
  std::vector<std::string> Values; ///< One, but for List keys.
};

struct ProjectFile {
  std::string Path; ///< Absolute.
  std::string Dir;  ///< Its directory.
  std::vector<ProjectSetting> Settings;
};

/// Returns the closest `.warp-lint.yaml` at or above \p StartDir, or
/// nothing.
std::optional<std::string> findProjectFile(llvm::StringRef StartDir);

/// Reads \p Path, accepting the keys \p Known. A YAML error, an unknown key
/// or a value of the wrong kind is one line: `file:line:col: what`.
llvm::Expected<ProjectFile> readProjectFile(llvm::StringRef Path,
                                            llvm::ArrayRef<ProjectKey> Known);

/// Parses the text of a project file (\p Path for messages and for the
/// directory relative paths are made absolute against).
llvm::Expected<ProjectFile> parseProjectFile(llvm::StringRef Text,
                                             llvm::StringRef Path,
                                             llvm::ArrayRef<ProjectKey> Known);

} // namespace warplint

#endif
