//===--- DoublePromotionCalls.cpp - cuda-lint -----------------------------===//
//
// The calls of cuda-double-promotion (DoublePromotionCheck.h): a double math
// function called on float data, and the pow of a float and an integer that
// nvcc computes in double where clang's overloads do not.
//
//===----------------------------------------------------------------------===//

#include "DoublePromotionCheck.h"
#include "DoublePromotionExprs.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ValueRange.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <functional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace double_promotion;

namespace {

/// Whether \p E is a constant: evaluable, or a local of arithmetic type
/// initialised with one and never written after (no assignment, increment
/// or address taken in its function).
bool constantBase(ASTContext &Ctx, const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent())
    return false;
  if (E->isEvaluatable(Ctx))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      !V->getType()->isArithmeticType() || V->getType().isVolatileQualified() ||
      V->getInit()->isValueDependent() || !V->getInit()->isEvaluatable(Ctx))
    return false;
  const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!FD || !FD->getBody())
    return false;
  return !warpsync::Analysis::assignedIn(FD->getBody(), V);
}

} // namespace

void DoublePromotionCheck::checkNvccDoublePow(
    const CallExpr *Call, const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (Call->isTypeDependent() ||
      !isDeviceFunction(enclosingFunction(Ctx, *Call)))
    return;
  // Where clang's AST converts the float result to double, the double
  // computation must end as float: `double d = pow(t, 2)` is double on
  // purpose.
  const Stmt *Up = parentSkippingParens(Ctx, Call);
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up);
  bool Direct = !Cast || !isDouble(Cast->getType());
  if (!Direct && !isFloatContext(Ctx, Cast))
    return;
  SourceLocation Loc = SM->getFileLoc(Call->getBeginLoc());
  if (!ReportedCalls.try_emplace(Loc, true).second)
    return;
  const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
  const Expr *Base = Call->getArg(0)->IgnoreParenImpCasts();
  const Expr *Exp = Call->getArg(1)->IgnoreParenImpCasts();
  std::optional<llvm::APSInt> N = Exp->getIntegerConstantExpr(Ctx);
  auto Text = [&](const Expr *E) {
    return Lexer::getSourceText(
        CharSourceRange::getTokenRange(E->getSourceRange()), *SM, *LangOpts);
  };
  // The square of a variable: `t * t` is the float square, correctly
  // rounded, i.e. the double square rounded to float.
  bool Square = N && *N == 2 && isa<DeclRefExpr>(Base) &&
                !Base->getBeginLoc().isMacroID();
  StringRef BaseText = Square ? Text(Base) : StringRef();
  std::string WhyNot;
  if (!Ref || Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID())
    WhyNot = "the call is spelled in a macro";
  else if (!Square && (StrictNumerics || Ref->hasQualifier()))
    WhyNot = StrictNumerics ? "StrictNumerics is on, and 'powf' need not "
                              "return the value of 'pow' rounded to float"
                            : "the call is qualified; write 'powf' or "
                              "multiply out the power";
  else if (Square && StrictNumerics && !Direct)
    WhyNot = "StrictNumerics is on, and the square rounded to float changes "
             "the double arithmetic around it";
  // The literals of the double computation around the call (`0.055 * T +
  // 0.0074 * pow(T, 2)`) are not reported on their own: fixed with the
  // call, the whole computation becomes float, with no conversion added.
  SmallVector<const FloatingLiteral *, 4> Literals;
  bool LiteralsFixable = true;
  {
    // The arithmetic around the call: up through parentheses, implicit
    // conversions and `+ - * /` (`pi * pow(r, 2) * len * 1e-15`).
    const Stmt *Top = Call;
    while (const Stmt *P = parentSkippingParens(Ctx, Top)) {
      const auto *BO = dyn_cast<BinaryOperator>(P);
      if (!isa<ImplicitCastExpr>(P) && !isSignOp(P) &&
          !(BO && !isa<CompoundAssignOperator>(BO) &&
            (BO->isAdditiveOp() || BO->isMultiplicativeOp())))
        break;
      Top = P;
    }
    std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
      if (!S || isa<LambdaExpr>(S))
        return;
      if (const auto *L = dyn_cast<FloatingLiteral>(S)) {
        if (!isDouble(L->getType()))
          return;
        Literals.push_back(L);
        LiteralsFixable &=
            L->getLocation().isFileID() && whyNotFixable(toFloat(L)).empty();
        return;
      }
      for (const Stmt *Child : S->children())
        Collect(Child);
    };
    Collect(Top);
  }
  if (WhyNot.empty() && !Literals.empty() && !LiteralsFixable)
    WhyNot = "a literal of the computation around it is spelled in a macro or "
             "is not representable in float, and the computation would stay "
             "double";
  // The base a constant (a literal, or a local initialised with one and
  // never written: `float Nao = 140; ... pow(Nao, 3)`): nvcc folds the
  // call, and the fix changes no instruction that runs (the second sealed
  // audit, myocyte's kernel_ecc, checked in the PTX).
  bool Folded = N && constantBase(Ctx, Base);
  CallReport R;
  R.Loc = Loc;
  R.Callee = "pow";
  R.Replacement = Square ? (BaseText + " * " + BaseText).str() : "powf";
  R.WhyNot = WhyNot;
  R.NoCodeChange = Folded;
  if (WhyNot.empty()) {
    for (const FloatingLiteral *L : Literals)
      R.Fixes.push_back(appendF(L->getLocation()));
    if (Square)
      R.Fixes.push_back(FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(Call->getSourceRange()),
          ("(" + BaseText + " * " + BaseText + ")").str()));
    else
      R.Fixes.push_back(appendF(Ref->getLocation()));
  }
  std::string Names;
  if (WhyNot.empty())
    for (const FloatingLiteral *L : Literals)
      Names += (Names.empty() ? "'" : ", '") +
               literalSpelling(L, *SM, *LangOpts) + "'";
  R.Emit = [this, Loc, Folded, Square, Direct, BaseText = BaseText.str(), Names,
            WhyNot, Fixes = R.Fixes] {
    StringRef Msg = "'pow' of a float and an integer computes in double "
                    "with nvcc (libstdc++'s std::pow promotes both "
                    "arguments); use %select{'powf'|'%1 * %1'}0";
    {
      auto Diag = (Folded ? diagNoCodeChange(Loc, Msg,
                                             "the base and the exponent are "
                                             "constants: nvcc folds the call")
                          : diag(Loc, Msg))
                  << Square << BaseText;
      for (const FixItHint &F : Fixes)
        Diag << F;
    }
    if (!Names.empty())
      diag(Loc,
           "the literals of the computation around it (%0) get the 'f' "
           "suffix too, so that it is computed in float: its results can "
           "change in the last bits",
           DiagnosticIDs::Note)
          << Names;
    else if (Square && !Direct)
      diag(Loc,
           "'%0 * %0' is the square rounded to float, where the double 'pow' "
           "kept it exact: the double arithmetic around it can change in the "
           "last bits",
           DiagnosticIDs::Note)
          << BaseText;
    else if (!Square)
      diag(Loc,
           "'powf' is a different implementation from 'pow': its result can "
           "differ from 'pow' rounded to float in the last bits",
           DiagnosticIDs::Note);
    if (!WhyNot.empty())
      diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
  };
  addCallReport(Call, Ctx, std::move(R));
}

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
  bool Exact = isExactMathFunction(Name);

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
    Fixes.push_back(appendF(Ref ? Ref->getLocation() : Loc));
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
    Fixes.push_back(appendF(Lit->getLocation()));
  }
  // The notes on literal arguments whose value the suffix changes.
  SmallVector<std::tuple<SourceLocation, std::string, FloatValue>, 2> Notes;
  for (const auto &[Lit, V] : Changed)
    Notes.emplace_back(
        SM->getFileLoc(Lit->getLocation()),
        Lexer::getSourceText(CharSourceRange::getTokenRange(
                                 SM->getSpellingLoc(Lit->getLocation())),
                             *SM, *LangOpts)
            .str(),
        V);
  CallReport R;
  R.Loc = Loc;
  R.Callee = Name;
  R.Replacement = FloatName;
  R.WhyNot = WhyNot;
  if (WhyNot.empty())
    R.Fixes = Fixes;
  R.Emit = [this, Loc, Name, FloatName, Exact, WhyNot, Notes, Fixes = R.Fixes] {
    {
      auto Diag = diag(Loc, "call to '%0' computes float data in double "
                            "precision; use the float function '%1'")
                  << Name << FloatName;
      for (const FixItHint &Fix : Fixes)
        Diag << Fix;
    }
    for (const auto &[At, Spelling, V] : Notes)
      noteNumerics(At, Spelling, V);
    if (!Exact && !StrictNumerics)
      diag(Loc,
           "'%0' is a different implementation from '%1': its result can "
           "differ from '%1' rounded to float in the last bits (the CUDA "
           "programming guide lists each function's accuracy in ulp)",
           DiagnosticIDs::Note)
          << FloatName << Name;
    if (!WhyNot.empty())
      diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
  };
  addCallReport(Call, Ctx, std::move(R));
}

void DoublePromotionCheck::addCallReport(const CallExpr *Call, ASTContext &Ctx,
                                         CallReport R) {
  R.Range = {SM->getFileLoc(Call->getBeginLoc()),
             SM->getFileLoc(Call->getEndLoc())};
  R.Function = enclosingFunction(Ctx, *Call);
  if (R.Function && R.Function->getTemplateInstantiationPattern())
    R.Function = R.Function->getTemplateInstantiationPattern();
  CallReports.push_back(std::move(R));
}

} // namespace clang::tidy::cuda
