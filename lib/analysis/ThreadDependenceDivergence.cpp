//===--- ThreadDependenceDivergence.cpp - cuda-lint -----------------------===//
//
// Which statements only some threads reach, for ThreadDependence (see
// ThreadDependence.h): barriers in calls, tail positions, the
// thread-dependent condition or early return that decides whether a
// statement runs, code a constant condition leaves out, and the barrier
// that returning threads pair with the others' statement.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadDependence.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>

namespace clang::tidy::cuda {

bool ThreadDependence::hasBarrier(const Stmt *S) {
  llvm::DenseSet<const FunctionDecl *> Seen;
  std::function<bool(const Stmt *, unsigned)> Find = [&](const Stmt *S,
                                                         unsigned Depth) {
    if (!S)
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && FD->getIdentifier()) {
        llvm::StringRef Name = FD->getName();
        if (Name.starts_with("__syncthreads") || Name == "__syncwarp" ||
            Name == "sync" || Name == "barrier_wait" ||
            Name == "barrier_arrive")
          return true;
      }
      if (FD && Depth < 4 && Seen.insert(FD).second)
        if (const FunctionDecl *Def = FD->getDefinition())
          if (Find(Def->getBody(), Depth + 1))
            return true;
    }
    if (isa<GCCAsmStmt>(S) &&
        cast<GCCAsmStmt>(S)->getAsmString().find("bar") != std::string::npos)
      return true;
    return llvm::any_of(S->children(),
                        [&](const Stmt *C) { return Find(C, Depth); });
  };
  return Find(S, 0);
}

bool ThreadDependence::inTailPosition(const Stmt *S) const {
  if (HasJumps)
    return false;
  const Stmt *Body = Function.getBody();
  for (const Stmt *Cur = S; Cur != Body;) {
    const Stmt *P = Parents.lookup(Cur);
    if (!P)
      return false;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      const auto *After = llvm::find(CS->body(), Cur);
      if (After == CS->body_end())
        return false;
      for (++After; After != CS->body_end(); ++After) {
        const auto *RS = dyn_cast<ReturnStmt>(*After);
        if (!isa<NullStmt>(*After) && !(RS && !RS->getRetValue()))
          return false;
      }
    } else if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Cur != If->getThen() && Cur != If->getElse())
        return false;
    } else if (!isa<AttributedStmt>(P)) {
      return false;
    }
    Cur = P;
  }
  return true;
}

bool ThreadDependence::runsToEnd(const Stmt *P, const Stmt *Cur) const {
  if (const auto *If = dyn_cast<IfStmt>(P)) {
    if (If->isConsteval())
      return false;
    const Stmt *Other = Cur == If->getThen()   ? If->getElse()
                        : Cur == If->getElse() ? If->getThen()
                                               : nullptr;
    if (Cur != If->getThen() && Cur != If->getElse())
      return false;
    return !hasBarrier(Other) && inTailPosition(P);
  }
  // The threads that leave the loop, at whatever iteration, leave the
  // function.
  if (isa<ForStmt, WhileStmt, DoStmt>(P))
    return inTailPosition(P);
  return false;
}

const Expr *ThreadDependence::dependentCondition(const Stmt &S,
                                                 const VarDecl *Var,
                                                 const Expr **ExitCause,
                                                 const Stmt *Stop) const {
  const Stmt *Body = Function.getBody();
  const SourceManager &SM = Ctx.getSourceManager();
  auto Declares = [&](const Stmt *P) {
    if (!Var)
      return false;
    SourceLocation L = Var->getLocation();
    SourceRange R = P->getSourceRange();
    return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
           !SM.isBeforeInTranslationUnit(R.getEnd(), L);
  };
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    const Stmt *Cur = Node.get<Stmt>();
    if (Cur == Body)
      return nullptr;
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    const Stmt *P = Node.get<Stmt>();
    if (!P) {
      // A declaration between statements (a DeclStmt's VarDecl) is fine;
      // anything else (a lambda's class, another function) ends the walk.
      if (Node.get<VarDecl>())
        continue;
      return nullptr;
    }
    if (isa<LambdaExpr>(P) || P == Stop)
      return nullptr;
    // A variable born again in each run of a loop: the conditions above
    // the loop, and its own, decide only which threads run it together.
    if (Var && startsVariable(P, Var) && isLoopBorn(Var))
      return nullptr;
    const Expr *Cond = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Cur != If->getCond() && Cur != If->getInit() &&
          Cur != If->getConditionVariableDeclStmt())
        Cond = If->getCond();
    } else if (const auto *For = dyn_cast<ForStmt>(P)) {
      if ((Cur == For->getBody() || Cur == For->getInc()) &&
          !hasUniformTripCount(*For))
        Cond = For->getCond();
    } else if (const auto *While = dyn_cast<WhileStmt>(P)) {
      if (Cur == While->getBody())
        Cond = While->getCond();
    } else if (const auto *Do = dyn_cast<DoStmt>(P)) {
      // The first iteration runs in every thread; later ones depend on it.
      if (Cur == Do->getBody())
        Cond = Do->getCond();
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(P)) {
      if (Cur == Switch->getBody())
        Cond = Switch->getCond();
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Cur != CO->getCond())
        Cond = CO->getCond();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Cur == BO->getRHS())
        Cond = BO->getLHS();
    } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(P)) {
      if (Cur == Range->getBody())
        Cond = Range->getCond();
    }
    if (Cond && !Declares(P) && isDependent(Cond)) {
      if (ExitCause && runsToEnd(P, Cur)) {
        if (!*ExitCause)
          *ExitCause = Cond;
        continue;
      }
      return Cond;
    }
  }
}

