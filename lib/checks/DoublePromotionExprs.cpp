//===--- DoublePromotionExprs.cpp - cuda-lint -----------------------------===//
//
// The expression analysis of cuda-double-promotion (DoublePromotionExprs.h).
//
//===----------------------------------------------------------------------===//

#include "DoublePromotionExprs.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::double_promotion {

// C math functions whose float form is the name with an `f` suffix.
namespace {
const char *const MathFunctionNames[] = {
    "acos",  "acosh",     "asin",      "asinh",    "atan",       "atan2",
    "atanh", "cbrt",      "ceil",      "copysign", "cos",        "cosh",
    "cospi", "erf",       "erfc",      "erfcinv",  "erfinv",     "exp",
    "exp10", "exp2",      "expm1",     "fabs",     "fdim",       "floor",
    "fma",   "fmax",      "fmin",      "fmod",     "hypot",      "j0",
    "j1",    "lgamma",    "log",       "log10",    "log1p",      "log2",
    "logb",  "nearbyint", "nextafter", "normcdf",  "normcdfinv", "pow",
    "rcbrt", "remainder", "rint",      "round",    "rsqrt",      "sin",
    "sinh",  "sinpi",     "sqrt",      "tan",      "tanh",       "tgamma",
    "trunc", "y0",        "y1"};

// Math functions whose float form returns exactly the double function's
// result rounded to float, for float arguments: exact operations (the result
// is representable) and single correctly rounded operations (by the
// double-rounding argument). sqrt is left out: sqrtf is correctly rounded
// only with -prec-sqrt=true.
const char *const ExactMathFunctions[] = {
    "ceil", "copysign",  "fabs",      "fdim", "floor", "fmax", "fmin",
    "fmod", "nearbyint", "remainder", "rint", "round", "trunc"};
} // namespace

llvm::ArrayRef<const char *> mathFunctions() { return MathFunctionNames; }

bool isExactMathFunction(StringRef Name) {
  return llvm::is_contained(ExactMathFunctions, Name);
}

bool isDouble(QualType T) {
  return T.getCanonicalType()->isSpecificBuiltinType(BuiltinType::Double);
}
bool isFloat(QualType T) {
  return T.getCanonicalType()->isSpecificBuiltinType(BuiltinType::Float);
}

const FloatingLiteral *asDoubleLiteral(const Expr *E) {
  const auto *Lit = dyn_cast<FloatingLiteral>(E->IgnoreParens());
  return Lit && isDouble(Lit->getType()) ? Lit : nullptr;
}

// An expression built only from unsuffixed double literals: `0.5`, `-0.25`,
// `(1.0 + 0.5)`.
bool isLiteralOnly(const Expr *E) {
  E = E->IgnoreParens();
  if (asDoubleLiteral(E))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           isLiteralOnly(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAdditiveOp() || BO->isMultiplicativeOp()
               ? isLiteralOnly(BO->getLHS()) && isLiteralOnly(BO->getRHS())
               : false;
  return false;
}

bool isMathCall(const CallExpr *Call);

// Float data that the language computes in double: an implicit float to
// double conversion, or double arithmetic built from such conversions and
// double literals, or a double math function called on such data.
bool isPromotedFloat(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
    return Cast->getCastKind() == CK_FloatingCast &&
           isDouble(Cast->getType()) && isFloat(Cast->getSubExpr()->getType());
  if (!isDouble(E->getType()))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           isPromotedFloat(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (!BO->isAdditiveOp() && !BO->isMultiplicativeOp())
      return false;
    bool L = isPromotedFloat(BO->getLHS()), R = isPromotedFloat(BO->getRHS());
    return (L && (R || isLiteralOnly(BO->getRHS()))) ||
           (R && isLiteralOnly(BO->getLHS()));
  }
  // `c ? x : 0.5`: double when one branch is promoted float data and the other
  // is too or is a literal.
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    bool L = isPromotedFloat(CO->getTrueExpr()),
         R = isPromotedFloat(CO->getFalseExpr());
    return (L && (R || isLiteralOnly(CO->getFalseExpr()))) ||
           (R && isLiteralOnly(CO->getTrueExpr()));
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return isMathCall(Call) &&
           llvm::any_of(Call->arguments(), [](const Expr *A) {
             return isFloat(A->IgnoreParenImpCasts()->getType()) ||
                    isPromotedFloat(A);
           });
  return false;
}

// Integer or float data that the language computes in double because of
// unsuffixed literals: a float or a non-constant integer converted to
// double, and `+ - * /`, signs and conditionals of such values and literals.
// \p HasInteger is set when an integer is among them (`0.5 * n`,
// `1.0 / width`, `x * 0.5 * n`).
bool isPromotedNumber(ASTContext &Ctx, const Expr *E, bool &HasInteger) {
  E = E->IgnoreParens();
  if (isPromotedFloat(E) || isLiteralOnly(E))
    return true;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    const Expr *Sub = Cast->getSubExpr();
    if (Cast->getCastKind() != CK_IntegralToFloating ||
        !isDouble(Cast->getType()) || Sub->isValueDependent())
      return false;
    // A constant (`0.5 * 2`) is folded, as literals are: not data.
    if (!Sub->isIntegerConstantExpr(Ctx))
      HasInteger = true;
    return true;
  }
  if (!isDouble(E->getType()))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           isPromotedNumber(Ctx, UO->getSubExpr(), HasInteger);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp()) &&
           isPromotedNumber(Ctx, BO->getLHS(), HasInteger) &&
           isPromotedNumber(Ctx, BO->getRHS(), HasInteger);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isPromotedNumber(Ctx, CO->getTrueExpr(), HasInteger) &&
           isPromotedNumber(Ctx, CO->getFalseExpr(), HasInteger);
  return false;
}

