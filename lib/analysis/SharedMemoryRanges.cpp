//===--- SharedMemoryRanges.cpp - cuda-lint -------------------------------===//
//
// Value ranges of subscripts for cuda-shared-bank-conflict (see
// SharedMemoryBanks.h): RangeAnalysis, which bounds thread indices,
// constants, `x % M`, `x & M`, loop counters and what is built from them.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/SharedMemoryBanks.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ParentMapContext.h"
#include <algorithm>

namespace clang::tidy::cuda::banks {

//===--- Value ranges of subscripts ---------------------------------------===//

namespace {

std::optional<Range> clamp(int64_t Lo, int64_t Hi) {
  if (Lo < -(int64_t(1) << 40) || Hi > (int64_t(1) << 40))
    return std::nullopt;
  return Range{Lo, Hi};
}

bool contains(const Stmt *S, const Stmt *Needle) {
  if (!S)
    return false;
  if (S == Needle)
    return true;
  for (const Stmt *Child : S->children())
    if (contains(Child, Needle))
      return true;
  return false;
}

} // namespace

std::optional<Range> RangeAnalysis::range(const Expr *E, unsigned Depth) {
  if (!E || Depth > 16 || E->isValueDependent())
    return std::nullopt;
  std::optional<Range> R = rangeImpl(E->IgnoreParens(), Depth);
  // A value the type cannot hold wraps around: unknown.
  if (R && E->getType()->isIntegralOrEnumerationType() &&
      !fits(*R, E->getType()))
    return std::nullopt;
  return R;
}

bool RangeAnalysis::fits(const Range &R, QualType T) const {
  unsigned Width = Ctx.getIntWidth(T);
  if (Width >= 63)
    return !T->isUnsignedIntegerOrEnumerationType() || R.Lo >= 0;
  if (T->isUnsignedIntegerOrEnumerationType())
    return R.Lo >= 0 && R.Hi < (int64_t(1) << Width);
  return R.Lo >= -(int64_t(1) << (Width - 1)) &&
         R.Hi < (int64_t(1) << (Width - 1));
}

std::optional<Range> RangeAnalysis::rangeImpl(const Expr *E, unsigned Depth) {
  if (auto C = evalInt(Ctx, E))
    return Range{*C, *C};
  if (auto Sym = ThreadIndexAnalysis::builtinSymbol(E)) {
    if (Sym->Kind == IndexSymbol::ThreadIdx)
      return Range{0, B.Max[Sym->Dim] - 1};
    if (Sym->Kind == IndexSymbol::BlockDim)
      return Range{1, B.Max[Sym->Dim]};
    return std::nullopt;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (!isIntegerPassThroughCast(Cast))
      return std::nullopt;
    return range(Cast->getSubExpr(), Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binary(BO, Depth);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto T = range(CO->getTrueExpr(), Depth + 1);
    auto F = range(CO->getFalseExpr(), Depth + 1);
    if (!T || !F)
      return std::nullopt;
    return Range{std::min(T->Lo, F->Lo), std::max(T->Hi, F->Hi)};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || V->getDeclContext() != Fn || isa<ParmVarDecl>(V))
      return std::nullopt;
    if (TIA.isInductionVariable(V))
      return loopRange(V, DRE, Depth);
    if (const Expr *Def = TIA.definitionAt(V, DRE))
      return range(Def, Depth + 1);
    return loopRange(V, DRE, Depth);
  }
  return std::nullopt;
}

std::optional<Range> RangeAnalysis::binary(const BinaryOperator *BO,
                                           unsigned Depth) {
  auto L = range(BO->getLHS(), Depth + 1);
  auto R = range(BO->getRHS(), Depth + 1);
  switch (BO->getOpcode()) {
  case BO_Add:
    if (L && R)
      return clamp(L->Lo + R->Lo, L->Hi + R->Hi);
    break;
  case BO_Sub:
    if (L && R)
      return clamp(L->Lo - R->Hi, L->Hi - R->Lo);
    break;
  case BO_Mul:
    if (L && R) {
      int64_t P[] = {L->Lo * R->Lo, L->Lo * R->Hi, L->Hi * R->Lo,
                     L->Hi * R->Hi};
      return clamp(*std::min_element(std::begin(P), std::end(P)),
                   *std::max_element(std::begin(P), std::end(P)));
    }
    break;
  case BO_Rem:
    // The sign of `x % M` is the sign of x.
    if (R && R->Lo == R->Hi && R->Lo > 0) {
      int64_t M = R->Lo - 1;
      if (L && L->Lo >= 0)
        return Range{0, std::min(L->Hi, M)};
      if (BO->getType()->isUnsignedIntegerOrEnumerationType())
        return Range{0, M};
      return Range{-M, M};
    }
    break;
  case BO_And:
    // A non-negative mask bounds the result, whatever the other operand.
    if (R && R->Lo == R->Hi && R->Lo >= 0)
      return Range{0, L && L->Lo >= 0 ? std::min(L->Hi, R->Lo) : R->Lo};
    if (L && L->Lo == L->Hi && L->Lo >= 0)
      return Range{0, R && R->Lo >= 0 ? std::min(R->Hi, L->Lo) : L->Lo};
    break;
  case BO_Div:
  case BO_Shr:
    if (L && R && L->Lo >= 0 && R->Lo == R->Hi && R->Lo > 0 &&
        (BO->getOpcode() == BO_Div || R->Lo < 62)) {
      if (BO->getOpcode() == BO_Div)
        return Range{L->Lo / R->Lo, L->Hi / R->Lo};
      return Range{L->Lo >> R->Lo, L->Hi >> R->Lo};
    }
    break;
  case BO_Shl:
    if (L && R && L->Lo >= 0 && R->Lo == R->Hi && R->Lo >= 0 && R->Lo < 24)
      return clamp(L->Lo << R->Lo, L->Hi << R->Lo);
    break;
  case BO_Comma:
    return R;
  default:
    break;
  }
  return std::nullopt;
}

const ForStmt *RangeAnalysis::declaringLoop(const Stmt *S, const VarDecl *V) {
  if (!S)
    return nullptr;
  if (const auto *For = dyn_cast<ForStmt>(S))
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
      if (llvm::is_contained(DS->decls(), V))
        return For;
  for (const Stmt *Child : S->children())
    if (const ForStmt *F = declaringLoop(Child, V))
      return F;
  return nullptr;
}

/// Whether every reference to \p V in \p S only reads it.
bool RangeAnalysis::onlyReads(const Stmt *S, const VarDecl *V) {
  if (!S)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() != V || classifyVarUse(Ctx, DRE) == VarUse::Read;
  return llvm::all_of(S->children(),
                      [&](const Stmt *C) { return onlyReads(C, V); });
}

/// The innermost `for (V = A; ...)` whose body holds \p Ref and that
/// changes \p V only in its increment (a counter declared before its
/// loop), and A.
std::pair<const ForStmt *, const Expr *>
RangeAnalysis::startingLoop(const Stmt *S, const VarDecl *V,
                            const DeclRefExpr *Ref) {
  std::pair<const ForStmt *, const Expr *> Found = {nullptr, nullptr};
  if (!S)
    return Found;
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    const auto *Init = dyn_cast_or_null<BinaryOperator>(For->getInit());
    const auto *LHS =
        Init && Init->getOpcode() == BO_Assign
            ? dyn_cast<DeclRefExpr>(Init->getLHS()->IgnoreParens())
            : nullptr;
    if (LHS && LHS->getDecl() == V && contains(For->getBody(), Ref) &&
        onlyReads(For->getBody(), V) && onlyReads(For->getCond(), V) &&
        onlyReads(Init->getRHS(), V))
      Found = {For, Init->getRHS()};
  }
  for (const Stmt *Child : S->children())
    if (auto Inner = startingLoop(Child, V, Ref); Inner.first)
      return Inner;
  return Found;
}

