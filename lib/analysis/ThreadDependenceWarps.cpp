//===--- ThreadDependenceWarps.cpp - cuda-lint ----------------------------===//
//
// Warp-level facts for ThreadDependence (see ThreadDependence.h): linear
// thread indices, multiples of 32 and warp-aligned indices, loops with a
// uniform trip count, values uniform within a warp, and quotients that
// are 0 in every thread of the launch.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ThreadDependence.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>

namespace clang::tidy::cuda {

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
    return sameExprOrValue(Ctx, resolveLocals(A, Reassigned),
                           resolveLocals(B, Reassigned));
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

/// `blockIdx.x * blockDim.x + threadIdx.x` (either order of either
/// operator), or an unchanged local initialised with it.
static bool
isGlobalLinearIndex(const Expr *E,
                    const llvm::DenseSet<const VarDecl *> &Reassigned,
                    unsigned Depth = 0) {
  if (Depth > 4)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const VarDecl *VD = unchangedLocal(E, Reassigned))
    return isGlobalLinearIndex(VD->getInit(), Reassigned, Depth + 1);
  const auto *Add = dyn_cast<BinaryOperator>(E);
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  auto IsBlockOffset = [](const Expr *X) {
    const auto *Mul = dyn_cast<BinaryOperator>(X->IgnoreParenImpCasts());
    if (!Mul || Mul->getOpcode() != BO_Mul)
      return false;
    const Expr *L = Mul->getLHS(), *R = Mul->getRHS();
    return (isThreadIdxComponent(L, "x", "blockIdx") &&
            isThreadIdxComponent(R, "x", "blockDim")) ||
           (isThreadIdxComponent(L, "x", "blockDim") &&
            isThreadIdxComponent(R, "x", "blockIdx"));
  };
  const Expr *L = Add->getLHS(), *R = Add->getRHS();
  return (IsBlockOffset(L) && isThreadIdxComponent(R, "x")) ||
         (IsBlockOffset(R) && isThreadIdxComponent(L, "x"));
}

bool ThreadDependence::isZeroThreadQuotient(const Expr *E) const {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!LaunchedX || *LaunchedX <= 0 || !BO ||
      (BO->getOpcode() != BO_Div && BO->getOpcode() != BO_Shr) ||
      BO->getRHS()->isValueDependent())
    return false;
  bool Local = isLinearThreadIndex(BO->getLHS());
  // `(blockIdx.x * blockDim.x + threadIdx.x) / D` where every launch's
  // blocks are B threads wide and D is a multiple of B: the B threads of a
  // block make B consecutive indices from a multiple of B, which lie within
  // one multiple of D, so they all get the same quotient.
  bool Global = !Local && isGlobalLinearIndex(BO->getLHS(), Reassigned);
  if (!Local && !Global)
    return false;
  std::optional<llvm::APSInt> C = BO->getRHS()->getIntegerConstantExpr(Ctx);
  if (!C || C->isNegative())
    return false;
  uint64_t V = C->getZExtValue();
  uint64_t X = static_cast<uint64_t>(*LaunchedX);
  if (BO->getOpcode() == BO_Shr) {
    if (V >= 32)
      return false;
    V = uint64_t(1) << V;
  }
  if (V == 0)
    return false;
  return Global ? V % X == 0 : X <= V;
}

} // namespace clang::tidy::cuda