bool isMathCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || !isDouble(Call->getType()))
    return false;
  StringRef Name = FD->getName();
  return llvm::is_contained(MathFunctionNames, Name);
}

// `pow(x, n)` with float `x` and an integer `n`: clang's CUDA headers
// resolve it to a float overload, but nvcc with libstdc++ (C++11 and later)
// takes the promoting `std::pow` template, which computes and returns double.
// A literal next to it promotes nothing that nvcc computes in float.
bool isNvccDoublePow(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "pow" ||
      Call->getNumArgs() != 2 || !isFloat(Call->getType()))
    return false;
  return isFloat(Call->getArg(0)->IgnoreParenImpCasts()->getType()) &&
         Call->getArg(1)->IgnoreParenImpCasts()->getType()->isIntegerType();
}

// Arithmetic that nvcc computes in double because one of its operands is
// such a pow: `pi * pow(r, 2) * len`.
bool hasNvccDoublePow(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isNvccDoublePow(E))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  return BO && (BO->isAdditiveOp() || BO->isMultiplicativeOp()) &&
         (hasNvccDoublePow(BO->getLHS()) || hasNvccDoublePow(BO->getRHS()));
}

// Any part of \p E that is such a pow: `0.055 * T + 0.0074 * pow(T, 2)`.
bool containsNvccDoublePow(const Expr *E) {
  if (!E)
    return false;
  if (isNvccDoublePow(E))
    return true;
  if (isa<LambdaExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (containsNvccDoublePow(CE))
        return true;
  return false;
}

const Stmt *parentSkippingParens(ASTContext &Ctx, const Stmt *S) {
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    if (Parents.empty())
      return nullptr;
    const auto *P = Parents[0].get<Stmt>();
    if (!P || !isa<ParenExpr>(P))
      return P;
    S = P;
  }
}

bool isSignOp(const Stmt *S) {
  const auto *UO = dyn_cast_or_null<UnaryOperator>(S);
  return UO && (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus);
}

/// Whether \p S is in a loop of its function.
bool inLoopOfFunction(ASTContext &Ctx, const Stmt *S) {
  DynTypedNode Cur = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (P && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return true;
    Cur = Parents[0];
  }
  return false;
}

bool isFloatCast(const Expr *E) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  return Cast && Cast->getCastKind() == CK_FloatingCast &&
         isFloat(Cast->getSubExpr()->getType());
}

bool isSignedLiteral(const Expr *E) {
  E = E->IgnoreParens();
  while (isSignOp(E))
    E = cast<UnaryOperator>(E)->getSubExpr()->IgnoreParens();
  return asDoubleLiteral(E) != nullptr;
}

bool isImplicitConversionToFloat(const Stmt *S) {
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(S);
  return Cast && Cast->getCastKind() == CK_FloatingCast &&
         isFloat(Cast->getType());
}

/// The whole double computation that \p E is part of: \p E and the signs,
/// `+ - * /`, conditional branches and math calls of double type around it,
/// up to a comparison (included) or anything else (not).
const Expr *promotedComputation(ASTContext &Ctx, const Expr *E) {
  const Expr *Cur = E;
  while (const auto *P =
             dyn_cast_or_null<Expr>(parentSkippingParens(Ctx, Cur))) {
    const auto *BO = dyn_cast<BinaryOperator>(P);
    const auto *CO = dyn_cast<ConditionalOperator>(P);
    const auto *Call = dyn_cast<CallExpr>(P);
    if (BO && BO->isComparisonOp())
      return BO;
    bool Climb = isDouble(P->getType()) &&
                 (isSignOp(P) ||
                  (BO && !isa<CompoundAssignOperator>(BO) &&
                   (BO->isAdditiveOp() || BO->isMultiplicativeOp())) ||
                  (CO && CO->getCond()->IgnoreParens() != Cur) ||
                  (Call && isMathCall(Call)));
    if (!Climb)
      break;
    Cur = P;
  }
  return Cur;
}

