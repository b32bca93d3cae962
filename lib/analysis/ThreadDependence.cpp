//===--- ThreadDependence.cpp - cuda-lint ---------------------------------===//

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

namespace {

/// Calls whose result differs between threads even with uniform arguments.
bool returnsPerThreadValue(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  return Name.starts_with("__shfl") || Name.starts_with("atomic") ||
         Name.starts_with("__nvvm_shfl") ||
         Name.starts_with("__nvvm_read_ptx_sreg_tid") ||
         Name.starts_with("__nvvm_read_ptx_sreg_laneid") ||
         Name == "__lane_id" || Name == "clock" || Name == "clock64" ||
         Name == "__match_any_sync" || Name == "curand" ||
         Name == "curand_uniform";
}

/// The local variable (or parameter) that an assignment to \p LHS writes:
/// `x`, `x[i]`, `x.f`, `x[i].f`.
const VarDecl *assignedLocal(const Expr *LHS) {
  while (LHS) {
    LHS = LHS->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && VD->hasLocalStorage() ? VD : nullptr;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS)) {
      // Writing a local array element; a pointer base writes memory.
      if (!ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return nullptr;
      LHS = ASE->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(LHS)) {
      if (ME->isArrow())
        return nullptr;
      LHS = ME->getBase();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

using Definition = ThreadDependence::Definition;

/// Whether \p S holds a `continue` of the loop whose body it is.
bool continues(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(),
                      [](const Stmt *C) { return continues(C); });
}

/// `x = E` of the whole variable: its old value does not count.
bool wholeVariable(const Expr *LHS) {
  return isa<DeclRefExpr>(LHS->IgnoreParenImpCasts());
}

void collect(const Stmt *S, llvm::SmallVectorImpl<Definition> &Defs,
             llvm::SmallVectorImpl<const ReturnStmt *> &Returns) {
  if (!S)
    return;
  if (isa<LambdaExpr>(S))
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->hasLocalStorage() && VD->getInit())
          Defs.push_back({VD, VD->getInit(), nullptr, S});
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *VD = assignedLocal(BO->getLHS()))
        Defs.push_back(
            {VD, BO->getRHS(),
             BO->getOpcode() == BO_Assign && wholeVariable(BO->getLHS())
                 ? nullptr
                 : BO->getLHS(),
             S});
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (const VarDecl *VD = assignedLocal(UO->getSubExpr()))
        Defs.push_back({VD, nullptr, UO->getSubExpr(), S});
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      if (const VarDecl *VD = assignedLocal(Op->getArg(0)))
        Defs.push_back(
            {VD, Op->getArg(1),
             Op->getOperator() == OO_Equal && wholeVariable(Op->getArg(0))
                 ? nullptr
                 : Op->getArg(0),
             S});
  } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    Returns.push_back(RS);
  }
  for (const Stmt *Child : S->children())
    collect(Child, Defs, Returns);
}

} // namespace

ThreadDependence::ThreadDependence(const FunctionDecl &FD, ASTContext &Ctx,
                                   Scope Level,
                                   std::optional<int64_t> LaunchedX,
                                   bool ParamsDependent, unsigned CallDepth,
                                   bool AssumeMultiples)
    : Ctx(Ctx), Function(FD), Level(Level), LaunchedX(LaunchedX),
      AssumeMultiples(AssumeMultiples), ParamsDependent(ParamsDependent),
      CallDepth(CallDepth) {
  collect(FD.getBody(), Defs, Returns);
  for (const auto &[I, D] : llvm::enumerate(Defs)) {
    if (!isa<DeclStmt>(D.At))
      Reassigned.insert(D.Var);
    DefsOf[D.Var].push_back(I);
  }
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (isa<GotoStmt, IndirectGotoStmt, LabelStmt, SwitchStmt>(S))
      HasJumps = true;
    for (const Stmt *Child : S->children())
      if (Child) {
        Parents[Child] = S;
        Walk(Child);
      }
  };
  if (FD.getBody())
    Walk(FD.getBody());
  // Iterate to a fixed point: each round can only add definitions. A use
  // of a variable is thread-dependent when a thread-dependent definition of
  // it may reach the use.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const auto &[I, D] : llvm::enumerate(Defs)) {
      auto LoopOnly = LoopOnlyDefs.find(I);
      if (DependentDefs.contains(I) && LoopOnly == LoopOnlyDefs.end())
        continue;
      std::optional<llvm::SmallVector<const Stmt *, 2>> Loops =
          dependentLoopsOf(I);
      if (Loops && Loops->empty())
        continue;
      if (LoopOnly != LoopOnlyDefs.end()) {
        if (Loops && *Loops == LoopOnly->second)
          continue;
        LoopOnlyDefs.erase(LoopOnly);
      }
      if (Loops)
        LoopOnlyDefs[I] = *Loops;
      DependentDefs.insert(I);
      DependentVars.insert(D.Var);
      Changed = true;
    }
  }
}

