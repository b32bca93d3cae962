//===--- IntegerDivisionCheckCost.cpp - cuda-lint -------------------------===//
//
// What an integer division of cuda-integer-division costs where it stands
// (IntegerDivisionCost.h): divisors that are a run-time power of two, whether
// the operation varies in a loop or is hoisted, counters of fully unrolled
// loops, products the compiler folds, remainders only tested against zero;
// and the walks of operands and statements that these and the reuse analysis
// (IntegerDivisionCheckReuse.cpp) share. Guide section: OpenCL best-practices
// guide for CUDA GPUs, 5.1.1.
//
//===----------------------------------------------------------------------===//

#include "IntegerDivisionCost.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/GridStrideLoops.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <functional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::integer_division {

const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

namespace {

/// Whether \p Pred holds for some loop of its function that repeats \p S
/// (a loop's initialiser is not repeated), asked from the innermost out.
bool someLoopAround(ASTContext &Ctx, const Stmt *S,
                    llvm::function_ref<bool(const Stmt *)> Pred) {
  // A grid-stride loop that every launch's grid covers runs its body once
  // per thread: not a loop here (GridStrideLoops.h).
  const FunctionDecl *FD = nullptr;
  auto Once = [&](const ForStmt *FS) {
    if (!FD)
      FD = enclosingFunction(Ctx, *S);
    return FD && isKernel(FD) && runsOncePerThread(Ctx, *FD, *FS);
  };
  DynTypedNode Cur = DynTypedNode::create(*S);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return false;
    DynTypedNode P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return false;
    const Stmt *Loop = nullptr;
    if (const auto *FS = P.get<ForStmt>()) {
      if (FS->getInit() != Cur.get<Stmt>() && !Once(FS))
        Loop = FS;
    } else if (P.get<WhileStmt>() || P.get<DoStmt>() ||
               P.get<CXXForRangeStmt>()) {
      Loop = P.get<Stmt>();
    }
    if (Loop && Pred(Loop))
      return true;
    Cur = P;
  }
}

/// Whether \p S runs inside a loop of its function (loop initialisers
/// excluded).
bool isInLoop(ASTContext &Ctx, const Stmt *S) {
  return someLoopAround(Ctx, S, [](const Stmt *) { return true; });
}

/// `1 << k` or `1u << k`, through parentheses and implicit casts: `k`.
const Expr *shiftOfOne(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Shl)
    return nullptr;
  const auto *Lit =
      dyn_cast<IntegerLiteral>(BO->getLHS()->IgnoreParenImpCasts());
  return Lit && Lit->getValue() == 1 ? BO->getRHS() : nullptr;
}

class ModificationFinder : public RecursiveASTVisitor<ModificationFinder> {
public:
  ModificationFinder(ASTContext &Ctx, const VarDecl *V) : Ctx(Ctx), V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() != V)
      return true;
    // Stores, increments, and escapes: a non-const reference or pointer to
    // it (`int &r = k; r = 3;`) may change it where this cannot see.
    Modified |= classifyVarUse(Ctx, E) != VarUse::Read;
    return !Modified;
  }
  ASTContext &Ctx;
  const VarDecl *V;
  bool Modified = false;
};

} // namespace

bool isNeverModified(ASTContext &Ctx, const VarDecl *V) {
  if (V->getType().isConstQualified())
    return true;
  if (!V->hasLocalStorage() || V->getType()->isReferenceType())
    return false;
  const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!FD || !FD->getBody())
    return false;
  ModificationFinder F(Ctx, V);
  F.TraverseStmt(FD->getBody());
  return !F.Modified;
}

/// A divisor that is a run-time power of two: `(1 << k)`, or a local
/// variable initialised with `1 << k` where neither it nor `k` changes.
const Expr *powerOfTwoShift(ASTContext &Ctx, const Expr *Divisor) {
  if (const Expr *K = shiftOfOne(Divisor))
    return K;
  const auto *DRE = dyn_cast<DeclRefExpr>(Divisor->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
      !isNeverModified(Ctx, V))
    return nullptr;
  const Expr *K = shiftOfOne(V->getInit());
  if (!K)
    return nullptr;
  const Expr *KE = K->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(KE))
    return K;
  const auto *KRef = dyn_cast<DeclRefExpr>(KE);
  const auto *KVar = KRef ? dyn_cast<VarDecl>(KRef->getDecl()) : nullptr;
  return KVar && isNeverModified(Ctx, KVar) ? K : nullptr;
}

