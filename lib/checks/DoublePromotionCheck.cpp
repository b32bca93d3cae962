//===--- DoublePromotionCheck.cpp - cuda-lint -----------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 5.1.3: "Avoid automatic
// conversion of doubles to floats": use `f`-suffixed constants so that float
// data stays in float arithmetic.
//
//===----------------------------------------------------------------------===//

#include "DoublePromotionCheck.h"
#include "DoublePromotionExprs.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ValueRange.h"
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

DoublePromotionCheck::DoublePromotionCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaCheck(Name, Context),
      StrictNumerics(Options.get("StrictNumerics", false)),
      ReportNarrowed(Options.get("ReportNarrowed", true)) {}

void DoublePromotionCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "StrictNumerics", StrictNumerics);
  Options.store(Opts, "ReportNarrowed", ReportNarrowed);
}

void DoublePromotionCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      floatLiteral(unless(isExpansionInSystemHeader())).bind("lit"), this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(std::vector<StringRef>(
                   mathFunctions().begin(), mathFunctions().end())))),
               unless(isExpansionInSystemHeader()))
          .bind("call"),
      this);
}

void DoublePromotionCheck::check(const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  LangOpts = &Result.Context->getLangOpts();
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call")) {
    if (isNvccDoublePow(Call))
      checkNvccDoublePow(Call, Result);
    else
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
    // `0.055 * T + 0.0074 * pow(T, 2)`: the pow (reported itself) keeps
    // the whole computation double under nvcc, and the suffix here would
    // only add a conversion to it.
    if (isa_and_nonnull<Expr>(Parent) &&
        containsNvccDoublePow(promotedComputation(Ctx, cast<Expr>(Parent))))
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
    // `exp(-0.5 * x)`: the computation is the argument of a double math
    // call, which the suffix switches to its float overload.
    if (Occ.Promotes && isa_and_nonnull<Expr>(Parent)) {
      const Expr *Top = promotedComputation(Ctx, cast<Expr>(Parent));
      const CallExpr *Call = nullptr;
      for (const Stmt *S = Parent; S && S != Top && !Call;) {
        const Stmt *Up = parentSkippingParens(Ctx, S);
        Call = dyn_cast_or_null<CallExpr>(Up);
        S = Up;
      }
      if (!Call)
        if (const auto *Up = dyn_cast_or_null<ImplicitCastExpr>(
                parentSkippingParens(Ctx, Top)))
          Call = dyn_cast_or_null<CallExpr>(parentSkippingParens(Ctx, Up));
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      if (Callee && Callee->getIdentifier() &&
          llvm::is_contained(mathFunctions(), Callee->getName()) &&
          !isExactMathFunction(Callee->getName()))
        Occ.OverloadOf = Callee->getName().str();
    }
    if (Occ.Promotes && isa_and_nonnull<Expr>(Parent)) {
      std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
        if (!S || S == Node || isa<LambdaExpr>(S))
          return;
        if (const auto *L = dyn_cast<FloatingLiteral>(S)) {
          if (isDouble(L->getType()))
            Occ.OtherLiterals.push_back(SM->getSpellingLoc(L->getLocation()));
          return;
        }
        for (const Stmt *Child : S->children())
          Collect(Child);
      };
      Collect(promotedComputation(Ctx, cast<Expr>(Parent)));
    }
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
  {
    auto Diag = diag(Loc, "'pow' of a float and an integer computes in "
                          "double with nvcc (libstdc++'s std::pow promotes "
                          "both arguments); use %select{'powf'|'%1 * %1'}0")
                << Square << BaseText;
    if (WhyNot.empty())
      for (const FloatingLiteral *L : Literals)
        Diag << FixItHint::CreateInsertion(
            Lexer::getLocForEndOfToken(L->getLocation(), 0, *SM, *LangOpts),
            "f");
    if (WhyNot.empty()) {
      if (Square)
        Diag << FixItHint::CreateReplacement(
            CharSourceRange::getTokenRange(Call->getSourceRange()),
            ("(" + BaseText + " * " + BaseText + ")").str());
      else
        Diag << FixItHint::CreateInsertion(
            Lexer::getLocForEndOfToken(Ref->getLocation(), 0, *SM, *LangOpts),
            "f");
    }
  }
  if (!Literals.empty() && WhyNot.empty()) {
    std::string Names;
    for (const FloatingLiteral *L : Literals)
      Names += (Names.empty() ? "'" : ", '") +
               literalSpelling(L, *SM, *LangOpts) + "'";
    diag(Loc,
         "the literals of the computation around it (%0) get the 'f' suffix "
         "too, so that it is computed in float: its results can change in "
         "the last bits",
         DiagnosticIDs::Note)
        << Names;
  } else if (Square && !Direct) {
    diag(Loc,
         "'%0 * %0' is the square rounded to float, where the double 'pow' "
         "kept it exact: the double arithmetic around it can change in the "
         "last bits",
         DiagnosticIDs::Note)
        << BaseText;
  } else if (!Square)
    diag(Loc,
         "'powf' is a different implementation from 'pow': its result can "
         "differ from 'pow' rounded to float in the last bits",
         DiagnosticIDs::Note);
  if (!WhyNot.empty())
    diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
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

  // A literal whose computation stays double through another literal that
  // is not rewritten (`atan(x) * ONE_OVER_PI + 0.5` with ONE_OVER_PI
  // defined in a header): its own suffix would leave the f64 arithmetic,
  // and it is not the cause. The other one is reported as the cause.
  {
    llvm::DenseMap<SourceLocation, const Verdict *> BySpelling;
    for (const Verdict &Vd : Verdicts)
      BySpelling[Vd.Site->SpellingLoc] = &Vd;
    llvm::DenseSet<const Verdict *> Blocked;
    for (const Verdict &Vd : Verdicts) {
      if (!Vd.WhyNot.empty())
        continue;
      for (SourceLocation Other : Vd.First->OtherLiterals) {
        auto It = BySpelling.find(Other);
        if (It != BySpelling.end() && !It->second->WhyNot.empty() &&
            It->second->First->Operand != Vd.First->Operand) {
          Blocked.insert(&Vd);
          break;
        }
      }
    }
    if (!Blocked.empty())
      Verdicts.erase(
          llvm::remove_if(
              Verdicts, [&](const Verdict &Vd) { return Blocked.count(&Vd); }),
          Verdicts.end());
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
      // nvcc computes it in float already: the suffix changes no
      // instruction (checked with nvcc -ptx, cuda-double-promotion-ptx.cu).
      if (Vd.AllNarrowed && !ReportNarrowed)
        continue;
      {
        // Where nvcc narrows anyway, the finding is that the source says
        // double where the code is float: the suffix says what it does.
        auto Diag =
            Vd.AllNarrowed
                ? diagNoCodeChange(Loc,
                                   "double-precision literal '%0' in a "
                                   "%select{float operation that nvcc "
                                   "computes in|branch that nvcc converts to}1 "
                                   "float; the 'f' suffix makes that "
                                   "explicit",
                                   "nvcc already computes this in float")
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
      // An exact literal still moves the arithmetic around it from double
      // to float.
      if (!Vd.AllNarrowed && Vd.WhyNot.empty() && !Vd.AnyFromInteger &&
          V.Representable && !V.Subnormal && !V.Underflows)
        diag(Loc,
             "'%0' is exact in float, but with '%0f' the operations around it "
             "round to float instead of double: results can change in the "
             "last bits",
             DiagnosticIDs::Note)
            << Site.Spelling;
      if (!Vd.AllNarrowed && Vd.WhyNot.empty() && !Vd.First->OverloadOf.empty())
        diag(Loc,
             "with '%0f' the argument of '%1' becomes float, and the call its "
             "float overload: a different implementation, whose result can "
             "differ in the last bits",
             DiagnosticIDs::Note)
            << Site.Spelling << Vd.First->OverloadOf;
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
