//===--- DivergentFullMaskCheck.h - warp-divergent-full-mask ----*- C++ -*-===//

#ifndef WARP_LINT_DIVERGENTFULLMASKCHECK_H
#define WARP_LINT_DIVERGENTFULLMASKCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warp {

/// Flags a mask naming all 32 lanes given to a warp collective where the warp
/// may be diverged, directly or through a helper called from divergent code.
///
/// For the user-facing documentation see:
/// docs/checks/warp-divergent-full-mask.md
class DivergentFullMaskCheck : public ClangTidyCheck {
public:
  DivergentFullMaskCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
};

} // namespace clang::tidy::warp

#endif