std::optional<llvm::SmallVector<const Stmt *, 2>>
ThreadDependence::dependentLoopsOf(unsigned I) const {
  const Definition &D = Defs[I];
  if (isDependent(D.Value) || isDependent(D.Target))
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 2> Loops;
  const Stmt *At = D.At;
  while (const Expr *Cond = dependentCondition(*At, D.Var)) {
    const Stmt *P = Parents.lookup(Cond);
    if (!P || !isa<ForStmt, WhileStmt, DoStmt>(P))
      return std::nullopt;
    Loops.push_back(P);
    At = P;
  }
  return Loops;
}

bool ThreadDependence::killedWithin(const DeclRefExpr *DRE,
                                    const Stmt *Loop) const {
  if (!reaching(DRE))
    return false;
  // Strictly inside: a loop that is itself the killing statement (its init
  // assigns the variable) precedes the use.
  const Stmt *Kill = KillCache.lookup(DRE);
  for (const Stmt *X = Kill ? Parents.lookup(Kill) : nullptr; X;
       X = Parents.lookup(X))
    if (X == Loop)
      return true;
  return false;
}

bool ThreadDependence::mustDefine(const Stmt *S, const VarDecl *V) const {
  if (!S)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  auto isV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->getOpcode() == BO_Assign && isV(BO->getLHS());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
           isV(Op->getArg(0));
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return llvm::is_contained(DS->decls(), V);
  if (const auto *For = dyn_cast<ForStmt>(S))
    return mustDefine(For->getInit(), V);
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(CS->body(),
                        [&](const Stmt *C) { return mustDefine(C, V); });
  return false;
}

void ThreadDependence::addDefinitionsIn(
    const Stmt *S, const VarDecl *V,
    llvm::SmallVectorImpl<unsigned> &Out) const {
  auto It = DefsOf.find(V);
  if (It == DefsOf.end())
    return;
  for (unsigned I : It->second) {
    for (const Stmt *X = Defs[I].At; X; X = Parents.lookup(X))
      if (X == S) {
        if (!llvm::is_contained(Out, I))
          Out.push_back(I);
        break;
      }
  }
}

const llvm::SmallVector<unsigned, 4> *
ThreadDependence::reaching(const DeclRefExpr *DRE) const {
  auto Cached = ReachingCache.find(DRE);
  if (Cached != ReachingCache.end())
    return Cached->second ? &*Cached->second : nullptr;
  std::optional<llvm::SmallVector<unsigned, 4>> &Result = ReachingCache[DRE];
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (HasJumps || !V || !Parents.count(DRE))
    return nullptr;
  // Structured code: walk out from the use. In a statement list, the
  // statements before it define what reaches it, back to one that surely
  // assigns the variable; around a loop, every definition in the loop may
  // come round its back edge, unless the loop's init assigns it first.
  llvm::SmallVector<unsigned, 4> Out;
  const Stmt *Cur = DRE;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    if (isa<LambdaExpr>(P))
      return nullptr;
    if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (Cur == For->getInit())
        continue;
      addDefinitionsIn(For, V, Out);
      if (mustDefine(For->getInit(), V)) {
        KillCache[DRE] = For->getInit();
        Result = Out;
        return &*Result;
      }
      continue;
    }
    // The condition of a do-while follows its whole body: what the body
    // assigns last reaches it.
    if (const auto *Do = dyn_cast<DoStmt>(P);
        Do && Cur == Do->getCond() && !continues(Do->getBody())) {
      if (const auto *Body = dyn_cast<CompoundStmt>(Do->getBody()))
        for (const Stmt *Sib : llvm::reverse(Body->body())) {
          addDefinitionsIn(Sib, V, Out);
          if (mustDefine(Sib, V)) {
            KillCache[DRE] = Sib;
            Result = Out;
            return &*Result;
          }
        }
    }
    if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(P)) {
      addDefinitionsIn(P, V, Out);
      continue;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      auto Body = CS->body();
      const auto *Pos = llvm::find(Body, Cur);
      while (Pos != Body.begin()) {
        const Stmt *Sib = *--Pos;
        addDefinitionsIn(Sib, V, Out);
        if (mustDefine(Sib, V)) {
          KillCache[DRE] = Sib;
          Result = Out;
          return &*Result;
        }
      }
    }
  }
  Result = Out;
  return &*Result;
}

