//===--- SharedMemoryBanks.cpp - cuda-lint --------------------------------===//
//
// The shared-memory bank model of cuda-shared-bank-conflict (see
// SharedMemoryBanks.h).
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/SharedMemoryBanks.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::banks {

//===--- The block shape of a kernel, from its launches ------------------===//

namespace {

/// The functions with a body in \p DC and its namespaces, outside system
/// headers. Declarations a precompiled prelude holds are not loaded: they
/// are the CUDA headers' (decls() would deserialize all of them); those of
/// a precompiled include prefix with the build's headers are
/// (userCodeDecls).
void collectBodies(const SourceManager &SM, const DeclContext *DC,
                   SmallVectorImpl<const FunctionDecl *> &Out) {
  for (const Decl *D : userCodeDecls(DC)) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->hasBody() && FD->doesThisDeclarationHaveABody())
        Out.push_back(FD);
    } else if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      collectBodies(SM, NS, Out);
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
      collectBodies(SM, LS, Out);
    }
  }
}

} // namespace

/// Every kernel launch in the functions of this translation unit outside
/// system headers, found once: a search per kernel over every body (one
/// matcher run per kernel and body) cost more than the rest of the check.
void LaunchSites::collect(ASTContext &Ctx) {
  if (Collected)
    return;
  Collected = true;
  SmallVector<const FunctionDecl *, 16> Callers;
  collectBodies(Ctx.getSourceManager(), Ctx.getTranslationUnitDecl(), Callers);
  for (const FunctionDecl *Caller : Callers)
    for (const auto &Node : match(findAll(cudaKernelCallExpr().bind("launch")),
                                  *Caller->getBody(), Ctx))
      Calls.push_back({Node.getNodeAs<CUDAKernelCallExpr>("launch"), Caller});
}

namespace {

/// The block shape every launch of \p Kernel in this translation unit uses,
/// or nullopt when there is none or they differ.
std::optional<BlockDims>
launchShape(ASTContext &Ctx, const FunctionDecl *Kernel, LaunchSites &Sites) {
  Sites.collect(Ctx);
  std::optional<BlockDims> Shape;
  for (const auto &[Launch, Caller] : Sites.Calls) {
    // The launch may name an earlier declaration of the kernel.
    const auto *Callee =
        dyn_cast_or_null<FunctionDecl>(Launch->getCalleeDecl());
    if (!Callee || Callee->getCanonicalDecl() != Kernel->getCanonicalDecl())
      continue;
    const CallExpr *Config = Launch->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return std::nullopt;
    std::optional<cuda::BlockShape> B =
        KernelLaunches::evaluateBlock(Config->getArg(1), Caller, Ctx);
    if (!B)
      return std::nullopt;
    std::optional<BlockDims> S = BlockDims{(*B)[0], (*B)[1], (*B)[2]};
    if (Shape && (Shape->X != S->X || Shape->Y != S->Y || Shape->Z != S->Z))
      return std::nullopt;
    Shape = S;
  }
  return Shape;
}

/// The x and y extents that every launch of \p Kernel agrees on, where
/// the z extent is known only at run time (`dim3(4, 8, z)`).
std::optional<std::pair<int64_t, int64_t>>
launchXY(ASTContext &Ctx, const FunctionDecl *Kernel, LaunchSites &Sites) {
  Sites.collect(Ctx);
  std::optional<std::pair<int64_t, int64_t>> XY;
  for (const auto &[Launch, Caller] : Sites.Calls) {
    const auto *Callee =
        dyn_cast_or_null<FunctionDecl>(Launch->getCalleeDecl());
    if (!Callee || Callee->getCanonicalDecl() != Kernel->getCanonicalDecl())
      continue;
    const CallExpr *Config = Launch->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return std::nullopt;
    std::optional<std::pair<int64_t, int64_t>> P;
    if (std::optional<cuda::BlockShape> B =
            KernelLaunches::evaluateBlock(Config->getArg(1), Caller, Ctx))
      P = std::make_pair((*B)[0], (*B)[1]);
    else
      P = KernelLaunches::evaluateBlockXY(Config->getArg(1), Caller, Ctx);
    if (!P || (XY && *XY != *P))
      return std::nullopt;
    XY = P;
  }
  return XY;
}

} // namespace

