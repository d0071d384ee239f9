//===--- PathFilter.h - --exclude patterns ----------------------*- C++ -*-===//
///
/// \file `--exclude=PATTERN` (and `exclude:` in the project file) leaves out
/// units and findings whose file matches, with .gitignore's rules for the
/// patterns a project needs:
///
/// - a pattern is matched against the path relative to the project root,
///   component by component; `*` and `?` stay inside one component, `**`
///   spans any number of them;
/// - a pattern without a `/` but at its end (`third_party`, `*.gen.cu`)
///   matches at any depth; one with a `/` before its end (`src/gen/*`,
///   `/third_party`) is anchored at the root;
/// - a pattern that matches a directory excludes everything under it
///   (`third_party/` and `third_party` alike).
///
/// Files outside the root are matched by their absolute path.
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_PATHFILTER_H
#define WARP_LINT_TOOL_PATHFILTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint {

class PathFilter {
public:
  /// Adds \p Pattern; an empty one or a bad `[` class is an error.
  llvm::Error add(llvm::StringRef Pattern);
  /// Sets the directory relative patterns are matched under (absolute).
  void setRoot(llvm::StringRef Dir) { Root = Dir.str(); }
  const std::string &root() const { return Root; }
  bool empty() const { return Patterns.empty(); }

  /// Whether \p Path (absolute) is excluded.
  bool excludes(llvm::StringRef Path) const;

private:
  struct Pattern {
    /// One per component; none for "**", which spans several.
    std::vector<std::optional<llvm::GlobPattern>> Parts;
    bool Anchored = false;
  };
  std::vector<Pattern> Patterns;
  std::string Root;
};

} // namespace warplint

#endif
