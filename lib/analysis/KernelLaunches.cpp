//===--- KernelLaunches.cpp - cuda-lint -----------------------------------===//
//
// The kernel launches of a translation unit (see KernelLaunches.h): every
// launch and direct call, with blocks passed down through parameters
// followed to the calls that pass them. Launch configurations are
// evaluated in KernelLaunchConfig.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/KernelLaunches.h"
#include "KernelLaunchesImpl.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

namespace {

/// How many functions a block may be passed down through.
constexpr int MaxParameterDepth = 4;

/// The kernel that \p E names: `kernel`, `&kernel`, `(void *)kernel`.
const FunctionDecl *kernelNamed(const Expr *E, const DeclRefExpr **Ref) {
  while (true) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf) {
      E = UO->getSubExpr();
      continue;
    }
    break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  if (!FD || !isKernel(FD))
    return nullptr;
  *Ref = DRE;
  return FD;
}

class LaunchVisitor : public RecursiveASTVisitor<LaunchVisitor> {
public:
  LaunchVisitor(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Caller;
    unsigned SavedDepth = LoopDepth;
    if (FD->doesThisDeclarationHaveABody())
      Caller = FD, LoopDepth = 0;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Caller = Saved, LoopDepth = SavedDepth;
    return R;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    const FunctionDecl *Saved = Caller;
    unsigned SavedDepth = LoopDepth;
    if (FD->doesThisDeclarationHaveABody())
      Caller = FD, LoopDepth = 0;
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(FD);
    Caller = Saved, LoopDepth = SavedDepth;
    return R;
  }
  // Loops, for how often a launch or a call runs (frequencyOf).
#define CUDA_LINT_LOOP(Class)                                                  \
  bool Traverse##Class(Class *S) {                                             \
    ++LoopDepth;                                                               \
    bool R = RecursiveASTVisitor::Traverse##Class(S);                          \
    --LoopDepth;                                                               \
    return R;                                                                  \
  }
  CUDA_LINT_LOOP(ForStmt)
  CUDA_LINT_LOOP(WhileStmt)
  CUDA_LINT_LOOP(DoStmt)
  CUDA_LINT_LOOP(CXXForRangeStmt)
