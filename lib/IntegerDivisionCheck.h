//===--- IntegerDivisionCheck.h - cuda-lint ---------------------*- C++ -*-===//

#ifndef CUDA_LINT_INTEGERDIVISIONCHECK_H
#define CUDA_LINT_INTEGERDIVISIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Finds integer division and modulo in device code by divisors that are not
/// compile-time constants (and signed division by a power of two of values
/// that are never negative), and rewrites divisions by a power of two as a
/// shift and a mask where that is exact.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-integer-division.md
class IntegerDivisionCheck : public ClangTidyCheck {
public:
  IntegerDivisionCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { Reported.clear(); }

private:
  const bool WarnOutsideLoops;
  const bool WarnNonPowerOfTwoConstants;
  llvm::DenseSet<SourceLocation> Reported;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_INTEGERDIVISIONCHECK_H
