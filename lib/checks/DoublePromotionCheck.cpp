//===--- DoublePromotionCheck.cpp - cuda-lint -----------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 5.1.3: "Avoid automatic
// conversion of doubles to floats": use `f`-suffixed constants so that float
// data stays in float arithmetic.
//
//===----------------------------------------------------------------------===//

#include "DoublePromotionCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

// C math functions whose float form is the name with an `f` suffix.
const char *const MathFunctions[] = {
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
  return llvm::is_contained(MathFunctions, Name);
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

// A float value converted to double, and nothing else: `x` in `x * 0.5`.
/// Whether evaluating \p E reads memory or calls a function: what the
/// compiler cannot evaluate before the condition that guards it.
bool readsMemory(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ArraySubscriptExpr, CallExpr>(S))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return true;
  return llvm::any_of(S->children(),
                      [](const Stmt *C) { return readsMemory(C); });
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
bool isFloatContext(ASTContext &Ctx, const Expr *E, bool Integers = false,
                    bool *HasInteger = nullptr) {
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
                                   unsigned Depth = 0) {
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

} // namespace

DoublePromotionCheck::DoublePromotionCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaCheck(Name, Context),
      StrictNumerics(Options.get("StrictNumerics", false)) {}

void DoublePromotionCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "StrictNumerics", StrictNumerics);
}

void DoublePromotionCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      floatLiteral(unless(isExpansionInSystemHeader())).bind("lit"), this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(std::vector<StringRef>(
                   std::begin(MathFunctions), std::end(MathFunctions))))),
               unless(isExpansionInSystemHeader()))
          .bind("call"),
      this);
}

