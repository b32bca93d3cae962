//===--- RestrictAliasingCheck.h - cuda-lint --------------------*- C++ -*-===//

#ifndef CUDA_LINT_RESTRICTALIASINGCHECK_H
#define CUDA_LINT_RESTRICTALIASINGCHECK_H

#include "CudaCheck.h"

namespace clang::tidy::cuda {

/// Finds kernel launches that pass the same pointer to a `__restrict__`
/// parameter and to another parameter that the kernel writes through (or
/// that is itself written): undefined behaviour, and wrong results when the
/// loads go through the non-coherent read-only data cache.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-restrict-aliasing.md
class RestrictAliasingCheck : public CudaCheck {
public:
  RestrictAliasingCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_RESTRICTALIASINGCHECK_H