//===--- What the code says about the block shape -------------------------===//

BlockDims BlockBounds::assumed() const {
  if (Exact)
    return *Exact;
  BlockDims S;
  S.X = std::max<int64_t>(1, std::min<int64_t>({32, Max[0], MaxThreads}));
  S.Y = std::max<int64_t>(
      1, std::min<int64_t>({Max[1], (32 + S.X - 1) / S.X, MaxThreads / S.X}));
  S.Z = std::max<int64_t>(
      1, std::min<int64_t>({Max[2], (32 + S.X * S.Y - 1) / (S.X * S.Y),
                            MaxThreads / (S.X * S.Y)}));
  return S;
}

std::optional<int64_t> evalInt(ASTContext &Ctx, const Expr *E) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() ||
      !E->getType()->isIntegralOrEnumerationType() ||
      !E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.getSignificantBits() > 62)
    return std::nullopt;
  return V.getExtValue();
}

namespace {

/// Finds, in a function body, the accesses every thread of the block
/// executes: not under a condition, not in a loop that may run zero times,
/// not after a statement that may leave the function or the loop early.
/// An unconditional `a[threadIdx.x]...` into a constant-size array `a[N]...`
/// bounds blockDim.x by N (a correct program stays in bounds).
class FirstSubscriptBounds {
public:
  FirstSubscriptBounds(ASTContext &Ctx, ThreadIndexAnalysis &TIA,
                       std::array<int64_t, 3> &Max)
      : Ctx(Ctx), TIA(TIA), Max(Max) {}

