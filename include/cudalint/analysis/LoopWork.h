//===--- LoopWork.h - cuda-lint ---------------------------------*- C++ -*-===//
//
// What else a loop does: a static estimate of the work of one iteration of
// the loop around an expression, in simple instructions, for weighing a
// pattern's cost against the work beside it (docs/impact.md). The third
// sealed audit called a run-time modulo saving 5 of 292 instructions next to
// 256 FMAs, and a division once per output word of a loop whose inner loop
// does the packing, "right but not worth acting on".
//
// The estimate counts one unit per arithmetic (an integer division too: the
// loop's other divisions must not hide each other), comparison, conversion
// or memory access; 8 per call to a
// function without a body here (a math library function, a barrier) and 10
// per atomic; a callee's body inlined (two levels); an inner loop's body
// times its trip count when constant (at most 64), else times 8.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_LOOPWORK_H
#define CUDA_LINT_LOOPWORK_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace clang::tidy::cuda {

/// The work of one iteration of a loop, and the operations in it of the
/// kind the question is about.
struct LoopWork {
  unsigned Work = 0;  ///< Estimated, leaving the expression asked about out.
  unsigned Alike = 0; ///< Other operations of its kind in the loop.
};

/// The innermost loop around \p E that repeats it (its body, condition or
/// increment; not a grid-stride loop that every launch's grid covers): the
/// estimated work of one of its iterations, leaving \p E's own operator
/// out, and how many other operations there \p IsAlike accepts (each also
/// counted in the work, as one unit). std::nullopt when no loop repeats
/// \p E.
std::optional<LoopWork>
workBeside(ASTContext &Ctx, const Expr &E,
           llvm::function_ref<bool(const Expr &)> IsAlike);

/// The estimated work of \p S, leaving \p Except's own operator out.
unsigned estimatedWork(ASTContext &Ctx, const Stmt *S,
                       const Stmt *Except = nullptr, unsigned Depth = 0);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LOOPWORK_H
