//===--- ThreadIndexUniform.cpp - cuda-lint -------------------------------===//
//
// Uniformity for ThreadIndexAnalysis (see ThreadIndex.h): whether a local
// variable with several definitions holds one value across the threads
// that read it together (isUniformVariable, with the conditions between
// its scope and its definitions), and isThreadInvariant, whether an
// expression has one value in each thread throughout a function body.
//
//===----------------------------------------------------------------------===//

#include "ThreadIndexImpl.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::cuda {

using threadindex::isIntegerLike;
using threadindex::isPureIntegerFunction;

namespace {

bool refersTo(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == V;
  for (const Stmt *Child : S->children())
    if (refersTo(Child, V))
      return true;
  return false;
}

/// The condition that decides whether \p Cur, a child of \p P, runs; null
/// when there is none. \p Known is false where the analysis does not follow
/// the control flow (range-based for loops, lambdas).
const Expr *controllingCondition(const Stmt *P, const Stmt *Cur, bool &Known) {
  Known = true;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return Cur == If->getThen() || Cur == If->getElse() ? If->getCond()
                                                        : nullptr;
  if (const auto *For = dyn_cast<ForStmt>(P))
    return Cur == For->getBody() || Cur == For->getInc() ? For->getCond()
                                                         : nullptr;
  if (const auto *While = dyn_cast<WhileStmt>(P))
    return Cur == While->getBody() ? While->getCond() : nullptr;
  if (const auto *Do = dyn_cast<DoStmt>(P))
    return Cur == Do->getBody() ? Do->getCond() : nullptr;
  if (const auto *Switch = dyn_cast<SwitchStmt>(P))
    return Cur == Switch->getBody() ? Switch->getCond() : nullptr;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P))
    return Cur != CO->getCond() ? CO->getCond() : nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isLogicalOp() && Cur == BO->getRHS() ? BO->getLHS() : nullptr;
  if (isa<CXXForRangeStmt, LambdaExpr, BlockExpr, CoroutineBodyStmt>(P))
    Known = false;
  return nullptr;
}

/// The loop (or, for `break`, switch) a jump leaves.
bool isJumpTarget(const Stmt *S, const Stmt *Jump) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) ||
         (isa<BreakStmt>(Jump) && isa<SwitchStmt>(S));
}

/// True when \p For is `for (V = E; ...)` with an \p E that does not read
/// \p V: the loop starts \p V afresh.
bool startsVariable(const ForStmt *For, const VarDecl *V) {
  const Stmt *Init = For->getInit();
  if (!Init)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
    Init = EWC->getSubExpr();
  const auto *BO = dyn_cast<BinaryOperator>(Init);
  if (!BO || BO->getOpcode() != BO_Assign)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  return DRE && DRE->getDecl() == V && !refersTo(BO->getRHS(), V);
}

} // namespace

bool ThreadIndexAnalysis::isUniformModulo(const Expr *E, const VarDecl *V) {
  if (!E)
    return true;
  if (!refersTo(E, V))
    return !analyze(E).MayDependOnThread;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == V;
  if (isa<LambdaExpr>(E))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAssignmentOp())
      return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      return false;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (!isPureIntegerFunction(Call->getDirectCallee()))
      return false;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (!isUniformModulo(CE, V))
        return false;
  return true;
}

bool ThreadIndexAnalysis::controlledUniformly(const Stmt *S, const Stmt *Stop,
                                              const VarDecl *V) {
  const Stmt *Cur = S;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    if (P == Stop)
      return true;
    bool Known = true;
    const Expr *Cond = controllingCondition(P, Cur, Known);
    if (!Known || (Cond && !isUniformModulo(Cond, V)))
      return false;
  }
  return !Stop;
}

const Stmt *ThreadIndexAnalysis::scopeOf(const VarDecl *V, const Stmt *Def,
                                         bool LoopScoped) {
  if (LoopScoped) {
    for (const Stmt *S = Def; S; S = Parents.lookup(S))
      if (const auto *For = dyn_cast<ForStmt>(S); For && startsVariable(For, V))
        return For;
    return nullptr;
  }
  if (isa<ParmVarDecl>(V))
    return nullptr;
  const DeclStmt *DS = DeclStmts.lookup(V);
  return DS ? Parents.lookup(DS) : nullptr;
}

