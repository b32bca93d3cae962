//===--- DivergentBarrierCheck.h - cuda-lint --------------------*- C++ -*-===//

#ifndef CUDA_LINT_DIVERGENTBARRIERCHECK_H
#define CUDA_LINT_DIVERGENTBARRIERCHECK_H

#include "CudaCheck.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/ThreadDependence.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <memory>

namespace clang::tidy::cuda {

/// Finds `__syncthreads()` (and `__syncwarp()` with a full mask) that only
/// some threads of the block reach: under a thread-dependent condition or
/// after an early `return` of some threads.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-divergent-barrier.md
class DivergentBarrierCheck : public CudaCheck {
public:
  DivergentBarrierCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context),
        ReportExitedThreads(Options.get("ReportExitedThreads", false)) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "ReportExitedThreads", ReportExitedThreads);
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// A barrier that only some threads reach, reported at the end of the
  /// translation unit, when every pairing of barriers is known.
  struct Pending {
    const CallExpr *Call;
    std::string Name; ///< The barrier as the messages name it.
    ThreadDependence::Scope Level;
    ThreadDependence::Divergence Div;
    /// The returning threads wait at Div.OtherBarrier once and then exit:
    /// both are barrier 0, and the barrier cannot hang.
    bool PairedWithExit;
  };
  llvm::SmallVector<Pending, 4> Pendings;
  void report(const Pending &P);
  /// Whether every call of the `__device__` function \p FD in the
  /// translation unit is the last thing a kernel runs: then its `return`
  /// ends the thread, as in a kernel.
  bool onlyEndsKernels(ASTContext &Ctx, const FunctionDecl *FD);
  llvm::DenseMap<const FunctionDecl *, bool> TailCalled;
  /// Report `__syncthreads()` that only threads which have exited the
  /// kernel miss (see the docs).
  const bool ReportExitedThreads;
  /// The launches of this translation unit's kernels, read at first use.
  std::unique_ptr<KernelLaunches> Launches;
  /// Thread dependence per function, by scope (ThreadDependence::Scope):
  /// block (`__syncthreads`, `block.sync()`), warp (`__syncwarp`), grid
  /// (`grid.sync()`).
  using Analyses =
      llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ThreadDependence>>;
  std::array<Analyses, 3> ByScope;
  /// The same, taking the bound of each block-stride loop to be a multiple
  /// of its step (ThreadDependence::assumedMultiple).
  std::array<Analyses, 3> MultiplesByScope;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_DIVERGENTBARRIERCHECK_H