/// Whether the double result of the promoted-float expression \p E ends up
/// as float: converted back to float, compared, or accumulated into a float.
/// Where it flows into double storage (a double variable, a double
/// parameter, varargs) the double arithmetic is on purpose. With
/// \p Integers, the arithmetic on the way may hold integer data made double
/// (isPromotedNumber; \p HasInteger is set when it does), and comparisons
/// do not count.
bool isFloatContext(ASTContext &Ctx, const Expr *E, bool Integers,
                    bool *HasInteger) {
  bool Unused = false;
  bool &Has = HasInteger ? *HasInteger : Unused;
  auto Promoted = [&](const Expr *X) {
    return Integers ? isPromotedNumber(Ctx, X, Has) : isPromotedFloat(X);
  };
  const Stmt *Cur = E;
  const Stmt *P = parentSkippingParens(Ctx, Cur);
  while (P) {
    const auto *BO = dyn_cast<BinaryOperator>(P);
    const auto *Call = dyn_cast<CallExpr>(P);
    const auto *CO = dyn_cast<ConditionalOperator>(P);
    if (isSignOp(P) ||
        (CO && CO->getCond()->IgnoreParens() != Cur && Promoted(CO)) ||
        (BO && !isa<CompoundAssignOperator>(BO) &&
         (BO->isAdditiveOp() || BO->isMultiplicativeOp()) && Promoted(BO)) ||
        (Call && !Integers && isPromotedFloat(Call))) {
      Cur = P;
      P = parentSkippingParens(Ctx, Cur);
      continue;
    }
    break;
  }
  if (!P)
    return false;
  if (isImplicitConversionToFloat(P))
    return true;
  // `[](float v) { return v * 2.0; }`: the literal makes the deduced return
  // type double.
  if (isa<ReturnStmt>(P)) {
    const FunctionDecl *FD = enclosingFunction(Ctx, *P);
    return FD && FD->getDeclaredReturnType()->getContainedAutoType();
  }
  const auto *BO = dyn_cast<BinaryOperator>(P);
  if (!BO)
    return false;
  if (const auto *CAO = dyn_cast<CompoundAssignOperator>(BO))
    return CAO->getRHS()->IgnoreParens() == Cur &&
           isFloat(CAO->getLHS()->getType());
  if (BO->isComparisonOp() && !Integers) {
    const Expr *Other =
        BO->getLHS()->IgnoreParens() == Cur ? BO->getRHS() : BO->getLHS();
    return isPromotedFloat(Other) || isLiteralOnly(Other);
  }
  return false;
}

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
                                   unsigned Depth) {
  if (Depth > 4)
    return {};
  const Stmt *Cur = E;
  const VarDecl *Into = nullptr;
  // `acc += 0.1 * x`: the value goes on in `acc`.
  if (const auto *CAO = dyn_cast<CompoundAssignOperator>(E)) {
    if (CAO->getLHS()->getType()->isIntegerType())
      return CAO->getOperatorLoc();
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(CAO->getLHS()->IgnoreParenImpCasts()))
      Into = dyn_cast<VarDecl>(Ref->getDecl());
  }
  while (!Into) {
    DynTypedNodeList Parents = Ctx.getParents(*Cur);
    if (Parents.empty())
      return {};
    if (const auto *VD = Parents[0].get<VarDecl>()) {
      if (VD->getInit() && VD->getInit()->IgnoreParenImpCasts() ==
                               cast<Expr>(Cur)->IgnoreParenImpCasts())
        Into = VD;
      break;
    }
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      return {};
    if (const auto *Cast = dyn_cast<CastExpr>(P)) {
      if (Cast->getCastKind() == CK_FloatingToIntegral)
        return Cast->getBeginLoc().isValid() ? Cast->getBeginLoc()
                                             : P->getExprLoc();
      if (!P->getType()->isRealFloatingType())
        return {};
      Cur = P;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp()) {
        if (BO->getRHS()->IgnoreParens() != Cur)
          return {};
        // `n += 0.5 * x` with an integer `n`.
        if (BO->getLHS()->getType()->isIntegerType())
          return BO->getOperatorLoc();
        if (const auto *Ref =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          Into = dyn_cast<VarDecl>(Ref->getDecl());
        break;
      }
      if (!BO->isAdditiveOp() && !BO->isMultiplicativeOp())
        return {};
      Cur = P;
      continue;
    }
    if (isa<ParenExpr>(P) || isSignOp(P) ||
        (isa<CallExpr>(P) && P->getType()->isRealFloatingType())) {
      Cur = P;
      continue;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (CO->getCond()->IgnoreParens() == Cur)
        return {};
      Cur = P;
      continue;
    }
    return {};
  }
  // Stored into a local variable: where each of its uses goes.
  if (!Into || !Into->isLocalVarDecl() || !FD || !FD->hasBody() ||
      !Into->getType()->isRealFloatingType() || !Seen.insert(Into).second)
    return {};
  for (const BoundNodes &Use :
       match(findAll(declRefExpr(to(varDecl(equalsNode(Into)))).bind("use")),
             *FD->getBody(), Ctx)) {
    const auto *Ref = Use.getNodeAs<DeclRefExpr>("use");
    if (SourceLocation Loc = integerConversionOf(Ctx, Ref, FD, Seen, Depth + 1);
        Loc.isValid())
      return Loc;
  }
  return {};
}

std::string literalSpelling(const FloatingLiteral *Lit, const SourceManager &SM,
                            const LangOptions &LO) {
  SourceLocation Loc = SM.getSpellingLoc(Lit->getLocation());
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Loc, Loc), SM, LO)
      .str();
}

} // namespace clang::tidy::cuda::double_promotion
