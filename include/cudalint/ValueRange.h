//===--- ValueRange.h - cuda-lint -------------------------------*- C++ -*-===//
//
// A small sign analysis for integer expressions in device code: whether an
// expression can never be negative.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_VALUERANGE_H
#define CUDA_LINT_VALUERANGE_H

#include "clang/AST/Expr.h"

namespace clang::tidy::cuda {

/// True when the integer expression \p E is provably non-negative: built from
/// threadIdx/blockIdx/blockDim/gridDim and other unsigned values,
/// non-negative literals, `1 << k` (k below the sign bit), `+`, `*`, `>>`,
/// `&`, `/`, `|` and `?:` of non-negative values, `%` of a non-negative
/// dividend, and local variables whose initialiser and every assignment are
/// non-negative (loop induction variables that start at a non-negative value
/// and are only incremented included). Function
/// parameters of signed type are unknown, hence not provably non-negative.
bool isProvablyNonNegative(const Expr *E, ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_VALUERANGE_H
