//===--- LocalMemoryArrayCheck.h - cuda-lint --------------------*- C++ -*-===//

#ifndef CUDA_LINT_LOCALMEMORYARRAYCHECK_H
#define CUDA_LINT_LOCALMEMORYARRAYCHECK_H

#include "CudaCheck.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds per-thread arrays in device code indexed by a value that is not a
/// compile-time constant after unrolling: such an array lives in local
/// memory, as slow as global memory, instead of registers.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-local-memory-array.md
class LocalMemoryArrayCheck : public CudaCheck {
public:
  LocalMemoryArrayCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    Reported.clear();
    FixedLoops.clear();
    Judged.clear();
    Analyses.clear();
  }

private:
  /// The index analysis of each function, built at first use.
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ThreadIndexAnalysis>>
      Analyses;
  /// Accesses already reported (a template's accesses are met once per
  /// instantiation).
  llvm::DenseSet<SourceLocation> Reported;
  /// Arrays already judged (a template's once per instantiation).
  llvm::DenseSet<const VarDecl *> Judged;
  /// Loops that already got the `#pragma unroll` fix.
  llvm::DenseSet<SourceLocation> FixedLoops;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LOCALMEMORYARRAYCHECK_H
