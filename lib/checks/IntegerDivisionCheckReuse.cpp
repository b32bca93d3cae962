//===--- IntegerDivisionCheckReuse.cpp - cuda-lint ------------------------===//
//
// Integer divisions of cuda-integer-division that the compiler computes
// once with another (IntegerDivisionReuse.h): an earlier operation with the
// same operands whose value is reused (GVN), and the other half of a `/` and
// `%` pair computed with one division. Guide section: OpenCL best-practices
// guide for CUDA GPUs, 5.1.1.
//
//===----------------------------------------------------------------------===//

#include "IntegerDivisionCost.h"
#include "IntegerDivisionReuse.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::integer_division {

namespace {

/// The statement of the compound statement \p C that holds \p E.
const Stmt *statementIn(ASTContext &Ctx, const Stmt *E,
                        const CompoundStmt *&C) {
  DynTypedNode Cur = DynTypedNode::create(*E);
  const Stmt *Last = E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return nullptr;
    DynTypedNode P = Parents[0];
    if (const auto *CS = P.get<CompoundStmt>()) {
      C = CS;
      return Last;
    }
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return nullptr;
    if (const auto *S = P.get<Stmt>())
      Last = S;
    Cur = P;
  }
}

/// Whether \p Inner is \p Outer or inside it.
bool isWithin(ASTContext &Ctx, const Stmt *Inner, const Stmt *Outer) {
  for (const Stmt *Cur = Inner; Cur; Cur = enclosingStmt(Ctx, Cur))
    if (Cur == Outer)
      return true;
  return false;
}

/// The part of the statement \p S that is evaluated before \p Op's value is
/// used: for `v = ... Op ...;` with `v` a local variable, the right-hand
/// side (the store to `v` comes after both halves of `h = t % d; t = t / d;`
/// are computed), else the whole statement.
const Stmt *evaluatedBefore(ASTContext &Ctx, const Stmt *S,
                            const BinaryOperator *Op) {
  const auto *Assign = dyn_cast<BinaryOperator>(S);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return S;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      !isWithin(Ctx, Op, Assign->getRHS()))
    return S;
  return Assign->getRHS();
}

/// \p E without parentheses, implicit casts and the identity operations
/// that the compiler folds away (`x / 1`, `x * 1`, `x + 0`, `x - 0`, as
/// macro arguments leave them: `(idx / (1)) % W`).
const Expr *withoutIdentities(ASTContext &Ctx, const Expr *E) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || BO->isValueDependent())
      return E;
    auto Is = [&](const Expr *X, int64_t V) {
      std::optional<llvm::APSInt> C = X->getIntegerConstantExpr(Ctx);
      return C && *C == V;
    };
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Div:
      if (!Is(R, 1))
        return E;
      E = L;
      break;
    case BO_Mul:
      if (Is(R, 1))
        E = L;
      else if (Is(L, 1))
        E = R;
      else
        return E;
      break;
    case BO_Add:
      if (Is(R, 0))
        E = L;
      else if (Is(L, 0))
        E = R;
      else
        return E;
      break;
    case BO_Sub:
      if (!Is(R, 0))
        return E;
      E = L;
      break;
    default:
      return E;
    }
  }
  return E;
}

/// Whether \p E reads only variables that never change (and members of
/// them, not through pointers), constants and arithmetic of those: a value
/// that is the same wherever in the function it is computed.
bool isStableValue(ASTContext &Ctx, const Expr *E, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent())
    return false;
  if (E->isIntegerConstantExpr(Ctx))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V && V->hasLocalStorage() && !V->getType().isVolatileQualified() &&
           !V->getType()->isReferenceType() && isNeverModified(Ctx, V);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()) &&
           isStableValue(Ctx, ME->getBase(), Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isShiftOp() ||
            BO->isBitwiseOp()) &&
           isStableValue(Ctx, BO->getLHS(), Depth + 1) &&
           isStableValue(Ctx, BO->getRHS(), Depth + 1);
  return false;
}

