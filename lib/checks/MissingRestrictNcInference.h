//===--- MissingRestrictNcInference.h - cuda-lint ---------------*- C++ -*-===//
//
// When nvcc already loads the read-only pointer parameters of a kernel with
// ld.global.nc without `const __restrict__`. Defined in
// MissingRestrictCheckNcInference.cpp; used only by MissingRestrictCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_MISSINGRESTRICTNCINFERENCE_H
#define CUDA_LINT_MISSINGRESTRICTNCINFERENCE_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::missing_restrict {

/// Whether every store of kernel \p FD goes to a register or through a
/// `__restrict__` parameter, with no atomics, no inline assembly and no call
/// other than inlined arithmetic. Then nvcc proves every other pointer
/// parameter read-only by itself and loads it with ld.global.nc, `const
/// __restrict__` or not (the PTX is the same with them).
bool storesOnlyThroughRestrict(
    const FunctionDecl *FD, unsigned Depth = 0,
    const llvm::SmallPtrSetImpl<const ParmVarDecl *> *Bound = nullptr);

} // namespace clang::tidy::cuda::missing_restrict

#endif // CUDA_LINT_MISSINGRESTRICTNCINFERENCE_H
