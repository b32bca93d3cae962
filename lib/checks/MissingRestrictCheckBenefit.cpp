//===--- MissingRestrictCheckBenefit.cpp - cuda-lint ----------------------===//
//
// Whether `__restrict__` can let nvcc move a read-only pointer's loads across
// the kernel's global stores (MissingRestrictBenefit.h).
//
//===----------------------------------------------------------------------===//

#include "MissingRestrictBenefit.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/GridStrideLoops.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::missing_restrict {

namespace {

/// A store or a load, by where it starts, with the loops around it
/// (outermost first).
struct Access {
  unsigned Offset;
  const Expr *E = nullptr;
  llvm::SmallVector<const Stmt *, 4> Loops;
  /// In a grid-stride loop that runs once per thread.
  bool Covered = false;
};

/// The variable an address is computed from: `p` of `p[i]`, `p + i`,
/// `(float *)p`, `&a[i][j]`; null when it is not one variable.
const ValueDecl *baseVariable(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      E = ASE->getBase();
    else if (const auto *BO = dyn_cast<BinaryOperator>(E))
      E = BO->isAdditiveOp() && BO->getRHS()->getType()->isPointerType()
              ? BO->getRHS()
              : BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E))
      E = UO->getSubExpr();
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else
      return nullptr;
  }
  return nullptr;
}

/// Whether a store to the lvalue \p LHS may write global memory that a
/// pointer parameter without `__restrict__` could alias: not a register,
/// not a thread's own array, not `__shared__` memory, not through a
/// `__restrict__` parameter (which promises no alias by itself).
bool mayAliasGlobal(const Expr *LHS, const Stmt *Body) {
  LHS = LHS->IgnoreParenImpCasts();
  if (!isa<ArraySubscriptExpr, UnaryOperator, MemberExpr>(LHS))
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(LHS); ME && !ME->isArrow())
    return mayAliasGlobal(ME->getBase(), Body);
  if (const auto *UO = dyn_cast<UnaryOperator>(LHS);
      UO && UO->getOpcode() != UO_Deref)
    return false;
  const ValueDecl *Base = baseVariable(LHS);
  const auto *V = dyn_cast_or_null<VarDecl>(Base);
  if (!V)
    return true; // Through a loaded pointer, a call's result: unknown.
  if (V->hasAttr<CUDASharedAttr>())
    return false;
  // A local pointer into `__shared__` memory that is never reassigned
  // (`volatile float *vs = sums;` for a warp's reduction).
  if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
      V->getType()->isPointerType() && V->getInit() && Body &&
      !warpsync::Analysis::assignedIn(Body, V))
    if (const auto *I = dyn_cast_or_null<VarDecl>(baseVariable(V->getInit()));
        I && I->hasAttr<CUDASharedAttr>())
      return false;
  // An array or a struct held by value (`acc.x[i]` of a WMMA fragment): a
  // thread's own registers or local memory, unless it is a global.
  if (!V->getType()->isPointerType() && !V->getType()->isReferenceType())
    return V->hasAttr<CUDADeviceAttr>() || V->hasGlobalStorage();
  if (isa<ParmVarDecl>(V) && V->getType().isRestrictQualified())
    return false;
  return true;
}

/// The lvalue \p S stores to when it is an assignment, an increment or
/// decrement, or a struct's assignment operator (`out[i] = v;`); null
/// otherwise.
const Expr *storedLValue(const Stmt *S) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return BO->getLHS();
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    return UO->getSubExpr();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      OC && OC->isAssignmentOp() && OC->getNumArgs() == 2)
    return OC->getArg(0);
  return nullptr;
}

