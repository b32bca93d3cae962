//===--- LegacyWarpIntrinsicCheck.h - cuda-lint -----------------*- C++ -*-===//

#ifndef CUDA_LINT_LEGACYWARPINTRINSICCHECK_H
#define CUDA_LINT_LEGACYWARPINTRINSICCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "cudalint/ThreadDependence.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds the warp intrinsics without a mask (`__shfl`, `__shfl_up`,
/// `__shfl_down`, `__shfl_xor`, `__any`, `__all`, `__ballot`), which CUDA 9
/// deprecated and sm_70 and newer GPUs do not support, and rewrites them to
/// their `_sync` forms with an explicit mask.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-legacy-warp-intrinsic.md
class LegacyWarpIntrinsicCheck : public ClangTidyCheck {
public:
  LegacyWarpIntrinsicCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { Analyses.clear(); }

private:
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ThreadDependence>>
      Analyses;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LEGACYWARPINTRINSICCHECK_H