bool ThreadDependence::isLinearThreadIndex(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    const auto *Prop =
        dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
    if (!Prop || Prop->getPropertyDecl()->getName() != "x")
      return false;
    const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
      Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Base);
    return DRE && DRE->getDecl()->getName() == "threadIdx";
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
           VD->getInit() && !Reassigned.contains(VD) &&
           isLinearThreadIndex(VD->getInit());
  }
  return false;
}

/// The variable a non-parameter local \p E names, when it is never assigned
/// after its initialiser.
static const VarDecl *
unchangedLocal(const Expr *E,
               const llvm::DenseSet<const VarDecl *> &Reassigned) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit() ||
      Reassigned.contains(VD) || VD->getType()->isReferenceType())
    return nullptr;
  return VD;
}

/// `threadIdx.x` (or `.y`, `.z`): \p Name is the component.
static bool isThreadIdxComponent(const Expr *E, llvm::StringRef Name,
                                 llvm::StringRef Builtin = "threadIdx") {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E->IgnoreParenImpCasts());
  if (!POE)
    return false;
  const auto *Prop =
      dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!Prop || Prop->getPropertyDecl()->getName() != Name)
    return false;
  const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  return DRE && DRE->getDecl()->getName() == Builtin;
}

bool ThreadDependence::isMultipleOf32(const Expr *E, unsigned Depth) const {
  if (!E || Depth > 8 || E->isValueDependent() || isDependent(E))
    return false;
  E = E->IgnoreParenImpCasts();
  if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
    return !C->isNegative() && C->getZExtValue() % 32 == 0;
  if (isThreadIdxComponent(E, "x", "blockDim"))
    return LaunchedX && *LaunchedX % 32 == 0;
  if (const VarDecl *VD = unchangedLocal(E, Reassigned))
    return isMultipleOf32(VD->getInit(), Depth + 1);
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
    return isMultipleOf32(CE->getSubExpr(), Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Mul:
      return isMultipleOf32(BO->getLHS(), Depth + 1) ||
             isMultipleOf32(BO->getRHS(), Depth + 1);
    case BO_Add:
    case BO_Sub:
      return isMultipleOf32(BO->getLHS(), Depth + 1) &&
             isMultipleOf32(BO->getRHS(), Depth + 1);
    case BO_Shl:
      if (BO->getRHS()->isValueDependent())
        return false;
      if (std::optional<llvm::APSInt> K =
              BO->getRHS()->getIntegerConstantExpr(Ctx))
        return (!K->isNegative() && K->getZExtValue() >= 5) ||
               isMultipleOf32(BO->getLHS(), Depth + 1);
      return isMultipleOf32(BO->getLHS(), Depth + 1);
    default:
      return false;
    }
  }
  return false;
}

bool ThreadDependence::isWarpAlignedIndex(const Expr *E, unsigned Depth) const {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isLinearThreadIndex(E))
    return true;
  if (const VarDecl *VD = unchangedLocal(E, Reassigned))
    return isWarpAlignedIndex(VD->getInit(), Depth + 1);
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
    return isWarpAlignedIndex(CE->getSubExpr(), Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  return (isWarpAlignedIndex(BO->getLHS(), Depth + 1) &&
          isMultipleOf32(BO->getRHS())) ||
         (isWarpAlignedIndex(BO->getRHS(), Depth + 1) &&
          isMultipleOf32(BO->getLHS()));
}

/// \p E with unchanged locals replaced by their initialisers.
static const Expr *
resolveLocals(const Expr *E,
              const llvm::DenseSet<const VarDecl *> &Reassigned) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      E = CE->getSubExpr();
      continue;
    }
    const VarDecl *VD = unchangedLocal(E, Reassigned);
    if (!VD)
      return E;
    E = VD->getInit();
  }
  return E;
}

