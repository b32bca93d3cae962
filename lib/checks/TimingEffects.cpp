//===--- TimingEffects.cpp - cuda-lint ------------------------------------===//
//
// The effects of statements on the timing of GPU work, for
// cuda-unsynchronized-timing (TimingEffects.h): the host timers, the CUDA
// runtime calls that queue work, and the summaries of user functions.
//
//===----------------------------------------------------------------------===//

#include "TimingEffects.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::cuda::timing {

namespace {

constexpr int MaxDepth = 4;

bool inSystemHeader(const Decl *D, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// The outermost namespace of \p D, or null at global scope.
const NamespaceDecl *outermostNamespace(const Decl *D) {
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  return Outer;
}

bool isStdClock(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->isStatic() || !MD->getIdentifier() || MD->getName() != "now")
    return false;
  // libstdc++ declares the clocks in an inline namespace of std::chrono.
  const auto *NS = dyn_cast<NamespaceDecl>(MD->getParent()->getDeclContext());
  while (NS && NS->isInline())
    NS = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "chrono";
}

bool isTimerName(StringRef Name) {
  static const llvm::StringSet<> Names = {"clock",         "gettimeofday",
                                          "clock_gettime", "MPI_Wtime",
                                          "omp_get_wtime", "timespec_get"};
  return Names.contains(Name);
}

/// CUDA runtime calls that queue work and return.
bool isAsyncCudaCall(StringRef Name) {
  static const llvm::StringSet<> Names = {
      "cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cudaLaunchKernelExC",
      "cudaMemsetAsync",  "cudaMemset2DAsync",           "cudaMemset3DAsync",
      "cudaGraphLaunch",  "cudaMemPrefetchAsync",        "cudaMemcpyPeerAsync"};
  return Names.contains(Name);
}

/// CUDA runtime calls that neither queue work nor wait for it.
bool isNeutralCudaCall(StringRef Name) {
  static const llvm::StringSet<> Names = {
      "__cudaPushCallConfiguration",
      "cudaConfigureCall",
      "cudaGetLastError",
      "cudaPeekAtLastError",
      "cudaGetErrorString",
      "cudaGetErrorName",
      "cudaEventRecord",
      "cudaEventRecordWithFlags",
      "cudaStreamWaitEvent",
      "cudaGetDevice",
      "cudaGetDeviceCount",
      "cudaGetDeviceProperties",
      "cudaDeviceGetAttribute",
      "cudaFuncSetAttribute",
      "cudaFuncSetCacheConfig",
      "cudaFuncGetAttributes",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
      "cudaOccupancyMaxPotentialBlockSize"};
  return Names.contains(Name);
}

/// Whether a cudaMemcpyKind argument is the constant \p Want.
bool isKind(const Expr *E, int64_t Want, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return false;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  Expr::EvalResult R;
  return E->EvaluateAsInt(R, Ctx) && R.Val.getInt().getExtValue() == Want;
}

enum : int64_t { HostToDevice = 1, DeviceToDevice = 3 };

/// The stream a queued operation names: its last argument for the runtime
/// calls, the fourth launch-configuration argument for `<<<...>>>`.
void streamOf(const Expr *E, Effect &Out) {
  if (!E || isa<CXXDefaultArgExpr>(E)) {
    Out.StreamKnown = true; // The default stream.
    return;
  }
  E = E->IgnoreParenCasts();
  if (isa<IntegerLiteral>(E) || isa<CXXNullPtrLiteralExpr>(E) ||
      isa<GNUNullExpr>(E)) {
    Out.StreamKnown = true;
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->getType()->isPointerType()) {
      Out.Stream = V;
      Out.StreamKnown = true;
    }
}

} // namespace

Effect EffectClassifier::classify(const Stmt *S, int Depth) {
  Effect E;
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    // A kernel that does nothing: a timer after its launch measures the
    // launch on purpose (launch-rate benchmarks).
    const FunctionDecl *Def = nullptr;
    if (const FunctionDecl *K = Launch->getDirectCallee();
        K && K->hasBody(Def) && Def)
      if (const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
          Body && Body->body_empty())
        return E;
    E.Kind = EffectKind::Async;
    const CallExpr *Config = Launch->getConfig();
    streamOf(Config && Config->getNumArgs() > 3 ? Config->getArg(3) : nullptr,
             E);
    return E;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return call(Call, Depth);
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S))
    return function(Ctor->getConstructor(), Depth);
  return E;
}

Effect EffectClassifier::function(const FunctionDecl *FD, int Depth) {
  Effect E;
  if (!FD || FD->isTrivial() || inSystemHeader(FD, Ctx))
    return E;
  return summary(FD, Depth);
}

Effect EffectClassifier::call(const CallExpr *Call, int Depth) {
  Effect E;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD) {
    // A call through a pointer, or a pseudo-destructor.
    if (isa<CXXPseudoDestructorExpr>(Call->getCallee()->IgnoreParens()))
      return E;
    E.Kind = EffectKind::Stop;
    return E;
  }
  if (isStdClock(FD)) {
    E.Kind = EffectKind::Timer;
    return E;
  }
  StringRef Name = FD->getIdentifier() ? FD->getName() : "";
  bool System = inSystemHeader(FD, Ctx);
  const NamespaceDecl *NS = outermostNamespace(FD);
  bool Global = !NS && !isa<CXXMethodDecl>(FD);
  if (Global && isTimerName(Name) && (System || !FD->hasBody())) {
    E.Kind = EffectKind::Timer;
    return E;
  }
  if (Global && Name.starts_with("cuda") && (System || !FD->hasBody()))
    return cudaCall(Call, Name);
  if (Global && Name == "__cudaPushCallConfiguration")
    return E;
  if (System) {
    // The C and C++ libraries: neither queue GPU work nor wait for it,
    // unless they call back into the program (a thread, a comparator).
    // Other libraries (cuBLAS, NCCL, MPI, Thrust, CUB) may do either.
    bool Library =
        (Global && !Name.starts_with("cu") && !Name.starts_with("nccl") &&
         !Name.starts_with("MPI") && !Name.starts_with("mpi") &&
         !Name.starts_with("omp") && !Name.starts_with("nvtx")) ||
        (NS && NS->getIdentifier() &&
         (NS->getName() == "std" || NS->getName() == "__gnu_cxx"));
    if (!Library || takesCallable(Call))
      E.Kind = EffectKind::Stop;
    return E;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
      !MD->getParent()->hasAttr<FinalAttr>()) {
    E.Kind = EffectKind::Stop;
    return E;
  }
  return summary(FD, Depth);
}

