//===--- KernelLaunchesImpl.h - cuda-lint -----------------------*- C++ -*-===//
//
// Helpers of the kernel-launch analysis private to lib/analysis, shared by
// KernelLaunchConfig.cpp (where they are defined) and KernelLaunches.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_KERNELLAUNCHESIMPL_H
#define CUDA_LINT_KERNELLAUNCHESIMPL_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::cuda::launches {

/// \p E, with member accesses, parentheses and no-op casts taken off, is a
/// reference to \p VD.
bool names(const Expr *E, const VarDecl *VD);

/// Whether every use of \p VD in \p S only reads it: a value or member read,
/// a copy (a launch configuration, a by-value argument).
bool onlyReads(const Stmt *S, const VarDecl *VD);

/// The value of the integer \p E in \p Caller: a constant, or a local
/// variable whose value reaching the use is one (\p Depth levels of
/// variables followed so far).
std::optional<int64_t> evaluateInt(const Expr *E, const FunctionDecl *Caller,
                                   ASTContext &Ctx, int Depth);

} // namespace clang::tidy::cuda::launches

namespace clang::tidy::cuda {

// The names both parts of the analysis use unqualified.
using launches::evaluateInt;
using launches::names;
using launches::onlyReads;

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_KERNELLAUNCHESIMPL_H
