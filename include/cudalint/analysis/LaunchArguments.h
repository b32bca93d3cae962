//===--- LaunchArguments.h - cuda-lint ------------------------*- C++ -*-===//
//
// What the host passes a kernel's parameter: whether every launch of a
// kernel passes a value that is provably a multiple of a constant (a
// constant, a product with such a factor, or a local of the launching
// function whose last write before the launch, in the same block, makes it
// one: `num_paths *= 1024; k<<<g, b>>>(num_paths);`; a parameter of the
// launching function, through every call of it). Used where a
// block-stride loop runs equally often in every thread only when its bound
// is a multiple of its step.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_LAUNCHARGUMENTS_H
#define CUDA_LINT_LAUNCHARGUMENTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <cstdint>

namespace clang::tidy::cuda {

/// True when \p Kernel is launched at least once in \p Ctx's translation
/// unit, only by `<<<...>>>` launches (its name is used nowhere else), and
/// every launch passes a multiple of \p Step for parameter \p Param, which
/// the kernel never changes. A specialisation's own launches count; a
/// template's pattern counts those of all its specialisations.
bool everyLaunchPassesMultiple(ASTContext &Ctx, const FunctionDecl &Kernel,
                               const ParmVarDecl &Param, int64_t Step);

/// Whether every launch of \p Kernel (at least one, only `<<<...>>>`
/// launches, its name used nowhere else) runs at least as many threads in
/// x as the value it passes for \p Param: a grid of ceil(A / B) blocks of B
/// threads, A the argument (`(A + B - 1) / B`, `(A - 1) / B + 1`, `A / B +
/// (A % B != 0)`, `ceil(A / (float)B)`, a call of a `div_up`-like helper,
/// through locals and `dim3` that are never reassigned), or constants.
bool everyLaunchCoversParam(ASTContext &Ctx, const FunctionDecl &Kernel,
                            const ParmVarDecl &Param);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LAUNCHARGUMENTS_H
