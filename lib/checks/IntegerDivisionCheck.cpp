//===--- IntegerDivisionCheck.cpp - cuda-lint -----------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 5.1.1: "Integer division and
// modulo operations are particularly costly ... If n is a power of 2, (i/n)
// is equivalent to (i >> log2(n)) and (i % n) is equivalent to (i & (n-1)).
// The compiler will perform these conversions if n is literal."
//
//
// The check: matching, the exact shift and mask rewrite (in macro bodies
// too), and the diagnostics. What an operation costs where it stands is in
// IntegerDivisionCheckCost.cpp, what the compiler computes once in
// IntegerDivisionCheckReuse.cpp.
//
//===----------------------------------------------------------------------===//

#include "IntegerDivisionCheck.h"
#include "IntegerDivisionCost.h"
#include "IntegerDivisionReuse.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/LoopWork.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace integer_division;

namespace {

bool needsParens(const Expr *E) {
  E = E->IgnoreImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isMultiplicativeOp() && !BO->isAdditiveOp();
  return isa<AbstractConditionalOperator>(E);
}

bool isSimple(const Expr *E) {
  E = E->IgnoreImpCasts();
  return isa<ParenExpr, DeclRefExpr, IntegerLiteral, CallExpr, MemberExpr,
             ArraySubscriptExpr>(E);
}

/// Whether the rewritten operation (`x >> k`, `x & m`, which bind less
/// tightly than `/` and `%`) needs parentheses where it stands. Only contexts
/// that take any expression up to an assignment-expression go without.
bool resultNeedsParens(ASTContext &Ctx, const Expr *E) {
  const Stmt *Cur = E;
  const Stmt *P = parentStmt(Ctx, Cur);
  auto Implicit = [](const Stmt *S) {
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(S))
      return CE->getParenOrBraceRange().isInvalid() &&
             !isa<CXXTemporaryObjectExpr>(CE); // A converting constructor.
    return isa_and_nonnull<ImplicitCastExpr, MaterializeTemporaryExpr,
                           CXXBindTemporaryExpr, ExprWithCleanups>(S);
  };
  while (Implicit(P)) {
    Cur = P;
    P = parentStmt(Ctx, Cur);
  }
  if (!P || !isa<Expr>(P))
    return false; // A statement, an initialiser, a condition.
  if (isa<ParenExpr, InitListExpr, ParenListExpr, CXXConstructExpr,
          ConditionalOperator>(P))
    return false; // `c ? x >> k : y`: ?: binds less tightly than `>>`, `&`.
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return !(BO->isAssignmentOp() && BO->getRHS() == Cur) &&
           BO->getOpcode() != BO_Comma;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
    // Overloaded operators keep the precedence of the built-in ones.
    if (OC->getNumArgs() == 0 || OC->getArg(0) == Cur)
      return OC->getOperator() != OO_Comma; // The left operand.
    switch (OC->getOperator()) {
    case OO_Subscript: // `v[x >> k]`
    case OO_Call:      // `f(x >> k)`
    case OO_Comma:
      return false;
    default:
      return !OC->isAssignmentOp(); // `v = x >> k`
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(P))
    return Call->getCallee() == Cur; // An argument needs none.
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(P))
    return FC->getLParenLoc().isInvalid(); // `int(x >> k)` has them.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P))
    return ASE->getIdx() != Cur;
  return true; // Unary operators, casts, member access, ...
}

/// Records the macros defined in the translation unit and counts their
/// expansions (nested ones included).
class MacroRecorder : public PPCallbacks {
public:
  using Map = llvm::DenseMap<const void *, IntegerDivisionCheck::MacroDef>;
  explicit MacroRecorder(Map &Macros) : Macros(Macros) {}
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    const MacroInfo *MI = MD->getMacroInfo();
    IntegerDivisionCheck::MacroDef &D = Macros[MI];
    D.Name = Name.getIdentifierInfo()->getName().str();
    D.Begin = MI->getDefinitionLoc();
    D.End = MI->getDefinitionEndLoc();
  }
  void MacroExpands(const Token &, const MacroDefinition &MD, SourceRange,
                    const MacroArgs *) override {
    if (const MacroInfo *MI = MD.getMacroInfo()) {
      auto It = Macros.find(MI);
      if (It != Macros.end())
        ++It->second.Expansions;
    }
  }

