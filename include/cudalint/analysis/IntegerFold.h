//===--- IntegerFold.h - cuda-lint ------------------------------*- C++ -*-===//
//
// The value of an integer binary operator applied to two known values: the
// one piece of arithmetic behind the small evaluators of the analyses (the
// launch configurations of KernelLaunchConfig, the sample threads of
// LaneGuards, the compiled index programs of WarpSyncGeneral) and of
// cuda-constant-divergent-access. Each evaluator finds the values of the
// operands its own way; this says what the operator makes of them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_INTEGERFOLD_H
#define CUDA_LINT_INTEGERFOLD_H

#include "clang/AST/OperationKinds.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::cuda {

/// `L Op R` in 64 bits: `+`, `-` and `*` wrap around; `/` and `%` (as
/// unsigned 64-bit values with \p Unsigned) have no value for a zero
/// divisor or INT64_MIN / -1; `<<` and `>>` none for a shift below 0 or
/// past \p MaxShift (at most 62); `&`, `|`, `^`; the comparisons and `==`,
/// `!=` give 0 or 1. Any other operator has no value.
std::optional<int64_t> foldIntegerOperator(BinaryOperatorKind Op, int64_t L,
                                           int64_t R, bool Unsigned = false,
                                           int64_t MaxShift = 62);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_INTEGERFOLD_H
