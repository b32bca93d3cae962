//===--- UnsynchronizedTimingCheck.cpp - cuda-lint ------------------------===//
//
// OpenCL best-practices guide 2.1.1 ("Using CPU Timers"): kernel launches
// and asynchronous transfers return before their work is done, so "to
// accurately measure the elapsed time for a particular call or sequence of
// calls, it is necessary to synchronize the CPU thread with the GPU ...
// immediately before starting and stopping the CPU timer".
//
//===----------------------------------------------------------------------===//

#include "UnsynchronizedTimingCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// What a statement does to the timing of GPU work, seen from the host.
enum class EffectKind {
  /// Nothing that matters: host computation, error checks, printing.
  Neutral,
  /// Queues GPU work and returns before it is done: a kernel launch, an
  /// asynchronous copy or memset, a graph launch.
  Async,
  /// Reads a host timer.
  Timer,
  /// Waits for the GPU, or may: a synchronizing call, or anything the
  /// analysis cannot see into (a function without a body, a call through a
  /// pointer, a CUDA call it does not know). Ends the search.
  Stop,
};

struct Effect {
  EffectKind Kind = EffectKind::Neutral;
  /// For Async: the stream variable the work is queued on, when it is one
  /// named variable; null for the default stream or anything else.
  const VarDecl *Stream = nullptr;
  /// For Async: whether the work is on the default stream or a stream
  /// variable that `Stream` names (false: not known).
  bool StreamKnown = false;
};

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

/// Classifies statements, with a summary of each user function that they
/// call.
class EffectClassifier {
public:
  explicit EffectClassifier(ASTContext &Ctx) : Ctx(Ctx) {}

