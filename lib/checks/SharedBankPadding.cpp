//===--- SharedBankPadding.cpp - cuda-lint --------------------------------===//
//
// The padding fix of cuda-shared-bank-conflict (see SharedBankPadding.h).
//
//===----------------------------------------------------------------------===//

#include "SharedBankPadding.h"
#include "clang/AST/Expr.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cuda {

namespace {

bool lowerPrecedenceThanAdd(const Expr *E) {
  E = E->IgnoreImpCasts();
  if (const auto *C = dyn_cast<ConstantExpr>(E))
    E = C->getSubExpr()->IgnoreImpCasts();
  if (isa<ConditionalOperator>(E))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isMultiplicativeOp() && !BO->isAdditiveOp();
  return false;
}

} // namespace

PaddingFix padLastDimension(const VarDecl *Var, const SourceManager &SM,
                            const LangOptions &LangOpts, int64_t Pad,
                            bool InsertOnly) {
  std::string Plus = " + " + std::to_string(Pad);
  PaddingFix Result;
  TypeLoc TL = Var->getTypeSourceInfo()->getTypeLoc();
  ArrayTypeLoc Last;
  while (auto ATL = TL.getAs<ArrayTypeLoc>()) {
    Last = ATL;
    TL = ATL.getElementLoc();
  }
  const Expr *Size = Last ? Last.getSizeExpr() : nullptr;
  if (!Size || Last.getRBracketLoc().isMacroID() ||
      Last.getLBracketLoc().isMacroID()) {
    Result.WhyNot = "its declaration is written in a macro";
    return Result;
  }
  CharSourceRange SizeRange = CharSourceRange::getCharRange(
      Lexer::getLocForEndOfToken(Last.getLBracketLoc(), 0, SM, LangOpts),
      Last.getRBracketLoc());
  StringRef Spelled = Lexer::getSourceText(SizeRange, SM, LangOpts).trim();
  if (!InsertOnly && !Spelled.empty() && llvm::all_of(Spelled, llvm::isDigit) &&
      Spelled.size() < 10) {
    int64_t N = 0;
    Spelled.getAsInteger(10, N);
    Result.Fixes.push_back(
        FixItHint::CreateReplacement(SizeRange, std::to_string(N + Pad)));
    return Result;
  }
  if (lowerPrecedenceThanAdd(Size)) {
    Result.Fixes.push_back(
        FixItHint::CreateInsertion(SizeRange.getBegin(), "("));
    Result.Fixes.push_back(
        FixItHint::CreateInsertion(Last.getRBracketLoc(), ")" + Plus));
  } else {
    Result.Fixes.push_back(
        FixItHint::CreateInsertion(Last.getRBracketLoc(), Plus));
  }
  return Result;
}

} // namespace clang::tidy::cuda