/// The value a local copy holds: for `nx` of `int nx = dom.nx;` that never
/// changes, with a stable initialiser, `dom.nx`; else null.
const Expr *copiedValue(ASTContext &Ctx, const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || V->isStaticLocal() || !V->getInit() ||
      !V->getType()->isIntegerType() || V->getType().isVolatileQualified() ||
      !isNeverModified(Ctx, V) || !isStableValue(Ctx, V->getInit()))
    return nullptr;
  return V->getInit();
}

/// Whether \p X and \p Y compute the same value from the same variables:
/// the same tree once parentheses, implicit casts and identity operations
/// are stripped, and local copies that never change are read as what they
/// copy (`i % nx` with `int nx = dom.nx;` is `i % dom.nx`).
bool sameValue(ASTContext &Ctx, const Expr *X, const Expr *Y,
               unsigned Depth = 0) {
  if (Depth > 16)
    return false;
  X = withoutIdentities(Ctx, X);
  Y = withoutIdentities(Ctx, Y);
  auto Copies = [&] {
    if (const Expr *CX = copiedValue(Ctx, X))
      return sameValue(Ctx, CX, Y, Depth + 1);
    if (const Expr *CY = copiedValue(Ctx, Y))
      return sameValue(Ctx, X, CY, Depth + 1);
    return false;
  };
  const auto *BX = dyn_cast<BinaryOperator>(X);
  const auto *BY = dyn_cast<BinaryOperator>(Y);
  if (BX && BY)
    return BX->getOpcode() == BY->getOpcode() && !BX->isAssignmentOp() &&
           BX->getOpcode() != BO_Comma &&
           Ctx.hasSameType(BX->getType(), BY->getType()) &&
           sameValue(Ctx, BX->getLHS(), BY->getLHS(), Depth + 1) &&
           sameValue(Ctx, BX->getRHS(), BY->getRHS(), Depth + 1);
  if (BX || BY)
    return Copies();
  llvm::FoldingSetNodeID IX, IY;
  X->Profile(IX, Ctx, /*Canonical=*/true);
  Y->Profile(IY, Ctx, /*Canonical=*/true);
  return IX == IY || Copies();
}

bool sameOperands(ASTContext &Ctx, const BinaryOperator *A,
                  const BinaryOperator *B) {
  auto Same = [&](const Expr *X, const Expr *Y) {
    return Ctx.hasSameType(X->getType(), Y->getType()) && sameValue(Ctx, X, Y);
  };
  return Same(A->getLHS(), B->getLHS()) && Same(A->getRHS(), B->getRHS());
}

/// Whether the division \p Div is `(x - x % d) / d` of the modulo \p Rem
/// `x % d`, or `(x - k) / d` with `k` a local variable that holds that
/// modulo and never changes: the compiler reads it as `x / d` and computes
/// both from one division (checked against `nvcc -ptx`: one `div.s32`, and
/// `mul.lo` + `sub` for the modulo).
bool subtractsRemainder(ASTContext &Ctx, const BinaryOperator *Div,
                        const BinaryOperator *Rem) {
  if (Div->getOpcode() != BO_Div || Rem->getOpcode() != BO_Rem ||
      !Ctx.hasSameType(Div->getRHS()->getType(), Rem->getRHS()->getType()) ||
      !sameValue(Ctx, Div->getRHS(), Rem->getRHS()))
    return false;
  const auto *Sub =
      dyn_cast<BinaryOperator>(withoutIdentities(Ctx, Div->getLHS()));
  if (!Sub || Sub->getOpcode() != BO_Sub ||
      !sameValue(Ctx, Sub->getLHS(), Rem->getLHS()))
    return false;
  const Expr *K = withoutIdentities(Ctx, Sub->getRHS());
  if (K == Rem)
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(K);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && V->getInit() &&
         V->getType()->isIntegerType() && !V->getType().isVolatileQualified() &&
         withoutIdentities(Ctx, V->getInit()) == Rem && isNeverModified(Ctx, V);
}

} // namespace

