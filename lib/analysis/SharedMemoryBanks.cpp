//===--- SharedMemoryBanks.cpp - cuda-lint --------------------------------===//
//
// The shared-memory bank model of cuda-shared-bank-conflict (see
// SharedMemoryBanks.h): the block shape a function runs with and the
// degree of the bank conflict of one access. Value ranges of subscripts
// are in SharedMemoryRanges.cpp, the uses of an array and how they are
// issued in SharedMemoryAccesses.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/SharedMemoryBanks.h"
#include "SharedMemoryBanksImpl.h"
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

/// What \p Eval makes of the block argument of every launch of \p Kernel
/// in this translation unit, where all of them give one value (\p Same
/// compares two); nullopt when there is no launch, one that \p Eval cannot
/// evaluate, or two that differ.
template <typename T, typename EvalFn, typename SameFn>
std::optional<T> agreedBlock(ASTContext &Ctx, const FunctionDecl *Kernel,
                             LaunchSites &Sites, EvalFn Eval, SameFn Same) {
  Sites.collect(Ctx);
  std::optional<T> Agreed;
  for (const auto &[Launch, Caller] : Sites.Calls) {
    // The launch may name an earlier declaration of the kernel.
    const auto *Callee =
        dyn_cast_or_null<FunctionDecl>(Launch->getCalleeDecl());
    if (!Callee || Callee->getCanonicalDecl() != Kernel->getCanonicalDecl())
      continue;
    const CallExpr *Config = Launch->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return std::nullopt;
    std::optional<T> V = Eval(Config->getArg(1), Caller);
    if (!V || (Agreed && !Same(*Agreed, *V)))
      return std::nullopt;
    Agreed = V;
  }
  return Agreed;
}

/// The block shape every launch of \p Kernel in this translation unit uses,
/// or nullopt when there is none or they differ.
std::optional<BlockDims>
launchShape(ASTContext &Ctx, const FunctionDecl *Kernel, LaunchSites &Sites) {
  return agreedBlock<BlockDims>(
      Ctx, Kernel, Sites,
      [&](const Expr *Block, const auto &Caller) -> std::optional<BlockDims> {
        std::optional<cuda::BlockShape> B =
            KernelLaunches::evaluateBlock(Block, Caller, Ctx);
        if (!B)
          return std::nullopt;
        return BlockDims{(*B)[0], (*B)[1], (*B)[2]};
      },
      [](const BlockDims &A, const BlockDims &B) {
        return A.X == B.X && A.Y == B.Y && A.Z == B.Z;
      });
}

/// The x and y extents that every launch of \p Kernel agrees on, where
/// the z extent is known only at run time (`dim3(4, 8, z)`).
std::optional<std::pair<int64_t, int64_t>>
launchXY(ASTContext &Ctx, const FunctionDecl *Kernel, LaunchSites &Sites) {
  using XY = std::pair<int64_t, int64_t>;
  return agreedBlock<XY>(
      Ctx, Kernel, Sites,
      [&](const Expr *Block, const auto &Caller) -> std::optional<XY> {
        if (std::optional<cuda::BlockShape> B =
                KernelLaunches::evaluateBlock(Block, Caller, Ctx))
          return std::make_pair((*B)[0], (*B)[1]);
        return KernelLaunches::evaluateBlockXY(Block, Caller, Ctx);
      },
      [](const XY &A, const XY &B) { return A == B; });
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
  return constantIntValue(Ctx, E, 62);
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

//===--- Bank conflict degree ---------------------------------------------===//

namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}

} // namespace

int64_t positiveMod(int64_t A, int64_t B) { return ((A % B) + B) % B; }

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

} // namespace clang::tidy::cuda::banks
