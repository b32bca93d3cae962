//===--- WarpSyncLoops.cpp - cuda-lint ------------------------------------===//
//
// The loops cuda-warp-synchronous walks once per value of their variable:
// a variable halved down to 1 or doubled up to a constant or a bound on the
// block's shape, the same trip count in every thread of a block
// (WarpSyncWalk.cpp walks them).
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/AST/ParentMapContext.h"

namespace clang::tidy::cuda::warpsync {

bool Analysis::unrolledLoop(const Stmt *Loop, const VarDecl *&Var,
                            SmallVector<int64_t, 8> &Values,
                            const Expr *&ShapeCond) const {
  ShapeCond = nullptr;
  const Stmt *Body = nullptr;
  bool Found = false;
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop)) {
    Body = For->getBody();
    Found = halvingLoop(For, Var, Values) ||
            doublingLoop(For, Var, Values, ShapeCond);
  } else if (const auto *While = dyn_cast_or_null<WhileStmt>(Loop)) {
    Body = While->getBody();
    Found = doublingWhile(While, Var, Values, ShapeCond);
  }
  return Found && !divergentExit(Body, true);
}

const Stmt *Analysis::crossIterationLoop(const Access &W,
                                         const Access &R) const {
  // One statement that reads and writes (`s[t] += s[t - o]`) is split into
  // read, barrier, write, barrier: its own last barrier ends the body.
  if (W.Stmt == R.Stmt)
    return nullptr;
  for (const auto &[VarW, ValueW] : W.Fixed)
    for (const auto &[VarR, ValueR] : R.Fixed) {
      if (VarW != VarR || ValueW == ValueR)
        continue;
      for (const Stmt *X = R.Stmt; X;) {
        auto It = Slots.find(X);
        if (It == Slots.end())
          break;
        const Stmt *P = It->second.Parent;
        const VarDecl *Var = nullptr;
        SmallVector<int64_t, 8> Values;
        const Expr *ShapeCond = nullptr;
        if (P && unrolledLoop(P, Var, Values, ShapeCond) && Var == VarW)
          return P;
        X = P;
      }
    }
  return nullptr;
}

bool Analysis::unrolledLoop(const Stmt *Loop) const {
  const VarDecl *Var = nullptr;
  SmallVector<int64_t, 8> Values;
  const Expr *ShapeCond = nullptr;
  return unrolledLoop(Loop, Var, Values, ShapeCond);
}

std::optional<int64_t> Analysis::loopStart(const ForStmt *For,
                                           const VarDecl *&Var,
                                           const BinaryOperator *&Cond) const {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  if (!Init || !Init->isSingleDecl())
    return std::nullopt;
  Var = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!Var || !Var->getInit() || !Var->getType()->isIntegerType())
    return std::nullopt;
  std::optional<int64_t> Start = constant(Var->getInit());
  if (!Start || *Start <= 0 || *Start > 4096)
    return std::nullopt;
  Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
  if (!Cond || !refersTo(Cond->getLHS(), Var))
    return std::nullopt;
  return Start;
}

bool Analysis::stepsByTwo(const Stmt *IncS, const Stmt *Body,
                          const VarDecl *Var, bool Up) const {
  const auto *Inc = dyn_cast_or_null<BinaryOperator>(IncS);
  if (!Inc || !refersTo(Inc->getLHS(), Var) || (Body && assignedIn(Body, Var)))
    return false;
  std::optional<int64_t> By = constant(Inc->getRHS());
  BinaryOperatorKind Op = Inc->getOpcode();
  if (Op == (Up ? BO_ShlAssign : BO_ShrAssign))
    return By == 1;
  if (Op == (Up ? BO_MulAssign : BO_DivAssign))
    return By == 2;
  if (Op == BO_AddAssign)
    return Up && refersTo(Inc->getRHS(), Var);
  const auto *RHS = dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParens());
  std::optional<int64_t> RC = RHS ? constant(RHS->getRHS()) : std::nullopt;
  if (Op != BO_Assign || !RC || !refersTo(RHS->getLHS(), Var))
    return false;
  return (RHS->getOpcode() == (Up ? BO_Shl : BO_Shr) && *RC == 1) ||
         (RHS->getOpcode() == (Up ? BO_Mul : BO_Div) && *RC == 2);
}