/// The other half of a division and modulo pair that the compiler computes
/// with one division: `q = a / b; ...; r = a % b;` in one basic block (no
/// branch, loop or jump from the first to the second), with operands whose
/// values cannot change between them. Checked against `nvcc -ptx`: such a
/// pair gives one `div`, while a `%` under a branch after the `/` keeps its
/// own `rem`.
const BinaryOperator *divRemPartner(ASTContext &Ctx, const BinaryOperator *BO,
                                    const FunctionDecl *FD) {
  if (isa<CompoundAssignOperator>(BO))
    return nullptr;
  const CompoundStmt *C = nullptr;
  const Stmt *Own = statementIn(Ctx, BO, C);
  if (!Own || !C)
    return nullptr;
  BinaryOperatorKind Other = BO->getOpcode() == BO_Div ? BO_Rem : BO_Div;
  auto Matches =
      match(findAll(binaryOperator(hasOperatorName(Other == BO_Div ? "/" : "%"))
                        .bind("op")),
            *C, Ctx);
  for (const BoundNodes &N : Matches) {
    const auto *Cand = N.getNodeAs<BinaryOperator>("op");
    if (Cand == BO)
      continue;
    const BinaryOperator *Rem = Other == BO_Rem ? Cand : BO;
    const BinaryOperator *Div = Other == BO_Rem ? BO : Cand;
    if (!sameOperands(Ctx, BO, Cand) && !subtractsRemainder(Ctx, Div, Rem))
      continue;
    // What the pair reads: the modulo's operands (the division's are the
    // same values, or the same less a never-changed copy of the modulo).
    SmallVector<const VarDecl *, 4> Vars;
    bool LoadsMemory = false;
    if (!operandInputs(Rem->getLHS(), Vars, LoadsMemory) ||
        !operandInputs(Rem->getRHS(), Vars, LoadsMemory))
      return nullptr;
    const CompoundStmt *CC = nullptr;
    const Stmt *CandStmt = statementIn(Ctx, Cand, CC);
    if (CC != C || !CandStmt)
      continue;
    // Every statement from the first of the two to the second: one basic
    // block, and no change to what the operands read.
    auto Begin = llvm::find(C->body(), Own),
         End = llvm::find(C->body(), CandStmt);
    if (Begin == C->body_end() || End == C->body_end())
      continue;
    if (End < Begin)
      std::swap(Begin, End);
    const BinaryOperator *Later = *End == CandStmt ? Cand : BO;
    bool OneBlock = true;
    for (auto I = Begin; I <= End && OneBlock; ++I)
      OneBlock =
          !hasControlFlow(*I) &&
          !changesVars(Ctx, I == End ? evaluatedBefore(Ctx, *I, Later) : *I,
                       Vars) &&
          !(LoadsMemory && mayWriteMemory(*I));
    if (OneBlock)
      return Cand;
  }
  return nullptr;
}

namespace {

/// Whether every evaluation of the statement \p Own (of a compound
/// statement) evaluates \p E: no conditional operator, short-circuit
/// operand, branch or loop body lies between them.
bool alwaysEvaluated(ASTContext &Ctx, const Expr *E, const Stmt *Own) {
  const Stmt *Cur = E;
  while (Cur != Own) {
    const Stmt *P = enclosingStmt(Ctx, Cur);
    if (!P)
      return false;
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (CO->getCond() != Cur)
        return false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && BO->getRHS() == Cur)
        return false;
    } else if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->getCond() != Cur)
        return false;
    } else if (isa<LambdaExpr, StmtExpr>(P) ||
               (!isa<Expr>(P) && !isa<DeclStmt>(P))) {
      return false;
    }
    Cur = P;
  }
  return true;
}

/// Whether \p S holds a label that a jump can reach from outside.
bool hasLabel(const Stmt *S) {
  if (!S)
    return false;
  if (isa<LabelStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (hasLabel(Child))
      return true;
  return false;
}

} // namespace

