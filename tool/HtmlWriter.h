//===--- HtmlWriter.h - findings as one self-contained HTML page -*- C++
//-*-===//
///
/// \file `--format=html`: one file a reviewer opens in a browser, with no
/// outside resource (styles and the small filter script inline, a content
/// security policy that forbids any fetch). Findings grouped by file, each
/// with its code, its notes with their lines, its fix as a before/after
/// diff, and for a mask finding the picture of the witness warp: 32 lanes,
/// which the mask names and which arrive (FindingFacts.h).
///
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_HTMLWRITER_H
#define WARP_LINT_TOOL_HTMLWRITER_H

#include "Finding.h"
#include "SarifWriter.h"

namespace warplint {

struct HtmlOptions {
  std::string Root; ///< Paths under it are shown relative to it.
  std::string ToolVersion;
  /// Problems of the run (units that did not compile, were skipped).
  std::vector<SarifNotification> Notifications;
};

/// Returns the page for \p Findings (compile errors belong in the
/// notifications); \p Lines gives the code.
std::string toHtml(llvm::ArrayRef<Finding> Findings, LineTable &Lines,
                   const HtmlOptions &Options);

/// Returns the SVG picture of \p Lanes: a row for the lanes the mask names
/// and a row for the lanes that arrive, lane 0 leftmost; a lane the mask
/// names that does not arrive is drawn in red.
std::string laneSvg(const LanePicture &Lanes);

/// Escapes \p Text for HTML text and attribute values.
std::string escapeHtml(llvm::StringRef Text);

} // namespace warplint

#endif