bool EffectClassifier::takesCallable(const CallExpr *Call) {
  for (const Expr *A : Call->arguments()) {
    QualType T = A->getType().getNonReferenceType();
    if (T->isFunctionPointerType() || T->isFunctionType() ||
        T->isMemberFunctionPointerType())
      return true;
    if (const auto *RD = T->getAsCXXRecordDecl())
      if (RD->isLambda() ||
          (RD->getIdentifier() && RD->getName() == "function"))
        return true;
  }
  return false;
}

Effect EffectClassifier::cudaCall(const CallExpr *Call, StringRef Name) {
  Effect E;
  unsigned N = Call->getNumArgs();
  if (isNeutralCudaCall(Name))
    return E;
  auto Async = [&]() {
    E.Kind = EffectKind::Async;
    streamOf(N ? Call->getArg(N - 1) : nullptr, E);
    if (!(N && Call->getArg(N - 1)->getType()->isPointerType()))
      E.StreamKnown = false;
    return E;
  };
  if (isAsyncCudaCall(Name))
    return Async();
  // Copies that return before the copy is done: host to device (the
  // source is staged, or pinned), device to device. A copy to the host
  // from device memory may wait for it (pageable memory).
  int KindArg = llvm::StringSwitch<int>(Name)
                    .Case("cudaMemcpyAsync", 3)
                    .Case("cudaMemcpy2DAsync", 6)
                    .Case("cudaMemcpyToSymbolAsync", 4)
                    .Default(-1);
  if (KindArg >= 0 && static_cast<unsigned>(KindArg) < N &&
      (isKind(Call->getArg(KindArg), HostToDevice, Ctx) ||
       isKind(Call->getArg(KindArg), DeviceToDevice, Ctx)))
    return Async();
  // A synchronous cudaMemcpy between two device buffers does not wait.
  if (Name == "cudaMemcpy" && N >= 4 &&
      isKind(Call->getArg(3), DeviceToDevice, Ctx)) {
    E.Kind = EffectKind::Async;
    E.StreamKnown = true;
    return E;
  }
  // Everything else waits, or may: cudaDeviceSynchronize,
  // cudaStreamSynchronize, cudaEventSynchronize, cudaMemcpy, cudaMemset
  // (synchronous for managed and pinned memory), cudaFree, queries that
  // spin loops wait on, and calls this list does not know.
  E.Kind = EffectKind::Stop;
  return E;
}

Effect EffectClassifier::summary(const FunctionDecl *FD, int Depth) {
  Effect E;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || Depth >= MaxDepth || isKernel(FD)) {
    E.Kind = EffectKind::Stop;
    return E;
  }
  auto [It, Inserted] = Summaries.try_emplace(Def);
  if (!Inserted) {
    if (It->second.InProgress)
      It->second.Result.Kind = EffectKind::Stop; // Recursion.
    return It->second.Result;
  }
  It->second.InProgress = true;
  struct Visitor : RecursiveASTVisitor<Visitor> {
    EffectClassifier &C;
    int Depth;
    bool Stop = false, Async = false, Timer = false;
    Visitor(EffectClassifier &C, int Depth) : C(C), Depth(Depth) {}
    bool shouldVisitLambdaBody() const { return false; }
    void add(const Stmt *S) {
      switch (C.classify(S, Depth + 1).Kind) {
      case EffectKind::Stop:
        Stop = true;
        break;
      case EffectKind::Async:
        Async = true;
        break;
      case EffectKind::Timer:
        Timer = true;
        break;
      case EffectKind::Neutral:
        break;
      }
    }
    bool VisitCallExpr(CallExpr *Call) {
      add(Call);
      return !Stop;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *Ctor) {
      add(Ctor);
      return !Stop;
    }
    bool VisitCXXDeleteExpr(CXXDeleteExpr *Del) {
      if (const CXXRecordDecl *RD =
              Del->getDestroyedType()->getAsCXXRecordDecl())
        if (const CXXDestructorDecl *D = RD->getDestructor())
          if (C.function(D, Depth + 1).Kind != EffectKind::Neutral)
            Stop = true;
      return !Stop;
    }
    bool VisitVarDecl(VarDecl *V) {
      // A local object's destructor runs at the end of its scope.
      if (const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl())
        if (const CXXDestructorDecl *D = RD->getDestructor())
          if (C.function(D, Depth + 1).Kind != EffectKind::Neutral)
            Stop = true;
      return !Stop;
    }
  } V(*this, Depth);
  V.TraverseStmt(Def->getBody());
  E.Kind = V.Stop || (V.Async && V.Timer) ? EffectKind::Stop
           : V.Async                      ? EffectKind::Async
           : V.Timer                      ? EffectKind::Timer
                                          : EffectKind::Neutral;
  // The caller cannot name the stream the function uses.
  auto &Entry = Summaries[Def];
  Entry.Result = E;
  Entry.InProgress = false;
  return E;
}

} // namespace clang::tidy::cuda::timing
