//===--- SharedBankConflictCheck.h - cuda-lint ------------------*- C++ -*-===//

#ifndef CUDA_LINT_SHAREDBANKCONFLICTCHECK_H
#define CUDA_LINT_SHAREDBANKCONFLICTCHECK_H

#include "CudaCheck.h"
#include "cudalint/analysis/SharedMemoryBanks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang::tidy::cuda {

/// Finds accesses to `__shared__` arrays where the threads of a warp hit the
/// same memory bank at different addresses (the column-wise read of a
/// `[32][32]` tile), and pads the array's last dimension by one element.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-shared-bank-conflict.md
class SharedBankConflictCheck : public CudaCheck {
public:
  SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// One conflicting access, over every instantiation of its function.
  struct Conflict {
    SourceLocation DeclKey;
    int64_t Degree = 0;
    bool UpTo = false;   ///< The block shape is not known: a bound.
    bool InLoop = false; ///< Some instantiation makes it in a loop.
    std::string Name;
    SourceRange Range;
  };
  /// One declaration, over every instantiation of its function.
  struct Declaration {
    SourceLocation NameLoc;
    bool Fixable = true;
    std::string WhyNot;
    llvm::SmallVector<FixItHint, 2> Fix;
    /// The findings on it.
    unsigned Findings = 0;
    int64_t Pad = 0; ///< The elements the fix adds to each row.
    const VarDecl *Var = nullptr;
    const SourceManager *SM = nullptr;
    /// The largest padding considered.
    int64_t MaxPad = 1;
    /// The worst degree of the accesses, by padding.
    llvm::SmallVector<int64_t, 8> Worst;
    /// Why padding the rows does not help where no padding does.
    std::string LastSubscriptWhy;
    /// Why the last subscripts may leave their row.
    std::string RangeWhy;
  };

  const int64_t MinConflictDegree;
  const int64_t Banks;
  llvm::MapVector<SourceLocation, Conflict> Conflicts;
  llvm::MapVector<SourceLocation, Declaration> Declarations;
  /// Namespace-scope arrays and the functions already analysed for them.
  llvm::DenseSet<std::pair<const VarDecl *, const FunctionDecl *>> Visited;
  banks::LaunchSites Launches;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_SHAREDBANKCONFLICTCHECK_H