private:
  Map &Macros;
};

/// Whether any part of \p S comes from a macro expansion.
bool spelledThroughMacro(const Stmt *S) {
  if (!S || S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
    return S != nullptr;
  for (const Stmt *C : S->children())
    if (spelledThroughMacro(C))
      return true;
  return false;
}

/// The text of \p E as spelled (in a macro body, where it is spelled).
std::string spelledText(const Expr *E, const SourceManager &SM,
                        const LangOptions &LO) {
  SourceRange R = E->getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    R = SourceRange(SM.getSpellingLoc(R.getBegin()),
                    SM.getSpellingLoc(R.getEnd()));
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
}

/// How many times \p Name is written as an identifier in the main file
/// (its `#define` included), read from the text: uses in branches the
/// preprocessor skipped count too.
unsigned mentionsInMainFile(StringRef Name, const SourceManager &SM,
                            const LangOptions &LO) {
  FileID Main = SM.getMainFileID();
  llvm::StringRef Buf = SM.getBufferData(Main);
  Lexer L(SM.getLocForStartOfFile(Main), LO, Buf.begin(), Buf.begin(),
          Buf.end());
  unsigned N = 0;
  Token T;
  while (!L.LexFromRawLexer(T))
    N += T.is(tok::raw_identifier) && T.getRawIdentifier() == Name;
  N += T.is(tok::raw_identifier) && T.getRawIdentifier() == Name;
  return N;
}

} // namespace

IntegerDivisionCheck::IntegerDivisionCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CudaCheck(Name, Context),
      WarnOutsideLoops(Options.get("WarnOutsideLoops", false)),
      WarnNonPowerOfTwoConstants(
          Options.get("WarnNonPowerOfTwoConstants", false)) {}

void IntegerDivisionCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "WarnOutsideLoops", WarnOutsideLoops);
  Options.store(Opts, "WarnNonPowerOfTwoConstants", WarnNonPowerOfTwoConstants);
}

void IntegerDivisionCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(binaryOperator(hasAnyOperatorName("/", "%", "/=", "%="),
                                    hasLHS(expr(hasType(isInteger()))),
                                    hasRHS(expr(hasType(isInteger()))),
                                    unless(isExpansionInSystemHeader()))
                         .bind("div"),
                     this);
}

void IntegerDivisionCheck::registerPPCallbacks(const SourceManager &SM,
                                               Preprocessor *PP,
                                               Preprocessor *) {
  this->SM = &SM;
  this->PP = PP;
  LangOpts = &PP->getLangOpts();
  PP->addPPCallbacks(std::make_unique<MacroRecorder>(Macros));
}

/// Why \p BO is worth little where it runs, when the loop around it does so
/// much else that its integer divisions (\p BO and the others by run-time
/// values, as one fix) are under a tenth of an iteration's estimated work
/// (LoopWork.h): a run-time division costs about 20 simple instructions, a
/// 64-bit one about 24 (nvcc tests whether both operands fit in 32 bits and
/// then divides in 32 bits: `or.b64`, `and.b64`, `setp`, `div.u32` in the
/// PTX of sm_90; the 64-bit sequence, about 60, runs only for larger values,
/// as for a dividend shifted past 32 bits), a signed
/// one by a constant about 4 more than the shift or mask.
/// Whether \p E is a value shifted past 32 bits (`(uint64_t)a << 32`), for
/// which nvcc's 32-bit path of a 64-bit division never runs.
static bool pastThirtyTwoBits(const Expr *E, ASTContext &Ctx) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!B)
    return false;
  if (B->getOpcode() == BO_Or || B->getOpcode() == BO_Add)
    return pastThirtyTwoBits(B->getLHS(), Ctx) ||
           pastThirtyTwoBits(B->getRHS(), Ctx);
  std::optional<llvm::APSInt> C = B->getRHS()->getIntegerConstantExpr(Ctx);
  return B->getOpcode() == BO_Shl && C && *C >= 32;
}

/// Whether \p BO divides 64-bit operands that may fit in 32 bits: nvcc then
/// takes its 32-bit path.
static bool wideWithFastPath(const BinaryOperator &BO, ASTContext &Ctx) {
  return Ctx.getTypeSize(BO.getType()) > 32 &&
         !pastThirtyTwoBits(BO.getLHS(), Ctx) &&
         !pastThirtyTwoBits(BO.getRHS(), Ctx);
}