/// Whether \p S holds anything that ends a basic block: a branch, a loop, a
/// jump, a conditional or short-circuit operator, a label.
bool hasControlFlow(const Stmt *S) {
  if (!S)
    return false;
  if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt,
          ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt,
          LabelStmt, SwitchCase, AbstractConditionalOperator, LambdaExpr,
          CXXThrowExpr, CXXTryStmt>(S))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isLogicalOp())
      return true;
  for (const Stmt *Child : S->children())
    if (hasControlFlow(Child))
      return true;
  return false;
}

/// What an operand of a division reads: local variables (and parameters),
/// and whether it loads from memory. False when it holds anything else (a
/// call, an assignment, `volatile`).
bool operandInputs(const Expr *E, SmallVectorImpl<const VarDecl *> &Vars,
                   bool &LoadsMemory, SmallVectorImpl<QualType> *Loaded) {
  E = E->IgnoreParens();
  auto Load = [&](QualType T) {
    LoadsMemory = true;
    if (Loaded)
      Loaded->push_back(T);
  };
  if (E->getType().isVolatileQualified())
    return false;
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (ThreadIndexAnalysis::builtinSymbol(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    if (!V->hasLocalStorage()) {
      Load(V->getType()); // A global: read from memory.
      return !V->getType().isVolatileQualified();
    }
    Vars.push_back(V);
    return true;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return operandInputs(Cast->getSubExpr(), Vars, LoadsMemory, Loaded);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      return false;
    if (UO->getOpcode() == UO_Deref)
      Load(UO->getType());
    return operandInputs(UO->getSubExpr(), Vars, LoadsMemory, Loaded);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma ||
        BO->isLogicalOp())
      return false;
    return operandInputs(BO->getLHS(), Vars, LoadsMemory, Loaded) &&
           operandInputs(BO->getRHS(), Vars, LoadsMemory, Loaded);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    Load(ASE->getType());
    return operandInputs(ASE->getBase(), Vars, LoadsMemory, Loaded) &&
           operandInputs(ASE->getIdx(), Vars, LoadsMemory, Loaded);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return false;
    if (ME->isArrow())
      Load(ME->getType());
    return operandInputs(ME->getBase(), Vars, LoadsMemory, Loaded);
  }
  return false;
}

/// Whether \p S may write memory: a store through a pointer or to a
/// non-local, a call, an atomic, inline asm.
/// With \p Loaded, only a store that may alias a load of one of these types
/// counts (type-based aliasing: a store of a `float` cannot change an `int`).
bool mayWriteMemory(const Stmt *S, ArrayRef<QualType> Loaded) {
  if (!S)
    return false;
  if (isa<CallExpr, CXXConstructExpr, AsmStmt, CXXNewExpr, CXXDeleteExpr>(S))
    return true;
  auto MayAlias = [&](QualType Stored) {
    if (Loaded.empty())
      return true;
    auto Scalar = [](QualType T) {
      T = T.getCanonicalType().getUnqualifiedType();
      return (T->isIntegerType() && !T->isAnyCharacterType() &&
              !T->isEnumeralType()) ||
             T->isRealFloatingType() || T->isPointerType();
    };
    if (!Scalar(Stored))
      return true;
    for (QualType L : Loaded) {
      if (!Scalar(L))
        return true;
      QualType A = Stored.getCanonicalType().getUnqualifiedType(),
               B = L.getCanonicalType().getUnqualifiedType();
      if (A->isPointerType() && B->isPointerType())
        return true;
      if (A->isIntegerType() && B->isIntegerType()) {
        if (A->isBooleanType() != B->isBooleanType())
          continue;
        return true; // Conservatively: `int` and `long` may share a size.
      }
      if (A == B)
        return true;
    }
    return false;
  };
  auto WritesMemory = [&](const Expr *Target) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return (!V || !V->hasLocalStorage()) && MayAlias(Target->getType());
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && WritesMemory(BO->getLHS()))
      return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp() && WritesMemory(UO->getSubExpr()))
      return true;
  for (const Stmt *Child : S->children())
    if (mayWriteMemory(Child, Loaded))
      return true;
  return false;
}