bool Analysis::halvingLoop(const ForStmt *For, const VarDecl *&Var,
                           SmallVector<int64_t, 8> &Values) const {
  const BinaryOperator *Cond = nullptr;
  std::optional<int64_t> Start = loopStart(For, Var, Cond);
  if (!Start)
    return false;
  std::optional<int64_t> Bound = constant(Cond->getRHS());
  if (!Bound || !((Cond->getOpcode() == BO_GT && *Bound == 0) ||
                  (Cond->getOpcode() == BO_NE && *Bound == 0) ||
                  (Cond->getOpcode() == BO_GE && *Bound == 1)))
    return false;
  if (!stepsByTwo(For->getInc(), For->getBody(), Var, /*Up=*/false))
    return false;
  Values.clear();
  for (int64_t V = *Start; V > 0; V /= 2)
    Values.push_back(V);
  return true;
}

bool Analysis::doublingLoop(const ForStmt *For, const VarDecl *&Var,
                            SmallVector<int64_t, 8> &Values,
                            const Expr *&ShapeCond) const {
  const BinaryOperator *Cond = nullptr;
  std::optional<int64_t> Start = loopStart(For, Var, Cond);
  if (!Start || !stepsByTwo(For->getInc(), For->getBody(), Var, /*Up=*/true))
    return false;
  return doublingValues(*Start, Cond, Values, ShapeCond);
}

bool Analysis::doublingWhile(const WhileStmt *While, const VarDecl *&Var,
                             SmallVector<int64_t, 8> &Values,
                             const Expr *&ShapeCond) const {
  const auto *Cond =
      dyn_cast<BinaryOperator>(While->getCond()->IgnoreParenImpCasts());
  const auto *Body = dyn_cast<CompoundStmt>(While->getBody());
  if (!Cond || !Body || Body->body_empty())
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(stripCasts(Cond->getLHS()));
  Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->getInit() || !Var->getType()->isIntegerType())
    return false;
  std::optional<int64_t> Start = constant(Var->getInit());
  if (!Start || *Start <= 0 || *Start > 4096)
    return false;
  // Declared in the block that holds the loop, before it, and left alone
  // until the loop.
  DynTypedNodeList Ps = Ctx.getParents(*While);
  const auto *Block = Ps.empty() ? nullptr : Ps[0].get<CompoundStmt>();
  if (!Block)
    return false;
  bool Declared = false;
  for (const Stmt *X : Block->body()) {
    if (X == While)
      break;
    if (const auto *DS = dyn_cast<DeclStmt>(X);
        DS && llvm::is_contained(DS->decls(), Var)) {
      Declared = true;
      continue;
    }
    if (Declared && assignedIn(X, Var))
      return false;
  }
  // Stepped by the body's last statement alone.
  const Stmt *Step = Body->body_back();
  for (const Stmt *X : Body->body())
    if (X != Step && assignedIn(X, Var))
      return false;
  if (!Declared || !stepsByTwo(Step, nullptr, Var, /*Up=*/true))
    return false;
  return doublingValues(*Start, Cond, Values, ShapeCond);
}

bool Analysis::doublingValues(int64_t Start, const BinaryOperator *Cond,
                              SmallVector<int64_t, 8> &Values,
                              const Expr *&ShapeCond) const {
  if (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE)
    return false;
  ShapeCond = nullptr;
  std::optional<int64_t> Bound = constant(Cond->getRHS());
  if (!Bound && blockShapeCondition(Cond->getRHS())) {
    // `o < blockDim.x`: up to the largest block, each value where the
    // model block meets the condition.
    Bound = 1024;
    ShapeCond = Cond;
  }
  if (!Bound || *Bound > 4096)
    return false;
  int64_t End = Cond->getOpcode() == BO_LT ? *Bound : *Bound + 1;
  Values.clear();
  for (int64_t V = Start; V < End; V *= 2)
    Values.push_back(V);
  return true;
}

} // namespace clang::tidy::cuda::warpsync