  void visit(const Stmt *S, bool Cond) {
    if (!S)
      return;
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt,
            CXXThrowExpr, LambdaExpr>(S)) {
      // A return that only block-uniform conditions lead to (`if
      // (blockIdx.x >= n) return;`) leaves the whole block: the threads of
      // a block that goes on still all run what follows.
      if (!UniformPath || !isa<ReturnStmt>(S))
        SeenExit = true;
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      visit(If->getInit(), Cond);
      visit(If->getConditionVariableDeclStmt(), Cond);
      visit(If->getCond(), Cond);
      bool Saved = UniformPath;
      UniformPath = UniformPath && !If->getInit() &&
                    !If->getConditionVariable() &&
                    !TIA.isThreadDependent(If->getCond());
      visit(If->getThen(), true);
      visit(If->getElse(), true);
      UniformPath = Saved;
      return;
    }
    if (isa<SwitchStmt, WhileStmt, DoStmt, ForStmt, CXXForRangeStmt,
            CoroutineBodyStmt, AbstractConditionalOperator>(S) ||
        (isa<BinaryOperator>(S) && cast<BinaryOperator>(S)->isLogicalOp())) {
      bool Saved = UniformPath;
      UniformPath = false;
      visitControl(S, Cond);
      UniformPath = Saved;
      return;
    }
    visitControl(S, Cond);
  }

private:
  void visitControl(const Stmt *S, bool Cond) {
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      visit(Sw->getInit(), Cond);
      visit(Sw->getCond(), Cond);
      visit(Sw->getBody(), true);
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      visit(W->getCond(), Cond);
      visit(W->getBody(), true);
      return;
    }
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      visit(For->getInit(), Cond);
      visit(For->getCond(), Cond);
      bool Once = runsOnce(For);
      // Every thread runs the body for every value of the counter.
      bool Full = !Cond && Once && !hasJump(For->getBody());
      if (Full)
        FullLoops.push_back(For);
      visit(For->getBody(), Cond || !Once);
      if (Full)
        FullLoops.pop_back();
      visit(For->getInc(), true);
      return;
    }
    if (isa<CXXForRangeStmt, CoroutineBodyStmt>(S)) {
      for (const Stmt *Child : S->children())
        visit(Child, true);
      return;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
      visit(CO->getCond(), Cond);
      visit(CO->getTrueExpr(), true);
      visit(CO->getFalseExpr(), true);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isLogicalOp()) {
        visit(BO->getLHS(), Cond);
        visit(BO->getRHS(), true);
        return;
      }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
      if (!Cond && !SeenExit)
        record(ASE);
    for (const Stmt *Child : S->children())
      visit(Child, Cond);
  }

  // `for (int i = A; i < B; ...)` or `for (i = A; i < B; ...)` with
  // constants A < B.
  bool runsOnce(const ForStmt *For) {
    const auto *BO = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!BO)
      return false;
    const VarDecl *V = nullptr;
    const Expr *Init = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
      Init = V ? V->getInit() : nullptr;
    } else if (const auto *Assign =
                   dyn_cast_or_null<BinaryOperator>(For->getInit());
               Assign && Assign->getOpcode() == BO_Assign) {
      if (const auto *D = dyn_cast<DeclRefExpr>(Assign->getLHS()))
        V = dyn_cast<VarDecl>(D->getDecl());
      Init = Assign->getRHS();
    }
    const auto *Ref =
        dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    if (!V || !Ref || Ref->getDecl() != V)
      return false;
    auto A = evalInt(Ctx, Init);
    auto B = evalInt(Ctx, BO->getRHS());
    if (!A || !B)
      return false;
    return (BO->getOpcode() == BO_LT && *A < *B) ||
           (BO->getOpcode() == BO_LE && *A <= *B) ||
           (BO->getOpcode() == BO_NE && *A != *B);
  }

  static bool hasJump(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt,
            CXXThrowExpr>(S))
      return true;
    return llvm::any_of(S->children(), hasJump);
  }

  /// The largest value of \p P, a sum of constants, other thread indices
  /// (taken at 0: the threads where they are 0 run the access) and counters of
  /// the enclosing loops whose bodies every thread runs for every value of the
  /// counter, that the access takes in every thread: nullopt for anything
  /// else.
  std::optional<int64_t> attainedMax(const IndexPoly &P) {
    int64_t Sum = 0;
    for (const auto &[M, K] : P.terms()) {
      if (M.empty()) {
        Sum += K;
        continue;
      }
      // Another thread index: the threads where it is 0 run the access too.
      if (M.size() == 1 && M[0].Kind == IndexSymbol::ThreadIdx)
        continue;
      const auto *V =
          M.size() == 1 ? dyn_cast_or_null<VarDecl>(M[0].getDecl()) : nullptr;
      std::optional<LoopSpan> Span = V ? TIA.constantLoopSpan(V) : std::nullopt;
      if (!Span || !llvm::is_contained(FullLoops, Span->Loop) ||
          std::abs(K) > (int64_t(1) << 20))
        return std::nullopt;
      Sum += K > 0 ? K * Span->Last : K * Span->First;
    }
    return Sum;
  }

  // `a[c * threadIdx.d + u]` into `a[N]...`, executed by every thread for
  // every value of u's loop counters: c * threadIdx.d + max(u) < N.
  void record(const ArraySubscriptExpr *ASE) {
    const auto *DRE =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V)
      return;
    const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(V->getType());
    if (!CAT || V->hasExternalStorage())
      return;
    IndexForm F = TIA.analyze(ASE->getIdx());
    if (!F.Poly)
      return;
    int64_t Extent = CAT->getSize().getZExtValue();
    for (unsigned D = 0; D < 3; ++D) {
      IndexSymbol T = IndexSymbol::threadIdx(D);
      std::optional<IndexPoly> Coef = F.Poly->coefficientOf(T);
      std::optional<int64_t> C = Coef ? Coef->getConstant() : std::nullopt;
      if (!C || *C <= 0)
        continue;
      std::optional<int64_t> Rest =
          attainedMax(*F.Poly - IndexPoly::symbol(T) * *C);
      if (Rest && Extent - 1 - *Rest >= 0)
        Max[D] = std::min<int64_t>(Max[D], (Extent - 1 - *Rest) / *C + 1);
    }
  }

  ASTContext &Ctx;
  ThreadIndexAnalysis &TIA;
  std::array<int64_t, 3> &Max;
  bool SeenExit = false;
  /// Every condition on the way here is the same for the whole block.
  bool UniformPath = true;
  /// The enclosing loops that every thread runs in full.
  SmallVector<const ForStmt *, 4> FullLoops;
};
} // namespace

