//===--- IntegerDivisionReuse.h - cuda-lint ---------------------*- C++ -*-===//
//
// Integer divisions of cuda-integer-division that the compiler computes once
// with another: a repeat of an earlier operation (GVN), and the other half
// of a `/` and `%` pair. Defined in IntegerDivisionCheckReuse.cpp; used only
// by IntegerDivisionCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_INTEGERDIVISIONREUSE_H
#define CUDA_LINT_INTEGERDIVISIONREUSE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::cuda::integer_division {

/// The other half of a division and modulo pair that the compiler computes
/// with one division, in one basic block with unchanged operands; or null.
const BinaryOperator *divRemPartner(ASTContext &Ctx, const BinaryOperator *BO,
                                    const FunctionDecl *FD);

/// An earlier operation with the same operator and operands as \p BO whose
/// value the compiler reuses for \p BO; or null.
const BinaryOperator *earlierRepeat(ASTContext &Ctx, const BinaryOperator *BO,
                                    const FunctionDecl *FD);

} // namespace clang::tidy::cuda::integer_division

#endif // CUDA_LINT_INTEGERDIVISIONREUSE_H