void DoublePromotionCheck::check(const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  LangOpts = &Result.Context->getLangOpts();
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call")) {
    checkMathCall(Call, Result);
    return;
  }
  const auto *Lit = Result.Nodes.getNodeAs<FloatingLiteral>("lit");
  if (!Lit || !isDouble(Lit->getType()))
    return;
  ASTContext &Ctx = *Result.Context;

  // Template instantiation shares literal nodes with the pattern: each
  // parent is one use of the literal (one instantiation).
  if (!VisitedLiterals.insert(Lit).second)
    return;
  SmallVector<Occurrence, 2> Found;
  bool InTemplate = false;
  for (const DynTypedNode &PN : Ctx.getParents(*Lit)) {
    const Stmt *Node = Lit;
    const Stmt *Parent = PN.get<Stmt>();
    if (const auto *PE = dyn_cast_or_null<ParenExpr>(Parent)) {
      Node = PE;
      Parent = parentSkippingParens(Ctx, PE);
    }
    const Stmt *Anchor = Parent ? Parent : Lit;
    const FunctionDecl *FD = enclosingFunction(Ctx, *Anchor);
    if (FD && (FD->isTemplateInstantiation() || FD->isDependentContext() ||
               isa_and_nonnull<ClassTemplateSpecializationDecl>(
                   FD->getDeclContext())))
      InTemplate = true;
    // Climb over literal-only arithmetic (`x * (0.5 + 0.25)`) and signs.
    while (Parent) {
      if (isSignOp(Parent)) {
        Node = Parent;
        Parent = parentSkippingParens(Ctx, Node);
        continue;
      }
      const auto *BO = dyn_cast<BinaryOperator>(Parent);
      if (BO && !isa<CompoundAssignOperator>(BO) &&
          (BO->isAdditiveOp() || BO->isMultiplicativeOp())) {
        const Expr *Other =
            BO->getLHS()->IgnoreParens() == Node ? BO->getRHS() : BO->getLHS();
        if (isLiteralOnly(Other)) {
          Node = Parent;
          Parent = parentSkippingParens(Ctx, Node);
          continue;
        }
      }
      break;
    }

    Occurrence Occ;
    Occ.ExpansionLoc = SM->getFileLoc(Lit->getLocation());
    // Where the operand is written: in a macro argument (`MIN(100.0 * x,
    // y)`) that is the argument's own text, so that the literals of
    // different operands there stay apart; in a macro body (`#define K (1.0
    // / PI)`), the macro's use.
    Occ.Operand = {SM->getFileLoc(Node->getBeginLoc()),
                   SM->getFileLoc(Node->getEndLoc())};
    // As written where that is one piece of the file (`K`, `(0.5 + 0.25)`);
    // else (part of a larger macro expansion) the expression itself.
    const Stmt *Spelled = Node;
    for (DynTypedNodeList Ps = Ctx.getParents(*Spelled);
         !Ps.empty() && Ps[0].get<ParenExpr>(); Ps = Ctx.getParents(*Spelled))
      Spelled = Ps[0].get<ParenExpr>();
    CharSourceRange FileRange = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Spelled->getSourceRange()), *SM,
        *LangOpts);
    if (FileRange.isValid())
      Occ.OperandText = Lexer::getSourceText(FileRange, *SM, *LangOpts).str();
    if (Occ.OperandText.empty() || Occ.OperandText.size() > 60 ||
        StringRef(Occ.OperandText).contains('\n')) {
      Occ.OperandText.clear();
      llvm::raw_string_ostream OS(Occ.OperandText);
      Node->printPretty(OS, nullptr, PrintingPolicy(*LangOpts));
    }
    // `0.5 * pow(t, 2)`, `pi * pow(r, 2) * 1e-15`: nvcc computes the other
    // operand in double already.
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent))
      if (hasNvccDoublePow(BO->getLHS()->IgnoreParens() == Node ? BO->getRHS()
                                                                : BO->getLHS()))
        continue;
    // The literal alone, or with signs: what nvcc folds into one constant.
    bool SingleLiteral = isSignedLiteral(cast<Expr>(Node));
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent)) {
      if (BO->isTypeDependent() || BO->isValueDependent())
        continue; // Judged per instantiation.
      if (const auto *CAO = dyn_cast<CompoundAssignOperator>(BO)) {
        // `acc += 0.1` with float `acc`: computed in double, stored as float.
        Occ.Promotes = BO->getRHS()->IgnoreParens() == Node &&
                       isFloat(CAO->getLHS()->getType()) &&
                       isDouble(CAO->getComputationLHSType());
        // `acc += 0.5` is one operation on float data whose result is
        // stored as float: nvcc narrows it like `acc = acc + 0.5`.
        BinaryOperatorKind Op =
            BinaryOperator::getOpForCompoundAssignment(CAO->getOpcode());
        if (Occ.Promotes && SingleLiteral &&
            (Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Div))
          Occ.Narrowing = Occurrence::SingleOperation;
      } else if (BO->isAdditiveOp() || BO->isMultiplicativeOp() ||
                 BO->isComparisonOp()) {
        const Expr *Other =
            BO->getLHS()->IgnoreParens() == Node ? BO->getRHS() : BO->getLHS();
        Occ.Promotes = isPromotedFloat(Other) &&
                       (BO->isComparisonOp() || isFloatContext(Ctx, BO));
        // nvcc narrows one +, -, * or / of a float and an exactly
        // representable literal whose result goes straight back to float,
        // and a comparison of a float with such a literal: by the
        // double-rounding argument for IEEE operations, the float operation
        // computes the same value.
        if (Occ.Promotes && SingleLiteral && isFloatCast(Other) &&
            (BO->isComparisonOp() ||
             isImplicitConversionToFloat(parentSkippingParens(Ctx, BO))))
          Occ.Narrowing = Occurrence::SingleOperation;
        // `float px = 1.0 / width;` with an integer `width`, `x * 0.5 * n`:
        // integer data in the double arithmetic the literal makes, the result
        // narrowed into a float. nvcc keeps the f64 arithmetic (see
        // cuda-double-promotion-ptx.cu).
        bool HasInteger = false;
        if (!Occ.Promotes && !BO->isComparisonOp() &&
            isPromotedNumber(Ctx, BO, HasInteger) &&
            isFloatContext(Ctx, BO, /*Integers=*/true, &HasInteger) &&
            HasInteger) {
          Occ.Promotes = true;
          Occ.FromInteger = true;
        }
      }
    } else if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(Parent)) {
      // `c ? x : 0.1` with float `x`: the conditional is double.
      if (CO->isTypeDependent() || CO->isValueDependent())
        continue; // Judged per instantiation.
      if (CO->getCond()->IgnoreParens() != Node && isDouble(CO->getType())) {
        const Expr *Other = CO->getTrueExpr()->IgnoreParens() == Node
                                ? CO->getFalseExpr()
                                : CO->getTrueExpr();
        Occ.Promotes = isPromotedFloat(Other) && isFloatContext(Ctx, CO);
        // Converted straight back to float, each branch is converted on its
        // own: the literal becomes its float value, whatever it is.
        // Not where the float branch is a load the condition guards, in a
        // loop: nvcc keeps that join in double (jaccard: cvt.f64.f32 of the
        // load, cvt.rn.f32.f64 after it; audit of stop 25).
        if (Occ.Promotes && SingleLiteral && isFloatCast(Other) &&
            isImplicitConversionToFloat(parentSkippingParens(Ctx, CO)) &&
            !(readsMemory(Other) && inLoopOfFunction(Ctx, CO)))
          Occ.Narrowing = Occurrence::ConditionalBranch;
      }
    }
    if (Occ.Promotes && !isDeviceFunction(FD))
      Occ.Promotes = false;
    // Every operand of the double computation is a constant (`kbi = 2.2;
    // kbi / 33.5e-3`, `0.03 * sqrt(Ko / 5.4)` with `float Ko = 5.4f`): nvcc
    // folds it, and no f64 instruction is left.
    if (Occ.Promotes && isa_and_nonnull<Expr>(Parent) &&
        isFoldedConstant(promotedComputation(Ctx, cast<Expr>(Parent)), Ctx))
      Occ.Promotes = false;
    if (Occ.Promotes && Parent) {
      llvm::SmallPtrSet<const VarDecl *, 4> Seen;
      Occ.ToInteger = SM->getFileLoc(
          integerConversionOf(Ctx, cast<Expr>(Parent), FD, Seen));
    }
    Found.push_back(Occ);
  }
  if (Found.empty())
    return;

  SourceLocation SpellingLoc = SM->getSpellingLoc(Lit->getLocation());
  auto [It, Inserted] = Sites.try_emplace(SpellingLoc);
  LiteralSite &Site = It->second;
  if (Inserted) {
    Site.SpellingLoc = SpellingLoc;
    Site.Spelling = literalSpelling(Lit, *SM, *LangOpts);
    Site.Value = toFloat(Lit);
    // A literal spelled in a macro's body, also when that macro is an
    // argument of another (`MAX(q[i], QMIN)` with `#define QMIN 1e-15`).
    SourceLocation Loc = Lit->getLocation();
    while (Loc.isMacroID() && SM->isMacroArgExpansion(Loc))
      Loc = SM->getImmediateSpellingLoc(Loc);
    if (Loc.isMacroID()) {
      Site.InMacroBody = true;
      Site.MacroName = Lexer::getImmediateMacroName(Loc, *SM, *LangOpts).str();
      Site.MacroInMainFile = SM->isInMainFile(SpellingLoc);
    }
  }
  Site.InTemplate |= InTemplate;
  Site.Occurrences.append(Found.begin(), Found.end());
}

