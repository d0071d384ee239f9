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
#define WARP_CHECK(Id, Class, Short, Full, Level, Doc)                         \
  Factories.registerCheck<Class>(Id);
#include "CheckList.def"
  }
};

static ClangTidyModuleRegistry::Add<WarpLintModule>
    X("warplint-module", "Warp-level synchronization checks for CUDA.");

} // namespace clang::tidy::warp