/// The factors of a product, through unchanged locals.
static void factors(const Expr *E,
                    const llvm::DenseSet<const VarDecl *> &Reassigned,
                    const ASTContext &Ctx,
                    llvm::SmallVectorImpl<const Expr *> &Out,
                    unsigned Depth = 0) {
  E = resolveLocals(E, Reassigned);
  // A constant is one factor (`16 * 32`, a `const` local holding it).
  const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
  if (BO && BO->getOpcode() == BO_Mul && Depth < 8 &&
      (BO->isValueDependent() || !BO->isIntegerConstantExpr(Ctx))) {
    factors(BO->getLHS(), Reassigned, Ctx, Out, Depth + 1);
    factors(BO->getRHS(), Reassigned, Ctx, Out, Depth + 1);
    return;
  }
  if (E)
    Out.push_back(E);
}

bool ThreadDependence::hasUniformTripCount(const ForStmt &For,
                                           const Expr **UnlessMultiple,
                                           const Expr **StepOut) const {
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT || Cond->isValueDependent())
    return false;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || !V->getType()->isIntegerType())
    return false;
  // The start: `int i = t` or `i = t` in the init.
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For.getInit());
      DS && DS->isSingleDecl() && DS->getSingleDecl() == V)
    Start = V->getInit();
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For.getInit());
           BO && BO->getOpcode() == BO_Assign && mustDefine(BO, V))
    Start = BO->getRHS();
  // The step: `i += S`.
  const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(For.getInc());
  if (!Start || !Inc || Inc->getOpcode() != BO_AddAssign ||
      !isa<DeclRefExpr>(Inc->getLHS()->IgnoreParenImpCasts()) ||
      cast<DeclRefExpr>(Inc->getLHS()->IgnoreParenImpCasts())->getDecl() != V)
    return false;
  const Expr *Step = Inc->getRHS();
  const Expr *Bound = Cond->getRHS();
  if (isDependent(Step) || isDependent(Bound))
    return false;
  // Nothing else in the loop assigns the counter.
  auto It = DefsOf.find(V);
  if (It != DefsOf.end())
    for (unsigned I : It->second)
      for (const Stmt *X = Defs[I].At; X; X = Parents.lookup(X))
        if (X == For.getBody() || X == For.getCond())
          return false;
  // The bound is a multiple of the step.
  auto Same = [&](const Expr *A, const Expr *B) {
    A = resolveLocals(A, Reassigned);
    B = resolveLocals(B, Reassigned);
    if (!A || !B || A->isValueDependent() || B->isValueDependent())
      return false;
    std::optional<llvm::APSInt> CA = A->getIntegerConstantExpr(Ctx);
    std::optional<llvm::APSInt> CB = B->getIntegerConstantExpr(Ctx);
    if (CA || CB)
      return CA && CB && llvm::APSInt::isSameValue(*CA, *CB);
    llvm::FoldingSetNodeID IA, IB;
    A->Profile(IA, Ctx, /*Canonical=*/true);
    B->Profile(IB, Ctx, /*Canonical=*/true);
    return IA == IB;
  };
  llvm::SmallVector<const Expr *, 4> BoundFactors, StepFactors;
  factors(Bound, Reassigned, Ctx, BoundFactors);
  factors(Step, Reassigned, Ctx, StepFactors);
  // Constant factors are compared by their product (`SDIV(n, W * 32) * W *
  // 32` is a multiple of a step `W * 32` folded into 512), the others one by
  // one.
  auto ConstantOf = [&](const Expr *F) -> std::optional<int64_t> {
    const Expr *R = resolveLocals(F, Reassigned);
    if (!R || R->isValueDependent())
      return std::nullopt;
    std::optional<llvm::APSInt> C = R->getIntegerConstantExpr(Ctx);
    if (!C || C->getSignificantBits() > 32)
      return std::nullopt;
    return C->getExtValue();
  };
  int64_t BoundConst = 1, StepConst = 1;
  bool Multiple = true;
  for (const Expr *F : StepFactors) {
    if (std::optional<int64_t> C = ConstantOf(F)) {
      StepConst *= *C;
      continue;
    }
    const auto *Match =
        llvm::find_if(BoundFactors, [&](const Expr *B) { return Same(B, F); });
    if (Match == BoundFactors.end()) {
      Multiple = false;
      continue;
    }
    BoundFactors.erase(Match);
  }
  for (const Expr *F : BoundFactors)
    if (std::optional<int64_t> C = ConstantOf(F))
      if (BoundConst <= (int64_t(1) << 32))
        BoundConst *= *C;
  if (StepConst <= 0 || BoundConst % StepConst != 0)
    Multiple = false;
  if (!Multiple && !UnlessMultiple && !AssumeMultiples)
    return false;
  // 0 <= start < step.
  auto IsBuiltin = [](const Expr *E, llvm::StringRef Builtin) {
    return isThreadIdxComponent(E, "x", Builtin);
  };
  const Expr *S = resolveLocals(Start, Reassigned);
  if (isLinearThreadIndex(S)) {
    std::optional<llvm::APSInt> C =
        StepFactors.size() == 1 && !Step->isValueDependent()
            ? StepFactors[0]->getIntegerConstantExpr(Ctx)
            : std::nullopt;
    bool BlockStride =
        llvm::any_of(StepFactors,
                     [&](const Expr *F) { return IsBuiltin(F, "blockDim"); }) ||
        (C && LaunchedX && C->getExtValue() >= *LaunchedX);
    if (BlockStride && !Multiple) {
      // A bound that is not a constant: uniform if it is a multiple.
      if (Bound->isValueDependent() || Bound->isIntegerConstantExpr(Ctx))
        return false;
      if (AssumeMultiples) {
        Assumed.insert(&For);
        return true;
      }
      if (UnlessMultiple) {
        *UnlessMultiple = Bound;
        if (StepOut)
          *StepOut = Step;
      }
      return false;
    }
    return BlockStride;
  }
  if (!Multiple)
    return false;
  // blockIdx.x * blockDim.x + threadIdx.x < gridDim.x * blockDim.x.
  const auto *Sum = dyn_cast_or_null<BinaryOperator>(S);
  if (!Sum || Sum->getOpcode() != BO_Add)
    return false;
  const Expr *Base = isLinearThreadIndex(Sum->getLHS())   ? Sum->getRHS()
                     : isLinearThreadIndex(Sum->getRHS()) ? Sum->getLHS()
                                                          : nullptr;
  llvm::SmallVector<const Expr *, 2> BaseFactors;
  factors(Base, Reassigned, Ctx, BaseFactors);
  auto Has = [](llvm::ArrayRef<const Expr *> Fs, llvm::StringRef B) {
    return llvm::any_of(
        Fs, [&](const Expr *F) { return isThreadIdxComponent(F, "x", B); });
  };
  return Base && BaseFactors.size() == 2 && Has(BaseFactors, "blockIdx") &&
         Has(BaseFactors, "blockDim") && Has(StepFactors, "gridDim") &&
         Has(StepFactors, "blockDim");
}