DoublePromotionCheck::FloatValue
DoublePromotionCheck::toFloat(const FloatingLiteral *Lit) {
  FloatValue V;
  llvm::APFloat F = Lit->getValue();
  bool LosesInfo = false;
  llvm::APFloat::opStatus Status =
      F.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
                &LosesInfo);
  V.Overflows = (Status & llvm::APFloat::opOverflow) != 0;
  V.Underflows = F.isZero() && !Lit->getValue().isZero();
  V.Subnormal = F.isDenormal();
  V.Representable = !LosesInfo && Status == llvm::APFloat::opOK;
  double D = Lit->getValueAsApproximateDouble();
  double FD = static_cast<float>(D);
  V.RelativeError = D != 0 ? std::fabs((FD - D) / D) : 0;
  return V;
}

StringRef DoublePromotionCheck::whyNotFixable(const FloatValue &V) {
  if (V.Overflows)
    return "is outside float's range";
  if (V.Underflows)
    return "underflows to zero in float";
  if (V.Subnormal)
    return "is subnormal in float";
  return "";
}

void DoublePromotionCheck::noteNumerics(SourceLocation Loc, StringRef Spelling,
                                        const FloatValue &V) {
  std::string Rel = llvm::formatv("{0:e1}", V.RelativeError).str();
  if (V.Overflows)
    return; // Said by the no-fix note.
  if (V.Underflows)
    diag(Loc, "'%0' underflows in float: '%0f' is zero", DiagnosticIDs::Note)
        << Spelling;
  else if (V.Subnormal && V.Representable)
    diag(Loc,
         "'%0' is subnormal in float: '%0f' is zero where subnormals are "
         "flushed (-ftz=true, --use_fast_math)",
         DiagnosticIDs::Note)
        << Spelling;
  else if (V.Subnormal)
    diag(Loc,
         "'%0' is subnormal in float: '%0f' differs by a relative %1, and is "
         "zero where subnormals are flushed (-ftz=true, --use_fast_math)",
         DiagnosticIDs::Note)
        << Spelling << Rel;
  else if (!V.Representable)
    // In float's normal range the float literal is within half a unit in the
    // last place (a relative 6e-08).
    diag(Loc,
         "'%0' is not exactly representable in float; '%0f' differs by a "
         "relative %1, which can change the last bits of results",
         DiagnosticIDs::Note)
        << Spelling << Rel;
}

