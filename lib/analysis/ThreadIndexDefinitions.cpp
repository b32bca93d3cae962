//===--- ThreadIndexDefinitions.cpp - cuda-lint ---------------------------===//
//
// The definitions of local variables for ThreadIndexAnalysis (see
// ThreadIndex.h): the scan of a function body for how each variable is
// defined and whether it escapes, loop induction variables, the single or
// dominating definition that reaches a use, and the earliest reference
// that reads the same value as a use.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

namespace clang::tidy::cuda {

//===--- Definitions of local variables -----------------------------------===//

namespace {

const VarDecl *assignedVar(const Stmt *S) {
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

// Records, for each variable of a function body, how it is defined and
// whether it escapes.
class DefinitionScanner {
public:
  using Handler = llvm::function_ref<void(const VarDecl *, const Expr *Def,
                                          bool IsUpdate, const Stmt *InForInc,
                                          bool Escapes, SourceLocation Where)>;
  explicit DefinitionScanner(Handler H) : H(H) {}

  void visit(const Stmt *S, const Stmt *Parent, const Stmt *ForInc) {
    if (!S)
      return;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      visit(For->getInit(), For, ForInc);
      visit(For->getCond(), For, ForInc);
      visit(For->getInc(), For, For);
      visit(For->getBody(), For, ForInc);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        if (const VarDecl *V = refVar(BO->getLHS())) {
          H(V, BO->getOpcode() == BO_Assign ? BO->getRHS() : BO,
            BO->getOpcode() != BO_Assign, ForInc, false, BO->getBeginLoc());
          visit(BO->getRHS(), BO, ForInc);
          return;
        }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        if (const VarDecl *V = refVar(UO->getSubExpr())) {
          H(V, UO, true, ForInc, false, UO->getBeginLoc());
          return;
        }
      if (UO->getOpcode() == UO_AddrOf)
        if (const VarDecl *V = refVar(UO->getSubExpr())) {
          H(V, nullptr, false, ForInc, true, UO->getBeginLoc());
          return;
        }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      // Any other use as an lvalue (bound to a reference, a member call,
      // an asm operand) may change the variable.
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
      bool Read = Cast && (Cast->getCastKind() == CK_LValueToRValue ||
                           Cast->getCastKind() == CK_ArrayToPointerDecay ||
                           (Cast->getCastKind() == CK_NoOp &&
                            Cast->getType().isConstQualified()));
      if (V && !Read && !isa_and_nonnull<UnaryExprOrTypeTraitExpr>(Parent) &&
          !isa_and_nonnull<MemberExpr>(Parent))
        H(V, nullptr, false, ForInc, true, DRE->getBeginLoc());
      return;
    }
    const Stmt *Me = isa<ParenExpr>(S) ? Parent : S;
    for (const Stmt *Child : S->children())
      visit(Child, Me, ForInc);
  }

private:
  static const VarDecl *refVar(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
  Handler H;
};

} // namespace

void ThreadIndexAnalysis::scanBody() {
  if (BodyScanned)
    return;
  BodyScanned = true;
  if (!FD || !FD->getBody())
    return;
  auto Record = [&](const VarDecl *V, const Expr *Def, bool IsUpdate,
                    const Stmt *InForInc, bool Escapes, SourceLocation Where) {
    VarInfo &Info = Vars[V];
    if (Escapes) {
      Info.Escapes = true;
      return;
    }
    if (IsUpdate) {
      Info.Updates.push_back(Def);
      // Remember the innermost for loop whose increment holds the update.
      if (!InForInc)
        Info.UpdateOnlyInForInc = false;
      else if (!Info.InductionFor)
        Info.InductionFor = InForInc; // Checked against the declaring loop.
      else if (Info.InductionFor != InForInc)
        Info.UpdateOnlyInForInc = false;
      return;
    }
    Info.Assigned.push_back(Def);
    Info.AssignedAt.push_back(Where);
  };
  DefinitionScanner Scanner(Record);
  Scanner.visit(FD->getBody(), nullptr, nullptr);
  // Parents, for dominating definitions; a goto makes them unusable.
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (isa<GotoStmt, IndirectGotoStmt>(S))
      HasGoto = true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        Refs[V].push_back(DRE);
    for (const Stmt *Child : S->children())
      if (Child) {
        Parents[Child] = S;
        Walk(Child);
      }
  };
  Walk(FD->getBody());
}

bool ThreadIndexAnalysis::definesVar(const Stmt *S, const VarDecl *V) {
  bool Found = false;
  auto Record = [&](const VarDecl *W, const Expr *, bool, const Stmt *, bool,
                    SourceLocation) { Found |= W == V; };
  DefinitionScanner Scanner(Record);
  Scanner.visit(S, nullptr, nullptr);
  return Found;
}

const Expr *ThreadIndexAnalysis::dominatingDefinition(const VarDecl *V,
                                                      const Expr *Use,
                                                      SourceLocation &Where) {
  scanBody();
  if (HasGoto)
    return nullptr;
  const Stmt *Cur = Use;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    // A jump target: the use may be reached without the statements before.
    if (isa<SwitchCase, LabelStmt>(Cur))
      return nullptr;
    auto Body = CS->body();
    const auto *Pos = llvm::find(Body, Cur);
    while (Pos != Body.begin()) {
      const Stmt *Sib = *--Pos;
      if (isa<SwitchCase, LabelStmt>(Sib))
        return nullptr;
      if (const auto *DS = dyn_cast<DeclStmt>(Sib);
          DS && llvm::is_contained(DS->decls(), V)) {
        if (!V->getInit() || definesVar(Cur, V))
          return nullptr;
        Where = V->getLocation();
        return V->getInit();
      }
      if (!definesVar(Sib, V))
        continue;
      // The nearest definition must be the whole statement `V = E;`.
      if (assignedVar(Sib) != V || definesVar(Cur, V))
        return nullptr;
      const Stmt *Plain = Sib;
      if (const auto *EWC = dyn_cast<ExprWithCleanups>(Plain))
        Plain = EWC->getSubExpr();
      const auto *BO = cast<BinaryOperator>(Plain);
      if (definesVar(BO->getRHS(), V))
        return nullptr;
      Where = BO->getBeginLoc();
      return BO->getRHS();
    }
  }
  return nullptr;
}

