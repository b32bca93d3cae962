//===--- HostMemory.h - cuda-lint -------------------------------*- C++ -*-===//
//
// Host memory origin analysis: what kind of memory a pointer in host code
// points into (pageable host memory from malloc, new, std::vector or an
// array; pinned memory from cudaMallocHost or cudaHostAlloc; managed or
// device memory), as far as the function that uses it shows. Local pointer
// variables are followed through every value they are given in the
// function (their initialiser, assignments, and the allocation calls their
// address is passed to); when one of those is not known, or the kinds
// differ, the origin is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_HOSTMEMORY_H
#define CUDA_LINT_HOSTMEMORY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace clang::tidy::cuda {

enum class HostMemoryKind {
  /// A null pointer: no memory (ignored when the kinds of several values
  /// are merged).
  Null,
  /// Pageable host memory: malloc, calloc, realloc, new, new[],
  /// std::vector's storage, a stack, static or global array or object.
  Pageable,
  /// Page-locked host memory: cudaMallocHost, cudaHostAlloc.
  Pinned,
  /// cudaMallocManaged, `__managed__` variables.
  Managed,
  /// Device memory: cudaMalloc and friends, `__device__` variables.
  Device,
  /// Anything else: a parameter, a global pointer, a value returned by a
  /// function, a pointer whose address escapes.
  Unknown,
};

/// What the analysis found about one pointer expression.
struct HostMemoryOrigin {
  HostMemoryKind Kind = HostMemoryKind::Unknown;
  /// The allocation or declaration that makes the memory what it is (the
  /// first one, when several agree).
  SourceLocation Where;
  /// How it was allocated, for a note: "'malloc'", "'new[]'",
  /// "std::vector 'v'", "the stack array 'buf'".
  std::string What;
  /// The variables the memory is reached through (the local pointers
  /// followed, the array or vector): a `cudaHostRegister` of any of them
  /// pins the memory.
  llvm::SmallVector<const ValueDecl *, 4> Vars;
};

/// The origin of the memory that the host pointer \p E, an expression in the
/// body of the host function \p F, points into.
HostMemoryOrigin hostMemoryOrigin(const Expr *E, const FunctionDecl *F,
                                  ASTContext &Ctx);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_HOSTMEMORY_H
