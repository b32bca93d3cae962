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
#include <string>

namespace clang::tidy::cuda {

/// The fix that pads the last dimension of \p Var by one element
/// (`[TILE]` becomes `[TILE + 1]`, `[32]` becomes `[33]`), or, when Fix is
/// null, why there is none.
struct PaddingFix {
  FixItHint Fix;
  std::string WhyNot;
};
PaddingFix padLastDimension(const VarDecl *Var, const SourceManager &SM,
                            const LangOptions &LangOpts);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_SHAREDBANKPADDING_H