const Expr *ThreadIndexAnalysis::definitionAt(const VarDecl *V, const Expr *Use,
                                              SourceLocation *Where) {
  SourceLocation Loc;
  const Expr *Def = singleDefinition(V);
  if (Def) {
    Loc = V->getLocation();
    const VarInfo &Info = Vars[V];
    if (!V->getInit() && Info.Assigned.size() == 1)
      Loc = Info.AssignedAt.front();
  } else if (Use && V->getDeclContext() == FD && !isa<ParmVarDecl>(V)) {
    auto It = Vars.find(V);
    if (It != Vars.end() && !It->second.Escapes && It->second.Updates.empty())
      Def = dominatingDefinition(V, Use, Loc);
  }
  if (Def && Where)
    *Where = Loc;
  return Def;
}

bool ThreadIndexAnalysis::isInductionVariable(const VarDecl *V) {
  scanBody();
  auto It = Vars.find(V);
  if (It == Vars.end())
    return false;
  const VarInfo Info = It->second; // A copy: analyze() may grow Vars.
  if (Info.Escapes || !Info.Assigned.empty() || Info.Updates.empty() ||
      !Info.UpdateOnlyInForInc || !Info.InductionFor || !V->getInit())
    return false;
  const auto *For = cast<ForStmt>(Info.InductionFor);
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  if (!DS || !llvm::is_contained(DS->decls(), V))
    return false;
  // Each step must be `++`, `--`, `+= U` or `-= U` with a uniform U.
  for (const Expr *Update : Info.Updates) {
    if (isa<UnaryOperator>(Update))
      continue;
    const auto *BO = cast<BinaryOperator>(Update);
    if (BO->getOpcode() != BO_AddAssign && BO->getOpcode() != BO_SubAssign)
      return false;
    if (analyze(BO->getRHS()).MayDependOnThread)
      return false;
  }
  return true;
}

std::optional<int64_t> constantIntValue(ASTContext &Ctx, const Expr *E,
                                        unsigned MaxBits) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() ||
      !E->getType()->isIntegralOrEnumerationType() ||
      !E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.getSignificantBits() > MaxBits)
    return std::nullopt;
  return V.getExtValue();
}

bool isIntegerPassThroughCast(const CastExpr *Cast) {
  switch (Cast->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_IntegralCast:
    return true;
  default:
    return false;
  }
}

const Expr *loopBound(const BinaryOperator *Cond, const VarDecl *V,
                      BinaryOperatorKind &Op) {
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  Op = Cond->getOpcode();
  if (IsV(Cond->getLHS()) && (Op == BO_LT || Op == BO_LE))
    return Cond->getRHS();
  if (IsV(Cond->getRHS()) && (Op == BO_GT || Op == BO_GE)) {
    Op = Op == BO_GT ? BO_LT : BO_LE;
    return Cond->getLHS();
  }
  return nullptr;
}

