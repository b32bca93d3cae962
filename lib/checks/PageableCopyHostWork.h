//===--- PageableCopyHostWork.h - cuda-lint ---------------------*- C++ -*-===//
//
// The host side of an asynchronous copy, for cuda-pageable-async-copy: the
// host work that follows it before the host waits for the device, which a
// copy that does not block could overlap with. Used only by
// PageableAsyncCopyCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PAGEABLECOPYHOSTWORK_H
#define CUDA_LINT_PAGEABLECOPYHOSTWORK_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang::tidy::cuda::pageable_copy {

/// True when host work follows \p Call before the next call that waits for
/// the device, in its function: the statements after it, and for the last
/// statement of a loop body the statements of the body before it (the next
/// iteration). The host work is what a copy that does not block could
/// overlap with. False when the function ends first (its callers are not
/// seen).
/// With \p Needed (the variables a copy to the host writes), a statement
/// that reads one of them first ends the search: the host needs the result
/// there, so it would wait at that point even with pinned memory.
bool hostWorkFollows(const CallExpr *Call, const FunctionDecl *F,
                     ASTContext &Ctx,
                     llvm::ArrayRef<const ValueDecl *> Needed = {});

} // namespace clang::tidy::cuda::pageable_copy

#endif // CUDA_LINT_PAGEABLECOPYHOSTWORK_H
