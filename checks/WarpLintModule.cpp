//===--- WarpLintModule.cpp - registers the warp- checks ------------------===//
//
// The checks and their ids come from CheckList.def.
//
//===----------------------------------------------------------------------===//

#include "ActivemaskMaskCheck.h"
#include "AtomicSpinlockCheck.h"
#include "DivergentFullMaskCheck.h"
#include "ImplicitSynchronousCheck.h"
#include "MaskExcludesCallerCheck.h"
#include "PartialWarpLaunchCheck.h"
#include "ShuffleSourceOutsideMaskCheck.h"
#include "ShuffleWidthCheck.h"
#include "StaleMaskCheck.h"
#include "UniformAddressAtomicCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::warp {

class WarpLintModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    // The checks this module makes share the analysis of each unit; the
    // module (one per front end's set of check factories) owns it.
    auto Analyses = std::make_shared<clang::warp::UnitAnalyses>();
#define WARP_CHECK(Id, Class, Short, Full, Level, Doc)                         \
  Factories.registerCheckFactory(                                              \
      Id, [Analyses](StringRef Name, ClangTidyContext *Context) {              \
        auto Check = std::make_unique<Class>(Name, Context);                   \
        Check->useAnalyses(Analyses);                                          \
        return Check;                                                          \
      });
#include "CheckList.def"
  }
};

static ClangTidyModuleRegistry::Add<WarpLintModule>
    X("warplint-module", "Warp-level synchronization checks for CUDA.");

} // namespace clang::tidy::warp
