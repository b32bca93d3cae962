//===--- ThreadIndexUniform.cpp - cuda-lint -------------------------------===//
//
// Uniformity for ThreadIndexAnalysis (see ThreadIndex.h): whether a local
// variable with several definitions holds one value across the threads
// that read it together, which ThreadDependence decides for every analysis
// (isUniformUse), and isFixedInEachThread, whether an expression has one
// value in each thread throughout a function body.
//
//===----------------------------------------------------------------------===//

#include "ThreadIndexImpl.h"
#include "cudalint/analysis/ThreadDependence.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::cuda {

using threadindex::isIntegerLike;

ThreadIndexAnalysis::~ThreadIndexAnalysis() = default;

bool ThreadIndexAnalysis::isUniformUse(const VarDecl *V, const Expr *Use) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Use);
  if (!FD || !FD->getBody() || !Ref || V->getDeclContext() != FD ||
      !(V->hasLocalStorage() || isa<ParmVarDecl>(V)) ||
      !(isIntegerLike(V->getType()) || V->getType()->isPointerType()))
    return false;
  if (!Dependence)
    Dependence = std::make_unique<ThreadDependence>(
        *FD, Ctx, ThreadDependence::Scope::Block, std::nullopt,
        /*ParamsDependent=*/false, /*CallDepth=*/0,
        /*AssumeMultiples=*/false, /*UnseenDependent=*/true);
  return !Dependence->isDependent(Ref);
}

bool isInsideLoop(ASTContext &Ctx, const Stmt *S, const Stmt *Top) {
  DynTypedNodeList P = Ctx.getParents(*S);
  while (!P.empty()) {
    if (P[0].get<ForStmt>() || P[0].get<WhileStmt>() || P[0].get<DoStmt>() ||
        P[0].get<CXXForRangeStmt>())
      return true;
    const Stmt *Up = P[0].get<Stmt>();
    if (!Up || Up == Top)
      return false;
    P = Ctx.getParents(*Up);
  }
  return false;
}

bool isFixedInEachThread(ASTContext &Ctx, ThreadIndexAnalysis &TIA,
                         const Expr *E, const Stmt *Body) {
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent() || E->isTypeDependent())
    return false;
  if (E->getType()->isIntegralOrEnumerationType() &&
      E->isEvaluatable(Ctx, Expr::SE_NoSideEffects))
    return true;
  if (ThreadIndexAnalysis::builtinSymbol(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->hasLocalStorage() || !TIA.isUnmodified(V))
      return false;
    if (isa<ParmVarDecl>(V))
      return true;
    DynTypedNodeList P = Ctx.getParents(*V);
    const auto *DS = P.empty() ? nullptr : P[0].get<DeclStmt>();
    return V->getInit() && DS && !isInsideLoop(Ctx, DS, Body);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           isFixedInEachThread(Ctx, TIA, BO->getLHS(), Body) &&
           isFixedInEachThread(Ctx, TIA, BO->getRHS(), Body);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
            UO->getOpcode() == UO_Not || UO->getOpcode() == UO_LNot) &&
           isFixedInEachThread(Ctx, TIA, UO->getSubExpr(), Body);
  return false;
}

} // namespace clang::tidy::cuda