#undef CUDA_LINT_LOOP

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    const DeclRefExpr *Ref = nullptr;
    const FunctionDecl *Kernel = kernelNamed(Launch->getCallee(), &Ref);
    const CallExpr *Config = Launch->getConfig();
    if (!Kernel || !Config || Config->getNumArgs() < 2)
      return true;
    Consumed.insert(Ref);
    Calls.push_back({Kernel, Caller, LoopDepth > 0, true});
    add(Kernel, Config->getArg(1), Caller, 0, Config->getArg(0));
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && !isa<CUDAKernelCallExpr>(Call)) {
      // The calls of functions a launch's block may come from, through a
      // parameter. A template's pattern has its calls in its
      // instantiations, with the arguments evaluated.
      if (!Caller || !Caller->isDependentContext())
        CallsTo[Callee->getCanonicalDecl()].push_back({Call, Caller});
      Calls.push_back({Callee, Caller, LoopDepth > 0, false});
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
        Called.insert(DRE);
    }
    if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() < 3 ||
        isa<CUDAKernelCallExpr>(Call))
      return true;
    StringRef Name = Callee->getName();
    if (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel")
      return true;
    const DeclRefExpr *Ref = nullptr;
    if (const FunctionDecl *Kernel = kernelNamed(Call->getArg(0), &Ref)) {
      Consumed.insert(Ref);
      Calls.push_back({Kernel, Caller, LoopDepth > 0, true});
      add(Kernel, Call->getArg(2), Caller, 0, Call->getArg(1));
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      if (isKernel(FD)) {
        // `cudaFuncSetCacheConfig(k, ...)` launches nothing.
        if (!isKernelQueryArgument(Ctx, DRE))
          Refs.push_back(DRE);
      } else {
        FunctionRefs.push_back(DRE);
      }
    }
    return true;
  }

  /// The parameter of \p Caller that \p Block names (`threads` in
  /// `void run(dim3 threads) { k<<<g, threads>>>(); }`), when \p Caller
  /// never changes it.
  static const ParmVarDecl *parameterOf(const Expr *Block,
                                        const FunctionDecl *Caller) {
    if (!Block || !Caller || !Caller->getBody())
      return nullptr;
    const Expr *E = Block->IgnoreImplicit()->IgnoreParens();
    // A copy, or the `dim3(unsigned)` conversion of an integer.
    while (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
      if (Ctor->getNumArgs() < 1 ||
          !llvm::all_of(llvm::drop_begin(Ctor->arguments()), [](const Expr *A) {
            return isa<CXXDefaultArgExpr>(A);
          }))
        return nullptr;
      E = Ctor->getArg(0)->IgnoreImplicit()->IgnoreParens();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!P || P->getDeclContext() != Caller || !onlyReads(Caller->getBody(), P))
      return nullptr;
    return P;
  }

  /// Records the launch of \p Kernel with \p Block from \p From (\p Depth
  /// parameters up from the launch) and, at the launch itself, its \p Grid.
  void add(const FunctionDecl *Kernel, const Expr *Block,
           const FunctionDecl *From, int Depth, const Expr *Grid = nullptr) {
    KernelLaunches::Launches &L = Out[Kernel->getCanonicalDecl()];
    // A grid that depends on the launching template's arguments: its
    // instantiations have the values.
    if (Grid) {
      std::optional<BlockShape> G =
          KernelLaunches::evaluateDim3(Grid, From, Ctx);
      if (G) {
        if (!llvm::is_contained(L.Grids, *G))
          L.Grids.push_back(*G);
      } else if (!Grid->isValueDependent() && !Grid->isTypeDependent()) {
        L.GridUnknown = true;
      }
    }
    std::optional<BlockShape> S =
        KernelLaunches::evaluateBlock(Block, From, Ctx);
    // A block passed in by the caller: the values at its calls.
    if (!S && Depth < MaxParameterDepth)
      if (const ParmVarDecl *P = parameterOf(Block, From)) {
        Pending.push_back({Kernel, P, From, Depth});
        return;
      }
    std::optional<int64_t> X = S ? std::optional((*S)[0]) : blockX(Block, From);
    if (!X)
      L.XUnknown = true;
    else if (!llvm::is_contained(L.Xs, *X))
      L.Xs.push_back(*X);
    if (!S) {
      L.Unknown = true;
      return;
    }
    if (!llvm::is_contained(L.Shapes, *S))
      L.Shapes.push_back(*S);
  }

  /// The x extent of a `dim3(X, ...)` block argument whose other extents
  /// are not constants.
  std::optional<int64_t> blockX(const Expr *E, const FunctionDecl *From) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr()->IgnoreImplicit()->IgnoreParens();
    const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
    if (!Ctor || Ctor->getConstructor()->isCopyOrMoveConstructor() ||
        Ctor->getNumArgs() < 1)
      return std::nullopt;
    std::optional<int64_t> V = evaluateInt(Ctor->getArg(0), From, Ctx, 1);
    if (!V || *V <= 0 || *V > 1024)
      return std::nullopt;
    return V;
  }

  /// Whether the calls in this translation unit are all the calls of
  /// \p F: callsStayInFile, and its address is not taken.
  bool allCallsSeen(const FunctionDecl *F) {
    F = F->getCanonicalDecl();
    if (!CallsTo.count(F) || !callsStayInFile(F, Ctx.getSourceManager()))
      return false;
    for (const DeclRefExpr *DRE : FunctionRefs)
      if (DRE->getDecl()->getCanonicalDecl() == F && !Called.count(DRE))
        return false;
    return true;
  }

  /// Follows the blocks passed in through parameters to the calls that
  /// pass them: each call's argument is a launch of the kernel; where some
  /// call may not be seen, the block is unknown.
  void resolveParameters() {
    while (!Pending.empty()) {
      PendingLaunch PL = Pending.pop_back_val();
      KernelLaunches::Launches &L = Out[PL.Kernel->getCanonicalDecl()];
      unsigned Index = PL.P->getFunctionScopeIndex();
      if (!allCallsSeen(PL.From)) {
        L.Unknown = L.XUnknown = true;
        continue;
      }
      for (const auto &[Call, From] : CallsTo[PL.From->getCanonicalDecl()]) {
        const Expr *Arg = nullptr;
        if (Index < Call->getNumArgs() && !isa<CXXOperatorCallExpr>(Call))
          Arg = Call->getArg(Index);
        if (const auto *Default = dyn_cast_or_null<CXXDefaultArgExpr>(Arg))
          Arg = Default->getExpr();
        if (!Arg) {
          L.Unknown = L.XUnknown = true;
          continue;
        }
        add(PL.Kernel, Arg, From, PL.Depth + 1);
      }
    }
  }

  /// A kernel named other than by a launch read here (a function pointer,
  /// a launch this analysis does not know): launched with any shape.
  void finish() {
    resolveParameters();
    for (const DeclRefExpr *DRE : Refs)
      if (!Consumed.count(DRE)) {
        auto &L = Out[cast<FunctionDecl>(DRE->getDecl())->getCanonicalDecl()];
        L.Unknown = L.XUnknown = true;
        AddressTaken.insert(cast<FunctionDecl>(DRE->getDecl()));
      }
    for (const DeclRefExpr *DRE : FunctionRefs)
      if (!Called.count(DRE))
        AddressTaken.insert(cast<FunctionDecl>(DRE->getDecl()));
  }

  ASTContext &Ctx;
  const FunctionDecl *Caller = nullptr;
  llvm::DenseMap<const FunctionDecl *, KernelLaunches::Launches> Out;
  llvm::SmallVector<const DeclRefExpr *, 16> Refs;
  llvm::DenseSet<const DeclRefExpr *> Consumed;
  /// The calls of each function, with the function they are in.
  llvm::DenseMap<
      const FunctionDecl *,
      llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2>>
      CallsTo;
  /// References to functions other than kernels; those that are callees.
  llvm::SmallVector<const DeclRefExpr *, 64> FunctionRefs;
  llvm::DenseSet<const DeclRefExpr *> Called;
  /// Launches whose block is a parameter of the launching function.
  struct PendingLaunch {
    const FunctionDecl *Kernel;
    const ParmVarDecl *P;
    const FunctionDecl *From;
    int Depth;
  };
  llvm::SmallVector<PendingLaunch, 4> Pending;
  /// Every launch and direct call.
  std::vector<KernelLaunches::CallSite> Calls;
  llvm::DenseSet<const FunctionDecl *> AddressTaken;
  unsigned LoopDepth = 0;
};

} // namespace