BlockBounds blockBounds(ASTContext &Ctx, const FunctionDecl *Fn,
                        ThreadIndexAnalysis &TIA, LaunchSites &Sites) {
  BlockBounds B;
  if (isKernel(Fn)) {
    B.Exact = launchShape(Ctx, Fn, Sites);
    // A z extent known only at run time (`dim3(4, 8, z)`) leaves x and y
    // known: they bound the block, and the warps are formed from them.
    if (!B.Exact)
      if (auto XY = launchXY(Ctx, Fn, Sites)) {
        B.Max[0] = XY->first;
        B.Max[1] = XY->second;
      }
    if (const auto *LB = Fn->getAttr<CUDALaunchBoundsAttr>())
      if (auto N = evalInt(Ctx, LB->getMaxThreads()); N && *N > 0)
        B.MaxThreads = std::min<int64_t>(B.MaxThreads, *N);
  }
  for (int64_t &M : B.Max)
    M = std::min(M, B.MaxThreads);
  FirstSubscriptBounds Finder(Ctx, TIA, B.Max);
  Finder.visit(Fn->getBody(), false);
  if (B.Exact) {
    B.Max = {B.Exact->X, B.Exact->Y, B.Exact->Z};
    B.MaxThreads = B.Exact->X * B.Exact->Y * B.Exact->Z;
  }
  return B;
}

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
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
      return range(Cast->getSubExpr(), Depth + 1);
    default:
      return std::nullopt;
    }
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
  BinaryOperatorKind Op = Cond->getOpcode();
  const Expr *Bound = nullptr;
  if (IsV(Cond->getLHS()) && (Op == BO_LT || Op == BO_LE))
    Bound = Cond->getRHS();
  else if (IsV(Cond->getRHS()) && (Op == BO_GT || Op == BO_GE)) {
    Bound = Cond->getLHS();
    Op = Op == BO_GT ? BO_LT : BO_LE;
  }
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

//===--- Bank conflict degree ---------------------------------------------===//

namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}
int64_t positiveMod(int64_t A, int64_t B) { return ((A % B) + B) % B; }

} // namespace

/// The address an access reads, in elements of the array: its thread part
/// as constant coefficients of threadIdx.{x,y,z}. Modulo terms `(e % M) * c`
/// are replaced by `e * c` when that moves the byte address by a multiple of
/// the bank period (`Banks * 4` bytes), which leaves every bank unchanged.
std::optional<std::array<int64_t, 3>>
threadCoefficients(ThreadIndexAnalysis &TIA, IndexPoly L, int64_t ElemSize,
                   int64_t Banks) {
  for (int Round = 0; Round < 4 && L.mentions(IndexSymbol::Modulo); ++Round) {
    IndexPoly Next;
    for (const auto &[M, C] : L.terms()) {
      IndexPoly Term = IndexPoly::constant(C);
      for (const IndexSymbol &S : M)
        Term = Term * IndexPoly::symbol(S);
      if (M.size() == 1 && M[0].Kind == IndexSymbol::Modulo) {
        auto Operand = TIA.moduloOperand(M[0]);
        if (!Operand ||
            positiveMod(Operand->second * C * ElemSize, Banks * 4) != 0)
          return std::nullopt;
        Term = Operand->first * C;
      }
      Next = Next + Term;
    }
    L = Next;
  }
  std::array<int64_t, 3> Coef = {0, 0, 0};
  IndexPoly ThreadPart = L.threadPart();
  for (const auto &[M, C] : ThreadPart.terms()) {
    if (M.size() != 1 || M[0].Kind != IndexSymbol::ThreadIdx)
      return std::nullopt;
    Coef[M[0].Dim] = C;
  }
  return Coef;
}

