//===--- RelevantFunctions.cpp - functions the warp checks can act on -----===//

#include "RelevantFunctions.h"
#include "WarpCollectives.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::warp {

bool RelevantFunctions::mayMatter(const FunctionDecl *FD) {
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  auto [It, New] = Known.try_emplace(FD, State::InProgress);
  if (!New) {
    // A call back into a function under way: its answer is not known yet,
    // so a "no" found meanwhile is not final.
    if (It->second == State::InProgress)
      ++OpenCycles;
    return It->second == State::Yes;
  }
  unsigned CyclesBefore = OpenCycles;
  bool Matters = !FD->getBody() || walk(FD->getBody());
  if (Matters || OpenCycles == CyclesBefore)
    Known[FD] = Matters ? State::Yes : State::No;
  else
    Known.erase(FD);
  return Matters;
}

bool RelevantFunctions::walk(const Stmt *S) {
  if (!S)
    return false;
  if (isa<GCCAsmStmt, MSAsmStmt>(S))
    return true; // %laneid, shfl.sync, vote.sync, ...
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (E->isTypeDependent() && isa<CallExpr>(E))
      return true; // a call in a template pattern: resolved per instance
    if (E->isGLValue() && E->getType().isVolatileQualified())
      return true; // warp-synchronous code through volatile memory
  }
  // Lanes may exchange values through shared memory.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasAttr<CUDASharedAttr>())
      return true;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (matchCollective(Call) || matchAtomic(Call) ||
        lookupLegacyIntrinsic(intrinsicName(Call)) ||
        isBarrierName(calleeName(Call)))
      return true;
    // A kernel launch starts new warps: what the kernel does is not done by
    // this function's warp (host code that only launches kernels, like the
    // dispatch lambdas of a BOOL_SWITCH, is left alone).
    if (isa<CUDAKernelCallExpr>(Call))
      return walkChildren(S);
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A call through a pointer or a callable object of unknown type.
    if (!Callee && !isa<CXXPseudoDestructorExpr>(Call->getCallee()))
      return true;
    if (Callee && Callee->getBody() && mayMatter(Callee))
      return true;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (const CXXConstructorDecl *Ctor = Construct->getConstructor();
        Ctor && Ctor->getBody() && mayMatter(Ctor))
      return true;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
    if (mayMatter(Lambda->getCallOperator()))
      return true;
  return walkChildren(S);
}

bool RelevantFunctions::walkChildren(const Stmt *S) {
  for (const Stmt *Child : S->children())
    if (walk(Child))
      return true;
  return false;
}

} // namespace clang::warp
