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
/// Conversions to a narrower signed type (`char lane = threadIdx.x`) are not
/// seen through, as values that do not fit wrap; nor are variables bound to
/// a non-const reference, whose address is taken, or that otherwise escape.
bool isProvablyNonNegative(const Expr *E, ASTContext &Ctx);

/// True when the compiler (NVVM's value tracking) also knows that the signed
/// integer expression \p E, read at \p At, is never negative, so that it
/// already divides it by a power of two with a plain shift or mask. Checked
/// against `nvcc -ptx` (sm_90): non-negative constants; the induction
/// variable of a `for` loop that starts at a known non-negative value and
/// only counts up by a positive constant (`j++`, `j += 2`); a loop variable
/// read under its own loop's guard (`v > 0`, `v >= 0`) and changed in the
/// loop only by \p At itself or by the `for` increment; sums and products of
/// such values (signed, so they cannot wrap); a never-modified local
/// initialised with one. Not `threadIdx.x` and the other built-ins converted
/// to `int`: nvcc emits the signed sequence for those.
bool isNonNegativeToCompiler(const Expr *E, const Expr *At, ASTContext &Ctx);

/// True when the arithmetic expression \p E has a single value known at
/// compile time, which nvcc folds (no instruction computes it): literals,
/// enumerators and integer constant expressions; `+ - * /`, signs,
/// conditionals and arithmetic conversions of such values; `sqrt`, `sqrtf`,
/// `fabs` and `fabsf` of them; and local variables defined once (by their
/// initialiser or by a single assignment, never incremented, compound-assigned
/// or escaping) with such a value (`float kbi; kbi = 2.2;`,
/// `float Ko = 5.4f;`). Parameters, memory and other calls (`pow`) are not.
bool isFoldedConstant(const Expr *E, ASTContext &Ctx);

/// How one reference to a local variable uses it.
enum class VarUse {
  Read,      ///< Its value is read (or it is in an unevaluated operand).
  Store,     ///< The left-hand side of an assignment or compound assignment.
  Increment, ///< `++x`, `x++`.
  Decrement, ///< `--x`, `x--`.
  Escape,    ///< Bound to a non-const reference, its address taken, an asm
             ///< operand, or used as an lvalue in a way not followed: it may
             ///< be changed where the analysis cannot see.
};

/// Classifies the reference \p Ref to a variable; for VarUse::Store,
/// \p Store (when non-null) is set to the assignment.
VarUse classifyVarUse(ASTContext &Ctx, const DeclRefExpr *Ref,
                      const BinaryOperator **Store = nullptr);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_VALUERANGE_H