  Effect classify(const Stmt *S, int Depth = 0) {
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

  /// The effect of calling \p FD (a destructor, a constructor) as a whole.
  Effect function(const FunctionDecl *FD, int Depth) {
    Effect E;
    if (!FD || FD->isTrivial() || inSystemHeader(FD, Ctx))
      return E;
    return summary(FD, Depth);
  }

private:
  Effect call(const CallExpr *Call, int Depth) {
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

  bool takesCallable(const CallExpr *Call) {
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

  Effect cudaCall(const CallExpr *Call, StringRef Name) {
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

  /// The effect of a user function as a whole: Stop when it may wait (or
  /// is not visible), Async when it queues work and never waits, Timer
  /// when it only reads a timer (a timing wrapper), Neutral otherwise.
  Effect summary(const FunctionDecl *FD, int Depth) {
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

  struct Entry {
    Effect Result;
    bool InProgress = false;
  };
  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, Entry> Summaries;
};

/// Whether \p S is a call of `cuda*Synchronize` (device, stream, event).
bool isSynchronizeCall(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName().starts_with("cuda") &&
         FD->getName().ends_with("Synchronize");
}

/// The statements of one function's CFG, in order, with their effects.
class TimingAnalysis {
public:
  TimingAnalysis(const CFG &G, EffectClassifier &C) : G(G) {
    for (const CFGBlock *B : G) {
      auto &Effects = ByBlock[B];
      for (const CFGElement &El : *B) {
        Item I;
        if (std::optional<CFGStmt> S = El.getAs<CFGStmt>()) {
          I.S = S->getStmt();
          I.E = C.classify(I.S);
        } else if (std::optional<CFGImplicitDtor> D =
                       El.getAs<CFGImplicitDtor>()) {
          // A local object's destructor (a scoped timer, a RAII wrapper).
          if (std::optional<CFGAutomaticObjDtor> Auto =
                  El.getAs<CFGAutomaticObjDtor>()) {
            if (const CXXRecordDecl *RD =
                    Auto->getVarDecl()->getType()->getAsCXXRecordDecl())
              I.E = C.function(RD->getDestructor(), 0);
            // A destructor that queues work or reads a timer has no
            // statement to report or to insert before: it ends the search.
            if (I.E.Kind != EffectKind::Neutral)
              I.E.Kind = EffectKind::Stop;
          } else {
            I.E.Kind = EffectKind::Stop;
          }
        }
        Effects.push_back(I);
      }
    }
  }

  struct Item {
    const Stmt *S = nullptr;
    Effect E;
  };

  /// Every timer read of the function: (block, index).
  template <typename Fn> void forEachTimer(Fn F) const {
    for (const CFGBlock *B : G) {
      const auto &Items = ByBlock.find(B)->second;
      for (unsigned I = 0; I < Items.size(); ++I)
        if (Items[I].E.Kind == EffectKind::Timer)
          F(B, I, Items[I].S);
    }
  }

  /// The asynchronous operations that reach element \p Index of \p B
  /// backwards on some path with neither a synchronization nor another
  /// timer read in between: the first one on each such path.
  llvm::SmallVector<const Item *, 4> pendingAt(const CFGBlock *B,
                                               unsigned Index) const {
    llvm::SmallVector<const Item *, 4> Found;
    llvm::SmallPtrSet<const CFGBlock *, 32> Visited;
    llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
    Work.push_back({B, Index});
    bool First = true;
    while (!Work.empty()) {
      auto [Block, End] = Work.pop_back_val();
      if (!First && !Visited.insert(Block).second)
        continue;
      First = false;
      const auto &Items = ByBlock.find(Block)->second;
      bool Ended = false;
      for (unsigned I = End; I-- > 0;) {
        const Item &It = Items[I];
        if (It.E.Kind == EffectKind::Neutral)
          continue;
        if (It.E.Kind == EffectKind::Async && !llvm::is_contained(Found, &It))
          Found.push_back(&It);
        Ended = true;
        break;
      }
      if (Ended)
        continue;
      for (const CFGBlock::AdjacentBlock &P : Block->preds())
        if (const CFGBlock *PB = P.getReachableBlock())
          Work.push_back(
              {PB, static_cast<unsigned>(ByBlock.find(PB)->second.size())});
    }
    return Found;
  }

  /// Where an item is: its block and index.
  std::pair<const CFGBlock *, unsigned> position(const Item *It) const {
    for (const CFGBlock *B : G) {
      const auto &Items = ByBlock.find(B)->second;
      for (unsigned I = 0; I < Items.size(); ++I)
        if (&Items[I] == It)
          return {B, I};
    }
    return {nullptr, 0};
  }

  /// Whether a timer read reaches \p It backwards on some path: the work
  /// it queues then falls inside a timed interval.
  bool timedBefore(const Item *It) const {
    auto [B, I] = position(It);
    return B && timerBefore(B, I);
  }

  /// Whether some path from \p It (an asynchronous operation) to the timer
  /// read at \p TB, \p TI goes through a synchronization: the program
  /// synchronizes on some paths (`if (last) cudaDeviceSynchronize();`, a
  /// loop of `cudaStreamSynchronize` that the CFG lets run zero times),
  /// which is taken as deliberate (often the paths that skip it cannot
  /// happen together).
  bool syncBetween(const Item *It, const CFGBlock *TB, unsigned TI) const {
    auto [AB, AI] = position(It);
    if (!AB)
      return true;
    // Blocks that reach the timer's block, and blocks that the operation's
    // block reaches.
    llvm::SmallPtrSet<const CFGBlock *, 32> ToTimer, FromOp;
    llvm::SmallVector<const CFGBlock *, 16> Work{TB};
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (!ToTimer.insert(B).second)
        continue;
      for (const CFGBlock::AdjacentBlock &P : B->preds())
        if (const CFGBlock *PB = P.getReachableBlock())
          Work.push_back(PB);
    }
    Work.push_back(AB);
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (!FromOp.insert(B).second)
        continue;
      for (const CFGBlock::AdjacentBlock &S : B->succs())
        if (const CFGBlock *SB = S.getReachableBlock())
          Work.push_back(SB);
    }
    bool Loop = false; // The operation's block is reached again.
    for (const CFGBlock *B : FromOp)
      for (const CFGBlock::AdjacentBlock &S : B->succs())
        Loop |= S.getReachableBlock() == AB;
    for (const CFGBlock *B : FromOp) {
      if (!ToTimer.count(B))
        continue;
      const auto &Items = ByBlock.find(B)->second;
      unsigned Begin = 0, End = Items.size();
      if (B == AB && !Loop)
        Begin = AI + 1;
      if (B == TB && !(B == AB && Loop))
        End = TI;
      if (B == AB && B == TB && AI < TI)
        Begin = AI + 1, End = TI;
      for (unsigned I = Begin; I < End; ++I)
        if (Items[I].E.Kind == EffectKind::Stop)
          return true;
    }
    return false;
  }

  /// Whether every path from the timer read at \p B, \p Index waits for
  /// the device and then reads a timer again, with no GPU work queued in
  /// between: `t0 = now(); cudaGraphLaunch(g, s); api = now();
  /// cudaStreamSynchronize(s); total = now();` measures the launch call's
  /// own latency (t0..api) on purpose, beside the work's time (t0..total).
  bool measuredAfterSync(const CFGBlock *B, unsigned Index,
                         llvm::SmallVectorImpl<const Stmt *> &Later) const {
    // Phase 0: before the synchronization; phase 1: after it.
    llvm::SmallPtrSet<const CFGBlock *, 32> Visited[2];
    llvm::SmallVector<std::tuple<const CFGBlock *, unsigned, int>, 16> Work;
    Work.push_back({B, Index + 1, 0});
    bool First = true;
    while (!Work.empty()) {
      auto [Block, Begin, Phase] = Work.pop_back_val();
      if (!First && !Visited[Phase].insert(Block).second)
        continue;
      First = false;
      const auto &Items = ByBlock.find(Block)->second;
      bool Ended = false;
      for (unsigned I = Begin; I < Items.size() && !Ended; ++I) {
        EffectKind K = Items[I].E.Kind;
        if (K == EffectKind::Neutral)
          continue;
        if (Phase == 0 && K == EffectKind::Stop) {
          // A synchronization, not any call the analysis cannot see into.
          if (!isSynchronizeCall(Items[I].S))
            return false;
          Phase = 1;
          continue;
        }
        if (Phase == 1 && K == EffectKind::Timer) {
          Later.push_back(Items[I].S);
          Ended = true;
          continue;
        }
        // Work queued, a timer read before any synchronization, or a second
        // synchronization before the timer: not that pattern.
        if (K != EffectKind::Stop)
          return false;
      }
      if (Ended)
        continue;
      if (Block->succ_empty())
        return false;
      for (const CFGBlock::AdjacentBlock &S : Block->succs())
        if (const CFGBlock *SB = S.getReachableBlock())
          Work.push_back({SB, 0, Phase});
    }
    return true;
  }

private:
  bool timerBefore(const CFGBlock *B, unsigned Index) const {
    llvm::SmallPtrSet<const CFGBlock *, 32> Visited;
    llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
    Work.push_back({B, Index});
    bool First = true;
    while (!Work.empty()) {
      auto [Block, End] = Work.pop_back_val();
      if (!First && !Visited.insert(Block).second)
        continue;
      First = false;
      const auto &Items = ByBlock.find(Block)->second;
      for (unsigned I = End; I-- > 0;)
        if (Items[I].E.Kind == EffectKind::Timer)
          return true;
      for (const CFGBlock::AdjacentBlock &P : Block->preds())
        if (const CFGBlock *PB = P.getReachableBlock())
          Work.push_back(
              {PB, static_cast<unsigned>(ByBlock.find(PB)->second.size())});
    }
    return false;
  }

  const CFG &G;
  llvm::DenseMap<const CFGBlock *, llvm::SmallVector<Item, 8>> ByBlock;
};

/// The variable \p E names, through parentheses and implicit casts.
const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The statement of a compound statement that \p E is part of, when \p E
/// is evaluated by that statement itself (an expression statement, a
/// declaration's initialiser, a return value), not by a nested statement
/// (a condition, a loop).
const Stmt *enclosingStatement(const Expr *E, ASTContext &Ctx) {
  DynTypedNode Cur = DynTypedNode::create(*E);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.size() != 1)
      return nullptr;
    const DynTypedNode &P = Parents[0];
    if (P.get<CompoundStmt>())
      return Cur.get<Stmt>();
    if (P.get<Expr>() || P.get<DeclStmt>() || P.get<ReturnStmt>() ||
        (P.get<VarDecl>() && !P.get<ParmVarDecl>())) {
      Cur = P;
      continue;
    }
    return nullptr;
  }
}

/// Whether \p V, a stream variable, keeps one value in \p F: every use is a
/// read, or its address passed to a cudaStreamCreate call.
bool isStableStream(const VarDecl *V, const FunctionDecl *F, ASTContext &Ctx) {
  struct Collector : RecursiveASTVisitor<Collector> {
    const VarDecl *V;
    llvm::SmallVector<const DeclRefExpr *, 8> Refs;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() == V)
        Refs.push_back(DRE);
      return true;
    }
  } C;
  C.V = V;
  C.TraverseStmt(F->getBody());
  for (const DeclRefExpr *Ref : C.Refs) {
    DynTypedNodeList Parents = Ctx.getParents(*Ref);
    const auto *P = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
        Cast && Cast->getCastKind() == CK_LValueToRValue)
      continue;
    const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return false;
    DynTypedNodeList Up = Ctx.getParents(*UO);
    const auto *Call = Up.empty() ? nullptr : Up[0].get<CallExpr>();
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    if (!FD || !FD->getIdentifier() ||
        !FD->getName().starts_with("cudaStreamCreate") || Call->getArg(0) != UO)
      return false;
  }
  return true;
}

