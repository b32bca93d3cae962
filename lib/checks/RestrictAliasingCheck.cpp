//===--- RestrictAliasingCheck.cpp - cuda-lint ----------------------------===//
//
// Kepler tuning guide 1.4.4 (read-only data cache): "the data must be
// guaranteed read-only for the duration of the kernel, as the read-only data
// cache is incoherent with respect to writes"; `const __restrict__` is the
// programmer's promise that it is. A launch that passes the same buffer to a
// `__restrict__` parameter and to a parameter the kernel writes through
// breaks that promise.
//
//===----------------------------------------------------------------------===//

#include "RestrictAliasingCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/LaunchAliasing.h"
#include "cudalint/analysis/ReadOnlyPointer.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Whether the analysis found a store through the pointer (not only an
/// escape it cannot follow): a write, an atomic, a copy destination, an asm
/// output, here or in a device function it is passed to.
bool definitelyWritten(const ReadOnlyResult &R) {
  if (R.ReadOnly)
    return false;
  StringRef Reason = R.Reason;
  while (Reason.consume_front("passed to '")) {
    size_t End = Reason.find("', where it is ");
    if (End == StringRef::npos)
      return false;
    Reason = Reason.drop_front(End + strlen("', where it is "));
  }
  return Reason.starts_with("written") || Reason.starts_with("incremented") ||
         Reason.starts_with("passed to atomic") ||
         Reason.starts_with("the destination of") ||
         Reason.starts_with("an inline asm output");
}

/// The references to the parameters and the barrier calls of a kernel.
struct Uses : RecursiveASTVisitor<Uses> {
  const ParmVarDecl *In, *Out;
  llvm::SmallVector<const DeclRefExpr *, 8> InRefs, OutRefs;
  bool Barrier = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == In)
      InRefs.push_back(E);
    else if (E->getDecl() == Out)
      OutRefs.push_back(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    StringRef Name =
        F && F->getIdentifier() ? F->getName() : StringRef("<unknown>");
    // A barrier, a grid or group sync, or a call it cannot see into.
    if (Name.contains("sync") || Name == "<unknown>" ||
        (F && !F->isDefined() && !Name.starts_with("__")))
      Barrier = true;
    return true;
  }
};

/// The subscript `p[i]` whose base is the reference \p Ref (through
/// parentheses and the implicit load of the pointer); null otherwise.
const ArraySubscriptExpr *subscriptOf(ASTContext &Ctx, const Expr *Ref) {
  const Stmt *Cur = Ref;
  DynTypedNodeList P = Ctx.getParents(*Cur);
  while (!P.empty() &&
         (P[0].get<ParenExpr>() || P[0].get<ImplicitCastExpr>())) {
    Cur = P[0].get<Stmt>();
    P = Ctx.getParents(*Cur);
  }
  const auto *ASE = P.empty() ? nullptr : P[0].get<ArraySubscriptExpr>();
  return ASE && ASE->getBase()->IgnoreParenImpCasts() == Ref ? ASE : nullptr;
}

/// How the element `p[i]` is used: 0 read, 1 written (assigned, compound
/// assigned, incremented; \p Store is then the operation, which stores when
/// it ends), -1 anything else (address taken, bound to a reference, a
/// member of it used).
int elementUse(ASTContext &Ctx, const ArraySubscriptExpr *ASE,
               const Expr **Store = nullptr) {
  const Stmt *Cur = ASE;
  DynTypedNodeList P = Ctx.getParents(*Cur);
  while (!P.empty() && P[0].get<ParenExpr>()) {
    Cur = P[0].get<Stmt>();
    P = Ctx.getParents(*Cur);
  }
  if (P.empty())
    return -1;
  if (const auto *Cast = P[0].get<ImplicitCastExpr>())
    return Cast->getCastKind() == CK_LValueToRValue ? 0 : -1;
  const Expr *Op = nullptr;
  if (const auto *BO = P[0].get<BinaryOperator>();
      BO && BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == ASE)
    Op = BO;
  if (const auto *UO = P[0].get<UnaryOperator>();
      UO && UO->isIncrementDecrementOp())
    Op = UO;
  if (!Op)
    return -1;
  if (Store)
    *Store = Op;
  return 1;
}

