//===--- UnitAnalyses.h - the analyses one front end owns ------*- C++ -*-===//
//
// The checks of one translation unit share one analysis. A front end owns
// one UnitAnalyses (the warp-lint module makes one for the checks it
// creates and hands it to each): the analysis of a unit is made when the
// first check asks for it and freed when the unit ends. Nothing lives
// beyond its owner, so two front ends (or two units) in one process never
// see each other's analyses.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_UNITANALYSES_H
#define WARP_LINT_ANALYSIS_UNITANALYSES_H

#include "WarpAnalysis.h"
#include <map>
#include <memory>
#include <mutex>

namespace clang::warp {

class UnitAnalyses {
public:
  /// Makes the analyses compute \p K with every summary. Checks declare
  /// the facets they read when they are created, before any unit.
  void declareFacet(FacetKind K) { Facets |= facetBit(K); }

  /// The analysis of the unit of \p Ctx under \p Opts (made on first use).
  /// Checks configured with different analysis options get separate ones.
  WarpAnalysis &get(ASTContext &Ctx, const UniformityOptions &Opts);
  /// Frees the analyses of \p Ctx at the end of its unit.
  void release(ASTContext &Ctx);

private:
  /// warp-lint -j runs units on several threads, each with its context.
  std::mutex Lock;
  FacetSet Facets = 0;
  std::map<std::pair<const ASTContext *, UniformityOptions>,
           std::unique_ptr<WarpAnalysis>>
      Analyses;
};

} // namespace clang::warp

#endif
