//===--- ValueRange.cpp - cuda-lint ---------------------------------------===//

#include "cudalint/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

namespace {

class RefFinder : public RecursiveASTVisitor<RefFinder> {
public:
  explicit RefFinder(const VarDecl *V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == V)
      Refs.push_back(E);
    return true;
  }
  const VarDecl *V;
  SmallVector<const DeclRefExpr *, 8> Refs;
};

class SignAnalysis {
public:
  explicit SignAnalysis(ASTContext &Ctx) : Ctx(Ctx) {}

  /// \p ToSigned: the value is converted to a signed type, where unsigned
  /// arithmetic that wraps (`threadIdx.x - 1`) becomes negative.
  bool nonNegative(const Expr *E, unsigned Depth = 0, bool ToSigned = false) {
    if (!E || Depth > 32)
      return false;
    E = E->IgnoreParens();
    QualType T = E->getType();
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      QualType From = Cast->getSubExpr()->getType();
      if (!From->isIntegralOrEnumerationType() && !From->isBooleanType())
        return false;
      bool Signed = ToSigned || (T->isSignedIntegerOrEnumerationType() &&
                                 From->isUnsignedIntegerOrEnumerationType());
      return nonNegative(Cast->getSubExpr(), Depth + 1, Signed);
    }
    if (T->isBooleanType())
      return true;
    if (T->isUnsignedIntegerOrEnumerationType()) {
      if (!ToSigned)
        return true;
      // Unsigned values are small unless arithmetic wraps them.
      if (const auto *UO = dyn_cast<UnaryOperator>(E))
        return UO->getOpcode() != UO_Minus && UO->getOpcode() != UO_Not &&
               UO->getOpcode() != UO_PreDec && UO->getOpcode() != UO_PostDec;
      if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
        switch (BO->getOpcode()) {
        case BO_Add:
        case BO_Mul:
        case BO_Or:
          return nonNegative(BO->getLHS(), Depth + 1, true) &&
                 nonNegative(BO->getRHS(), Depth + 1, true);
        case BO_Div:
        case BO_Rem:
        case BO_Shr:
          return nonNegative(BO->getLHS(), Depth + 1, true);
        case BO_And:
          return nonNegative(BO->getLHS(), Depth + 1, true) ||
                 nonNegative(BO->getRHS(), Depth + 1, true);
        default:
          return false;
        }
      }
      if (const auto *CO = dyn_cast<ConditionalOperator>(E))
        return nonNegative(CO->getTrueExpr(), Depth + 1, true) &&
               nonNegative(CO->getFalseExpr(), Depth + 1, true);
      return true;
    }
    if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr>(E))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Mul:
      case BO_Div:
      case BO_Or:
        return nonNegative(BO->getLHS(), Depth + 1) &&
               nonNegative(BO->getRHS(), Depth + 1);
      case BO_Shl:
        // `1 << k`: a power of two, assuming (as every power-of-two divisor
        // does) that k stays below the sign bit.
        if (const auto *Lit =
                dyn_cast<IntegerLiteral>(BO->getLHS()->IgnoreParenImpCasts()))
          return Lit->getValue() == 1;
        return false;
      case BO_Shr:
      case BO_Rem: // The remainder has the sign of the dividend.
        return nonNegative(BO->getLHS(), Depth + 1);
      case BO_And:
        return nonNegative(BO->getLHS(), Depth + 1) ||
               nonNegative(BO->getRHS(), Depth + 1);
      case BO_Comma:
        return nonNegative(BO->getRHS(), Depth + 1);
      default:
        return false;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return nonNegative(CO->getTrueExpr(), Depth + 1) &&
             nonNegative(CO->getFalseExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V && variableNonNegative(V, Depth);
    }
    return false;
  }

private:
  /// Every value stored in \p V is non-negative. Cycles (`k = k + 1`) are
  /// judged inductively: while V is being judged it is assumed non-negative.
  bool variableNonNegative(const VarDecl *V, unsigned Depth) {
    if (isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
        V->getType().isVolatileQualified() || V->getType()->isReferenceType())
      return false;
    if (auto It = Known.find(V); It != Known.end())
      return It->second;
    if (!V->getInit())
      return false;
    const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
    if (!FD || !FD->getBody())
      return false;
    Known[V] = true; // Inductive hypothesis.
    bool Result = nonNegative(V->getInit(), Depth + 1) &&
                  everyStoreNonNegative(V, FD->getBody(), Depth);
    Known[V] = Result;
    return Result;
  }

  bool everyStoreNonNegative(const VarDecl *V, Stmt *Body, unsigned Depth) {
    RefFinder F(V);
    F.TraverseStmt(Body);
    for (const DeclRefExpr *Ref : F.Refs) {
      const Expr *Cur = Ref;
      DynTypedNodeList Parents = Ctx.getParents(*Cur);
      const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      while (const auto *PE = dyn_cast_or_null<ParenExpr>(P)) {
        Cur = PE;
        Parents = Ctx.getParents(*PE);
        P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      }
      if (!P) {
        if (!Parents.empty() && Parents[0].get<Decl>())
          continue; // Initialises something else: a read.
        return false;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
        if (UO->isDecrementOp() || UO->getOpcode() == UO_AddrOf)
          return false;
        continue;
      }
      const auto *BO = dyn_cast<BinaryOperator>(P);
      if (!BO || !BO->isAssignmentOp() || BO->getLHS() != Cur) {
        if (isa<CallExpr>(P)) {
          // Passed by reference?
          const auto *Call = cast<CallExpr>(P);
          const FunctionDecl *Callee = Call->getDirectCallee();
          for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I)
            if (Call->getArg(I) == Cur &&
                (!Callee || I >= Callee->getNumParams() ||
                 Callee->getParamDecl(I)->getType()->isReferenceType()))
              return false;
        }
        continue; // A read.
      }
      switch (BO->getOpcode()) {
      case BO_Assign:
      case BO_AddAssign:
      case BO_MulAssign:
      case BO_DivAssign:
      case BO_RemAssign:
      case BO_OrAssign:
        if (!nonNegative(BO->getRHS(), Depth + 1))
          return false;
        continue;
      case BO_ShrAssign:
      case BO_AndAssign:
        continue;
      default:
        return false;
      }
    }
    return true;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const VarDecl *, bool> Known;
};

} // namespace

bool isProvablyNonNegative(const Expr *E, ASTContext &Ctx) {
  return SignAnalysis(Ctx).nonNegative(E);
}

} // namespace clang::tidy::cuda
