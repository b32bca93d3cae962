//===--- LaunchShapeCheck.h - cuda-lint -------------------------*- C++ -*-===//

#ifndef CUDA_LINT_LAUNCHSHAPECHECK_H
#define CUDA_LINT_LAUNCHSHAPECHECK_H

#include "CudaCheck.h"
#include "llvm/ADT/MapVector.h"
#include <string>

namespace clang::tidy::cuda {

/// Finds kernel launches whose block size is a compile-time constant that is
/// not a multiple of the warp size (32) or is below 64 threads.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-launch-shape.md
class LaunchShapeCheck : public CudaCheck {
public:
  LaunchShapeCheck(StringRef Name, ClangTidyContext *Context)
      : CudaCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  void reportBlock(SourceLocation Loc, uint64_t Threads, uint64_t Blocks);
  /// What the instantiations of one launch in the source have.
  struct LaunchSite {
    uint64_t Threads = 0;        ///< Of the first bad one; 0 if none is.
    std::string Instantiation;   ///< Its name, for a template.
    bool TunedElsewhere = false; ///< Another has whole warps, >= 64.
    uint64_t Blocks = 0;         ///< Its grid's bound, 0 if not known.
  };
  llvm::MapVector<SourceLocation, LaunchSite> Launches;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LAUNCHSHAPECHECK_H