/// Collects the global stores and the given loads of a body, with their
/// loops.
class Walker {
public:
  Walker(ASTContext &Ctx, const FunctionDecl &FD,
         llvm::ArrayRef<const Expr *> Loads)
      : Ctx(Ctx), FD(FD), SM(Ctx.getSourceManager()) {
    for (const Expr *L : Loads)
      LoadSet.insert(L->IgnoreParens());
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    // A grid-stride loop that every launch's grid covers runs once per
    // thread: straight-line code (GridStrideLoops.h).
    bool Once = isa<ForStmt>(S) && isKernel(&FD) &&
                runsOncePerThread(Ctx, FD, *cast<ForStmt>(S));
    bool IsLoop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) && !Once;
    if (IsLoop)
      Loops.push_back(S);
    Covered += Once;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (LoadSet.contains(E->IgnoreParens()))
        record(Loads, E);
      if (const Expr *Target = storedLValue(E);
          Target && mayAliasGlobal(Target, FD.getBody()))
        record(Stores, E, /*AtEnd=*/true);
      if (const auto *CE = dyn_cast<CallExpr>(E))
        if (const FunctionDecl *F = CE->getDirectCallee();
            isAtomicFunction(F) && CE->getNumArgs() > 0 &&
            !isSharedAddress(CE->getArg(0)))
          record(Stores, CE, /*AtEnd=*/true);
    }
    for (const Stmt *C : S->children())
      walk(C);
    if (IsLoop)
      Loops.pop_back();
    Covered -= Once;
  }

  llvm::SmallVector<Access, 8> Loads, Stores;

private:
  static bool isSharedAddress(const Expr *E) {
    const auto *V = dyn_cast_or_null<VarDecl>(baseVariable(E));
    return V && V->hasAttr<CUDASharedAttr>();
  }
  /// A store happens when its right-hand side has been computed: at the
  /// end of the assignment (\p AtEnd), not where its left-hand side starts.
  void record(llvm::SmallVectorImpl<Access> &To, const Expr *E,
              bool AtEnd = false) {
    SourceLocation Loc = AtEnd ? E->getEndLoc() : E->getBeginLoc();
    To.push_back({SM.getFileOffset(SM.getExpansionLoc(Loc)), E, {}});
    To.back().Loops.assign(Loops.begin(), Loops.end());
    To.back().Covered = Covered != 0;
  }

  ASTContext &Ctx;
  const FunctionDecl &FD;
  const SourceManager &SM;
  llvm::SmallPtrSet<const Expr *, 16> LoadSet;
  llvm::SmallVector<const Stmt *, 4> Loops;
  unsigned Covered = 0;
};

/// Whether \p E changes in every iteration of \p Loop, whose body spans
/// the file offsets [\p Begin, \p End]: it reads a variable declared outside
/// the body and assigned in the loop (an induction variable), directly or
/// through the initialiser of a local declared in the body (a variable
/// declared there starts afresh in every iteration: an inner loop's
/// counter). \p Opaque is set where it also reads something loaded from
/// memory or returned by a call (in the load's own subscript or in such an
/// initialiser: `int j = idx[i]; x[j]` as `x[idx[i]]`), whose value the
/// check cannot follow. \p Top, the load itself, is not counted as such.
bool variesIn(const Expr *E, const Expr *Top, const Stmt *Loop, unsigned Begin,
              unsigned End, const SourceManager &SM, unsigned Depth,
              bool &Opaque) {
  if (Depth > 4)
    return false;
  bool Varies = false;
  // `blockIdx.x` and its kin read no memory (DeviceCode.h).
  if (Top)
    Opaque |= llvm::any_of(Top->children(), [](const Stmt *C) {
      return readsMemory(C, /*NamedMemory=*/true);
    });
  else
    Opaque |= readsMemory(E, /*NamedMemory=*/true);
  warpsync::forEachDescendant(E, [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage())
      return;
    unsigned D = SM.getFileOffset(SM.getExpansionLoc(V->getLocation()));
    if (Begin <= D && D <= End) {
      if (V->getInit())
        Varies |= variesIn(V->getInit(), nullptr, Loop, Begin, End, SM,
                           Depth + 1, Opaque);
    } else {
      Varies |= warpsync::Analysis::assignedIn(Loop, V);
    }
  });
  return Varies;
}