/// The degree of the bank conflict: the most distinct 4-byte words that one
/// bank serves in one pass. 4-byte and narrower accesses are served for the
/// whole warp at once; 8-byte accesses in two passes of 16 threads, 16-byte
/// accesses in four passes of 8 threads. Threads reading the same word do
/// not conflict. For elements narrower than a word the result is the least
/// over where the array starts within a word.
int64_t
conflictDegree(const std::array<int64_t, 3> &Coef, int64_t ElemSize,
               int64_t AccessSize, int64_t MemberOffset, const BlockDims &Shape,
               int64_t Banks,
               llvm::function_ref<bool(int64_t, int64_t, int64_t)> Active) {
  int64_t Threads = Shape.X * Shape.Y * Shape.Z;
  int64_t PassLanes = AccessSize >= 8 ? 32 / (AccessSize / 4) : 32;
  bool WordAligned = ElemSize % 4 == 0 && MemberOffset % 4 == 0;
  int64_t Best = INT64_MAX;
  for (int64_t Shift = 0; Shift < (WordAligned ? 1 : 4); ++Shift) {
    int64_t Worst = 1;
    for (int64_t First = 0; First < Threads; First += PassLanes) {
      llvm::DenseMap<int64_t, llvm::DenseSet<int64_t>> WordsOfBank;
      for (int64_t T = First; T < First + PassLanes && T < Threads; ++T) {
        int64_t X = T % Shape.X, Y = (T / Shape.X) % Shape.Y,
                Z = T / (Shape.X * Shape.Y);
        if (!Active(X, Y, Z))
          continue; // A lane the guards keep out.
        int64_t Elem = Coef[0] * X + Coef[1] * Y + Coef[2] * Z;
        int64_t Byte = Elem * ElemSize + MemberOffset + Shift;
        for (int64_t W = floorDiv(Byte, 4);
             W <= floorDiv(Byte + AccessSize - 1, 4); ++W)
          WordsOfBank[positiveMod(W, Banks)].insert(W);
      }
      for (const auto &Entry : WordsOfBank)
        Worst = std::max<int64_t>(Worst, Entry.second.size());
    }
    Best = std::min(Best, Worst);
  }
  return Best;
}

//===--- Uses of a __shared__ array ---------------------------------------===//

namespace {

class UseCollector {
public:
  UseCollector(ASTContext &Ctx, const VarDecl *V, unsigned Rank)
      : Ctx(Ctx), V(V), Rank(Rank) {}
  SmallVector<ArrayUse, 4> Uses;

  void visit(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == V)
        Uses.push_back(classify(DRE));
    Stack.push_back(S);
    for (const Stmt *Child : S->children())
      visit(Child);
    Stack.pop_back();
  }

private:
  const Stmt *parent(int &K) {
    while (K >= 0 && isa<ParenExpr>(Stack[K]))
      --K;
    return K >= 0 ? Stack[K] : nullptr;
  }