bool callsStayInFile(const FunctionDecl *F, const SourceManager &SM) {
  F = F->getCanonicalDecl();
  if (isa<CXXMethodDecl>(F) || F->isMain())
    return false;
  if (!F->isExternallyVisible())
    return true;
  if (F->isExternC())
    return false;
  for (const FunctionDecl *R : F->redecls())
    if (!SM.isInMainFile(SM.getExpansionLoc(R->getLocation())))
      return false;
  return true;
}

KernelLaunches::KernelLaunches(ASTContext &Ctx) {
  LaunchVisitor V(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->isMain())
      HasMain = true;
    V.TraverseDecl(D);
  }
  V.finish();
  ByKernel = std::move(V.Out);
  recordSites(V.Calls, V.AddressTaken);
  // A file with compile errors may have lost launches and calls (a body
  // clang could not read): it says nothing of what is never launched.
  if (Ctx.getDiagnostics().hasErrorOccurred())
    HasMain = false;
  // A template kernel's body is analysed once, in its pattern: it is
  // launched with the union of its specialisations' launches.
  llvm::SmallVector<std::pair<const FunctionDecl *, Launches>, 4> Patterns;
  for (const auto &[Kernel, L] : ByKernel)
    if (const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern())
      Patterns.emplace_back(Pattern->getCanonicalDecl(), L);
  for (const auto &[Pattern, L] : Patterns) {
    Launches &Into = ByKernel[Pattern];
    Into.Unknown |= L.Unknown;
    Into.XUnknown |= L.XUnknown;
    Into.GridUnknown |= L.GridUnknown;
    for (const BlockShape &G : L.Grids)
      if (!llvm::is_contained(Into.Grids, G))
        Into.Grids.push_back(G);
    for (const BlockShape &S : L.Shapes)
      if (!llvm::is_contained(Into.Shapes, S))
        Into.Shapes.push_back(S);
    for (int64_t X : L.Xs)
      if (!llvm::is_contained(Into.Xs, X))
        Into.Xs.push_back(X);
  }
}

const KernelLaunches::Launches *
KernelLaunches::launchesOf(const FunctionDecl *Kernel) const {
  auto It = ByKernel.find(Kernel->getCanonicalDecl());
  return It == ByKernel.end() ? nullptr : &It->second;
}

std::optional<BlockShape>
KernelLaunches::onlyShape(const FunctionDecl *Kernel) const {
  const Launches *L = launchesOf(Kernel);
  if (!L || L->Unknown || L->Shapes.size() != 1)
    return std::nullopt;
  return L->Shapes.front();
}

std::optional<BlockShape>
KernelLaunches::onlyGrid(const FunctionDecl *Kernel) const {
  const Launches *L = launchesOf(Kernel);
  if (!L || L->Unknown || L->GridUnknown || L->Grids.size() != 1)
    return std::nullopt;
  return L->Grids.front();
}

std::optional<int64_t> KernelLaunches::onlyX(const FunctionDecl *Kernel) const {
  const Launches *L = launchesOf(Kernel);
  if (!L || L->XUnknown || L->Xs.size() != 1)
    return std::nullopt;
  return L->Xs.front();
}

std::optional<BlockShape>
KernelLaunches::largestShape(const FunctionDecl *Kernel) const {
  const Launches *L = launchesOf(Kernel);
  if (!L || L->Unknown || L->Shapes.empty())
    return std::nullopt;
  BlockShape Best = L->Shapes.front();
  for (const BlockShape &S : L->Shapes)
    if (S[0] * S[1] * S[2] > Best[0] * Best[1] * Best[2])
      Best = S;
  return Best;
}

} // namespace clang::tidy::cuda
