//===--- LegacyRuntimeApiCheck.h - cuda-lint --------------------*- C++ -*-===//

#ifndef CUDA_LINT_LEGACYRUNTIMEAPICHECK_H
#define CUDA_LINT_LEGACYRUNTIMEAPICHECK_H

#include "CudaCheck.h"

namespace clang::tidy::cuda {

/// Finds calls to CUDA runtime functions that CUDA 13 no longer declares and
/// renames them to their same-meaning replacements (`cudaThreadSynchronize` ->
/// `cudaDeviceSynchronize`, ...); reports texture and surface references and
/// the removed functions without such a replacement (recognised by the legacy
/// header's "cuda-lint-legacy" annotation, or by name at global scope).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-legacy-runtime-api.md
class LegacyRuntimeApiCheck : public CudaCheck {
public:
  LegacyRuntimeApiCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LEGACYRUNTIMEAPICHECK_H
