//===--- SharedBankPadding.h - cuda-lint ------------------------*- C++ -*-===//
//
// The fix of cuda-shared-bank-conflict: widen the last dimension of a
// __shared__ array by one element, keeping its spelling.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_SHAREDBANKPADDING_H
#define CUDA_LINT_SHAREDBANKPADDING_H

#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <string>

namespace clang::tidy::cuda {

/// The fix that pads the last dimension of \p Var by \p Pad elements
/// (`[TILE]` becomes `[TILE + 1]`, `[32]` becomes `[33]`), or, when Fixes
/// is empty, why there is none. With \p InsertOnly, the fix only inserts
/// text (`[32 + 1]`, `[(A | B) + 1]`): clang-tidy keeps identical
/// insertions on several findings, where it drops identical replacements
/// as overlapping, and cuda-lint applies them once.
struct PaddingFix {
  llvm::SmallVector<FixItHint, 2> Fixes;
  std::string WhyNot;
};
PaddingFix padLastDimension(const VarDecl *Var, const SourceManager &SM,
                            const LangOptions &LangOpts, int64_t Pad,
                            bool InsertOnly);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_SHAREDBANKPADDING_H