static std::optional<std::string>
smallShare(ASTContext &Ctx, const BinaryOperator &BO, bool Const, bool IsRem) {
  auto IsDivision = [&](const Expr &E) {
    const auto *D = dyn_cast<BinaryOperator>(&E);
    if (!D || !D->getType()->isIntegerType() || D->isValueDependent())
      return false;
    BinaryOperatorKind Op =
        D->isCompoundAssignmentOp()
            ? BinaryOperator::getOpForCompoundAssignment(D->getOpcode())
            : D->getOpcode();
    return (Op == BO_Div || Op == BO_Rem) &&
           !D->getRHS()->isIntegerConstantExpr(Ctx);
  };
  std::optional<LoopWork> Beside = workBeside(Ctx, BO, IsDivision);
  if (!Beside)
    return std::nullopt;
  unsigned One = Const                                 ? 4
                 : Ctx.getTypeSize(BO.getType()) <= 32 ? 20
                 : wideWithFastPath(BO, Ctx)           ? 24
                                                       : 60;
  unsigned Cost = One + Beside->Alike * (Const ? One : 20);
  unsigned Total = Cost + Beside->Work - Beside->Alike;
  if (Cost * 10 >= Total)
    return std::nullopt;
  std::string Share = std::to_string(std::max(1u, Cost * 100 / Total)) + "%";
  std::string Per = " estimated work per iteration (" + std::to_string(Total) +
                    " simple instructions)";
  if (Beside->Alike)
    return "the loop's " + std::to_string(Beside->Alike + 1) +
           " integer divisions are about " + Share + " of its" + Per;
  return std::string("the ") + (IsRem ? "modulo" : "division") + " is about " +
         Share + " of its loop's" + Per;
}

void IntegerDivisionCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *BO = Result.Nodes.getNodeAs<BinaryOperator>("div");
  if (!BO)
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Ctx.getLangOpts();
  // An operation spelled in a macro body: every expansion is recorded with
  // its exact rewrite, or why there is none, so that the body is rewritten
  // only when every expansion gets the same rewrite.
  SourceLocation OpLoc = BO->getOperatorLoc();
  MacroInstance *Instance = nullptr;
  if (OpLoc.isMacroID() && !SM.isMacroArgExpansion(OpLoc))
    Instance = &MacroOps[SM.getSpellingLoc(OpLoc)].emplace_back();
  if (BO->isTypeDependent() || BO->isValueDependent() ||
      BO->getRHS()->isValueDependent()) {
    if (Instance)
      Instance->WhyNot = "it is used in a template";
    return;
  }
  const FunctionDecl *FD = enclosingFunction(Ctx, *BO);
  const Expr *LHS = BO->getLHS();
  const Expr *RHS = BO->getRHS();
  BinaryOperatorKind Op = BO->getOpcode();
  bool IsRem = Op == BO_Rem || Op == BO_RemAssign;
  bool IsCompound = isa<CompoundAssignOperator>(BO);
  QualType LT = LHS->getType();
  bool DividendNonNegative = LT->isUnsignedIntegerOrEnumerationType() ||
                             isProvablyNonNegative(LHS, Ctx);
  std::optional<llvm::APSInt> Const = RHS->getIntegerConstantExpr(Ctx);
  const Expr *ShiftAmount = Const ? nullptr : powerOfTwoShift(Ctx, RHS);
  auto Text = [&](const Expr *E) { return spelledText(E, SM, LO); };

  // The exact rewrite, `x >> k` and `x & (n - 1)`, or why there is none.
  bool CanRewrite =
      ShiftAmount || (Const && !Const->isNegative() && !Const->isZero() &&
                      !Const->isOne() && Const->isPowerOf2());
  StringRef WhyNot;
  std::string Replacement;
  if (CanRewrite) {
    if (!DividendNonNegative)
      WhyNot = "the dividend may be negative, where a shift rounds "
               "differently";
    else if (FD && (FD->isTemplateInstantiation() || FD->isDependentContext()))
      WhyNot = "the operation is in a template";
    else if (!IsRem && !IsCompound) {
      QualType Promoted =
          Ctx.isPromotableIntegerType(LT) ? Ctx.getPromotedIntegerType(LT) : LT;
      if (!Ctx.hasSameType(Promoted, BO->getType()))
        WhyNot = "a shift would change the type of the result";
    }
  }
  // The rewrite, with the operands' text given by \p TextOf.
  auto Build = [&](llvm::function_ref<std::string(const Expr *)> TextOf) {
    std::string Shift, Mask, Out;
    std::string DText = TextOf(RHS);
    if (Const) {
      Shift = std::to_string(Const->logBase2());
      Mask = isa<IntegerLiteral>(RHS->IgnoreParenImpCasts()) &&
                     Ctx.hasSameType(Ctx.isPromotableIntegerType(LT)
                                         ? Ctx.getPromotedIntegerType(LT)
                                         : LT,
                                     BO->getType())
                 ? std::to_string(Const->getExtValue() - 1)
                 : "(" + DText + " - 1)";
    } else {
      Shift = TextOf(ShiftAmount);
      if (needsParens(ShiftAmount))
        Shift = "(" + Shift + ")";
      Mask = "(" + (isSimple(RHS) ? DText : "(" + DText + ")") + " - 1)";
    }
    if (IsCompound)
      return IsRem ? "&= " + Mask : ">>= " + Shift;
    std::string X = TextOf(LHS);
    if (needsParens(LHS))
      X = "(" + X + ")";
    Out = X + (IsRem ? " & " + Mask : " >> " + Shift);
    if (resultNeedsParens(Ctx, BO))
      Out = "(" + Out + ")";
    return Out;
  };
  if (CanRewrite && WhyNot.empty())
    Replacement = Build(Text);
  if (Instance) {
    Instance->WhyNot = !CanRewrite ? "its divisor is not a power of two"
                       : !DividendNonNegative ? "its dividend may be negative"
                                              : WhyNot;
    Instance->Replacement = Replacement;
    Instance->Begin = IsCompound ? OpLoc : BO->getBeginLoc();
    Instance->End = BO->getEndLoc();
    // The texts the rewrite copies: the dividend, and the divisor or the
    // shift amount unless the rewrite uses the constant's value.
    auto Spelled = [&](const Expr *E) {
      Instance->SpelledAt.push_back(SM.getSpellingLoc(E->getBeginLoc()));
      Instance->SpelledAt.push_back(SM.getSpellingLoc(E->getEndLoc()));
    };
    if (!IsCompound)
      Spelled(LHS);
    if (ShiftAmount)
      Spelled(ShiftAmount);
    if (Replacement.find(Text(RHS)) != std::string::npos &&
        !(Const && isa<IntegerLiteral>(RHS->IgnoreParenImpCasts())))
      Spelled(RHS);
  }

  // What is reported.
  if (!isDeviceFunction(FD))
    return;
  // Only code that some instantiation compiles: not a branch of a template
  // definition that each instantiation keeps or discards (the kept ones are
  // reported from the instantiation), nor a function called only there.
  if (FD->isDependentContext()) {
    if (inDependentConstexprBranch(Ctx, BO))
      return;
    // A function template named here: its instantiations are reported, at
    // the same places. One named only in template definitions (in a
    // discarded `if constexpr` branch) has none, and no code calls it.
    if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate();
        FTD && !FTD->specializations().empty())
      return;
  }
  bool InLoop = variesInLoop(Ctx, BO);
  if (!InLoop && !WarnOutsideLoops)
    return;
  // The counter of a fully unrolled loop (`x % i` for i = 2, 4, ..., 256):
  // a constant in each copy of the body.
  if (!IsCompound && isUnrolledConstant(Ctx, RHS) &&
      (!Const || isUnrolledConstant(Ctx, LHS)))
    return;
  // Every operand a constant (`WARPS_PER_BLOCK / 2`, a `constexpr`, an
  // enumerator): the compiler folds it.
  if (!IsCompound && LHS->isIntegerConstantExpr(Ctx) &&
      RHS->isIntegerConstantExpr(Ctx))
    return;
  if (Const) {
    if (Const->isNegative() || Const->isZero() || Const->isOne())
      return;
    if (!IsCompound && isSignedMultipleOf(Ctx, LHS, *Const))
      return;
    bool PowerOfTwo = Const->isPowerOf2();
    if (PowerOfTwo &&
        (LT->isUnsignedIntegerOrEnumerationType() || !DividendNonNegative))
      return; // Already a shift, or not exactly one.
    // `x % 4 == 0`, `x % 2 ? a : b`: whether the remainder is zero does
    // not depend on the sign, and nvcc emits a bare `and.b32`.
    if (PowerOfTwo && IsRem && !IsCompound && onlyTestedAgainstZero(Ctx, BO))
      return;
    // The compiler sees the dividend is never negative too (a loop guard
    // `v > 0`, a counter that counts up from 0): it emits the shift.
    if (PowerOfTwo && isNonNegativeToCompiler(LHS, BO, Ctx))
      return;
    if (!PowerOfTwo && !(WarnNonPowerOfTwoConstants && InLoop))
      return;
    if (!PowerOfTwo) {
      SourceLocation Loc = SM.getFileLoc(OpLoc);
      if (Reported.insert(Loc).second)
        diag(Loc, "integer %select{division|modulo}0 by the constant %1 "
                  "inside a loop compiles to a multiply-high sequence")
            << IsRem << std::to_string(Const->getExtValue());
      return;
    }
  } else {
    // Unsigned division by a visible `1 << k` already compiles to a shift
    // and a mask (LLVM knows `1 << k` is a power of two); signed division
    // does not, as the dividend might be negative.
    QualType Computation =
        IsCompound
            ? cast<CompoundAssignOperator>(BO)->getComputationResultType()
            : BO->getType();
    if (ShiftAmount && Computation->isUnsignedIntegerOrEnumerationType())
      return;
  }

  SourceLocation Loc = SM.getFileLoc(OpLoc);
  if (!Reported.insert(Loc).second)
    return; // Another instantiation.
  // The same operation again, with the same values: computed once, at the
  // first, which is reported. (With a shift or mask fix each copy gets its
  // own rewrite, as the rewritten first no longer computes the second.)
  if (!Const && !ShiftAmount && earlierRepeat(Ctx, BO, FD))
    return;
  // `q = a / b; r = a % b;` with a run-time divisor: one division. Reported
  // once, at the first of the two, with a note on the other.
  // (With a shift or mask fix each half gets its own rewrite.)
  const BinaryOperator *Partner =
      Const || ShiftAmount ? nullptr : divRemPartner(Ctx, BO, FD);
  if (Partner && SM.isBeforeInTranslationUnit(
                     SM.getFileLoc(Partner->getOperatorLoc()), Loc))
    return;
  Finding F;
  if (Partner)
    F.Partner = SM.getFileLoc(Partner->getOperatorLoc());
  F.Loc = Loc;
  F.IsRem = IsRem;
  F.Const = Const.has_value();
  F.InLoop = InLoop;
  F.Wide = !Const && wideWithFastPath(*BO, Ctx);
  F.Divisor = Text(RHS);
  F.SmallShare = smallShare(Ctx, *BO, Const.has_value(), IsRem);
  if (ShiftAmount)
    F.ShiftAmount = Text(ShiftAmount);

  if (CanRewrite && WhyNot.empty()) {
    // Spelled in a macro body: decided once every expansion is known.
    if (Instance) {
      F.Spelling = SM.getSpellingLoc(OpLoc);
      Deferred.push_back(std::move(F));
      return;
    }
    if (OpLoc.isMacroID()) {
      WhyNot = "the operation is written in a macro argument";
    } else if (Const && spelledThroughMacro(RHS) &&
               (!IsRem || isa<IntegerLiteral>(RHS->IgnoreParenImpCasts()))) {
      WhyNot = "the divisor is spelled through a macro; a shift would bake "
               "in its current value";
    } else {
      // The operator is written here; an operand may come through a macro
      // (`NDIM / 4`, `ty * NDIM / 4`): rewritten where it is written, each
      // operand as it is written.
      bool Mapped = true;
      auto FileText = [&](const Expr *E) {
        CharSourceRange R = Lexer::makeFileCharRange(
            CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
        Mapped &= R.isValid();
        return R.isValid() ? Lexer::getSourceText(R, SM, LO).str()
                           : std::string();
      };
      Replacement = Build(FileText);
      CharSourceRange Whole = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(IsCompound ? OpLoc : BO->getBeginLoc(),
                                         BO->getEndLoc()),
          SM, LO);
      if (Mapped && Whole.isValid()) {
        report(F, FixItHint::CreateReplacement(Whole, Replacement), "");
        return;
      }
      WhyNot = "an operand is spelled partly in a macro";
    }
  }
  report(F, std::nullopt, WhyNot);
}

