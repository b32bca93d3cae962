//===--- WarpSynchronousCheck.h - cuda-lint ---------------------*- C++ -*-===//

#ifndef CUDA_LINT_WARPSYNCHRONOUSCHECK_H
#define CUDA_LINT_WARPSYNCHRONOUSCHECK_H

#include "CudaCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace clang::tidy::cuda {

namespace warpsync {
class Analysis;
class GeneralRaces;
struct Access;
} // namespace warpsync

/// Finds threads that communicate through shared or global memory without a
/// barrier, relying on the lock-step execution of a warp (warp-synchronous
/// programming) or on nothing at all, and rewrites recognised warp reductions
/// to `__shfl_down_sync` and other racy steps to `__syncwarp()` or
/// `__syncthreads()`.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-warp-synchronous.md
class WarpSynchronousCheck : public CudaCheck {
public:
  enum class FixStyleKind { Shuffle, Syncwarp };

  WarpSynchronousCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// Reports a write-write race of \p Region (a region with no read-write
  /// race): two writes of different values to one element, by threads of
  /// one block (or, in a grid region, of different blocks).
  void reportWriteWrite(const warpsync::Analysis &A,
                        warpsync::GeneralRaces &General,
                        llvm::ArrayRef<warpsync::Access> Region,
                        llvm::DenseSet<unsigned> &Reported);

  /// Whether \p E is under an `if` whose condition reads an integer local
  /// (not a loop's variable): a condition the write-write test leaves to
  /// the read-write one, as its evaluation may miss it.
  bool underLocalCondition(const Expr *E);

  const FixStyleKind FixStyle;
  /// Track `__shared__` scalars as arrays of one element (on by default
  /// since stop 32, when two of the three causes of the sealed race audit's
  /// false alarms through scalars were fixed).
  const bool SharedScalars;
  llvm::SetVector<const FunctionDecl *> Functions;
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_WARPSYNCHRONOUSCHECK_H
