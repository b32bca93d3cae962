//===--- LegacyWarpIntrinsicCheck.h - cuda-lint -----------------*- C++ -*-===//

#ifndef CUDA_LINT_LEGACYWARPINTRINSICCHECK_H
#define CUDA_LINT_LEGACYWARPINTRINSICCHECK_H

#include "CudaCheck.h"
#include "cudalint/analysis/ThreadDependence.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

/// Finds the warp intrinsics without a mask (`__shfl`, `__shfl_up`,
/// `__shfl_down`, `__shfl_xor`, `__any`, `__all`, `__ballot`), which CUDA 9
/// deprecated and sm_70 and newer GPUs do not support, and rewrites them to
/// their `_sync` forms with an explicit mask.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-legacy-warp-intrinsic.md
class LegacyWarpIntrinsicCheck : public CudaCheck {
public:
  LegacyWarpIntrinsicCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// A use of a device function that is not a kernel: a call (in a device
  /// function), or anything else (its address taken).
  struct Use {
    const Expr *E;
    const FunctionDecl *User; ///< The function the use is in; may be null.
    bool IsCall;
  };
  /// Why a function is not known to be entered by the whole warp.
  struct EntryReason {
    const Expr *Site = nullptr; ///< The use that is not; null: no use.
    const FunctionDecl *Callee = nullptr; ///< Whose use it is.
    bool AddressTaken = false;
    ThreadDependence::Divergence Div; ///< Set when Site is a divergent call.
  };

  ThreadDependence *analysis(const FunctionDecl *FD);
  /// Whether every call of \p FD in the translation unit is reached by the
  /// whole warp: from a kernel or such a function, not under a
  /// thread-dependent condition. Null when it is, else the reason why not.
  std::optional<EntryReason> notWholeWarp(const FunctionDecl *FD);
  void report(const CallExpr *Call, const FunctionDecl *FD);

  ASTContext *Ctx = nullptr;
  const SourceManager *SM = nullptr;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ThreadDependence>>
      Analyses;
  llvm::DenseMap<const FunctionDecl *, SmallVector<Use, 2>> Uses;
  llvm::DenseMap<const FunctionDecl *, std::optional<EntryReason>> Entry;
  llvm::DenseSet<const FunctionDecl *> InProgress;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Calls;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LEGACYWARPINTRINSICCHECK_H
