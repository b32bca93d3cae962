//===--- GridStrideLoops.cpp - cuda-lint ----------------------------------===//

#include "cudalint/analysis/GridStrideLoops.h"
#include "cudalint/analysis/LaunchArguments.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda {

namespace {

bool isSymbol(const Expr *E, IndexSymbol::SymbolKind K) {
  std::optional<IndexSymbol> S = ThreadIndexAnalysis::builtinSymbol(E);
  return S && S->Kind == K && S->Dim == 0;
}

/// \p E, or the initialiser of the local it names when that local is never
/// assigned after it (`int idx = ...; for (int i = idx; ...)`).
const Expr *valueOf(const Expr *E, const Stmt *Body) {
  E = E->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      warpsync::Analysis::assignedIn(Body, V))
    return E;
  return V->getInit()->IgnoreParenImpCasts();
}

/// `A * B` in either order, with \p IsA and \p IsB.
template <typename PA, typename PB>
bool product(const Expr *E, PA IsA, PB IsB) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Mul)
    return false;
  return (IsA(BO->getLHS()) && IsB(BO->getRHS())) ||
         (IsA(BO->getRHS()) && IsB(BO->getLHS()));
}

/// blockIdx.x * blockDim.x + threadIdx.x, in any order.
bool globalIndex(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  auto Base = [](const Expr *X) {
    return product(
        X, [](const Expr *Y) { return isSymbol(Y, IndexSymbol::BlockIdx); },
        [](const Expr *Y) { return isSymbol(Y, IndexSymbol::BlockDim); });
  };
  auto Tid = [](const Expr *X) { return isSymbol(X, IndexSymbol::ThreadIdx); };
  return (Base(BO->getLHS()) && Tid(BO->getRHS())) ||
         (Base(BO->getRHS()) && Tid(BO->getLHS()));
}

/// blockDim.x * gridDim.x, in either order.
bool gridStride(const Expr *E) {
  return product(
      E, [](const Expr *Y) { return isSymbol(Y, IndexSymbol::BlockDim); },
      [](const Expr *Y) { return isSymbol(Y, IndexSymbol::GridDim); });
}

} // namespace

const ParmVarDecl *gridStrideBound(const FunctionDecl &Kernel,
                                   const ForStmt &Loop) {
  const Stmt *Body = Kernel.getBody();
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop.getInit());
  const auto *I = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!Body || !I || !I->getInit() || !globalIndex(valueOf(I->getInit(), Body)))
    return nullptr;
  auto isI = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == I;
  };
  // i < n, n a parameter of the kernel.
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(Loop.getCond()->IgnoreParenImpCasts());
  if (!Cond || Cond->getOpcode() != BO_LT || !isI(Cond->getLHS()))
    return nullptr;
  const auto *N = dyn_cast<DeclRefExpr>(Cond->getRHS()->IgnoreParenImpCasts());
  const auto *P = N ? dyn_cast<ParmVarDecl>(N->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != &Kernel)
    return nullptr;
  // i += blockDim.x * gridDim.x, or i = i + that.
  const auto *Inc =
      dyn_cast_or_null<BinaryOperator>(Loop.getInc()->IgnoreParenImpCasts());
  if (!Inc || !isI(Inc->getLHS()))
    return nullptr;
  const Expr *Step = nullptr;
  if (Inc->getOpcode() == BO_AddAssign) {
    Step = Inc->getRHS();
  } else if (const auto *Sum =
                 dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParenImpCasts());
             Inc->getOpcode() == BO_Assign && Sum &&
             Sum->getOpcode() == BO_Add && isI(Sum->getLHS())) {
    Step = Sum->getRHS();
  }
  if (!Step || !gridStride(valueOf(Step, Body)))
    return nullptr;
  // The body does not move i.
  return warpsync::Analysis::assignedIn(Loop.getBody(), I) ? nullptr : P;
}

namespace {

/// The answers for the translation unit being analysed: reading the
/// launches walks the whole unit, and the checks ask again for every
/// division and load in a loop. One per thread (cuda-clangd analyses files
/// on several), cleared with the impact model at each unit.
struct Answers {
  const ASTContext *Ctx = nullptr;
  llvm::DenseMap<std::pair<const FunctionDecl *, const ParmVarDecl *>, bool>
      Covers;
};

Answers &answers() {
  static thread_local Answers A;
  return A;
}

} // namespace

void resetGridStrideLoops() {
  answers().Covers.clear();
  answers().Ctx = nullptr;
}

bool runsOncePerThread(ASTContext &Ctx, const FunctionDecl &Kernel,
                       const ForStmt &Loop) {
  const ParmVarDecl *N = gridStrideBound(Kernel, Loop);
  if (!N)
    return false;
  Answers &A = answers();
  if (A.Ctx != &Ctx) {
    A.Covers.clear();
    A.Ctx = &Ctx;
  }
  auto [It, New] = A.Covers.try_emplace({&Kernel, N}, false);
  if (New)
    It->second = everyLaunchCoversParam(Ctx, Kernel, *N);
  return It->second;
}

} // namespace clang::tidy::cuda