namespace {
// Math functions whose float form returns exactly the double function's
// result rounded to float, for float arguments: exact operations (the result
// is representable) and single correctly rounded operations (by the
// double-rounding argument). sqrt is left out: sqrtf is correctly rounded
// only with -prec-sqrt=true.
const char *const ExactMathFunctions[] = {
    "ceil", "copysign",  "fabs",      "fdim", "floor", "fmax", "fmin",
    "fmod", "nearbyint", "remainder", "rint", "round", "trunc"};
} // namespace

void DoublePromotionCheck::checkMathCall(
    const CallExpr *Call, const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (!isMathCall(Call) || Call->isTypeDependent())
    return;
  // The float function takes float arguments: only float data and literals
  // (which get the suffix) pass to it unchanged. An argument computed in
  // double (`floor(v * 0.5)`) would be narrowed on the way in.
  bool AnyFloat = false, AllFloatOrLiteral = true;
  for (const Expr *Arg : Call->arguments()) {
    AnyFloat |=
        isFloat(Arg->IgnoreParenImpCasts()->getType()) || isPromotedFloat(Arg);
    AllFloatOrLiteral &=
        isFloat(Arg->IgnoreParenImpCasts()->getType()) || isSignedLiteral(Arg);
  }
  if (!AnyFloat || !isDeviceFunction(enclosingFunction(Ctx, *Call)) ||
      !isFloatContext(Ctx, Call) ||
      isFoldedConstant(promotedComputation(Ctx, Call), Ctx))
    return;
  SourceLocation Loc = SM->getFileLoc(Call->getBeginLoc());
  if (!ReportedCalls.try_emplace(Loc, true).second)
    return; // Another instantiation of the same call.

  const FunctionDecl *FD = Call->getDirectCallee();
  std::string Name = FD->getName().str();
  const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
  StringRef CalleeText =
      Ref ? Lexer::getSourceText(
                CharSourceRange::getTokenRange(Ref->getSourceRange()), *SM,
                *LangOpts)
          : StringRef();
  bool InStd =
      CalleeText.starts_with("std::") || CalleeText.starts_with("::std::");
  std::string FloatName = InStd ? "std::" + Name : Name + "f";
  bool Exact = llvm::is_contained(ExactMathFunctions, Name);

  std::string WhyNot;
  if (!AllFloatOrLiteral)
    WhyNot = "an argument is neither float data nor a literal, and the "
             "float function would narrow it";
  else if (!Ref || Ref->getLocation().isMacroID() ||
           Call->getBeginLoc().isMacroID())
    WhyNot = "the call is spelled in a macro";
  else if (StrictNumerics && !Exact)
    WhyNot = "StrictNumerics is on, and '" + FloatName +
             "' need not return the value of '" + Name + "' rounded to float";

  std::vector<FixItHint> Fixes;
  if (!InStd)
    Fixes.push_back(FixItHint::CreateInsertion(
        Lexer::getLocForEndOfToken(Ref ? Ref->getLocation() : Loc, 0, *SM,
                                   *LangOpts),
        "f"));
  // Literal arguments whose value the suffix changes, for the notes.
  SmallVector<std::pair<const FloatingLiteral *, FloatValue>, 2> Changed;
  for (const Expr *Arg : Call->arguments()) {
    const Expr *E = Arg->IgnoreParens();
    while (isSignOp(E))
      E = cast<UnaryOperator>(E)->getSubExpr()->IgnoreParens();
    const FloatingLiteral *Lit = asDoubleLiteral(E);
    if (!Lit)
      continue;
    FloatValue V = toFloat(Lit);
    if (!V.Representable || V.Subnormal)
      Changed.emplace_back(Lit, V);
    if (WhyNot.empty()) {
      if (Lit->getLocation().isMacroID())
        WhyNot = "a literal argument is spelled in a macro";
      else if (StringRef Why = whyNotFixable(V); !Why.empty())
        WhyNot = "the value of a literal argument " + Why.str();
      else if (StrictNumerics && !V.Representable)
        WhyNot = "a literal argument is not exactly representable in float "
                 "and StrictNumerics is on";
    }
    Fixes.push_back(FixItHint::CreateInsertion(
        Lexer::getLocForEndOfToken(Lit->getLocation(), 0, *SM, *LangOpts),
        "f"));
  }
  {
    auto Diag = diag(Loc, "call to '%0' computes float data in double "
                          "precision; use the float function '%1'")
                << Name << FloatName;
    if (WhyNot.empty())
      for (const FixItHint &Fix : Fixes)
        Diag << Fix;
  }
  for (const auto &[Lit, V] : Changed)
    noteNumerics(
        SM->getFileLoc(Lit->getLocation()),
        Lexer::getSourceText(CharSourceRange::getTokenRange(
                                 SM->getSpellingLoc(Lit->getLocation())),
                             *SM, *LangOpts),
        V);
  if (!Exact && !StrictNumerics)
    diag(Loc,
         "'%0' is a different implementation from '%1': its result can "
         "differ from '%1' rounded to float in the last bits (the CUDA "
         "programming guide lists each function's accuracy in ulp)",
         DiagnosticIDs::Note)
        << FloatName << Name;
  if (!WhyNot.empty())
    diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
}