/// Whether \p V is in scope at \p At, a statement of \p F.
bool inScopeAt(const VarDecl *V, const Stmt *At, const FunctionDecl *F,
               ASTContext &Ctx) {
  if (V->hasGlobalStorage() && !V->isStaticLocal())
    return true;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getDeclContext() == F;
  if (V->getDeclContext() != F)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isBeforeInTranslationUnit(V->getLocation(), At->getBeginLoc()))
    return false;
  // The compound statement that declares V must hold At.
  DynTypedNodeList Parents = Ctx.getParents(*V);
  const Stmt *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!DS)
    return false;
  DynTypedNodeList Up = Ctx.getParents(*DS);
  const auto *Scope = Up.empty() ? nullptr : Up[0].get<CompoundStmt>();
  if (!Scope)
    return false;
  DynTypedNode Cur = DynTypedNode::create(*At);
  while (true) {
    DynTypedNodeList Ps = Ctx.getParents(Cur);
    if (Ps.empty())
      return false;
    if (Ps[0].get<CompoundStmt>() == Scope)
      return true;
    Cur = Ps[0];
  }
}

/// The variable that the timer read \p Timer is stored to (`auto t =
/// now();`, `t = now();`), if any.
const VarDecl *timerVariable(const Expr *Timer, ASTContext &Ctx) {
  DynTypedNode Cur = DynTypedNode::create(*Timer);
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.size() != 1)
      return nullptr;
    const DynTypedNode &P = Parents[0];
    if (const auto *V = P.get<VarDecl>())
      return V;
    const Expr *Child = Cur.get<Expr>();
    if (const auto *BO = P.get<BinaryOperator>())
      return BO->getOpcode() == BO_Assign && BO->getRHS() == Child
                 ? refVar(BO->getLHS())
                 : nullptr;
    if (const auto *Op = P.get<CXXOperatorCallExpr>())
      return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
                     Op->getArg(1) == Child
                 ? refVar(Op->getArg(0))
                 : nullptr;
    if (!P.get<Expr>())
      return nullptr;
    Cur = P;
  }
  return nullptr;
}

