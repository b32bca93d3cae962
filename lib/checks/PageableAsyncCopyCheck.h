//===--- PageableAsyncCopyCheck.h - cuda-lint -------------------*- C++ -*-===//

#ifndef CUDA_LINT_PAGEABLEASYNCCOPYCHECK_H
#define CUDA_LINT_PAGEABLEASYNCCOPYCHECK_H

#include "CudaCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Finds asynchronous host-device copies (`cudaMemcpyAsync` and its 2D, 3D
/// and symbol forms) from or to host memory that is visibly pageable, which
/// the copy must stage and cannot overlap with kernels.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-pageable-async-copy.md
class PageableAsyncCopyCheck : public CudaCheck {
public:
  PageableAsyncCopyCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  struct Copy {
    const CallExpr *Call;
    const FunctionDecl *Function;
  };
  llvm::SmallVector<Copy, 8> Copies;
  llvm::SmallVector<Copy, 8> Registrations;
  ASTContext *Ctx = nullptr;
  /// Whether the translation unit launches a kernel.
  bool LaunchesKernel = false;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_PAGEABLEASYNCCOPYCHECK_H