/// Whether the kernel uses the aliased pair in place, element by element:
/// \p In is only read and \p Out only read and written, both through
/// subscripts; every read through \p In, outside loops, is at an index
/// (the same expression, of values that do not change) that the thread
/// then writes through \p Out, with no write through \p Out at that index
/// before it; every write through \p Out is at such an index; no barrier.
/// Then no load through the read-only path can follow a store to its
/// element by the same thread, and the kernel works, by luck of the
/// contract, whatever the cache.
bool inPlaceElementwise(ASTContext &Ctx, const FunctionDecl *Kernel,
                        const ParmVarDecl *In, const ParmVarDecl *Out) {
  const Stmt *Body = Kernel->getBody();
  if (!Body || In == Out)
    return false;
  Uses U;
  U.In = In;
  U.Out = Out;
  U.TraverseStmt(const_cast<Stmt *>(Body));
  if (U.Barrier || U.InRefs.empty() || U.OutRefs.empty())
    return false;
  ThreadIndexAnalysis TIA(Ctx, Kernel);
  if (!TIA.isUnmodified(In) || !TIA.isUnmodified(Out))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Profile = [&](const Expr *E) {
    llvm::FoldingSetNodeID ID;
    E->IgnoreParenImpCasts()->Profile(ID, Ctx, /*Canonical=*/true);
    return ID;
  };
  struct Access {
    const Expr *At; ///< The load, or the operation that stores.
    llvm::FoldingSetNodeID Index;
  };
  llvm::SmallVector<Access, 8> Reads, Writes;
  for (const DeclRefExpr *Ref : U.InRefs) {
    const ArraySubscriptExpr *ASE = subscriptOf(Ctx, Ref);
    if (!ASE || elementUse(Ctx, ASE) != 0 || isInsideLoop(Ctx, ASE, Body) ||
        !isFixedInEachThread(Ctx, TIA, ASE->getIdx(), Body))
      return false;
    Reads.push_back({ASE, Profile(ASE->getIdx())});
  }
  for (const DeclRefExpr *Ref : U.OutRefs) {
    const ArraySubscriptExpr *ASE = subscriptOf(Ctx, Ref);
    if (!ASE)
      return false;
    const Expr *Store = nullptr;
    int Use = elementUse(Ctx, ASE, &Store);
    if (Use < 0)
      return false;
    if (Use == 1)
      Writes.push_back({Store, Profile(ASE->getIdx())});
  }
  for (const Access &W : Writes)
    if (llvm::none_of(Reads,
                      [&](const Access &R) { return R.Index == W.Index; }))
      return false;
  for (const Access &R : Reads) {
    bool Written = false;
    for (const Access &W : Writes) {
      if (W.Index != R.Index)
        continue;
      // A store is done when its operation ends (`out[i] = in[i] + 1`
      // loads first).
      if (SM.isBeforeInTranslationUnit(W.At->getEndLoc(), R.At->getBeginLoc()))
        return false;
      Written = true;
    }
    if (!Written)
      return false;
  }
  return true;
}

} // namespace

void RestrictAliasingCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  // The analysis runs once per translation unit, when it has a launch.
  Finder->addMatcher(
      cudaKernelCallExpr(unless(isExpansionInSystemHeader())).bind("launch"),
      this);
}

void RestrictAliasingCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
}

void RestrictAliasingCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  ASTContext &C = *Ctx;
  Ctx = nullptr;
  LaunchAliasing Aliasing(C);
  ReadOnlyPointerAnalysis ReadOnly(C);
  llvm::DenseSet<std::pair<SourceLocation, unsigned>> Reported;
  const SourceManager &SM = C.getSourceManager();
  for (const LaunchAliasing::Pair &P : Aliasing.pairs()) {
    if (!P.SameValue)
      continue;
    const FunctionDecl *Kernel = P.Kernel->getDefinition();
    if (!Kernel || Kernel->isDependentContext() ||
        Kernel->getNumParams() <= P.Second)
      continue;
    const ParmVarDecl *A = Kernel->getParamDecl(P.First);
    const ParmVarDecl *B = Kernel->getParamDecl(P.Second);
    if (!A->getType()->isPointerType() || !B->getType()->isPointerType())
      continue;
    bool RestrictA = A->getType().isRestrictQualified();
    bool RestrictB = B->getType().isRestrictQualified();
    if (!RestrictA && !RestrictB)
      continue;
    const ReadOnlyResult &RA = ReadOnly.analyze(Kernel, A);
    bool WrittenA = definitelyWritten(RA);
    SourceLocation WhereA = RA.Where;
    const ReadOnlyResult &RB = ReadOnly.analyze(Kernel, B);
    bool WrittenB = definitelyWritten(RB);
    SourceLocation WhereB = RB.Where;
    if (!WrittenA && !WrittenB)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(P.loc());
    if (SM.isInSystemHeader(Loc) ||
        !Reported.insert({Loc, P.First * 1024 + P.Second}).second)
      continue;
    // The in-place shape: one parameter only read (and `__restrict__`),
    // the other written at exactly the elements the same thread has read.
    bool InPlace = (RestrictA && !WrittenA && WrittenB &&
                    inPlaceElementwise(C, Kernel, A, B)) ||
                   (RestrictB && !WrittenB && WrittenA &&
                    inPlaceElementwise(C, Kernel, B, A));
    // In place: formal undefined behaviour with no hazard that can be
    // observed (the audit's in-place sorts: each thread writes back the
    // elements it read), so ranked low, with its reason; never hidden, as
    // for every correctness finding.
    auto Warn = [&](StringRef Msg) {
      return InPlace ? diagCapped(Loc, Msg, 30,
                                  "each thread writes only the elements it "
                                  "has read, after reading them: no load can "
                                  "see another store")
                     : diag(Loc, Msg);
    };
    Warn("%select{launch|call}0 passes the same pointer to '%1' and "
         "'%2' of kernel '%3', %select{one|both}4 '__restrict__' and "
         "%select{one|both}5 written through: %select{undefined "
         "behaviour by the '__restrict__' contract; loads through the "
         "read-only data cache return stale data if an element is read "
         "after a store to it, which the check could not rule out|"
         "undefined behaviour by the '__restrict__' "
         "contract, which works only because each thread reads an "
         "element before it writes it at the same index; the compiler "
         "may reorder it on any change}6")
        << (P.WrapperCall != nullptr) << A->getName() << B->getName()
        << Kernel->getName() << (RestrictA && RestrictB)
        << (WrittenA && WrittenB) << InPlace;
    if (P.Wrapper)
      diag(SM.getExpansionLoc(P.Launch->getBeginLoc()),
           "'%0' launches the kernel with its parameters here",
           DiagnosticIDs::Note)
          << P.Wrapper->getName();
    auto Note = [&](const ParmVarDecl *Param, bool Restrict, bool Written,
                    SourceLocation Where) {
      diag(Param->getLocation(),
           "'%0' %select{is declared here|is '__restrict__'|is written "
           "through|is '__restrict__' and written through}1",
           DiagnosticIDs::Note)
          << Param->getName() << (unsigned(Restrict) + 2 * unsigned(Written));
      if (Written && Where.isValid())
        diag(Where, "'%0' is written here", DiagnosticIDs::Note)
            << Param->getName();
    };
    Note(A, RestrictA, WrittenA, WhereA);
    Note(B, RestrictB, WrittenB, WhereB);
  }
}

} // namespace clang::tidy::cuda