void IntegerDivisionCheck::report(const Finding &F,
                                  std::optional<FixItHint> Fix,
                                  StringRef WhyNot) {
  {
    StringRef Message =
        F.Const ? "signed integer %select{division|modulo}0 by %1 "
                  "%select{|inside a loop }2costs extra instructions to round "
                  "toward zero; the dividend is never negative, so a "
                  "%select{shift|mask}0 is exact"
                : "integer %select{division|modulo}0 by '%1', which is not a "
                  "compile-time constant, %select{|inside a loop }2compiles "
                  "to a slow instruction sequence";
    auto Diag = F.SmallShare ? diagCapped(F.Loc, Message, 30, *F.SmallShare)
                             : diag(F.Loc, Message);
    Diag << F.IsRem << F.Divisor << F.InLoop;
    if (Fix)
      Diag << *Fix;
  }
  if (F.Partner.isValid())
    diag(F.Partner,
         "'%select{%%|/}0' of the same operands here: the compiler computes "
         "both results with one division",
         DiagnosticIDs::Note)
        << F.IsRem;
  if (F.ShiftAmount)
    diag(F.Loc,
         "'%0' is a power of two, 1 << %1: a shift and a mask compute "
         "the same result when the dividend is never negative",
         DiagnosticIDs::Note)
        << F.Divisor << *F.ShiftAmount;
  else if (!F.Const)
    diag(F.Loc,
         "nvcc divides by a compile-time constant with a multiply and a "
         "shift (by a power of two, a shift and a mask): make the divisor a "
         "template parameter or 'constexpr' where it takes few values, or, "
         "if it is always a power of two, pass its log2 and use '>>' and '&'",
         DiagnosticIDs::Note);
  if (F.Wide)
    diag(F.Loc,
         "the operands are 64-bit: nvcc tests at run time whether both fit in "
         "32 bits and then divides in 32 bits, so the division costs about "
         "as much as a 32-bit one unless the values are larger",
         DiagnosticIDs::Note);
  if (!WhyNot.empty())
    diag(F.Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
}

std::optional<FixItHint> IntegerDivisionCheck::macroFix(SourceLocation Spelling,
                                                        std::string &WhyNot) {
  const MacroDef *Def = nullptr;
  for (const auto &[MI, D] : Macros)
    if (D.Begin.isValid() && D.End.isValid() &&
        SM->isWrittenInSameFile(D.Begin, Spelling) &&
        !SM->isBeforeInTranslationUnit(Spelling, D.Begin) &&
        !SM->isBeforeInTranslationUnit(D.End, Spelling)) {
      Def = &D;
      break;
    }
  // A macro of a header in a precompiled include prefix: defined before
  // the callbacks listened, so it is looked up among the preprocessor's
  // macros (all of them loaded, which this rare case can afford).
  MacroDef FromPch;
  if (!Def && userHeadersPrecompiled() && PP) {
    for (const auto &[II, State] : PP->macros()) {
      const MacroInfo *MI = PP->getMacroInfo(II);
      if (!MI || !MI->getDefinitionLoc().isValid() ||
          !SM->isWrittenInSameFile(MI->getDefinitionLoc(), Spelling) ||
          SM->isBeforeInTranslationUnit(Spelling, MI->getDefinitionLoc()) ||
          SM->isBeforeInTranslationUnit(MI->getDefinitionEndLoc(), Spelling))
        continue;
      FromPch.Name = II->getName().str();
      FromPch.Begin = MI->getDefinitionLoc();
      FromPch.End = MI->getDefinitionEndLoc();
      Def = &FromPch;
      break;
    }
  }
  if (!Def) {
    WhyNot = "the operation is spelled in a macro";
    return std::nullopt;
  }
  const std::string &Name = Def->Name;
  if (!SM->isInMainFile(Def->Begin)) {
    WhyNot = "the operation is spelled in macro '" + Name +
             "', defined in another file, which other translation units may "
             "expand differently";
    return std::nullopt;
  }
  const llvm::SmallVector<MacroInstance, 4> &Is = MacroOps[Spelling];
  for (const MacroInstance &I : Is) {
    if (!I.WhyNot.empty()) {
      WhyNot =
          "the operation is spelled in macro '" + Name +
          "', and one of its expansions cannot be rewritten: " + I.WhyNot.str();
      return std::nullopt;
    }
    for (SourceLocation L : I.SpelledAt)
      if (L.isInvalid() || SM->isBeforeInTranslationUnit(L, Def->Begin) ||
          SM->isBeforeInTranslationUnit(Def->End, L)) {
        WhyNot = "the operation is spelled in macro '" + Name +
                 "', and an operand comes from a macro argument or another "
                 "macro, so the rewrite would differ between expansions";
        return std::nullopt;
      }
    if (I.Replacement != Is.front().Replacement) {
      WhyNot = "the operation is spelled in macro '" + Name +
               "', whose expansions need different rewrites";
      return std::nullopt;
    }
  }
  if (Is.size() != Def->Expansions) {
    WhyNot = "the operation is spelled in macro '" + Name +
             "', and not every expansion of it is an integer operation that "
             "was analysed";
    return std::nullopt;
  }
  if (mentionsInMainFile(Name, *SM, *LangOpts) != Def->Expansions + 1) {
    WhyNot = "the operation is spelled in macro '" + Name +
             "', which is also named where the device-side analysis does "
             "not see its expansion (a skipped '#if' branch, another macro's "
             "body, '#ifdef' or '#undef')";
    return std::nullopt;
  }
  // The replaced tokens as written in the body (a nested macro, `W` in
  // `(i) / W`, is replaced by its name).
  auto InBody = [&](SourceLocation L) {
    SourceLocation S = SM->getSpellingLoc(L);
    return SM->isWrittenInSameFile(S, Def->Begin) &&
           !SM->isBeforeInTranslationUnit(S, Def->Begin) &&
           !SM->isBeforeInTranslationUnit(Def->End, S);
  };
  auto BodyLoc = [&](SourceLocation L, bool End) {
    while (L.isMacroID() && !InBody(L)) {
      CharSourceRange R = SM->getImmediateExpansionRange(L);
      L = End ? R.getEnd() : R.getBegin();
    }
    return InBody(L) ? SM->getSpellingLoc(L) : SourceLocation();
  };
  SourceLocation B = BodyLoc(Is.front().Begin, false),
                 E = BodyLoc(Is.front().End, true);
  for (const MacroInstance &I : Is)
    if (B.isInvalid() || E.isInvalid() || BodyLoc(I.Begin, false) != B ||
        BodyLoc(I.End, true) != E) {
      WhyNot = "the operation is spelled in macro '" + Name +
               "', but not as one piece of its body";
      return std::nullopt;
    }
  return FixItHint::CreateReplacement(CharSourceRange::getTokenRange(B, E),
                                      Is.front().Replacement);
}

void IntegerDivisionCheck::onEndOfTranslationUnit() {
  // One fix per macro body, on the finding at its first expansion: the
  // others say where it is (clang-tidy drops identical fixes of two
  // findings as overlapping).
  llvm::DenseMap<SourceLocation, SourceLocation> FixedAt;
  for (const Finding &F : Deferred) {
    auto It = FixedAt.find(F.Spelling);
    if (It != FixedAt.end()) {
      report(F, std::nullopt, "");
      diag(It->second,
           "the fix rewrites the macro's definition, with the finding here",
           DiagnosticIDs::Note);
      continue;
    }
    std::string WhyNot;
    std::optional<FixItHint> Fix = macroFix(F.Spelling, WhyNot);
    report(F, Fix, WhyNot);
    if (Fix) {
      FixedAt[F.Spelling] = F.Loc;
      diag(F.Spelling,
           "rewritten in the macro's definition: each of its expansions is "
           "the same exact rewrite",
           DiagnosticIDs::Note);
    }
  }
  Deferred.clear();
  MacroOps.clear();
  Macros.clear();
  Reported.clear();
}

} // namespace clang::tidy::cuda