/// Whether \p S changes (or may change) one of \p Vars: assigns or
/// increments it, or lets it escape.
bool changesVars(ASTContext &Ctx, const Stmt *S,
                 ArrayRef<const VarDecl *> Vars) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (llvm::is_contained(Vars, DRE->getDecl()) &&
        !DRE->getDecl()->getType().isConstQualified()) {
      // A member read (`l.width`) reads the variable.
      const Stmt *Cur = DRE;
      while (true) {
        const Stmt *P = parentStmt(Ctx, Cur);
        const auto *ME = dyn_cast_or_null<MemberExpr>(P);
        if (!ME || ME->isArrow())
          break;
        Cur = P;
      }
      const auto *Load =
          dyn_cast_or_null<ImplicitCastExpr>(parentStmt(Ctx, Cur));
      bool Read = Cur != DRE ? Load && Load->getCastKind() == CK_LValueToRValue
                             : classifyVarUse(Ctx, DRE) == VarUse::Read;
      if (!Read)
        return true;
    }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (llvm::is_contained(Vars, D))
        return true;
  for (const Stmt *Child : S->children())
    if (changesVars(Ctx, Child, Vars))
      return true;
  return false;
}

namespace {

/// A counter of a `for` loop with constant bounds and a handful of
/// iterations (`for (int i = 2; i <= 256; i *= 2)`, or `int i; ...
/// for (i = 2; ...)` with the counter declared before the loop), changed
/// only by its increment, at \p Use inside that loop: the compiler unrolls
/// such a loop fully, so each use of the counter is a constant (checked
/// against `nvcc -ptx`: `x % i` becomes `and.b32` with 1, 3, ..., 255).
bool isUnrolledCounter(ASTContext &Ctx, const VarDecl *V,
                       const DeclRefExpr *Use) {
  constexpr unsigned MaxTrips = 16;
  constexpr unsigned MaxPragmaTrips = 1024;
  if (!V->getType()->isIntegerType() || V->getType().isVolatileQualified() ||
      !V->hasLocalStorage())
    return false;
  const ForStmt *FS = nullptr;
  const Expr *Init = nullptr;
  DynTypedNodeList Parents = Ctx.getParents(*V);
  const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (DS && DS->isSingleDecl() && V->getInit()) {
    Parents = Ctx.getParents(*DS);
    FS = Parents.empty() ? nullptr : Parents[0].get<ForStmt>();
    if (FS && FS->getInit() != DS)
      FS = nullptr;
    Init = V->getInit();
  }
  if (!FS) {
    // A C-style counter: the innermost loop around the use whose init
    // assigns it (`for (i = 2; ...)`).
    const Stmt *Cur = Use;
    for (const Stmt *P = parentStmt(Ctx, Cur); P && !FS;
         Cur = P, P = parentStmt(Ctx, P)) {
      const auto *For = dyn_cast<ForStmt>(P);
      if (!For || Cur == For->getInit())
        continue;
      const auto *Assign = dyn_cast_or_null<BinaryOperator>(For->getInit());
      const auto *Target =
          Assign && Assign->getOpcode() == BO_Assign
              ? dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts())
              : nullptr;
      if (Target && Target->getDecl() == V) {
        FS = For;
        Init = Assign->getRHS();
      }
    }
  }
  if (!FS || !Init || Init->isValueDependent() || !FS->getInc() ||
      !FS->getCond())
    return false;
  auto Const = [&](const Expr *E) -> std::optional<int64_t> {
    if (E->isValueDependent())
      return std::nullopt;
    std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx);
    if (!C || C->getSignificantBits() > 32)
      return std::nullopt;
    return C->getExtValue();
  };
  auto IsV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  std::optional<int64_t> Start = Const(Init);
  const auto *Cond = dyn_cast<BinaryOperator>(FS->getCond()->IgnoreParens());
  if (!Start || !Cond || !IsV(Cond->getLHS()))
    return false;
  std::optional<int64_t> Bound = Const(Cond->getRHS());
  BinaryOperatorKind CondOp = Cond->getOpcode();
  if (!Bound || (CondOp != BO_LT && CondOp != BO_LE))
    return false;
  // The next value of the counter, or none.
  const Expr *Inc = FS->getInc()->IgnoreParens();
  std::function<std::optional<int64_t>(int64_t)> Step;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementOp() && IsV(UO->getSubExpr()))
      Step = [](int64_t X) -> std::optional<int64_t> { return X + 1; };
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc);
             BO && IsV(BO->getLHS())) {
    BinaryOperatorKind Op = BO->getOpcode();
    std::optional<int64_t> C;
    if (Op == BO_Assign) {
      // `i = i * 2`, `i = 2 * i`, `i = i + 4`.
      const auto *R = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParens());
      if (R && (R->getOpcode() == BO_Mul || R->getOpcode() == BO_Add)) {
        if (IsV(R->getLHS()))
          C = Const(R->getRHS());
        else if (IsV(R->getRHS()))
          C = Const(R->getLHS());
        Op = R->getOpcode() == BO_Mul ? BO_MulAssign : BO_AddAssign;
      }
    } else {
      C = Const(BO->getRHS());
    }
    if (C && Op == BO_AddAssign && *C > 0)
      Step = [C](int64_t X) -> std::optional<int64_t> { return X + *C; };
    else if (C && Op == BO_MulAssign && *C > 1)
      Step = [C](int64_t X) -> std::optional<int64_t> { return X * *C; };
    else if (C && Op == BO_ShlAssign && *C > 0 && *C < 31)
      Step = [C](int64_t X) -> std::optional<int64_t> { return X << *C; };
  }
  if (!Step || *Start <= 0)
    return false;
  // `#pragma unroll` (or `#pragma unroll N` with N at least the trip
  // count) unrolls the loop fully at any trip count: nvcc emits no div or
  // rem for `x % k` over k = 1..32 under it (checked with nvcc -ptx).
  std::optional<int64_t> PragmaCount;
  bool PragmaFull = false;
  {
    DynTypedNodeList P = Ctx.getParents(*FS);
    if (const auto *AS = P.empty() ? nullptr : P[0].get<AttributedStmt>())
      for (const Attr *A : AS->getAttrs())
        if (const auto *LH = dyn_cast<LoopHintAttr>(A)) {
          if (LH->getOption() == LoopHintAttr::Unroll &&
              LH->getState() != LoopHintAttr::Disable)
            PragmaFull = true;
          else if (LH->getOption() == LoopHintAttr::UnrollCount &&
                   LH->getValue())
            PragmaCount = Const(LH->getValue());
        }
  }
  unsigned Limit = PragmaFull || PragmaCount ? MaxPragmaTrips : MaxTrips;
  unsigned Trips = 0;
  for (int64_t X = *Start; CondOp == BO_LT ? X < *Bound : X <= *Bound;) {
    if (++Trips > Limit)
      return false;
    std::optional<int64_t> Next = Step(X);
    if (!Next || *Next <= X || *Next > (int64_t(1) << 40))
      return false;
    X = *Next;
  }
  // `#pragma unroll N` below the trip count leaves the loop rolled.
  if (!PragmaFull && PragmaCount && *PragmaCount < int64_t(Trips))
    return false;
  // Changed nowhere but in the increment.
  auto Matches = match(
      findAll(declRefExpr(to(varDecl(equalsNode(V)))).bind("ref")), *FS, Ctx);
  for (const BoundNodes &N : Matches) {
    const auto *Ref = N.getNodeAs<DeclRefExpr>("ref");
    if (classifyVarUse(Ctx, Ref) == VarUse::Read)
      continue;
    const Stmt *Cur = Ref;
    while (Cur && Cur != FS->getInc() && Cur != FS->getInit())
      Cur = parentStmt(Ctx, Cur);
    if (!Cur)
      return false;
  }
  return true;
}

} // namespace

