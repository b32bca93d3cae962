//===--- LaneGuards.cpp - cuda-lint ---------------------------------------===//
//
// Which threads of a block reach an access (see LaneGuards.h): the
// conditions collected on the way to it and their evaluation, thread by
// thread.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/LaneGuards.h"
#include "cudalint/analysis/IntegerFold.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda {

namespace {

bool exits(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, ContinueStmt, BreakStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && exits(CS->body_back());
  return false;
}

} // namespace

bool LaneGuards::mayRunHere() {
  for (const auto &[Cond, Want] : Conds) {
    std::optional<bool> V = evalBool(Cond, 0);
    if (NoteUndecided && !V && !Undecided)
      Undecided = TIA.isThreadDependent(Cond);
    if (V && *V != Want)
      return false;
  }
  return true;
}

void LaneGuards::collect(const Stmt *Access) {
  DynTypedNode Cur = DynTypedNode::create(*Access);
  const Stmt *CurStmt = Access;
  for (unsigned Steps = 0; Steps < 64; ++Steps) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return;
    DynTypedNode P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return;
    if (const auto *PS = P.get<Stmt>()) {
      if (const auto *If = dyn_cast<IfStmt>(PS)) {
        if (If->getThen() == CurStmt)
          Conds.push_back({If->getCond(), true});
        else if (If->getElse() == CurStmt)
          Conds.push_back({If->getCond(), false});
      } else if (const auto *CO = dyn_cast<ConditionalOperator>(PS)) {
        if (CO->getTrueExpr() == CurStmt)
          Conds.push_back({CO->getCond(), true});
        else if (CO->getFalseExpr() == CurStmt)
          Conds.push_back({CO->getCond(), false});
      } else if (const auto *BO = dyn_cast<BinaryOperator>(PS)) {
        if (BO->getOpcode() == BO_LAnd && BO->getRHS() == CurStmt)
          Conds.push_back({BO->getLHS(), true});
        else if (BO->getOpcode() == BO_LOr && BO->getRHS() == CurStmt)
          Conds.push_back({BO->getLHS(), false});
      } else if (const auto *CS = dyn_cast<CompoundStmt>(PS)) {
        for (const Stmt *S : CS->body()) {
          if (S == CurStmt)
            break;
          if (isa<LabelStmt, SwitchCase>(S))
            Conds.clear(); // A jump may land after the exits.
          const auto *If = dyn_cast<IfStmt>(S);
          if (If && !If->getElse() && !If->getInit() &&
              !If->getConditionVariable() && exits(If->getThen()))
            Conds.push_back({If->getCond(), false});
        }
      } else if (isa<SwitchStmt, SwitchCase, LabelStmt>(PS)) {
        Conds.clear(); // Entered from elsewhere: nothing known.
        return;
      }
      CurStmt = PS;
    }
    Cur = P;
  }
}

std::optional<int64_t> LaneGuards::constantInt(const Expr *E) {
  return constantIntValue(Ctx, E, 62);
}

std::optional<int64_t> LaneGuards::evalInt(const Expr *E, unsigned Depth) {
  if (!E || Depth > 12 || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreParens();
  if (auto C = constantInt(E))
    return C;
  if (auto Sym = ThreadIndexAnalysis::builtinSymbol(E)) {
    if (Sym->Kind == IndexSymbol::ThreadIdx)
      return Coords[Sym->Dim];
    if (Sym->Kind == IndexSymbol::BlockDim && Exact)
      return (*Exact)[Sym->Dim];
    if (Sym->Kind == IndexSymbol::GridDim && Grid)
      return (*Grid)[Sym->Dim];
    if (Sym->Kind == IndexSymbol::BlockIdx && Block)
      return (*Block)[Sym->Dim];
    if (Sym->Kind == IndexSymbol::BlockIdx && Grid && (*Grid)[Sym->Dim] == 1)
      return 0;
    return std::nullopt;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (!isIntegerPassThroughCast(Cast))
      return std::nullopt;
    return evalInt(Cast->getSubExpr(), Depth + 1);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(V))
      return ParamValue && TIA.isUnmodified(P) ? ParamValue(P) : std::nullopt;
    if (!V || !V->hasLocalStorage())
      return std::nullopt;
    if (const Expr *Def = TIA.definitionAt(V, DRE))
      return evalInt(Def, Depth + 1);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto L = evalInt(BO->getLHS(), Depth + 1);
    auto R = evalInt(BO->getRHS(), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    // Comparisons are evalBool's.
    if (BO->isComparisonOp())
      return std::nullopt;
    return foldIntegerOperator(BO->getOpcode(), *L, *R, /*Unsigned=*/false,
                               BO->getOpcode() == BO_Shl ? 31 : 62);
  }
  return std::nullopt;
}

std::optional<bool> LaneGuards::evalBool(const Expr *E, unsigned Depth) {
  if (!E || Depth > 12)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() == CK_IntegralToBoolean) {
      auto V = evalInt(Cast->getSubExpr(), Depth + 1);
      return V ? std::optional<bool>(*V != 0) : std::nullopt;
    }
    if (Cast->getCastKind() == CK_LValueToRValue ||
        Cast->getCastKind() == CK_NoOp)
      return evalBool(Cast->getSubExpr(), Depth + 1);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_LNot) {
      auto V = evalBool(UO->getSubExpr(), Depth + 1);
      return V ? std::optional<bool>(!*V) : std::nullopt;
    }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  if (BO->isLogicalOp()) {
    auto L = evalBool(BO->getLHS(), Depth + 1);
    auto R = evalBool(BO->getRHS(), Depth + 1);
    if (BO->getOpcode() == BO_LAnd) {
      if ((L && !*L) || (R && !*R))
        return false;
      return L && R ? std::optional<bool>(true) : std::nullopt;
    }
    if ((L && *L) || (R && *R))
      return true;
    return L && R ? std::optional<bool>(false) : std::nullopt;
  }
  if (!BO->isComparisonOp())
    return std::nullopt;
  auto L = evalInt(BO->getLHS(), Depth + 1);
  auto R = evalInt(BO->getRHS(), Depth + 1);
  if (!L || !R)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_LT:
    return *L < *R;
  case BO_LE:
    return *L <= *R;
  case BO_GT:
    return *L > *R;
  case BO_GE:
    return *L >= *R;
  case BO_EQ:
    return *L == *R;
  case BO_NE:
    return *L != *R;
  default:
    return std::nullopt;
  }
}

} // namespace clang::tidy::cuda
