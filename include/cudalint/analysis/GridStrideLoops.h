//===--- GridStrideLoops.h - cuda-lint --------------------------*- C++ -*-===//
//
// Grid-stride loops that the launches make run at most once per thread:
// `for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i +=
// blockDim.x * gridDim.x)` in a kernel that every launch gives a grid of
// ceil(n / B) blocks of B threads (`k<<<(n + 255) / 256, 256>>>(p, n)`):
// each thread runs the body once, or not at all. Code in such a loop runs
// once per thread, not in a loop (an audit of HeCBench's sealed half found
// integer divisions and loads there ranked as loop code).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_GRIDSTRIDELOOPS_H
#define CUDA_LINT_GRIDSTRIDELOOPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda {

/// The kernel parameter that bounds \p Loop when it is a grid-stride loop
/// over x: its variable starts at the thread's global index, runs while
/// below the parameter, steps by blockDim.x * gridDim.x and is not assigned
/// in the body; the kernel never writes the parameter. Null otherwise.
const ParmVarDecl *gridStrideBound(const FunctionDecl &Kernel,
                                   const ForStmt &Loop);

/// Whether \p Loop is a grid-stride loop of \p Kernel whose every launch
/// covers its range: each thread runs its body at most once.
bool runsOncePerThread(ASTContext &Ctx, const FunctionDecl &Kernel,
                       const ForStmt &Loop);

/// Forgets the answers of the previous translation unit (called with
/// resetImpactModel at the start of each).
void resetGridStrideLoops();

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_GRIDSTRIDELOOPS_H