bool ThreadDependence::isWarpUniform(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // A warp-aligned index against a multiple of 32: `idx < 32 * k` holds
    // in all lanes of a warp or in none.
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_LT || Op == BO_GE)
      return isWarpAlignedIndex(BO->getLHS()) && isMultipleOf32(BO->getRHS());
    if (Op == BO_GT || Op == BO_LE)
      return isWarpAlignedIndex(BO->getRHS()) && isMultipleOf32(BO->getLHS());
    if (BO->getRHS()->isValueDependent())
      return false;
    std::optional<llvm::APSInt> C = BO->getRHS()->getIntegerConstantExpr(Ctx);
    if (!C || C->isNegative())
      return false;
    uint64_t V = C->getZExtValue();
    bool WarpIndex =
        (Op == BO_Div && V > 0 && V % 32 == 0) || (Op == BO_Shr && V >= 5);
    return WarpIndex && isWarpAlignedIndex(BO->getLHS());
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  if (llvm::is_contained({"__any", "__all", "__ballot", "__any_sync",
                          "__all_sync", "__ballot_sync", "__activemask"},
                         Name))
    return true;
  // A broadcast: every lane reads the same (warp-uniform) source lane.
  unsigned Lane = Name == "__shfl" ? 1 : Name == "__shfl_sync" ? 2 : 0;
  if (!Lane || Call->getNumArgs() <= Lane)
    return false;
  if (Call->getNumArgs() > Lane + 1 &&
      !isa<CXXDefaultArgExpr>(Call->getArg(Lane + 1))) {
    if (Call->getArg(Lane + 1)->isValueDependent())
      return false;
    std::optional<llvm::APSInt> Width =
        Call->getArg(Lane + 1)->getIntegerConstantExpr(Ctx);
    if (!Width || Width->getExtValue() < 32)
      return false;
  }
  return !isDependent(Call->getArg(Lane));
}

