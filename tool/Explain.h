//===--- Explain.h - why the analysis believes what it does -----*- C++ -*-===//
//
// --explain FILE:LINE[:COL]: for the collective, atomic, branch or other
// expression there, what the warp-uniformity analysis believes and why: the
// variance of each operand and where it comes from, the branches and early
// exits that reach it, the launches seen, and whether WarpAlignedBlockDimX
// would change the answer. Reference: docs/cli.md.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_EXPLAIN_H
#define WARP_LINT_TOOL_EXPLAIN_H

#include "analysis/ValueEvaluator.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace warplint {

/// The place --explain asks about.
struct ExplainTarget {
  std::string File;    ///< absolute
  std::string Spelled; ///< FILE as the user wrote it, for messages
  unsigned Line = 0;
  unsigned Column = 0; ///< 0: any statement that starts on the line
};

/// Parses `FILE:LINE[:COL]`; FILE is made absolute.
llvm::Expected<ExplainTarget> parseExplainTarget(llvm::StringRef Spec);

/// One thing the analysis believes, at a place in the source.
struct ExplainFact {
  std::string File;
  unsigned Line = 0, Column = 0;
  unsigned Depth = 0; ///< 0: about the subject; deeper: why the one above
  std::string Message;
};

/// The explanation of the statement at the target in one function (each
/// instantiation of a template is its own function).
struct Explanation {
  std::string Function; ///< as diagnostics name it, template arguments too
  std::string Subject;  ///< what the statement is: "'__shfl_sync'", "branch"
  std::string File;
  unsigned Line = 0, Column = 0;
  std::vector<ExplainFact> Facts;
};

struct ExplainResult {
  std::vector<Explanation> Explanations;
  unsigned CompileErrors = 0; ///< the unit's; what parsed is still explained
};

/// Parses the unit of \p Target with its commands in \p Database and
/// explains the statement at the target, with the analysis options \p Opts.
ExplainResult explain(const clang::tooling::CompilationDatabase &Database,
                      const ExplainTarget &Target,
                      const clang::warp::UniformityOptions &Opts);

/// The explanations as indented lines, `file:line:col: message`.
void printExplanations(llvm::raw_ostream &OS, const ExplainResult &R);
/// The explanations as one JSON object (docs/cli.md has the schema).
llvm::json::Value explanationsToJson(const ExplainResult &R);

} // namespace warplint

#endif