  ArrayUse classify(const DeclRefExpr *DRE) {
    ArrayUse Use;
    Use.Ref = DRE;
    int K = static_cast<int>(Stack.size()) - 1;
    const Expr *Cur = DRE;
    for (unsigned D = 0; D < Rank; ++D) {
      const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(parent(K));
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
        return Use;
      --K;
      const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(parent(K));
      if (!ASE || ASE->getBase()->IgnoreParens() != Decay)
        return Use;
      --K;
      Use.Subscripts.push_back(ASE->getIdx());
      Cur = ASE;
    }
    Use.Access = Cur;
    Use.AccessSize = Ctx.getTypeSizeInChars(Cur->getType()).getQuantity();
    const Stmt *P = parent(K);
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
      if (UO->getOpcode() == UO_AddrOf)
        return Use; // Its address taken: not an access we may pad under.
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!Field || Field->isBitField())
        return Use;
      Use.MemberOffset =
          Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Field)).getQuantity();
      Use.AccessSize = Ctx.getTypeSizeInChars(Field->getType()).getQuantity();
      --K;
    }
    Use.IsAccess = true;
    // What is done with the element.
    const Stmt *Consumer = parent(K);
    const Stmt *Operand = K + 1 < static_cast<int>(Stack.size())
                              ? Stack[K + 1]
                              : static_cast<const Stmt *>(DRE);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Consumer)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        Use.Kind = ArrayUse::Load;
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Consumer)) {
      if (BO->isAssignmentOp() && BO->getLHS() == Operand)
        Use.Kind =
            BO->getOpcode() == BO_Assign ? ArrayUse::Store : ArrayUse::Update;
    } else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Consumer)) {
      if (UO->isIncrementDecrementOp())
        Use.Kind = ArrayUse::Update;
    }
    // Where it is: the innermost block, and whether anything between the
    // block's statement and the access decides whether it runs.
    Use.Straight = true;
    for (int I = static_cast<int>(Stack.size()) - 1; I >= 0; --I) {
      const Stmt *S = Stack[I];
      if (isa<LambdaExpr>(S)) {
        Use.Straight = Use.Straight && Use.Block;
        break;
      }
      if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
        const Stmt *Child = I + 1 < static_cast<int>(Stack.size())
                                ? Stack[I + 1]
                                : static_cast<const Stmt *>(DRE);
        unsigned Index = 0;
        for (const Stmt *B : CS->body()) {
          if (B == Child)
            break;
          ++Index;
        }
        if (!Use.Block) {
          Use.Block = CS;
          Use.StmtIndex = Index;
        }
        Use.Blocks.push_back({CS, Index});
        continue;
      }
      if (Use.Block)
        continue;
      if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt,
              AbstractConditionalOperator, LambdaExpr, StmtExpr, SwitchCase,
              LabelStmt>(S))
        Use.Straight = false;
      if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
        Use.Straight = false;
    }
    if (!Use.Block)
      Use.Straight = false;
    return Use;
  }

  ASTContext &Ctx;
  const VarDecl *V;
  unsigned Rank;
  SmallVector<const Stmt *, 16> Stack;
};
} // namespace

SmallVector<ArrayUse, 4> collectArrayUses(ASTContext &Ctx, const VarDecl *V,
                                          unsigned Rank, const Stmt *Body) {
  UseCollector Collector(Ctx, V, Rank);
  Collector.visit(Body);
  return std::move(Collector.Uses);
}

//===--- What the compiled code issues -----------------------------------===//

namespace {

/// True when a call may touch shared memory or order it: anything but a
/// builtin or a function of the CUDA or system headers that is not a
/// barrier, fence or atomic.
bool mayTouchSharedMemory(const CallExpr *Call, const SourceManager &SM) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return true;
  StringRef Name = Callee->getName();
  for (StringRef Word :
       {"sync", "fence", "barrier", "atomic", "shfl", "match", "vote", "bar"})
    if (Name.contains_insensitive(Word))
      return true;
  return !Callee->getBuiltinID() && !SM.isInSystemHeader(Callee->getLocation());
}

/// Whether the statements \p First..\p Last of \p Block keep the value and
/// the address of a shared element: no call that may touch shared memory,
/// no change of the variables in \p Vars, no use of \p Array other than the
/// accesses in \p Allowed and, with \p AllowLoads, loads; and, unless
/// \p AllowBranches, no statement between the first and the last that may
/// branch or jump.
class SpanCheck {
public:
  SpanCheck(ASTContext &Ctx, const VarDecl *Array, ArrayRef<ArrayUse> Uses,
            const llvm::SmallPtrSetImpl<const VarDecl *> &Vars,
            const llvm::SmallPtrSetImpl<const Expr *> &Allowed, bool AllowLoads,
            bool AllowBranches)
      : Ctx(Ctx), Array(Array), Uses(Uses), Vars(Vars), Allowed(Allowed),
        AllowLoads(AllowLoads), AllowBranches(AllowBranches) {}