void DoublePromotionCheck::onEndOfTranslationUnit() {
  // What each site's finding would be, and the operand it is reported for.
  struct Verdict {
    LiteralSite *Site;
    const Occurrence *First;
    bool AllNarrowed, AllConditional;
    bool AnyFromInteger, AllFromInteger;
    std::string WhyNot;
    SourceLocation ToInteger;
  };
  std::vector<Verdict> Verdicts;
  for (auto &[Key, Site] : Sites) {
    const Occurrence *First = nullptr;
    bool AllPromote = true, AllNarrowed = true, AllConditional = true;
    bool AnyFromInteger = false, AllFromInteger = true;
    SourceLocation ToInteger;
    const FloatValue &V = Site.Value;
    for (const Occurrence &Occ : Site.Occurrences) {
      if (!Occ.Promotes) {
        AllPromote = false;
        continue;
      }
      if (!First)
        First = &Occ;
      AnyFromInteger |= Occ.FromInteger;
      AllFromInteger &= Occ.FromInteger;
      if (ToInteger.isInvalid())
        ToInteger = Occ.ToInteger;
      AllNarrowed &= Occ.Narrowing == Occurrence::ConditionalBranch ||
                     (Occ.Narrowing == Occurrence::SingleOperation &&
                      V.Representable && !V.Subnormal);
      AllConditional &= Occ.Narrowing == Occurrence::ConditionalBranch;
    }
    if (!First)
      continue;
    // The finding goes where the literal really makes double work: a macro
    // used once where nvcc narrows (`qq = PSAT * expf(x)`) and once in a
    // chain (`PSAT * expf(x) * expf(-x)`) is reported at the chain, with
    // its headline, not at the first use.
    if (!AllNarrowed)
      for (const Occurrence &Occ : Site.Occurrences)
        if (Occ.Promotes && Occ.Narrowing != Occurrence::ConditionalBranch &&
            !(Occ.Narrowing == Occurrence::SingleOperation && V.Representable &&
              !V.Subnormal)) {
          First = &Occ;
          break;
        }

    std::string WhyNot;
    if (StringRef Why = whyNotFixable(V); !Why.empty())
      WhyNot = "the value " + Why.str();
    else if (StrictNumerics && !AllNarrowed)
      WhyNot = V.Representable
                   ? "StrictNumerics is on, and float arithmetic can round "
                     "differently here from double arithmetic"
                   : "the value is not exactly representable in float and "
                     "StrictNumerics is on";
    else if (!AllNarrowed && ToInteger.isValid())
      // Float arithmetic can round an exact integer (35.0) just below it
      // (34.99998), and the conversion then gives another integer.
      WhyNot = "the result is converted to an integer, and a last-bits "
               "difference of float arithmetic can change that integer";
    else if (Site.InMacroBody && !Site.MacroInMainFile)
      WhyNot = "the literal is spelled in a macro defined in another file";
    else if (!AllPromote)
      WhyNot = Site.InMacroBody
                   ? "the macro is also used where the literal does not "
                     "promote float data"
                   : "the literal is also used where it does not promote "
                     "float data (another template instantiation)";
    Verdicts.push_back({&Site, First, AllNarrowed, AllConditional,
                        AnyFromInteger, AllFromInteger, WhyNot,
                        AllNarrowed ? SourceLocation() : ToInteger});
  }

  // With the suffix, the integer is converted to float rather than double,
  // and the arithmetic rounds in float.
  auto NoteIntegerToFloat = [&](SourceLocation Loc, StringRef Spelling) {
    diag(Loc,
         "with '%0f' the integer is converted to float, exactly only up to "
         "2^24 in magnitude, and the arithmetic rounds to float: results "
         "can differ from the double computation in the last bits",
         DiagnosticIDs::Note)
        << Spelling;
  };

  // One finding per promoting operand: the literals of one literal-only
  // operand (`x * K` with `#define K (1.0 / PI)`) are reported together.
  llvm::MapVector<std::pair<SourceLocation, SourceLocation>,
                  SmallVector<const Verdict *, 1>>
      Operands;
  for (const Verdict &Vd : Verdicts)
    Operands[Vd.First->Operand].push_back(&Vd);

  for (auto &[Key, Group] : Operands) {
    if (Group.size() == 1) {
      const Verdict &Vd = *Group.front();
      const LiteralSite &Site = *Vd.Site;
      const FloatValue &V = Site.Value;
      SourceLocation Loc = Vd.First->ExpansionLoc;
      {
        // Where nvcc narrows anyway, the finding is that the source says
        // double where the code is float: the suffix says what it does.
        auto Diag =
            Vd.AllNarrowed
                ? diag(Loc, "double-precision literal '%0' in a "
                            "%select{float operation that nvcc "
                            "computes in|branch that nvcc converts to}1 "
                            "float; the 'f' suffix makes that "
                            "explicit")
                      << Site.Spelling << Vd.AllConditional
                : diag(Loc, "double-precision literal '%0' promotes "
                            "%select{float arithmetic to double|integer data "
                            "to double, and the result is narrowed to float}1")
                      << Site.Spelling << Vd.AllFromInteger;
        if (Vd.WhyNot.empty())
          Diag << FixItHint::CreateInsertion(
              Lexer::getLocForEndOfToken(Site.SpellingLoc, 0, *SM, *LangOpts),
              "f");
      }
      // Where nvcc narrows anyway, the float literal computes the same
      // values.
      if (!Vd.AllNarrowed || V.Underflows || V.Subnormal)
        noteNumerics(Loc, Site.Spelling, V);
      // With the suffix, the integer is converted to float rather than
      // double, and the arithmetic rounds in float.
      if (Vd.AnyFromInteger)
        NoteIntegerToFloat(Loc, Site.Spelling);
      if (Site.InMacroBody)
        diag(Site.SpellingLoc, "literal spelled in macro '%0' here",
             DiagnosticIDs::Note)
            << Site.MacroName;
      if (Vd.AllNarrowed)
        diag(Loc,
             Vd.AllConditional
                 ? "nvcc already converts this branch to float; the suffix "
                   "makes that explicit"
                 : "nvcc already narrows this single operation back to "
                   "float; the suffix makes that explicit",
             DiagnosticIDs::Note);
      if (!Vd.WhyNot.empty())
        diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << Vd.WhyNot;
      if (Vd.ToInteger.isValid())
        diag(Vd.ToInteger, "the result is converted to an integer here",
             DiagnosticIDs::Note);
      continue;
    }
    // Several literals in one operand: a literal-only expression is never a
    // narrowed single operation. Fixed only when every literal can be, so
    // that the operand becomes float as a whole.
    SourceLocation Loc = Group.front()->First->ExpansionLoc;
    bool AllFixable = llvm::all_of(
        Group, [](const Verdict *Vd) { return Vd->WhyNot.empty(); });
    {
      auto Diag = diag(Loc, "double-precision constant '%0' promotes float "
                            "arithmetic to double")
                  << Group.front()->First->OperandText;
      if (AllFixable)
        for (const Verdict *Vd : Group)
          Diag << FixItHint::CreateInsertion(
              Lexer::getLocForEndOfToken(Vd->Site->SpellingLoc, 0, *SM,
                                         *LangOpts),
              "f");
    }
    for (const Verdict *Vd : Group) {
      const LiteralSite &Site = *Vd->Site;
      if (Site.InMacroBody)
        diag(Site.SpellingLoc, "literal '%0' spelled in macro '%1' here",
             DiagnosticIDs::Note)
            << Site.Spelling << Site.MacroName;
      else
        diag(Site.SpellingLoc, "literal '%0' here", DiagnosticIDs::Note)
            << Site.Spelling;
      noteNumerics(Site.SpellingLoc, Site.Spelling, Site.Value);
      if (Vd->AnyFromInteger)
        NoteIntegerToFloat(Site.SpellingLoc, Site.Spelling);
      if (!Vd->WhyNot.empty())
        diag(Site.SpellingLoc, "no automatic fix for '%0': %1",
             DiagnosticIDs::Note)
            << Site.Spelling << Vd->WhyNot;
    }
    for (const Verdict *Vd : Group)
      if (Vd->ToInteger.isValid()) {
        diag(Vd->ToInteger, "the result is converted to an integer here",
             DiagnosticIDs::Note);
        break;
      }
    if (!AllFixable)
      for (const Verdict *Vd : Group)
        if (Vd->WhyNot.empty())
          diag(Vd->Site->SpellingLoc,
               "'%0' is not rewritten either: the constant would stay double",
               DiagnosticIDs::Note)
              << Vd->Site->Spelling;
  }
  Sites.clear();
  ReportedCalls.clear();
  VisitedLiterals.clear();
}

} // namespace clang::tidy::cuda
