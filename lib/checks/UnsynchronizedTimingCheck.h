//===--- UnsynchronizedTimingCheck.h - cuda-lint ----------------*- C++ -*-===//

#ifndef CUDA_LINT_UNSYNCHRONIZEDTIMINGCHECK_H
#define CUDA_LINT_UNSYNCHRONIZEDTIMINGCHECK_H

#include "CudaCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Finds host timer reads (`std::chrono` clocks, `clock()`,
/// `gettimeofday`, `omp_get_wtime`, ...) that follow a kernel launch or an
/// asynchronous copy with no synchronization in between, so that the time
/// measured is the launch's, not the work's; inserts
/// `cudaDeviceSynchronize();` (or the launch stream's
/// `cudaStreamSynchronize`) before the timer read.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-unsynchronized-timing.md
class UnsynchronizedTimingCheck : public CudaCheck {
public:
  UnsynchronizedTimingCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { Reported.clear(); }

private:
  llvm::DenseSet<SourceLocation> Reported;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_UNSYNCHRONIZEDTIMINGCHECK_H