  bool keeps(const CompoundStmt *Block, unsigned First, unsigned Last) {
    unsigned I = 0;
    for (const Stmt *S : Block->body()) {
      if (I >= First && I <= Last &&
          !clean(S, AllowBranches || I == First || I == Last))
        return false;
      ++I;
    }
    return true;
  }

private:
  bool clean(const Stmt *S, bool Branches) {
    if (!S)
      return true;
    if (!Branches &&
        isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S))
      return false;
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt,
            LabelStmt, SwitchCase, CoroutineBodyStmt, CXXThrowExpr, GCCAsmStmt,
            MSAsmStmt, LambdaExpr>(S))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (mayTouchSharedMemory(Call, Ctx.getSourceManager()))
        return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (DRE->getDecl() == Array) {
        const ArrayUse *Use = nullptr;
        for (const ArrayUse &U : Uses)
          if (U.Ref == DRE)
            Use = &U;
        if (!Use || !Use->IsAccess)
          return false;
        if (!Allowed.count(Use->Access) &&
            !(AllowLoads && Use->Kind == ArrayUse::Load))
          return false;
      }
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && Vars.count(V) && classifyVarUse(Ctx, DRE) != VarUse::Read)
        return false;
    }
    for (const Stmt *Child : S->children())
      if (!clean(Child, Branches))
        return false;
    return true;
  }

  ASTContext &Ctx;
  const VarDecl *Array;
  ArrayRef<ArrayUse> Uses;
  const llvm::SmallPtrSetImpl<const VarDecl *> &Vars;
  const llvm::SmallPtrSetImpl<const Expr *> &Allowed;
  bool AllowLoads, AllowBranches;
};

void collectVars(const Stmt *S, llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      Out.insert(V);
  for (const Stmt *Child : S->children())
    collectVars(Child, Out);
}

/// The alignment nvcc gives \p Array in shared memory, in bytes.
int64_t sharedAlignment(ASTContext &Ctx, const VarDecl *Array, QualType Elem) {
  int64_t Align = Ctx.getTypeAlignInChars(Elem).getQuantity();
  Align = std::max<int64_t>(Align, Array->getMaxAlignment() / 8);
  if (Array->hasExternalStorage())
    Align = std::max<int64_t>(Align, 16);
  return Align;
}

} // namespace

