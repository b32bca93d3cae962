//===--- IntegerDivisionCost.h - cuda-lint ----------------------*- C++ -*-===//
//
// What an integer division of cuda-integer-division costs where it stands:
// run-time power-of-two divisors, loop variance, fully unrolled counters,
// folded products, remainders only tested against zero; and the walks of
// operands and statements shared with IntegerDivisionReuse.h. Defined in
// IntegerDivisionCheckCost.cpp; used only by IntegerDivisionCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_INTEGERDIVISIONCOST_H
#define CUDA_LINT_INTEGERDIVISIONCOST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::integer_division {

/// The parent statement of \p S, or null.
const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S);

/// Whether the local variable \p V is const or never changed (nor escapes)
/// in its function.
bool isNeverModified(ASTContext &Ctx, const VarDecl *V);

/// A divisor that is a run-time power of two: `(1 << k)`, or a local
/// variable initialised with `1 << k` where neither it nor `k` changes: `k`.
const Expr *powerOfTwoShift(ASTContext &Ctx, const Expr *Divisor);

/// Whether \p S holds anything that ends a basic block.
bool hasControlFlow(const Stmt *S);

/// What an operand of a division reads: local variables (and parameters),
/// and whether it loads from memory (the types loaded into \p Loaded). False
/// when it holds anything else.
bool operandInputs(const Expr *E, SmallVectorImpl<const VarDecl *> &Vars,
                   bool &LoadsMemory,
                   SmallVectorImpl<QualType> *Loaded = nullptr);

/// Whether \p S may write memory (with \p Loaded, memory that may alias a
/// load of one of these types).
bool mayWriteMemory(const Stmt *S, ArrayRef<QualType> Loaded = {});

/// Whether \p S changes (or may change) one of \p Vars.
bool changesVars(ASTContext &Ctx, const Stmt *S,
                 ArrayRef<const VarDecl *> Vars);

/// Whether \p E takes a single known value in each copy of an unrolled loop
/// body.
bool isUnrolledConstant(ASTContext &Ctx, const Expr *E, unsigned Depth = 0);

/// Whether \p BO computes a different value in some iteration of a loop
/// that holds it.
bool variesInLoop(ASTContext &Ctx, const BinaryOperator *BO);

/// The statement that holds \p S, through a variable's initialiser to its
/// declaration statement.
const Stmt *enclosingStmt(ASTContext &Ctx, const Stmt *S);

/// Whether the value of \p E is only tested against zero.
bool onlyTestedAgainstZero(ASTContext &Ctx, const Expr *E);

/// Whether \p E is a signed product by a constant that \p Divisor divides.
bool isSignedMultipleOf(ASTContext &Ctx, const Expr *E,
                        const llvm::APSInt &Divisor);

/// Whether \p S is in a branch of an `if constexpr` whose condition depends
/// on a template parameter.
bool inDependentConstexprBranch(ASTContext &Ctx, const Stmt *S);

} // namespace clang::tidy::cuda::integer_division

#endif // CUDA_LINT_INTEGERDIVISIONCOST_H