/// Whether the timer read \p Timer ends an interval that the function
/// computes: its variable is the left operand of a subtraction (`stop -
/// start`).
bool endsInterval(const Expr *Timer, const FunctionDecl *F, ASTContext &Ctx) {
  const VarDecl *V = timerVariable(Timer, Ctx);
  if (!V)
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->getOpcode() == BO_Sub && refVar(BO->getLHS()) == V;
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      Found |= Op->getOperator() == OO_Minus && Op->getNumArgs() == 2 &&
               refVar(Op->getArg(0)) == V;
      return !Found;
    }
  } Fn;
  Fn.V = V;
  Fn.TraverseStmt(F->getBody());
  return Fn.Found;
}

} // namespace

void UnsynchronizedTimingCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(functionDecl(isDefinition(),
                                  unless(isExpansionInSystemHeader()),
                                  unless(matchers::isCudaDeviceFunction()))
                         .bind("function"),
                     this);
}

void UnsynchronizedTimingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Ctx = *Result.Context;
  if (!F->getBody() || F->isDependentContext() || F->isInvalidDecl())
    return;
  // A cheap filter: the function reads a timer directly or through a
  // wrapper it calls.
  EffectClassifier C(Ctx);
  {
    struct Finder : RecursiveASTVisitor<Finder> {
      EffectClassifier &C;
      bool Timer = false, Async = false;
      explicit Finder(EffectClassifier &C) : C(C) {}
      bool shouldVisitLambdaBody() const { return false; }
      bool VisitCallExpr(CallExpr *Call) {
        EffectKind K = C.classify(Call).Kind;
        Timer |= K == EffectKind::Timer;
        Async |= K == EffectKind::Async;
        return true;
      }
    } Pre(C);
    Pre.TraverseStmt(F->getBody());
    if (!Pre.Timer || !Pre.Async)
      return;
  }
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = true;
  std::unique_ptr<CFG> G = CFG::buildCFG(F, F->getBody(), &Ctx, Opts);
  if (!G)
    return;
  TimingAnalysis A(*G, C);
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<const Stmt *> Fixed;
  A.forEachTimer([&](const CFGBlock *B, unsigned Index, const Stmt *Timer) {
    llvm::SmallVector<const TimingAnalysis::Item *, 4> Pending =
        A.pendingAt(B, Index);
    const TimingAnalysis::Item *Shown = nullptr;
    for (const TimingAnalysis::Item *It : Pending) {
      if (A.syncBetween(It, B, Index))
        return;
      if (!Shown && A.timedBefore(It))
        Shown = It;
    }
    if (!Shown)
      return;
    // The launch call's own latency, measured on purpose next to the
    // work's time: the device is waited for right after this read, and
    // the clock read again.
    llvm::SmallVector<const Stmt *, 2> Later;
    if (A.measuredAfterSync(B, Index, Later) &&
        endsInterval(cast<Expr>(Timer), F, Ctx) &&
        llvm::all_of(Later, [&](const Stmt *T) {
          return endsInterval(cast<Expr>(T), F, Ctx);
        }))
      return;
    SourceLocation Loc = SM.getExpansionLoc(Timer->getBeginLoc());
    if (SM.isInSystemHeader(Loc) || !Reported.insert(Loc).second)
      return;

    // The fix: a synchronization before the statement that reads the
    // timer; the stream's when every pending operation names the same
    // stream variable, which is in scope there and never changes.
    std::string WhyNot;
    const Stmt *S = enclosingStatement(cast<Expr>(Timer), Ctx);
    std::string Sync = "cudaDeviceSynchronize();";
    if (!S)
      WhyNot = "the timer is read in a condition or a nested statement";
    else if (!S->getBeginLoc().isFileID() || !Timer->getBeginLoc().isFileID())
      WhyNot = "the timer is read in a macro";
    else if (!Fixed.insert(S).second)
      WhyNot = "already synchronized";
    if (WhyNot.empty()) {
      const VarDecl *Stream = Pending.front()->E.Stream;
      bool Same = llvm::all_of(Pending, [&](const TimingAnalysis::Item *It) {
        return It->E.StreamKnown && It->E.Stream == Stream;
      });
      if (Same && Stream && inScopeAt(Stream, S, F, Ctx) &&
          isStableStream(Stream, F, Ctx))
        Sync = ("cudaStreamSynchronize(" + Stream->getName() + ");").str();
    }

    {
      auto Diag = diag(Loc, "host timer read after asynchronous GPU work with "
                            "no synchronization in between: it measures the "
                            "launch, not the work");
      if (WhyNot.empty()) {
        SourceLocation Begin = S->getBeginLoc();
        std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(Begin);
        StringRef Buffer = SM.getBufferData(Pos.first);
        unsigned LineStart = Pos.second;
        while (LineStart > 0 && Buffer[LineStart - 1] != '\n')
          --LineStart;
        StringRef Indent = Buffer.slice(LineStart, Pos.second);
        if (Indent.find_first_not_of(" \t") == StringRef::npos)
          Diag << FixItHint::CreateInsertion(Begin, Sync + "\n" + Indent.str());
        else
          Diag << FixItHint::CreateInsertion(Begin, Sync + " ");
      }
    }
    const Stmt *Op = Shown->S;
    SourceLocation OpLoc = SM.getExpansionLoc(Op->getBeginLoc());
    if (isa<CUDAKernelCallExpr>(Op))
      diag(OpLoc, "the kernel launched here may still be running",
           DiagnosticIDs::Note);
    else if (const auto *Call = dyn_cast<CallExpr>(Op);
             Call && Call->getDirectCallee() &&
             Call->getDirectCallee()->getIdentifier())
      diag(OpLoc, "'%0' returns before the GPU work it queues is done",
           DiagnosticIDs::Note)
          << Call->getDirectCallee()->getName();
    else
      diag(OpLoc, "asynchronous GPU work queued here", DiagnosticIDs::Note);
    if (!WhyNot.empty() && WhyNot != "already synchronized")
      diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
  });
}

} // namespace clang::tidy::cuda
