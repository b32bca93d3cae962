//===--- ConstantDivergentAccessCheck.h - cuda-lint -------------*- C++ -*-===//

#ifndef CUDA_LINT_CONSTANTDIVERGENTACCESSCHECK_H
#define CUDA_LINT_CONSTANTDIVERGENTACCESSCHECK_H

#include "CudaCheck.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds reads of `__constant__` arrays at an index that differs between the
/// threads of a warp: constant memory serves one address at a time, so the
/// read is serialized once per distinct address.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-constant-divergent-access.md
class ConstantDivergentAccessCheck : public CudaCheck {
public:
  ConstantDivergentAccessCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    Reported.clear();
    Analyses.clear();
    Launches.reset();
  }

private:
  llvm::DenseSet<SourceLocation> Reported;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ThreadIndexAnalysis>>
      Analyses;
  /// The launches of this translation unit's kernels, read at first use.
  std::unique_ptr<KernelLaunches> Launches;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_CONSTANTDIVERGENTACCESSCHECK_H