/// Whether \p E takes a single known value in each copy of an unrolled loop
/// body: constants and counters of fully unrolled loops, combined, and
/// local variables initialised from those and never changed (backprop's
/// `int power_two = i;` in a loop over i = 1, 2, ..., 16).
bool isUnrolledConstant(ASTContext &Ctx, const Expr *E, unsigned Depth) {
  if (Depth > 8 || E->isValueDependent())
    return false;
  E = E->IgnoreParenImpCasts();
  if (E->isIntegerConstantExpr(Ctx))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    if (isUnrolledCounter(Ctx, V, DRE))
      return true;
    return V->isLocalVarDecl() && !V->isStaticLocal() && V->getInit() &&
           V->getType()->isIntegerType() &&
           !V->getType().isVolatileQualified() && isNeverModified(Ctx, V) &&
           isUnrolledConstant(Ctx, V->getInit(), Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           isUnrolledConstant(Ctx, BO->getLHS(), Depth + 1) &&
           isUnrolledConstant(Ctx, BO->getRHS(), Depth + 1);
  return false;
}

/// Whether \p BO computes a different value in some iteration of a loop
/// that holds it. An operation whose operands no enclosing loop changes (nor
/// the memory they read) is hoisted out of the loops by the compiler (LICM;
/// checked against `nvcc -ptx`), and costs what it costs outside them.
bool variesInLoop(ASTContext &Ctx, const BinaryOperator *BO) {
  if (isa<CompoundAssignOperator>(BO))
    return isInLoop(Ctx, BO);
  SmallVector<const VarDecl *, 4> Vars;
  bool LoadsMemory = false;
  if (!operandInputs(BO->getLHS(), Vars, LoadsMemory) ||
      !operandInputs(BO->getRHS(), Vars, LoadsMemory))
    return isInLoop(Ctx, BO);
  return someLoopAround(Ctx, BO, [&](const Stmt *Loop) {
    return isa<CXXForRangeStmt>(Loop) || changesVars(Ctx, Loop, Vars) ||
           (LoadsMemory && mayWriteMemory(Loop));
  });
}

/// The statement that holds \p S, through a variable's initialiser to its
/// declaration statement.
const Stmt *enclosingStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  if (const auto *P = Parents[0].get<Stmt>())
    return P;
  if (const auto *V = Parents[0].get<VarDecl>()) {
    Parents = Ctx.getParents(*V);
    return Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  }
  return nullptr;
}