/// What a load reads from one iteration of a loop to the next.
enum class Reads {
  /// Maybe the same element: only `__restrict__` lets nvcc hoist it.
  Repeated,
  /// A new element in every iteration (variesIn).
  Streamed,
  /// An element whose index changes in every iteration through values the
  /// check cannot follow (`x[idx[i]]`): whether elements repeat, nvcc
  /// cannot know either, so `__restrict__` cannot hoist the load.
  Gathered,
};

Reads readsEachIteration(const Expr *Load, const Stmt *Loop,
                         const SourceManager &SM) {
  const Stmt *Body = loopBody(Loop);
  if (!Body)
    Body = Loop;
  unsigned Begin = SM.getFileOffset(SM.getExpansionLoc(Body->getBeginLoc()));
  unsigned End = SM.getFileOffset(SM.getExpansionLoc(Body->getEndLoc()));
  bool Opaque = false;
  if (!variesIn(Load, Load->IgnoreParenImpCasts(), Loop, Begin, End, SM, 0,
                Opaque))
    return Reads::Repeated;
  return Opaque ? Reads::Gathered : Reads::Streamed;
}

/// The innermost of \p L's loops that also holds one of \p Stores.
const Stmt *innermostStoringLoop(const Access &L,
                                 llvm::ArrayRef<Access> Stores) {
  for (const Stmt *Loop : llvm::reverse(L.Loops))
    for (const Access &S : Stores)
      if (llvm::is_contained(S.Loops, Loop))
        return Loop;
  return nullptr;
}

/// An element of the pointer loaded twice with a global store between
/// (`l[i]` read, `u[i]` written, `l[i]` read again: only `__restrict__`
/// lets nvcc keep the first value): the second load and the store.
std::optional<std::pair<const Access *, const Access *>>
reloadedAfterStore(llvm::ArrayRef<Access> Loads, llvm::ArrayRef<Access> Stores,
                   const ASTContext &Ctx) {
  llvm::SmallVector<llvm::FoldingSetNodeID, 8> Ids(Loads.size());
  for (auto [L, Id] : llvm::zip(Loads, Ids))
    L.E->IgnoreParenImpCasts()->Profile(Id, Ctx, /*Canonical=*/true);
  for (auto [I, A] : llvm::enumerate(Loads))
    for (auto [J, B] : llvm::enumerate(Loads)) {
      if (A.Offset >= B.Offset || A.Loops != B.Loops || Ids[I] != Ids[J])
        continue;
      for (const Access &S : Stores)
        if (A.Offset < S.Offset && S.Offset < B.Offset)
          return std::make_pair(&B, &S);
    }
  return std::nullopt;
}

/// Whether \p Arm (a branch of an if statement) ends by returning.
bool returnsAtEnd(const Stmt *Arm) {
  if (const auto *CS = dyn_cast<CompoundStmt>(Arm))
    Arm = CS->body_empty() ? nullptr : CS->body_back();
  return isa_and_nonnull<ReturnStmt>(Arm);
}

/// Whether the store \p S, written before the load \p L, can run before it:
/// not when they are on different arms of one `if` (or `?:`), nor when the
/// store's arm returns before reaching the load.
bool mayRunBefore(const Access &S, const Access &L, ASTContext &Ctx) {
  // The statements above the store, each with its child on the way.
  auto ParentOf = [&](const Stmt *C) -> const Stmt * {
    for (const DynTypedNode &N : Ctx.getParents(*C))
      if (const auto *P = N.get<Stmt>())
        return P;
    return nullptr;
  };
  llvm::SmallVector<std::pair<const Stmt *, const Stmt *>, 16> Above;
  const Stmt *Child = S.E;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    const Stmt *P = ParentOf(Child);
    if (!P)
      break;
    Above.push_back({P, Child});
    Child = P;
  }
  const Stmt *FromLoad = L.E;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    const Stmt *P = ParentOf(FromLoad);
    if (!P)
      return true;
    auto It = llvm::find_if(Above, [&](const auto &A) { return A.first == P; });
    if (It != Above.end()) {
      const Stmt *StoreSide = It->second;
      if (const auto *If = dyn_cast<IfStmt>(P))
        if (StoreSide != If->getCond() && FromLoad != If->getCond() &&
            StoreSide != FromLoad)
          return false;
      if (const auto *CO = dyn_cast<ConditionalOperator>(P))
        if (StoreSide != CO->getCond() && FromLoad != CO->getCond() &&
            StoreSide != FromLoad)
          return false;
      // An arm below the common statement that returns at its end.
      for (auto A = Above.begin(); A != It; ++A)
        if (const auto *If = dyn_cast<IfStmt>(A->first);
            If && A->second != If->getCond() && returnsAtEnd(A->second))
          return false;
      return true;
    }
    FromLoad = P;
  }
  return true;
}

