//===--- DoublePromotionExprs.h - cuda-lint ---------------------*- C++ -*-===//
//
// The expression analysis of cuda-double-promotion: which float data the
// language computes in double, where that double result ends up, and what
// nvcc computes in double that clang's overloads do not (pow of a float and
// an integer). Used only by DoublePromotionCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_DOUBLEPROMOTIONEXPRS_H
#define CUDA_LINT_DOUBLEPROMOTIONEXPRS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <string>

namespace clang::tidy::cuda::double_promotion {

// C math functions whose float form is the name with an `f` suffix.
llvm::ArrayRef<const char *> mathFunctions();

bool isExactMathFunction(StringRef Name);

bool isDouble(QualType T);

bool isFloat(QualType T);

const FloatingLiteral *asDoubleLiteral(const Expr *E);

// An expression built only from unsuffixed double literals: `0.5`, `-0.25`,
// `(1.0 + 0.5)`.
bool isLiteralOnly(const Expr *E);

// Float data that the language computes in double: an implicit float to
// double conversion, or double arithmetic built from such conversions and
// double literals, or a double math function called on such data.
bool isPromotedFloat(const Expr *E);

// Integer or float data that the language computes in double because of
// unsuffixed literals: a float or a non-constant integer converted to
// double, and `+ - * /`, signs and conditionals of such values and literals.
// \p HasInteger is set when an integer is among them (`0.5 * n`,
// `1.0 / width`, `x * 0.5 * n`).
bool isPromotedNumber(ASTContext &Ctx, const Expr *E, bool &HasInteger);

bool isMathCall(const CallExpr *Call);

// `pow(x, n)` with float `x` and an integer `n`: clang's CUDA headers
// resolve it to a float overload, but nvcc with libstdc++ (C++11 and later)
// takes the promoting `std::pow` template, which computes and returns double.
// A literal next to it promotes nothing that nvcc computes in float.
bool isNvccDoublePow(const Expr *E);

// Arithmetic that nvcc computes in double because one of its operands is
// such a pow: `pi * pow(r, 2) * len`.
bool hasNvccDoublePow(const Expr *E);

// Any part of \p E that is such a pow: `0.055 * T + 0.0074 * pow(T, 2)`.
bool containsNvccDoublePow(const Expr *E);

const Stmt *parentSkippingParens(ASTContext &Ctx, const Stmt *S);

bool isSignOp(const Stmt *S);

/// Whether \p S is in a loop of its function.
bool inLoopOfFunction(ASTContext &Ctx, const Stmt *S);

// A float value converted to double, and nothing else: `x` in `x * 0.5`.
bool isFloatCast(const Expr *E);

bool isSignedLiteral(const Expr *E);

bool isImplicitConversionToFloat(const Stmt *S);

/// The whole double computation that \p E is part of: \p E and the signs,
/// `+ - * /`, conditional branches and math calls of double type around it,
/// up to a comparison (included) or anything else (not).
const Expr *promotedComputation(ASTContext &Ctx, const Expr *E);

/// Whether the double result of the promoted-float expression \p E ends up
/// as float: converted back to float, compared, or accumulated into a float.
/// Where it flows into double storage (a double variable, a double
/// parameter, varargs) the double arithmetic is on purpose. With
/// \p Integers, the arithmetic on the way may hold integer data made double
/// (isPromotedNumber; \p HasInteger is set when it does), and comparisons
/// do not count.
bool isFloatContext(ASTContext &Ctx, const Expr *E, bool Integers = false,
                    bool *HasInteger = nullptr);

/// Where the floating-point value of \p E is converted to an integer, if it
/// is: followed up through floating-point arithmetic, calls that return a
/// floating-point value (`fmaxf(th, 20.f)`), and the local variables it is
/// stored into (up to a few of them). A result truncated or rounded to an
/// integer there turns a last-bits difference into a different integer
/// wherever the exact value is one (`0.24 * 142 + 0.92 * 1` is 35.0 in double,
/// 34.99998 in float).
SourceLocation integerConversionOf(ASTContext &Ctx, const Expr *E,
                                   const FunctionDecl *FD,
                                   llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
                                   unsigned Depth = 0);

std::string literalSpelling(const FloatingLiteral *Lit, const SourceManager &SM,
                            const LangOptions &LO);

} // namespace clang::tidy::cuda::double_promotion

#endif // CUDA_LINT_DOUBLEPROMOTIONEXPRS_H