/// Whether the value of \p E is only tested against zero: a condition, an
/// operand of `!`, `&&`, `||`, or of `==`/`!=` with a literal zero.
bool onlyTestedAgainstZero(ASTContext &Ctx, const Expr *E) {
  const Stmt *Cur = E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Cur);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (isa<ParenExpr>(P) ||
        (isa<ImplicitCastExpr>(P) &&
         cast<ImplicitCastExpr>(P)->getCastKind() != CK_LValueToRValue)) {
      Cur = P;
      continue;
    }
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getCond() == Cur;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getCond() == Cur;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getCond() == Cur;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getCond() == Cur;
    if (const auto *CO = dyn_cast<ConditionalOperator>(P))
      return CO->getCond() == Cur;
    if (const auto *UO = dyn_cast<UnaryOperator>(P))
      return UO->getOpcode() == UO_LNot;
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp())
        return true;
      if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE)
        return false;
      const Expr *Other = BO->getLHS() == Cur ? BO->getRHS() : BO->getLHS();
      std::optional<llvm::APSInt> Z = Other->isValueDependent()
                                          ? std::nullopt
                                          : Other->getIntegerConstantExpr(Ctx);
      return Z && Z->isZero();
    }
    return false;
  }
}

/// Whether \p E is a signed product by a constant that \p Divisor divides
/// (`j * 128` divided by 4): signed overflow is undefined, so the compiler
/// folds `(j * 128) / 4` into `j * 32` and `(j * 128) % 4` into 0 (checked
/// against `nvcc -ptx`: one `shl.b32` by 5, no rounding fix-up).
bool isSignedMultipleOf(ASTContext &Ctx, const Expr *E,
                        const llvm::APSInt &Divisor) {
  const auto *Mul = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != BO_Mul ||
      !Mul->getType()->isSignedIntegerType() || Mul->isValueDependent())
    return false;
  // Only a widening or no conversion between the product and the division
  // keeps the product's `nsw`.
  if (Ctx.getTypeSize(E->getType()) < Ctx.getTypeSize(Mul->getType()) ||
      !E->getType()->isSignedIntegerType())
    return false;
  for (const Expr *Side : {Mul->getLHS(), Mul->getRHS()}) {
    std::optional<llvm::APSInt> C = Side->getIntegerConstantExpr(Ctx);
    if (!C || C->isNegative() || Divisor.isNegative() || Divisor.isZero())
      continue;
    if (C->getZExtValue() % Divisor.getZExtValue() == 0)
      return true;
  }
  return false;
}

/// Whether \p S is in a branch of an `if constexpr` whose condition depends
/// on a template parameter: each instantiation keeps the branch or discards
/// it, and the instantiations are analysed on their own.
bool inDependentConstexprBranch(ASTContext &Ctx, const Stmt *S) {
  for (const Stmt *Cur = S, *P = enclosingStmt(Ctx, S); P;
       Cur = P, P = enclosingStmt(Ctx, P)) {
    if (isa<LambdaExpr>(P))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      if (If->isConstexpr() && Cur != If->getCond() && If->getCond() &&
          If->getCond()->isValueDependent())
        return true;
  }
  return false;
}

} // namespace clang::tidy::cuda::integer_division
