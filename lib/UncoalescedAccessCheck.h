//===--- UncoalescedAccessCheck.h - cuda-lint -------------------*- C++ -*-===//

#ifndef CUDA_LINT_UNCOALESCEDACCESSCHECK_H
#define CUDA_LINT_UNCOALESCEDACCESSCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "cudalint/ThreadIndex.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

/// Finds loads and stores to global memory in kernels whose index moves by a
/// constant other than 0 or 1, or by a run-time row width, from one thread to
/// the next (consecutive `threadIdx.x`), so a warp's request is split over
/// many memory sectors.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-uncoalesced-access.md
class UncoalescedAccessCheck : public ClangTidyCheck {
public:
  UncoalescedAccessCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// The loads of \p Kernel that read, with the others of their group, a
  /// whole record of S elements per thread, with S.
  const llvm::DenseMap<const Expr *, int64_t> &
  wholeRecordLoads(ASTContext &Ctx, const FunctionDecl *Kernel,
                   ThreadIndexAnalysis &TIA);

  const int64_t MinStride;
  const bool ReportWholeRecords;
  llvm::DenseMap<const FunctionDecl *, llvm::DenseMap<const Expr *, int64_t>>
      WholeRecords;
  /// One analysis per kernel of the translation unit.
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<ThreadIndexAnalysis>>
      Analyses;
  llvm::DenseSet<SourceLocation> Reported;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_UNCOALESCEDACCESSCHECK_H