bool ThreadIndexAnalysis::isUniformVariable(const VarDecl *V) {
  if (!FD || V->getDeclContext() != FD ||
      !(V->hasLocalStorage() || isa<ParmVarDecl>(V)) ||
      !(isIntegerLike(V->getType()) || V->getType()->isPointerType()))
    return false;
  scanBody();
  if (HasGoto)
    return false;
  auto Known = Uniform.find(V);
  if (Known != Uniform.end())
    return Known->second == Uniformity::Uniform;
  Uniform[V] = Uniformity::InProgress;
  bool Result = [&] {
    const VarInfo Info = Vars.lookup(V); // A copy: analyze() may grow Vars.
    if (Info.Escapes || (!isa<ParmVarDecl>(V) && !DeclStmts.lookup(V)))
      return false;
    // The values it is given.
    if (V->getInit() && !isUniformModulo(V->getInit(), V))
      return false;
    SmallVector<const Stmt *, 4> Defs; // The assignments and updates.
    for (const Expr *RHS : Info.Assigned) {
      if (!isUniformModulo(RHS, V))
        return false;
      Defs.push_back(Parents.lookup(RHS));
    }
    for (const Expr *Update : Info.Updates) {
      if (const auto *BO = dyn_cast<BinaryOperator>(Update))
        if (!isUniformModulo(BO->getRHS(), V))
          return false;
      Defs.push_back(Update);
    }
    // Born again in each loop that starts it, when every reference is in
    // such a loop; otherwise where it is declared.
    bool LoopScoped = !isa<ParmVarDecl>(V) && !Refs.lookup(V).empty();
    for (const DeclRefExpr *Ref : Refs.lookup(V))
      LoopScoped &= scopeOf(V, Ref, true) != nullptr;
    // Each definition made by all the threads that share the scope, or
    // none of them.
    SmallVector<const Stmt *, 4> Scopes;
    for (const Stmt *Def : Defs) {
      if (!Def)
        return false;
      const Stmt *Scope = scopeOf(V, Def, LoopScoped);
      if ((!Scope && !isa<ParmVarDecl>(V)) ||
          !controlledUniformly(Def, Scope, V))
        return false;
      Scopes.push_back(Scope);
    }
    // A `break` or `continue` that only some threads take leaves the
    // others to define it alone.
    for (const Stmt *Jump : Jumps) {
      const Stmt *Target = Parents.lookup(Jump);
      while (Target && !isJumpTarget(Target, Jump))
        Target = Parents.lookup(Target);
      if (!Target)
        return false;
      if (controlledUniformly(Jump, Target, V))
        continue;
      for (unsigned I = 0; I < Defs.size(); ++I) {
        const Stmt *Def = Defs[I], *Scope = Scopes[I];
        if (!isAncestor(Target, Def))
          continue;
        // Born inside the loop the jump leaves: the threads that stay
        // start it together.
        if (Scope && Scope != Target && isAncestor(Target, Scope))
          continue;
        const auto *For = dyn_cast<ForStmt>(Target);
        if (For && isAncestor(For->getInit(), Def))
          continue;
        // Born in that loop and changed by its increment: the threads
        // that leave it no longer use it, and the others step it together.
        if (For && Scope == Target && isAncestor(For->getInc(), Def))
          continue;
        return false;
      }
    }
    return true;
  }();
  Uniform[V] = Result ? Uniformity::Uniform : Uniformity::Varying;
  return Result;
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

bool isThreadInvariant(ASTContext &Ctx, ThreadIndexAnalysis &TIA, const Expr *E,
                       const Stmt *Body) {
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
           isThreadInvariant(Ctx, TIA, BO->getLHS(), Body) &&
           isThreadInvariant(Ctx, TIA, BO->getRHS(), Body);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
            UO->getOpcode() == UO_Not || UO->getOpcode() == UO_LNot) &&
           isThreadInvariant(Ctx, TIA, UO->getSubExpr(), Body);
  return false;
}

} // namespace clang::tidy::cuda
