//===--- LaunchAliasing.cpp - cuda-lint -----------------------------------===//

#include "cudalint/analysis/LaunchAliasing.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ReadOnlyPointer.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda {

namespace {

/// Launches and calls of host functions with pointer arguments (possible
/// wrappers that forward their parameters to a launch) in user code.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    Launches.push_back(Launch);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CUDAKernelCallExpr>(Call))
      return true;
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || isKernel(F) ||
        SM.isInSystemHeader(SM.getExpansionLoc(Call->getBeginLoc())) ||
        llvm::none_of(Call->arguments(), [](const Expr *A) {
          return A->getType()->isPointerType();
        }))
      return true;
    HostCalls.push_back(Call);
    return true;
  }

  const SourceManager &SM;
  llvm::SmallVector<const CallExpr *, 8> Launches;
  llvm::SmallVector<const CallExpr *, 16> HostCalls;
};

/// An expression made only of variables, members, constants, pointer
/// arithmetic, subscripts, address-of and casts: evaluated twice at the
/// same point, it gives the same value.
bool isPure(const Expr *E, int Depth = 0) {
  if (!E || Depth > 16)
    return false;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return isPure(Cast->getSubExpr(), Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<VarDecl>(DRE->getDecl()) &&
           !DRE->getType().isVolatileQualified();
  if (isa<IntegerLiteral>(E) || isa<CXXNullPtrLiteralExpr>(E))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           isPure(ME->getBase(), Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp() ||
            BO->isShiftOp()) &&
           isPure(BO->getLHS(), Depth + 1) && isPure(BO->getRHS(), Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref ||
            UO->getOpcode() == UO_Minus) &&
           isPure(UO->getSubExpr(), Depth + 1);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return isPure(ASE->getBase(), Depth + 1) &&
           isPure(ASE->getIdx(), Depth + 1);
  return false;
}

/// Whether the parameter \p P keeps its value in its function's body: every
/// use is a read.
bool isUnmodified(const ParmVarDecl *P, const FunctionDecl *F,
                  ASTContext &Ctx) {
  if (!F->getBody())
    return false;
  for (const DeclRefExpr *Ref : referencesTo(F->getBody(), P)) {
    DynTypedNodeList Parents = Ctx.getParents(*Ref);
    const auto *Cast =
        Parents.empty() ? nullptr : Parents[0].get<ImplicitCastExpr>();
    if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
      return false;
  }
  return true;
}

} // namespace

bool LaunchAliasing::samePointer(const Expr *A, const Expr *B,
                                 const ASTContext &Ctx) {
  A = A->IgnoreParenCasts();
  B = B->IgnoreParenCasts();
  if (!isPure(A) || !isPure(B))
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

LaunchAliasing::LaunchAliasing(ASTContext &Ctx) {
  Collector C(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    C.TraverseDecl(D);
  }

  llvm::DenseMap<const FunctionDecl *, SmallVector<const CallExpr *, 4>>
      CallsOf;
  for (const CallExpr *Call : C.HostCalls)
    if (const FunctionDecl *F = Call->getDirectCallee())
      CallsOf[F->getCanonicalDecl()].push_back(Call);
  using Roots = SmallVector<const ValueDecl *, 4>;
  auto Intersect = [](const Roots &A, const Roots &B) {
    return llvm::any_of(
        A, [&](const ValueDecl *D) { return llvm::is_contained(B, D); });
  };
  // The field two root sets share, when they share nothing else: the
  // same member of objects that may be different.
  auto OnlyMember = [](const Roots &A, const Roots &B) -> const FieldDecl * {
    const FieldDecl *Member = nullptr;
    for (const ValueDecl *D : A) {
      if (!llvm::is_contained(B, D))
        continue;
      const auto *F = dyn_cast<FieldDecl>(D);
      if (!F)
        return nullptr;
      Member = F;
    }
    return Member;
  };
  for (const CallExpr *Launch : C.Launches) {
    const FunctionDecl *Callee = Launch->getDirectCallee();
    if (!Callee)
      continue;
    unsigned N = std::min(Launch->getNumArgs(), Callee->getNumParams());
    SmallVector<Roots, 8> ArgRoots(N);
    for (unsigned I = 0; I < N; ++I)
      if (Launch->getArg(I)->getType()->isPointerType())
        pointerRoots(Launch->getArg(I), ArgRoots[I]);
    llvm::SmallVector<std::pair<unsigned, unsigned>, 4> Direct;
    for (unsigned I = 0; I < N; ++I)
      for (unsigned J = I + 1; J < N; ++J)
        if (Intersect(ArgRoots[I], ArgRoots[J])) {
          Direct.push_back({I, J});
          bool Same = samePointer(Launch->getArg(I), Launch->getArg(J), Ctx);
          // The same pointer twice aliases whole, not through a member.
          Pairs.push_back(
              {Callee, Launch, I, J, nullptr, nullptr, Same,
               Same ? nullptr : OnlyMember(ArgRoots[I], ArgRoots[J])});
        }

    // The launch's enclosing host function, when it forwards parameters.
    const FunctionDecl *Host = enclosingFunction(Ctx, *Launch);
    if (!Host || !llvm::any_of(ArgRoots, [&](const Roots &R) {
          return llvm::any_of(R, [&](const ValueDecl *D) {
            const auto *P = dyn_cast<ParmVarDecl>(D);
            return P && P->getDeclContext() == Host;
          });
        }))
      continue;
    // The argument a launch argument is at the call of the wrapper, when it
    // is exactly one of the wrapper's parameters, never changed.
    SmallVector<const ParmVarDecl *, 8> Forwarded(N, nullptr);
    for (unsigned I = 0; I < N; ++I) {
      const auto *DRE =
          dyn_cast<DeclRefExpr>(Launch->getArg(I)->IgnoreParenCasts());
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      if (P && P->getDeclContext() == Host && isUnmodified(P, Host, Ctx))
        Forwarded[I] = P;
    }
    for (const CallExpr *Call : CallsOf.lookup(Host->getCanonicalDecl())) {
      SmallVector<Roots, 8> Substituted(N);
      for (unsigned I = 0; I < N; ++I)
        for (const ValueDecl *D : ArgRoots[I]) {
          const auto *P = dyn_cast<ParmVarDecl>(D);
          if (!P || P->getDeclContext() != Host) {
            Substituted[I].push_back(D);
            continue;
          }
          unsigned Index = P->getFunctionScopeIndex();
          if (Index < Call->getNumArgs())
            pointerRoots(Call->getArg(Index), Substituted[I]);
        }
      auto ArgOf = [&](unsigned I) -> const Expr * {
        unsigned Index = Forwarded[I]->getFunctionScopeIndex();
        return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
      };
      for (unsigned I = 0; I < N; ++I)
        for (unsigned J = I + 1; J < N; ++J)
          if (!llvm::is_contained(Direct, std::make_pair(I, J)) &&
              Intersect(Substituted[I], Substituted[J])) {
            bool Same = Forwarded[I] && Forwarded[J] && ArgOf(I) && ArgOf(J) &&
                        samePointer(ArgOf(I), ArgOf(J), Ctx);
            Pairs.push_back(
                {Callee, Launch, I, J, Host, Call, Same,
                 Same ? nullptr : OnlyMember(Substituted[I], Substituted[J])});
          }
    }
  }
}

} // namespace clang::tidy::cuda