// A counter of `for (int i = A; i < N; ++i / i += S)`, or of
// `for (i = A; ...)` that changes `i` only in its increment, read in the
// loop's body: [A, N - 1], or the last value reached for constants A, N,
// S.
std::optional<Range> RangeAnalysis::loopRange(const VarDecl *V,
                                              const DeclRefExpr *Ref,
                                              unsigned Depth) {
  const ForStmt *For = nullptr;
  const Expr *InitExpr = nullptr;
  if (TIA.isInductionVariable(V)) {
    For = declaringLoop(Fn->getBody(), V);
    InitExpr = V->getInit();
  } else {
    std::tie(For, InitExpr) = startingLoop(Fn->getBody(), V, Ref);
  }
  if (!For || !For->getCond() || !For->getInc() ||
      !contains(For->getBody(), Ref))
    return std::nullopt;
  // A negative start (`for (int j = -R; j <= R; ++j)`, a stencil's halo)
  // is as good as any: the counter's type decides whether it fits.
  auto Init = range(InitExpr, Depth + 1);
  if (!Init)
    return std::nullopt;
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParens());
  if (!Cond)
    return std::nullopt;
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  BinaryOperatorKind Op;
  const Expr *Bound = loopBound(Cond, V, Op);
  auto N = range(Bound, Depth + 1);
  if (!N)
    return std::nullopt;
  int64_t Hi = Op == BO_LT ? N->Hi - 1 : N->Hi;
  // The step: ++i, i++, i += S with a constant S > 0.
  int64_t Step = 0;
  const Expr *Inc = For->getInc()->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementOp() && IsV(UO->getSubExpr()))
      Step = 1;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
    if (BO->getOpcode() == BO_AddAssign && IsV(BO->getLHS()))
      if (auto S = evalInt(Ctx, BO->getRHS()); S && *S > 0)
        Step = *S;
  }
  if (Step == 0)
    return std::nullopt;
  if (Hi < Init->Lo)
    return Range{Init->Lo, Init->Lo}; // The body never runs.
  if (Init->Lo == Init->Hi)
    Hi = Init->Lo + (Hi - Init->Lo) / Step * Step;
  return Range{Init->Lo, Hi};
}

} // namespace clang::tidy::cuda::banks
