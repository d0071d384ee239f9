//===--- FunctionRanges.cpp - which function a finding is in --------------===//

#include "FunctionRanges.h"
#include "analysis/LaunchSummary.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>

using namespace llvm;
using namespace clang;

namespace warplint {

namespace {

class Collector : public ASTConsumer {
public:
  explicit Collector(std::vector<FunctionRange> &Out) : Out(Out) {}

  void HandleTranslationUnit(ASTContext &Context) override {
    SM = &Context.getSourceManager();
    walk(Context.getTranslationUnitDecl());
  }

private:
  void walk(const DeclContext *DC) {
    for (const Decl *D : DC->decls()) {
      if (D->isImplicit())
        continue;
      SourceLocation Loc = SM->getExpansionLoc(D->getBeginLoc());
      if (Loc.isInvalid() || SM->isInSystemHeader(Loc))
        continue;
      if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
        D = T->getTemplatedDecl();
      else if (const auto *T = dyn_cast<ClassTemplateDecl>(D))
        D = T->getTemplatedDecl();
      if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
        if (FD->doesThisDeclarationHaveABody())
          record(FD);
        continue;
      }
      // Partial and explicit specializations are walked like classes.
      if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl, ExportDecl>(D))
        walk(cast<DeclContext>(D));
    }
  }

  void record(const FunctionDecl *FD) {
    CharSourceRange Range = SM->getExpansionRange(FD->getSourceRange());
    FileID Begin = SM->getFileID(Range.getBegin());
    if (Begin != SM->getFileID(Range.getEnd()))
      return;
    OptionalFileEntryRef Entry = SM->getFileEntryRefForID(Begin);
    if (!Entry)
      return;
    FunctionRange R;
    SmallString<256> Path(Entry->getName());
    // The same form Finding gives a clang-tidy error's path: absolute
    // against the unit's directory, dots removed.
    SM->getFileManager().makeAbsolutePath(Path);
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    R.File = Path.str().str();
    R.Begin = SM->getFileOffset(Range.getBegin());
    R.End = SM->getFileOffset(Range.getEnd());
    R.Name = FD->getQualifiedNameAsString();
    if (FD->hasAttr<CUDAGlobalAttr>())
      R.KernelUsr = clang::warp::kernelUsr(FD);
    Out.push_back(std::move(R));
  }

  std::vector<FunctionRange> &Out;
  const SourceManager *SM = nullptr;
};

} // namespace

std::unique_ptr<ASTConsumer>
makeFunctionRangeCollector(std::vector<FunctionRange> &Out) {
  return std::make_unique<Collector>(Out);
}

void FunctionIndex::add(const std::vector<FunctionRange> &Ranges) {
  for (const FunctionRange &R : Ranges)
    ByFile[R.File].push_back(R);
  Sorted = Ranges.empty() && Sorted;
}

const FunctionRange *FunctionIndex::innermost(StringRef File,
                                              unsigned Offset) const {
  if (!Sorted) {
    for (auto &Entry : ByFile)
      llvm::sort(
          Entry.second, [](const FunctionRange &A, const FunctionRange &B) {
            return A.Begin != B.Begin ? A.Begin < B.Begin : A.End > B.End;
          });
    Sorted = true;
  }
  auto It = ByFile.find(File);
  if (It == ByFile.end())
    return nullptr;
  const std::vector<FunctionRange> &Ranges = It->second;
  // The innermost range holding Offset starts last among those that do:
  // walk back from the last range starting at or before it.
  auto After = std::upper_bound(
      Ranges.begin(), Ranges.end(), Offset,
      [](unsigned O, const FunctionRange &R) { return O < R.Begin; });
  for (auto I = After; I != Ranges.begin();) {
    --I;
    if (Offset <= I->End)
      return &*I;
  }
  return nullptr;
}

} // namespace warplint
