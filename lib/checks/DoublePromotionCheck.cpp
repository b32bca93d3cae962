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
      ReportNarrowed(Options.get("ReportNarrowed", true)),
      FunctionGroupMin(Options.get("FunctionGroupMin", 4u)) {}

void DoublePromotionCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "StrictNumerics", StrictNumerics);
  Options.store(Opts, "ReportNarrowed", ReportNarrowed);
  Options.store(Opts, "FunctionGroupMin", FunctionGroupMin);
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
    Occ.Function = FD;
    if (FD && FD->getTemplateInstantiationPattern())
      Occ.Function = FD->getTemplateInstantiationPattern();
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

} // namespace clang::tidy::cuda