std::optional<LoopSpan>
forLoopSpan(const ForStmt &For, const VarDecl *V, const Expr *Init,
            const Expr *Inc,
            llvm::function_ref<std::optional<int64_t>(const Expr *)> Eval) {
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !Init || !Inc)
    return std::nullopt;
  BinaryOperatorKind Op;
  const Expr *Bound = loopBound(Cond, V, Op);
  if (!Bound)
    return std::nullopt;
  std::optional<int64_t> A = Eval(Init), N = Eval(Bound);
  if (!A || !N)
    return std::nullopt;
  int64_t Step = 0;
  Inc = Inc->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementOp())
      Step = 1;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
    if (BO->getOpcode() == BO_AddAssign)
      if (auto S = Eval(BO->getRHS()); S && *S > 0)
        Step = *S;
  }
  if (Step == 0)
    return std::nullopt;
  int64_t Hi = Op == BO_LT ? *N - 1 : *N;
  int64_t Last = Hi < *A ? *A - Step : *A + (Hi - *A) / Step * Step;
  return LoopSpan{&For, *A, Last, Step};
}

std::optional<LoopSpan>
ThreadIndexAnalysis::constantLoopSpan(const VarDecl *V) {
  if (!isInductionVariable(V))
    return std::nullopt;
  // The one update, in the increment: ++V, V++ or V += S.
  const VarInfo &Info = Vars[V];
  if (Info.Updates.size() != 1)
    return std::nullopt;
  std::optional<LoopSpan> Span = forLoopSpan(
      *cast<ForStmt>(Info.InductionFor), V, V->getInit(), Info.Updates.front(),
      [&](const Expr *E) { return constantIntValue(Ctx, E, 40); });
  if (!Span || Span->Last < Span->First)
    return std::nullopt;
  return Span;
}

const Expr *ThreadIndexAnalysis::singleDefinition(const VarDecl *V) {
  scanBody();
  auto It = Vars.find(V);
  if (It == Vars.end())
    return V->getInit();
  const VarInfo &Info = It->second;
  if (Info.Escapes || !Info.Updates.empty())
    return nullptr;
  if (Info.Assigned.empty())
    return V->getInit();
  if (Info.Assigned.size() == 1 && !V->getInit() && !isa<ParmVarDecl>(V))
    return Info.Assigned.front();
  return nullptr;
}

bool ThreadIndexAnalysis::isUnmodified(const VarDecl *V) {
  scanBody();
  auto It = Vars.find(V);
  if (It == Vars.end())
    return true;
  return !It->second.Escapes && It->second.Assigned.empty() &&
         It->second.Updates.empty();
}

bool holdsJumpTarget(const Stmt *S) {
  if (!S)
    return false;
  if (isa<SwitchCase, LabelStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (holdsJumpTarget(Child))
      return true;
  return false;
}

const Expr *ThreadIndexAnalysis::sameValueUse(const VarDecl *V,
                                              const Expr *Use) {
  scanBody();
  if (HasGoto)
    return Use;
  // The statements in which no definition of V comes between a reference
  // and Use: the ones that hold Use while they define nothing, and their
  // earlier siblings up to the nearest one that defines V.
  SmallVector<const Stmt *, 8> Region;
  // The read itself: the reference with its parentheses and conversions
  // (`(jj)` in a macro's expansion).
  const Stmt *Read = Use;
  while (isa_and_nonnull<ParenExpr, ImplicitCastExpr>(Parents.lookup(Read)))
    Read = Parents.lookup(Read);
  const Stmt *Cur = Read;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    if (Cur != Read && (definesVar(Cur, V) || isa<SwitchCase, LabelStmt>(Cur)))
      break;
    Region.push_back(Cur);
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    auto Body = CS->body();
    const auto *Pos = llvm::find(Body, Cur);
    bool Stop = false;
    while (Pos != Body.begin()) {
      const Stmt *Sib = *--Pos;
      if (holdsJumpTarget(Sib) || definesVar(Sib, V)) {
        Stop = true;
        break;
      }
      Region.push_back(Sib);
    }
    if (Stop)
      break;
  }
  // The first reference in the body's order that the region holds.
  for (const DeclRefExpr *R : Refs.lookup(V))
    for (const Stmt *S : Region)
      if (isAncestor(S, R))
        return R;
  return Use;
}

bool ThreadIndexAnalysis::isAncestor(const Stmt *A, const Stmt *S) const {
  for (; S; S = Parents.lookup(S))
    if (S == A)
      return true;
  return false;
}

} // namespace clang::tidy::cuda