/// Whether a call of \p F may store to global memory: its body (and the
/// bodies it calls, three levels deep) assigns through a pointer that may
/// alias global memory or runs a global atomic. A function without a body
/// may, unless it is the toolkit's (a math function reads only its
/// arguments).
bool storesGlobal(const FunctionDecl *F, const SourceManager &SM,
                  unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!F)
    return true;
  if (!F->hasBody(Def) || !Def->getBody())
    return isAtomicFunction(F) || !SM.isInSystemHeader(F->getLocation());
  if (Depth > 3)
    return true;
  const Stmt *Body = Def->getBody();
  bool Found = false;
  warpsync::forEachDescendant(Body, [&](const Stmt *S) {
    if (Found)
      return;
    if (const Expr *Target = storedLValue(S))
      Found = mayAliasGlobal(Target, Body);
    else if (const auto *CE = dyn_cast<CallExpr>(S);
             CE && !isa<CXXOperatorCallExpr>(CE))
      Found = storesGlobal(CE->getDirectCallee(), SM, Depth + 1);
  });
  return Found;
}

/// The compute capability of the device compilation (90 for sm_90), or 0.
unsigned targetArch(ASTContext &Ctx) {
  StringRef CPU = Ctx.getTargetInfo().getTargetOpts().CPU;
  unsigned Arch = 0;
  if (CPU.consume_front("sm_"))
    CPU.take_while([](char C) { return C >= '0' && C <= '9'; })
        .getAsInteger(10, Arch);
  return Arch;
}

} // namespace

bool isCalleeRead(const Expr *Load) {
  return isa<CallExpr>(Load) && !isa<CXXOperatorCallExpr>(Load);
}