/// An earlier operation with the same operator and operands as \p BO whose
/// value the compiler reuses for \p BO (GVN; checked against `nvcc -ptx`,
/// which emits one `rem` for `flag[IDX(x, y)]` and a later `dirs[IDX(x, y)]`
/// past an `if (...) continue;`): it is evaluated whenever \p BO is (it
/// comes first in the same compound statement, or in the same expression),
/// and nothing between them changes the operands or may store to the memory
/// they read (type-based: a `float` store does not change an `int` load).
const BinaryOperator *earlierRepeat(ASTContext &Ctx, const BinaryOperator *BO,
                                    const FunctionDecl *FD) {
  if (isa<CompoundAssignOperator>(BO) || !FD || !FD->getBody())
    return nullptr;
  SmallVector<const VarDecl *, 4> Vars;
  SmallVector<QualType, 4> Loaded;
  bool LoadsMemory = false;
  if (!operandInputs(BO->getLHS(), Vars, LoadsMemory, &Loaded) ||
      !operandInputs(BO->getRHS(), Vars, LoadsMemory, &Loaded))
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Matches = match(
      findAll(
          binaryOperator(hasOperatorName(BO->getOpcodeStr().str())).bind("op")),
      *FD->getBody(), Ctx);
  for (const BoundNodes &N : Matches) {
    const auto *Cand = N.getNodeAs<BinaryOperator>("op");
    if (Cand == BO || !sameOperands(Ctx, BO, Cand) ||
        !SM.isBeforeInTranslationUnit(Cand->getOperatorLoc(),
                                      BO->getOperatorLoc()))
      continue;
    const CompoundStmt *C = nullptr;
    const Stmt *First = statementIn(Ctx, Cand, C);
    if (!First || !C || !alwaysEvaluated(Ctx, Cand, First))
      continue;
    // The statement of `C` that holds `BO`.
    const Stmt *Second = BO;
    while (Second && enclosingStmt(Ctx, Second) != C)
      Second = enclosingStmt(Ctx, Second);
    if (!Second)
      continue;
    auto Begin = llvm::find(C->body(), First),
         End = llvm::find(C->body(), Second);
    if (Begin == C->body_end() || End == C->body_end() || End < Begin)
      continue;
    if (Begin == End) {
      // One statement: the smallest expression holding both, without
      // branches, changes or stores between them.
      const Stmt *Common = Cand;
      while (Common && !isWithin(Ctx, BO, Common))
        Common = enclosingStmt(Ctx, Common);
      // `if (a[i % m] > 0) b[i % m] = 1;`: the condition is evaluated before
      // either branch (d3q19's find_wall; one rem.s32 in the PTX).
      if (const auto *If = dyn_cast_or_null<IfStmt>(Common);
          If && isWithin(Ctx, Cand, If->getCond()) &&
          alwaysEvaluated(Ctx, cast<Expr>(Cand), If->getCond()) &&
          !If->getConditionVariable()) {
        const Stmt *Branch =
            isWithin(Ctx, BO, If->getThen()) ? If->getThen() : If->getElse();
        if (Branch && isWithin(Ctx, BO, Branch) && !hasLabel(Branch) &&
            !changesVars(Ctx, If->getCond(), Vars) &&
            !changesVars(Ctx, Branch, Vars) &&
            !(LoadsMemory && (mayWriteMemory(If->getCond(), Loaded) ||
                              mayWriteMemory(Branch, Loaded))))
          return Cand;
      }
      if (!Common || !alwaysEvaluated(Ctx, cast<Expr>(Cand), Common) ||
          hasControlFlow(Common) ||
          changesVars(Ctx, evaluatedBefore(Ctx, Common, BO), Vars) ||
          (LoadsMemory && mayWriteMemory(Common, Loaded)))
        continue;
      return Cand;
    }
    bool Unchanged = true;
    for (auto I = Begin; I <= End && Unchanged; ++I)
      Unchanged =
          !(I != Begin && (isa<SwitchCase>(*I) || hasLabel(*I))) &&
          !changesVars(Ctx, I == End ? evaluatedBefore(Ctx, *I, BO) : *I,
                       Vars) &&
          !(LoadsMemory && mayWriteMemory(*I, Loaded));
    if (Unchanged)
      return Cand;
  }
  return nullptr;
}

} // namespace clang::tidy::cuda::integer_division