bool ThreadDependence::isDead(const Stmt &S) const {
  for (const Stmt *Cur = &S, *P = Parents.lookup(Cur); P;
       Cur = P, P = Parents.lookup(P)) {
    const Expr *Cond = nullptr;
    const Stmt *Taken = nullptr, *Other = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->isConsteval() || If->getConditionVariable())
        continue;
      Cond = If->getCond();
      Taken = If->getThen();
      Other = If->getElse();
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      Cond = CO->getCond();
      Taken = CO->getTrueExpr();
      Other = CO->getFalseExpr();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P);
               BO && BO->isLogicalOp() && Cur == BO->getRHS()) {
      bool Value;
      if (!BO->getLHS()->isValueDependent() &&
          BO->getLHS()->EvaluateAsBooleanCondition(Value, Ctx) &&
          Value == (BO->getOpcode() == BO_LOr))
        return true;
      continue;
    } else {
      continue;
    }
    if (!Cond || (Cur != Taken && Cur != Other) || Cond->isValueDependent())
      continue;
    bool Value;
    if (Cond->EvaluateAsBooleanCondition(Value, Ctx) && Value != (Cur == Taken))
      return true;
  }
  return false;
}

std::optional<llvm::SmallVector<const Stmt *, 4>>
ThreadDependence::straightBarriers(const Stmt *Region, SourceLocation After,
                                   SourceLocation Before) const {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const Stmt *, 4> Out;
  bool Known = true;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *X) {
    if (!X || !Known || isa<LambdaExpr>(X))
      return;
    if (const auto *Call = dyn_cast<CallExpr>(X)) {
      SourceLocation L = Call->getBeginLoc();
      bool Inside = SM.isBeforeInTranslationUnit(After, L) &&
                    SM.isBeforeInTranslationUnit(L, Before);
      const FunctionDecl *FD = Call->getDirectCallee();
      bool IsBarrier = FD && FD->getIdentifier() &&
                       FD->getName().starts_with("__syncthreads");
      if (Inside && IsBarrier) {
        // On the straight-line path: no loop or condition up to Region.
        for (const Stmt *P = Parents.lookup(Call); P && P != Region;
             P = Parents.lookup(P))
          if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt,
                  CXXForRangeStmt, AbstractConditionalOperator>(P) ||
              (isa<BinaryOperator>(P) &&
               cast<BinaryOperator>(P)->isLogicalOp()))
            Known = false;
        Out.push_back(Call);
        return;
      }
      if (Inside && !IsBarrier && FD)
        if (const FunctionDecl *Def = FD->getDefinition();
            Def && hasBarrier(Def->getBody()))
          Known = false;
    }
    for (const Stmt *C : X->children())
      Visit(C);
  };
  Visit(Region);
  if (!Known)
    return std::nullopt;
  llvm::sort(Out, [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  return Out;
}

const Stmt *ThreadDependence::pairedBarrier(const ReturnStmt &RS,
                                            const Expr &Cond,
                                            const Stmt &S) const {
  if (HasJumps)
    return nullptr;
  const auto *If = dyn_cast_or_null<IfStmt>(Parents.lookup(&Cond));
  if (!If || If->getCond() != &Cond)
    return nullptr;
  // The barriers the returning threads reach in the branch, before the
  // return.
  const Stmt *Branch = nullptr;
  for (const Stmt *X = &RS; X && X != If; X = Parents.lookup(X))
    if (X == If->getThen() || X == If->getElse())
      Branch = X;
  if (!Branch)
    return nullptr;
  std::optional<llvm::SmallVector<const Stmt *, 4>> Exit =
      straightBarriers(Branch, Branch->getBeginLoc(), RS.getBeginLoc());
  if (!Exit || Exit->empty())
    return nullptr;
  // The barriers the other threads reach after the `if`, before S, on the
  // straight-line path of the statement list that holds the `if`.
  const auto *List = dyn_cast_or_null<CompoundStmt>(Parents.lookup(If));
  if (!List)
    return nullptr;
  for (const Stmt *P = Parents.lookup(&S); P != List; P = Parents.lookup(P))
    if (!P || !isa<CompoundStmt, ExprWithCleanups, ImplicitCastExpr,
                   CStyleCastExpr, ParenExpr, AttributedStmt>(P))
      return nullptr;
  std::optional<llvm::SmallVector<const Stmt *, 4>> Before =
      straightBarriers(List, If->getEndLoc(), S.getBeginLoc());
  if (!Before || Before->size() >= Exit->size())
    return nullptr;
  return (*Exit)[Before->size()];
}

ThreadDependence::Divergence ThreadDependence::divergence(const Stmt &S,
                                                          bool EndExits) const {
  // No thread runs code that a constant condition leaves out.
  if (isDead(S))
    return {};
  const Expr *ExitCause = nullptr;
  if (const Expr *Cond =
          dependentCondition(S, nullptr, EndExits ? &ExitCause : nullptr))
    return {Cond, false};
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ReturnStmt *RS : Returns) {
    if (!SM.isBeforeInTranslationUnit(RS->getEndLoc(), S.getBeginLoc()))
      continue;
    if (const Expr *Cond = dependentCondition(*RS)) {
      Divergence D{RS, true};
      // Threads that return end there; those that reached a barrier on the
      // way met the others' S at a barrier of their own.
      if (EndExits)
        D.OtherBarrier = pairedBarrier(*RS, *Cond, S);
      return D;
    }
  }
  if (ExitCause)
    return {ExitCause, true};
  return {};
}

} // namespace clang::tidy::cuda
