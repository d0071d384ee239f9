//===--- WarpLintModule.cpp - registers the warp- checks
//-------------------===//

#include "AtomicSpinlockCheck.h"
#include "DivergentFullMaskCheck.h"
#include "StaleMaskCheck.h"
#include "UniformAddressAtomicCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::warp {

class WarpLintModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<AtomicSpinlockCheck>("warp-atomic-spinlock");
    Factories.registerCheck<DivergentFullMaskCheck>("warp-divergent-full-mask");
    Factories.registerCheck<StaleMaskCheck>("warp-stale-mask");
    Factories.registerCheck<UniformAddressAtomicCheck>(
        "warp-uniform-address-atomic");
  }
};

static ClangTidyModuleRegistry::Add<WarpLintModule>
    X("warplint-module", "Warp-level synchronization checks for CUDA.");

} // namespace clang::tidy::warp
