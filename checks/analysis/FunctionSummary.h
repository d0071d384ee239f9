//===--- FunctionSummary.h - what callers learn of a function ---*- C++ -*-===//
//
// A function's summary says what its callers need to know without looking
// inside: its result and what it writes through its parameters, in terms of
// the parameters, and whether it synchronises. Facts that only some checks
// need (the collectives that need the whole warp, the atomics whose address
// the callers decide) are facets: a check declares the facets it reads, and
// the analysis computes every declared facet with each summary, in the same
// walk over the function.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_FUNCTIONSUMMARY_H
#define WARP_LINT_ANALYSIS_FUNCTIONSUMMARY_H

#include "FunctionUniformity.h"
#include "WarpCollectives.h"
#include <array>
#include <memory>

namespace clang::warp {

class WarpAnalysis;
struct FunctionSummary;

/// The facets a summary can carry; one per kind of check-specific fact.
enum class FacetKind : unsigned {
  Collectives, ///< CollectiveFacet
  Atomics,     ///< AtomicFacet
};
constexpr unsigned FacetKinds = 2;

/// A set of facet kinds, one bit per kind.
using FacetSet = unsigned;
constexpr FacetSet AllFacets = (1u << FacetKinds) - 1;
constexpr FacetSet facetBit(FacetKind K) { return 1u << unsigned(K); }

/// The function whose summary is being built, as its facets see it.
struct SummaryWalk {
  const FunctionDecl *FD;
  const FunctionUniformity &FU;
  WarpAnalysis &WA;
};

/// Check-specific facts of one function, built statement by statement while
/// its summary is; the default hooks ignore the statement.
class SummaryFacet {
public:
  virtual ~SummaryFacet();
  /// A warp collective the function runs at \p St, with the divergence of
  /// the lanes that reach it.
  virtual void collective(const Stmt *St, const CollectiveUse &Use,
                          const Divergence &D, const SummaryWalk &W) {}
  /// An atomic the function runs.
  virtual void atomic(const CallExpr *Call, const AtomicInfo &Info,
                      const Divergence &D, const SummaryWalk &W) {}
  /// A call to a function with a summary (\p Callee, for the call's
  /// arguments).
  virtual void call(const CallExpr *Call, const FunctionSummary &Callee,
                    const Divergence &D, const SummaryWalk &W) {}
  /// Whether what it says depends on the parameters in \p Params: a
  /// call-site analysis with their values could then say more.
  virtual bool dependsOn(ParamSet Params) const = 0;
};

struct FunctionSummary {
  WarpValue Result; ///< in terms of the parameters (WarpValue::Params)
  /// A collective or barrier runs inside, directly or through calls.
  const Stmt *Synchronizes = nullptr;
  /// By parameter: what is written through it, if it is a reference or a
  /// pointer (`divmod(int &quotient, ...)`), in terms of the parameters.
  llvm::SmallVector<ParamWrite, 4> ParamWrites;
  /// The declared facets, by FacetKind (null where none declared it).
  std::array<std::unique_ptr<SummaryFacet>, FacetKinds> Facets;

  /// The facet \p F (a SummaryFacet with a static Kind); null unless a check
  /// declared it.
  template <typename F> const F *facet() const {
    return static_cast<const F *>(Facets[unsigned(F::Kind)].get());
  }
  /// Whether the summary says anything that depends on \p Params.
  bool dependsOn(ParamSet Params) const;
};

/// A new, empty facet of kind \p K.
std::unique_ptr<SummaryFacet> makeFacet(FacetKind K);

} // namespace clang::warp

#endif
