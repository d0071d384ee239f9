//===--- CollectiveFacet.cpp - collectives callers must enter whole -------===//

#include "CollectiveFacet.h"
#include "WarpAnalysis.h"

namespace clang::warp {

void CollectiveFacet::collective(const Stmt *St, const CollectiveUse &Use,
                                 const Divergence &D, const SummaryWalk &W) {
  if (hasFullMask(Use, W.FU, W.WA.context())) {
    if (!D.isDiverged())
      FullWarp.push_back({St, W.FD, D.ParamConditions, St});
  } else if (const ParmVarDecl *P = maskParameter(Use.Mask)) {
    if (P->getDeclContext() == W.FD)
      MaskParams.push_back({P->getFunctionScopeIndex(), St, W.FD,
                            D.isDiverged(), D.ParamConditions, St});
  }
}

void CollectiveFacet::call(const CallExpr *Call, const FunctionSummary &Callee,
                           const Divergence &D, const SummaryWalk &W) {
  const CollectiveFacet *C = Callee.facet<CollectiveFacet>();
  if (!C)
    return;
  llvm::ArrayRef<const Expr *> Args = callArguments(Call);
  // The callee's needs become ours where our lanes are still together and
  // its conditions do not read arguments that vary here.
  if (!D.isDiverged())
    for (const FullWarpNeed &N : C->FullWarp) {
      bool Varying = false;
      ParamSet Cond =
          D.ParamConditions | mapParams(N.ParamConditions, Call, W.FU, Varying);
      if (!Varying)
        FullWarp.push_back({N.Collective, N.Owner, Cond, Call});
    }
  // A full mask handed to the helper makes its collective a need of this
  // function.
  for (const MaskParam &M : C->MaskParams) {
    Expr::EvalResult R;
    bool Varying = false;
    ParamSet Cond =
        D.ParamConditions | mapParams(M.ParamConditions, Call, W.FU, Varying);
    if (M.Index < Args.size() && !M.DivergedInside && !D.isDiverged() &&
        !Varying && !Args[M.Index]->isValueDependent() &&
        Args[M.Index]->EvaluateAsInt(R, W.WA.context()) &&
        isFullMask(R.Val.getInt().getZExtValue()))
      FullWarp.push_back({M.Collective, M.Owner, Cond, Call});
  }
  // Our own mask parameter handed on as the helper's mask.
  for (const MaskParam &M : C->MaskParams)
    if (M.Index < Args.size())
      if (const ParmVarDecl *P = maskParameter(Args[M.Index]))
        if (P->getDeclContext() == W.FD) {
          bool Varying = false;
          ParamSet Cond = D.ParamConditions |
                          mapParams(M.ParamConditions, Call, W.FU, Varying);
          MaskParams.push_back(
              {P->getFunctionScopeIndex(), M.Collective, M.Owner,
               M.DivergedInside || D.isDiverged() || Varying, Cond, Call});
        }
}

bool CollectiveFacet::dependsOn(ParamSet Params) const {
  for (const FullWarpNeed &N : FullWarp)
    if (N.ParamConditions & Params)
      return true;
  for (const MaskParam &M : MaskParams)
    if (M.ParamConditions & Params)
      return true;
  return false;
}

} // namespace clang::warp