Benefit restrictBenefit(const FunctionDecl *FD, const ParmVarDecl *P,
                        llvm::ArrayRef<const Expr *> Loads, ASTContext &Ctx) {
  if (Loads.empty() || !FD->hasBody() || targetArch(Ctx) < 70)
    return {};
  // A call that passes the pointer to a device function that reads it is
  // where that function's loads happen (ReadOnlyResult::CalleeReads). One
  // whose function may store to global memory itself is left out, as
  // loads in callees were before: what moves there is not judged here.
  llvm::SmallVector<const Expr *, 8> Kept;
  for (const Expr *L : Loads)
    if (!isCalleeRead(L) || !storesGlobal(cast<CallExpr>(L)->getDirectCallee(),
                                          Ctx.getSourceManager(), 0))
      Kept.push_back(L);
  Loads = Kept;
  if (Loads.empty())
    return {};
  std::string Name = ("'" + P->getName() + "'").str();
  Walker W(Ctx, *FD, Loads);
  W.walk(FD->getBody());
  if (W.Loads.size() != Loads.size())
    return {}; // Some loads are not in this body: unknown.
  auto Moves = [](const Access &L, const Access &S, Benefit::Move How) {
    Benefit B;
    B.Load = L.E;
    B.Store = S.E;
    B.How = How;
    return B;
  };
  const std::string Tail =
      ": `__restrict__` can only make its loads ld.global.nc, which gains "
      "nothing measurable on sm_70 and later (the read-only data cache is "
      "the L1 cache)";
  // A loop that loads the pointer and stores to global memory keeps the
  // rank: nvcc unrolls even a loop of unknown trip count (by 4, checked in
  // the PTX of a copy loop), so the next iteration's loads follow this
  // one's stores, and only `__restrict__` lets ptxas move them ahead.
  //
  // But where every such load reads a new element in each iteration (a
  // stream: `y[i] = a * x[i]`, a tile staged into shared memory), that
  // only lets the next iterations' loads issue early, which the sealed
  // audits found worth nothing measurable (21 of 25 restrict findings
  // "right but not worth acting on"). What keeps the rank is a load that
  // the loop repeats (hoisting it needs `__restrict__`) or an element
  // reloaded after a store.
  bool AnyInLoop = false, Streamed = false, Gathered = false;
  for (const Access &L : W.Loads) {
    AnyInLoop |= !L.Loops.empty();
    const Stmt *Loop = innermostStoringLoop(L, W.Stores);
    if (!Loop)
      continue;
    Reads R = readsEachIteration(L.E, Loop, Ctx.getSourceManager());
    if (R == Reads::Repeated)
      for (const Access &S : W.Stores)
        if (llvm::is_contained(S.Loops, Loop))
          return Moves(L, S, Benefit::Move::Hoist);
    Gathered |= R == Reads::Gathered;
    // A load after a store of the same iteration: as in straight-line code.
    for (const Access &S : W.Stores)
      if (llvm::is_contained(S.Loops, Loop) && S.Offset < L.Offset &&
          mayRunBefore(S, L, Ctx))
        return Moves(L, S, Benefit::Move::AheadOfStore);
    Streamed = true;
  }
  if (auto Again = reloadedAfterStore(W.Loads, W.Stores, Ctx))
    return Moves(*Again->first, *Again->second, Benefit::Move::Reuse);
  // Straight-line code: a load after a store may move above it only with
  // `__restrict__`.
  for (const Access &L : W.Loads)
    for (const Access &S : W.Stores)
      if (L.Loops.empty() && S.Offset < L.Offset && mayRunBefore(S, L, Ctx))
        return Moves(L, S, Benefit::Move::AheadOfStore);
  bool AnyCovered =
      llvm::any_of(W.Loads, [](const Access &L) { return L.Covered; });
  const char *NoHoist =
      " across a store; `__restrict__` can only make the loads ld.global.nc "
      "and let later iterations' loads issue early, which gains nothing "
      "measurable on sm_70 and later";
  bool ViaCallee =
      llvm::any_of(W.Loads, [](const Access &L) { return isCalleeRead(L.E); });
  Benefit B;
  if (!AnyInLoop && ViaCallee)
    B.NcOnly = Name +
               " is read, here and in the device functions it is passed to "
               "(which store nothing to global memory), before any global "
               "store of this kernel" +
               Tail;
  else if (!AnyInLoop)
    B.NcOnly = Name +
               (AnyCovered ? " is read once per thread (in a grid-stride loop "
                             "that every launch's grid covers), before any "
                             "global store"
                           : " is read only outside loops, once per thread, "
                             "before any global store") +
               Tail;
  else if (Gathered)
    B.NcOnly =
        Name +
        " is gathered: each of its loads reads, in every iteration of the "
        "loop that stores, at an index that changes (through values "
        "loaded from memory), so no load can be hoisted, and no element "
        "is read twice" +
        NoHoist;
  else if (Streamed)
    B.NcOnly =
        Name +
        " is streamed: each of its loads reads a new element in every "
        "iteration of the loop that stores, and no element is read twice" +
        NoHoist;
  else
    B.NcOnly = "the loops that read " + Name +
               " store nothing to global memory that could alias it" + Tail;
  return B;
}

} // namespace clang::tidy::cuda::missing_restrict
