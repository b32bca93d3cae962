//===--- LoopWork.cpp - cuda-lint -----------------------------------------===//
//
// The work of a loop's iteration (LoopWork.h).
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/LoopWork.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/GridStrideLoops.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include <algorithm>
#include <functional>

namespace clang::tidy::cuda {

namespace {

/// Units: see LoopWork.h.
constexpr unsigned OpaqueCall = 8, Atomic = 10, UnknownTrips = 8,
                   MostTrips = 64;

/// The constant trip count of `for (int i = A; i < B; ++i)` (see
/// forLoopSpan), at most MostTrips, or nullopt.
std::optional<unsigned> constantTrips(ASTContext &Ctx, const ForStmt &For) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For.getInit());
  const auto *V = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!V)
    return std::nullopt;
  std::optional<LoopSpan> Span = forLoopSpan(
      For, V, V->getInit(), For.getInc(),
      [&](const Expr *E) -> std::optional<int64_t> {
        if (E->isValueDependent())
          return std::nullopt;
        if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
          return C->getExtValue();
        return std::nullopt;
      });
  if (!Span)
    return std::nullopt;
  int64_t N = (Span->Last - Span->First) / Span->Step + 1;
  return static_cast<unsigned>(std::clamp<int64_t>(N, 0, MostTrips));
}

} // namespace

unsigned estimatedWork(ASTContext &Ctx, const Stmt *S, const Stmt *Except,
                       unsigned Depth) {
  if (!S)
    return 0;
  unsigned Own = 0;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
    // One iteration: the body, the condition and the increment.
    unsigned Iteration = 0;
    for (const Stmt *C : S->children())
      if (!isa_and_nonnull<DeclStmt>(C) || C == loopBody(S))
        Iteration += estimatedWork(Ctx, C, Except, Depth);
    unsigned Trips = UnknownTrips;
    if (const auto *For = dyn_cast<ForStmt>(S))
      if (std::optional<unsigned> T = constantTrips(Ctx, *For))
        Trips = *T;
    return Iteration * Trips;
  }
  // `threadIdx.x` and the other built-in variables: a special register
  // read (their semantic form is a call, not counted as one).
  if (isa<PseudoObjectExpr>(S))
    return 1;
  if (S != Except) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      // An integer division counts as one: the loop's other divisions are
      // findings of their own, which must not hide each other.
      if (BO->getOpcode() != BO_Assign && BO->getOpcode() != BO_Comma)
        Own = 1;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      Own = UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Plus ? 0 : 1;
    } else if (isa<ArraySubscriptExpr, ConditionalOperator>(S) ||
               (isa<MemberExpr>(S) && cast<MemberExpr>(S)->isArrow())) {
      Own = 1;
    } else if (const auto *Cast = dyn_cast<CastExpr>(S)) {
      CastKind K = Cast->getCastKind();
      Own = K == CK_IntegralToFloating || K == CK_FloatingToIntegral ||
                    K == CK_FloatingCast
                ? 1
                : 0;
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (isAtomicFunction(F))
        Own = Atomic;
      else if (F && F->getBody() && Depth < 2)
        Own = estimatedWork(Ctx, F->getBody(), nullptr, Depth + 1);
      else
        Own = OpaqueCall;
    }
  }
  unsigned Sum = Own;
  for (const Stmt *C : S->children())
    Sum += estimatedWork(Ctx, C, Except, Depth);
  return Sum;
}

std::optional<LoopWork>
workBeside(ASTContext &Ctx, const Expr &E,
           llvm::function_ref<bool(const Expr &)> IsAlike) {
  const FunctionDecl *FD = enclosingFunction(Ctx, E);
  DynTypedNode Cur = DynTypedNode::create(E);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return std::nullopt;
    const Stmt *Child = Cur.get<Stmt>();
    Cur = Parents[0];
    const auto *P = Cur.get<Stmt>();
    if (!P || !isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      continue;
    // A `for` initialiser runs once.
    if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (Child == For->getInit())
        continue;
      if (FD && isKernel(FD) && runsOncePerThread(Ctx, *FD, *For))
        continue;
    }
    LoopWork Result;
    for (const Stmt *C : P->children())
      if (!isa_and_nonnull<DeclStmt>(C) || C == loopBody(P))
        Result.Work += estimatedWork(Ctx, C, &E);
    std::function<void(const Stmt *)> Count = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *X = dyn_cast<Expr>(S); X && X != &E && IsAlike(*X))
        ++Result.Alike;
      for (const Stmt *C : S->children())
        Count(C);
    };
    Count(P);
    return Result;
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda
