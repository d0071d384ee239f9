//===--- UnknownCallers.cpp - device functions no code in the unit calls --===//

#include "UnknownCallers.h"
#include "KernelLaunches.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::warp {

namespace {
class ReferenceCollector : public RecursiveASTVisitor<ReferenceCollector> {
public:
  ReferenceCollector(
      const SourceManager &SM, llvm::StringSet<> &DependentNames,
      llvm::DenseMap<const Decl *,
                     llvm::SmallVector<UnknownCallers::CallSite, 2>> &Calls,
      llvm::DenseMap<const Decl *, unsigned> &References, bool &DeviceLaunches)
      : SM(SM), DependentNames(DependentNames), Calls(Calls),
        References(References), DeviceLaunches(DeviceLaunches) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  /// Tracks the function the calls below are written in.
  bool TraverseDecl(Decl *D) {
    const FunctionDecl *Outer = Current;
    if (auto *FD = dyn_cast_or_null<FunctionDecl>(D)) {
      if (isSystemPattern(FD))
        return true;
      Current = FD;
    }
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Current = Outer;
    return Result;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Callee = Call->getDirectCallee(); Callee && Current)
      Calls[Callee->getCanonicalDecl()].push_back({Call, Current});
    if (Current && !DeviceLaunches)
      DeviceLaunches = warp::launchesFromDevice(Call, Current);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    add(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    add(E->getMemberDecl());
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    for (const NamedDecl *D : E->decls())
      add(D);
    addName(E->getName());
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    addName(E->getMember());
    return true;
  }
  bool VisitDependentScopeDeclRefExpr(DependentScopeDeclRefExpr *E) {
    addName(E->getDeclName());
    return true;
  }

private:
  /// A function a system header defines as written, outside every
  /// instantiation: such code names none of the user's functions (a
  /// template does so only in its instantiations, which are traversed on
  /// their own), and the headers' templates are most of a unit's code.
  bool isSystemPattern(const FunctionDecl *FD) const {
    if (!SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return false;
    for (const DeclContext *DC = FD; DC; DC = DC->getParent()) {
      if (const auto *F = dyn_cast<FunctionDecl>(DC);
          F && F->isTemplateInstantiation())
        return false;
      if (const auto *R = dyn_cast<CXXRecordDecl>(DC);
          R && isTemplateInstantiation(R->getTemplateSpecializationKind()))
        return false;
    }
    return true;
  }

  void add(const Decl *D) {
    if (!D)
      return;
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      D = T->getTemplatedDecl();
    if (isa<FunctionDecl>(D))
      ++References[D->getCanonicalDecl()];
  }
  void addName(DeclarationName Name) {
    if (Name.isIdentifier())
      DependentNames.insert(Name.getAsIdentifierInfo()->getName());
  }

  const SourceManager &SM;
  llvm::StringSet<> &DependentNames;
  llvm::DenseMap<const Decl *, llvm::SmallVector<UnknownCallers::CallSite, 2>>
      &Calls;
  llvm::DenseMap<const Decl *, unsigned> &References;
  bool &DeviceLaunches;
  const FunctionDecl *Current = nullptr;
};
} // namespace

UnknownCallers::UnknownCallers(ASTContext &Ctx) {
  ReferenceCollector(Ctx.getSourceManager(), DependentNames, Calls, References,
                     DeviceLaunches)
      .TraverseDecl(Ctx.getTranslationUnitDecl());
}

/// Whether \p FD, or the template it is a pattern or instance of, is
/// referred to.
static bool
referenced(const FunctionDecl *FD,
           const llvm::DenseMap<const Decl *, unsigned> &References) {
  if (References.contains(FD->getCanonicalDecl()))
    return true;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    if (References.contains(Pattern->getCanonicalDecl()))
      return true;
  if (const FunctionDecl *Member = FD->getInstantiatedFromMemberFunction())
    return References.contains(Member->getCanonicalDecl());
  return false;
}

std::optional<llvm::ArrayRef<UnknownCallers::CallSite>>
UnknownCallers::onlyCalledAt(const FunctionDecl *FD) const {
  const Decl *Key = FD->getCanonicalDecl();
  auto C = Calls.find(Key);
  auto R = References.find(Key);
  unsigned Named = R == References.end() ? 0 : R->second;
  unsigned Called = C == Calls.end() ? 0 : C->second.size();
  const IdentifierInfo *Name = FD->getIdentifier();
  // Each direct call names its callee once; any other reference (an
  // address, a dependent call) hides callers.
  if (Called == 0 || Named != Called ||
      (Name && DependentNames.contains(Name->getName())))
    return std::nullopt;
  return llvm::ArrayRef<CallSite>(C->second);
}

bool UnknownCallers::mayBeEntry(const FunctionDecl *FD) {
  if (!FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>() ||
      !FD->isExternallyVisible() || FD->isOverloadedOperator())
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    if (M->getParent()->isLambda() || M->isVirtual() ||
        isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(M))
      return false;
  return true;
}

bool UnknownCallers::isEntry(const FunctionDecl *FD) const {
  if (!mayBeEntry(FD) || referenced(FD, References))
    return false;
  const IdentifierInfo *Name = FD->getIdentifier();
  return Name && !DependentNames.contains(Name->getName());
}

} // namespace clang::warp
