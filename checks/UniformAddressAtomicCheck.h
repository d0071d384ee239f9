//===--- UniformAddressAtomicCheck.h - warp-uniform-address-atomic -*- C++ -*-//

#ifndef WARP_LINT_UNIFORMADDRESSATOMICCHECK_H
#define WARP_LINT_UNIFORMADDRESSATOMICCHECK_H

#include "FixItText.h"
#include "WarpCheckBase.h"

namespace clang::tidy::warp {

/// Flags atomic read-modify-writes that every lane of a warp performs on one
/// warp-uniform address, serializing the warp on that address.
///
/// For the user-facing documentation see:
/// docs/checks/warp-uniform-address-atomic.md
class UniformAddressAtomicCheck : public WarpCheckBase {
public:
  UniformAddressAtomicCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;

private:
  /// Whether several lanes of a warp perform \p Call on \p Address, the
  /// same in every lane, and how the check knows: the witness of a tier it
  /// reports, or nullopt.
  std::optional<LaneWitness> contention(const CallExpr *Call,
                                        const Expr *Address,
                                        const FunctionUniformity &FU,
                                        WarpAnalysis &WA);
  /// The tier note of an atomic finding at \p At.
  void noteContention(SourceLocation At, const LaneWitness &W, ASTContext &Ctx);
  void report(const CallExpr *Atomic, const FunctionUniformity &FU,
              const CallExpr *ViaCall, ASTContext &Ctx, const LaneWitness &W,
              llvm::ArrayRef<const CallExpr *> Path = {},
              bool DivergedInCallee = false);
  /// Adds the rewrite into a warp aggregate plus one atomic; returns
  /// whether it could.
  bool addAggregationFix(DiagnosticBuilder &Diag, const CallExpr *Atomic,
                         const AtomicInfo &Info, const FunctionUniformity &FU,
                         ASTContext &Ctx);
  struct AggregationSite;
  /// The atomic's statement and texts, when a rewrite can keep its meaning.
  std::optional<AggregationSite> aggregationSite(const CallExpr *Atomic,
                                                 const AtomicInfo &Info,
                                                 const FunctionUniformity &FU,
                                                 ASTContext &Ctx);
  /// `T slot = atomicAdd(p, 1);` as one atomic per warp and a slot per lane.
  bool addSlotReservationFix(DiagnosticBuilder &Diag,
                             const AggregationSite &Site,
                             const FunctionUniformity &FU, ASTContext &Ctx);
  /// An atomic statement as a warp reduction and one leader's atomic.
  bool addReductionFix(DiagnosticBuilder &Diag, const AggregationSite &Site,
                       const AtomicInfo &Info, const FunctionUniformity &FU,
                       ASTContext &Ctx);

  const bool IgnoreIntegerAtomics;
  FreshNames Names;
};

} // namespace clang::tidy::warp

#endif