bool ThreadDependence::isZeroThreadQuotient(const Expr *E) const {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!LaunchedX || !BO ||
      (BO->getOpcode() != BO_Div && BO->getOpcode() != BO_Shr) ||
      BO->getRHS()->isValueDependent() || !isLinearThreadIndex(BO->getLHS()))
    return false;
  std::optional<llvm::APSInt> C = BO->getRHS()->getIntegerConstantExpr(Ctx);
  if (!C || C->isNegative())
    return false;
  uint64_t V = C->getZExtValue();
  if (BO->getOpcode() == BO_Div)
    return V > 0 && static_cast<uint64_t>(*LaunchedX) <= V;
  return V < 32 && *LaunchedX <= (int64_t(1) << V);
}

bool ThreadDependence::returnsUniformValue(const CallExpr *Call) const {
  // A method reads its object, which may be the thread's own.
  if (CallDepth >= 2 || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
    return false;
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || FD->getReturnType()->isVoidType() || !FD->hasBody(Def) || !Def ||
      Def->isDependentContext())
    return false;
  if (auto It = UniformReturnCache.find(Def); It != UniformReturnCache.end())
    return It->second;
  UniformReturnCache[Def] = false; // Recursion.
  ThreadDependence Callee(*Def, Ctx, Level, std::nullopt,
                          /*ParamsDependent=*/true, CallDepth + 1);
  bool Uniform = !Callee.Returns.empty() && !Callee.HasJumps &&
                 llvm::all_of(Callee.Returns, [&](const ReturnStmt *RS) {
                   return RS->getRetValue() &&
                          !Callee.isDependent(RS->getRetValue()) &&
                          !Callee.dependentCondition(*RS);
                 });
  UniformReturnCache[Def] = Uniform;
  return Uniform;
}

bool ThreadDependence::isDependent(const Expr *E) const {
  if (!E)
    return false;
  if (Level == Scope::Warp && isWarpUniform(E))
    return false;
  // `threadIdx.x / 128` in blocks of at most 128 threads in x is 0.
  if (isa<BinaryOperator>(E) && isZeroThreadQuotient(E))
    return false;
  if (ParamsDependent && isa<CXXThisExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (VD->getName() == "threadIdx")
      return true;
    if (ParamsDependent && isa<ParmVarDecl>(VD))
      return true;
    if (!DependentVars.contains(VD))
      return false;
    const llvm::SmallVector<unsigned, 4> *R = reaching(DRE);
    if (!R)
      return true;
    return llvm::any_of(*R, [&](unsigned I) {
      if (!DependentDefs.contains(I))
        return false;
      auto LoopOnly = LoopOnlyDefs.find(I);
      return LoopOnly == LoopOnlyDefs.end() ||
             !llvm::all_of(LoopOnly->second, [&](const Stmt *Loop) {
               return killedWithin(DRE, Loop);
             });
    });
  }
  // At warp scope, in blocks whose x extent is a multiple of 32, a warp is
  // threads of one y and z: `threadIdx.y` is the same in all its lanes.
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E);
      POE && Level == Scope::Warp && LaunchedX && *LaunchedX % 32 == 0)
    if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(
            POE->getSyntacticForm()->IgnoreParens());
        Prop && Prop->getPropertyDecl()->getName() != "x") {
      const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
      if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
        Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
      if (const auto *D = dyn_cast<DeclRefExpr>(Base);
          D && D->getDecl()->getName() == "threadIdx")
        return false;
    }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (returnsPerThreadValue(Call->getDirectCallee()))
      return true;
    // What the callee returns, not what it is given, decides.
    if (returnsUniformValue(Call))
      return false;
  }
  if (isa<LambdaExpr>(E))
    return false;
  // `threadIdx.x` is a property access whose base is an opaque value.
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return isDependent(OVE->getSourceExpr());
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (isDependent(CE))
        return true;
  return false;
}

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
                                                 const Expr **ExitCause) const {
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
    if (isa<LambdaExpr>(P))
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