SmallVector<IssuedAccess, 4>
issuedAccesses(ASTContext &Ctx, const VarDecl *Array, ArrayRef<ArrayUse> Uses,
               ArrayRef<std::optional<IndexPoly>> Addresses, int64_t ElemSize) {
  SmallVector<IssuedAccess, 4> Issued(Uses.size());
  // A pointer into the array may alias anything: keep every access.
  if (llvm::any_of(Uses, [](const ArrayUse &U) { return !U.IsAccess; }))
    return Issued;
  QualType Elem = Array->getType();
  while (const ArrayType *AT = Ctx.getAsArrayType(Elem))
    Elem = AT->getElementType();
  int64_t Align = sharedAlignment(Ctx, Array, Elem);
  auto Candidate = [&](unsigned I, ArrayUse::AccessKind Kind) {
    const ArrayUse &U = Uses[I];
    return U.IsAccess && U.Straight && U.Kind == Kind && Addresses[I] &&
           U.MemberOffset == 0 && U.AccessSize == ElemSize;
  };
  auto Split = [&](unsigned I) {
    IndexPoly P = *Addresses[I];
    int64_t C = 0;
    for (const auto &[M, K] : P.terms())
      if (M.empty())
        C = K;
    return std::make_pair(P - IndexPoly::constant(C), C);
  };
  auto Before = [&](unsigned A, unsigned B) {
    return Uses[A].StmtIndex < Uses[B].StmtIndex ||
           (Uses[A].StmtIndex == Uses[B].StmtIndex && A < B);
  };
  auto SubscriptVars = [&](ArrayRef<unsigned> Members) {
    llvm::SmallPtrSet<const VarDecl *, 8> Vars;
    for (unsigned M : Members)
      for (const Expr *Sub : Uses[M].Subscripts)
        collectVars(Sub, Vars);
    return Vars;
  };

  // Loads of an element that an earlier load in straight-line code read,
  // or an earlier store wrote: the earlier access runs whenever its
  // statement in some block B does, and the load is in that statement
  // (after it) or in a later statement of B, nested anywhere.
  for (unsigned I = 0; I < Uses.size(); ++I) {
    const ArrayUse &Load = Uses[I];
    if (!Load.IsAccess || Load.Kind != ArrayUse::Load || !Addresses[I] ||
        Load.MemberOffset != 0 || Load.AccessSize != ElemSize)
      continue;
    for (unsigned J = 0; J < I; ++J) {
      if (!(Candidate(J, ArrayUse::Load) || Candidate(J, ArrayUse::Store)) ||
          Issued[J].Kind == IssuedAccess::Reused ||
          *Addresses[J] != *Addresses[I])
        continue;
      auto Where = llvm::find_if(
          Load.Blocks, [&](const auto &B) { return B.first == Uses[J].Block; });
      // A store is seen by loads of later statements only (`s[i] = s[i] +
      // 1` loads first).
      if (Where == Load.Blocks.end() || Where->second < Uses[J].StmtIndex ||
          (Uses[J].Kind == ArrayUse::Store &&
           Where->second == Uses[J].StmtIndex))
        continue;
      auto Vars = SubscriptVars({I, J});
      llvm::SmallPtrSet<const Expr *, 4> Allowed;
      Allowed.insert(Uses[J].Access);
      Allowed.insert(Load.Access);
      SpanCheck Span(Ctx, Array, Uses, Vars, Allowed, /*AllowLoads=*/true,
                     /*AllowBranches=*/true);
      if (Span.keeps(Uses[J].Block, Uses[J].StmtIndex, Where->second)) {
        Issued[I].Kind = IssuedAccess::Reused;
        break;
      }
    }
  }

  // Adjacent elements of one thread merged into a vector access.
  for (unsigned Width : {4u, 2u}) {
    if (!llvm::is_contained({8, 16}, Width * ElemSize) ||
        Align < static_cast<int64_t>(Width) * ElemSize)
      continue;
    for (unsigned Head = 0; Head < Uses.size(); ++Head) {
      for (ArrayUse::AccessKind Kind : {ArrayUse::Load, ArrayUse::Store}) {
        if (!Candidate(Head, Kind) || Issued[Head].Kind != IssuedAccess::Own)
          continue;
        auto [P, C0] = Split(Head);
        if (positiveMod(C0, Width) != 0 ||
            llvm::any_of(P.terms(), [&](const auto &T) {
              return positiveMod(T.second, Width) != 0;
            }))
          continue;
        SmallVector<unsigned, 4> Members = {Head};
        for (unsigned K = 1; K < Width; ++K) {
          for (unsigned J = 0; J < Uses.size(); ++J) {
            if (J == Head || !Candidate(J, Kind) ||
                Issued[J].Kind != IssuedAccess::Own ||
                Uses[J].Block != Uses[Head].Block)
              continue;
            auto [PJ, CJ] = Split(J);
            if (PJ == P && CJ == C0 + K) {
              Members.push_back(J);
              break;
            }
          }
        }
        if (Members.size() != Width)
          continue;
        unsigned First = Uses[Head].StmtIndex, Last = First;
        llvm::SmallPtrSet<const Expr *, 4> Allowed;
        for (unsigned M : Members) {
          First = std::min(First, Uses[M].StmtIndex);
          Last = std::max(Last, Uses[M].StmtIndex);
          Allowed.insert(Uses[M].Access);
        }
        auto Vars = SubscriptVars(Members);
        SpanCheck Span(Ctx, Array, Uses, Vars, Allowed,
                       /*AllowLoads=*/Kind == ArrayUse::Load,
                       /*AllowBranches=*/false);
        if (!Span.keeps(Uses[Head].Block, First, Last))
          continue;
        Issued[Head] = {IssuedAccess::Vector, Width};
        for (unsigned M : Members)
          if (M != Head)
            Issued[M].Kind = IssuedAccess::InVector;
      }
    }
  }
  return Issued;
}

} // namespace clang::tidy::cuda::banks
