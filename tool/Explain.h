//===--- Explain.h - why the analysis believes what it does -----*- C++ -*-===//
//
// --explain FILE:LINE[:COL]: finds the collective, atomic, branch or other
// expression there in each function that holds it, and prints what the
// analysis recorded about it (analysis/UniformityPrinter), as text or
// JSON. Reference: docs/cli.md.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_TOOL_EXPLAIN_H
#define WARP_LINT_TOOL_EXPLAIN_H

#include "analysis/UniformityPrinter.h"
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

using clang::warp::ExplainFact;
using clang::warp::Explanation;

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
