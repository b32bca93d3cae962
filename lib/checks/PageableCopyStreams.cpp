//===--- PageableCopyStreams.cpp - cuda-lint ------------------------------===//
//
// The device side of an asynchronous copy, for cuda-pageable-async-copy
// (PageableCopyStreams.h): loops, streams, kernels in flight, stream
// capture.
//
//===----------------------------------------------------------------------===//

#include "PageableCopyStreams.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

namespace clang::tidy::cuda::pageable_copy {

namespace {

/// Whether \p S launches a kernel or calls a function whose name \p IsWork
/// accepts, directly or in a function it calls (one level deep; not a CUDA
/// API function).
bool callsDeviceWork(const Stmt *S, llvm::function_ref<bool(StringRef)> IsWork,
                     unsigned Depth = 0) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    llvm::function_ref<bool(StringRef)> IsWork;
    unsigned Depth;
    bool Found = false;
    Visitor(llvm::function_ref<bool(StringRef)> IsWork, unsigned Depth)
        : IsWork(IsWork), Depth(Depth) {}
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) {
      Found = true;
      return false;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return true;
      StringRef Name = FD->getName();
      if (IsWork(Name))
        Found = true;
      else if (Depth == 0 && !Name.starts_with("cuda"))
        if (const FunctionDecl *Def = FD->getDefinition();
            Def && Def->getBody() &&
            callsDeviceWork(Def->getBody(), IsWork, Depth + 1))
          Found = true;
      return !Found;
    }
  } Vis(IsWork, Depth);
  Vis.TraverseStmt(const_cast<Stmt *>(S));
  return Vis.Found;
}

/// True when \p Body launches a kernel or waits for the device: the work
/// that a copy repeated with it could overlap with, or the wait it adds to.
/// Kernel launches, `cudaLaunch*`, `cuda*Synchronize`, `cudaEventRecord`,
/// the synchronous copies and memsets, and calls of functions whose body
/// (one level deep) does one of these.
bool hasDeviceWork(const Stmt *Body) {
  return callsDeviceWork(Body, [](StringRef Name) {
    return Name.starts_with("cudaLaunch") || Name == "cudaEventRecord" ||
           (Name.starts_with("cuda") && Name.ends_with("Synchronize")) ||
           ((Name.starts_with("cudaMemcpy") ||
             Name.starts_with("cudaMemset")) &&
            !Name.ends_with("Async"));
  });
}

/// Whether \p S launches a kernel (directly, through `cudaLaunch*`, or in a
/// function it calls, one level deep).
bool launchesKernel(const Stmt *S) {
  return callsDeviceWork(
      S, [](StringRef Name) { return Name.starts_with("cudaLaunch"); });
}

/// Whether \p S waits for the whole device whenever it runs: a
/// `cudaDeviceSynchronize` (or `cudaThreadSynchronize`) call that no branch
/// or loop of \p S holds (a `do { ... } while (0)` of an error-checking
/// macro does not count as a loop).
bool waitsForDevice(const Stmt *S, ASTContext &Ctx) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getIdentifier() &&
        (FD->getName() == "cudaDeviceSynchronize" ||
         FD->getName() == "cudaThreadSynchronize"))
      return true;
  if (isa<IfStmt, SwitchStmt, ForStmt, WhileStmt, CXXForRangeStmt,
          ConditionalOperator, BinaryConditionalOperator, LambdaExpr>(S))
    return false;
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    Expr::EvalResult R;
    if (!(Do->getCond()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0))
      return false;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return waitsForDevice(BO->getLHS(), Ctx);
  for (const Stmt *Child : S->children())
    if (waitsForDevice(Child, Ctx))
      return true;
  return false;
}

} // namespace

bool walkUpToFunction(const Stmt *S, ASTContext &Ctx, bool AtFunction,
                      llvm::function_ref<std::optional<bool>(
                          const DynTypedNode &, const DynTypedNode &)>
                          Step) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>() || P.get<BlockDecl>())
      return AtFunction;
    if (std::optional<bool> Settled = Step(P, Node))
      return *Settled;
    Node = P;
  }
  return false;
}

/// True when \p S is repeated by a loop of its function (in its body,
/// condition or increment) that, for a copy to the device (\p ToDevice),
/// also launches a kernel or synchronizes: a loop that only uploads the
/// parts of a data structure one after another is a one-time upload.
bool inLoop(const Stmt *S, bool ToDevice, ASTContext &Ctx) {
  // One step up: \p P, the parent of \p Node.
  auto Step = [&](const DynTypedNode &P,
                  const DynTypedNode &Node) -> std::optional<bool> {
    const Stmt *Loop = nullptr;
    if (const auto *For = P.get<ForStmt>()) {
      if (Node.get<Stmt>() != For->getInit())
        Loop = For;
    } else if (const auto *Range = P.get<CXXForRangeStmt>()) {
      if (Node.get<Stmt>() == Range->getBody())
        Loop = Range;
    } else if (P.get<WhileStmt>() || P.get<DoStmt>()) {
      Loop = P.get<Stmt>();
    }
    if (Loop && (!ToDevice || hasDeviceWork(Loop)))
      return true;
    return std::nullopt;
  };
  return walkUpToFunction(S, Ctx, /*AtFunction=*/false, Step);
}

/// Whether \p F visibly uses more than one stream, so that a copy could
/// overlap with work on another: two streams other than the default one
/// among those of its asynchronous copies, memsets, kernel launches and
/// event records and those it creates, told apart by their spelling; or the
/// default stream (`0`, `NULL`, `nullptr`, `cudaStreamLegacy`,
/// `cudaStreamPerThread`, an omitted argument) with a stream created
/// `cudaStreamNonBlocking` (a stream created otherwise, or of unknown
/// origin, may be blocking, and its work does not overlap with the legacy
/// default stream's); an array of streams indexed by a variable, or
/// `cudaStreamWaitEvent`, is a pipeline by itself.
bool usesSeveralStreams(const FunctionDecl *F, ASTContext &Ctx,
                        bool *UsesDefault) {
  if (!F->getBody())
    return false;
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Ctx;
    llvm::StringSet<> Streams;
    bool Pipeline = false, Default = false, NonBlocking = false;
    explicit Visitor(ASTContext &Ctx) : Ctx(Ctx) {}
    void stream(const Expr *E) {
      if (!E || isa<CXXDefaultArgExpr>(E)) {
        Default = true;
        return;
      }
      const Expr *S = E->IgnoreParenImpCasts();
      if (S->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
        Default = true;
        return;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (DRE->getDecl()->getIdentifier() &&
            (DRE->getDecl()->getName() == "cudaStreamLegacy" ||
             DRE->getDecl()->getName() == "cudaStreamPerThread")) {
          Default = true;
          return;
        }
      // `s[i]`, or a local `cudaStream_t s = streams[i % 2];`.
      const Expr *Elt = S;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
            V && V->hasLocalStorage() && V->getInit())
          Elt = V->getInit()->IgnoreParenImpCasts();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Elt))
        if (!ASE->getIdx()->isIntegerConstantExpr(Ctx))
          Pipeline = true;
      // The spelling as printed, the same inside and outside macros.
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      S->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
      Streams.insert(Text);
    }
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *K) {
      const CallExpr *Config = K->getConfig();
      stream(Config && Config->getNumArgs() >= 4 ? Config->getArg(3) : nullptr);
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || !FD->getIdentifier() || isa<CUDAKernelCallExpr>(Call))
        return true;
      StringRef Name = FD->getName();
      auto Arg = [&](unsigned I) -> const Expr * {
        return I < Call->getNumArgs() ? Call->getArg(I) : nullptr;
      };
      if (Name == "cudaStreamWaitEvent") {
        Pipeline = true;
      } else if (Name.starts_with("cudaStreamCreate")) {
        const auto *AddrOf = dyn_cast_or_null<UnaryOperator>(
            Arg(0) ? Arg(0)->IgnoreParenImpCasts() : nullptr);
        if (AddrOf && AddrOf->getOpcode() == UO_AddrOf)
          stream(AddrOf->getSubExpr());
        else
          Pipeline = true;
        // cudaStreamCreateWithFlags(&s, flags), ...WithPriority(&s, flags, p).
        if (const Expr *Flags = Arg(1)) {
          Expr::EvalResult R;
          if (!Flags->isValueDependent() && Flags->EvaluateAsInt(R, Ctx) &&
              (R.Val.getInt().getZExtValue() & 1))
            NonBlocking = true;
        }
      } else if (Name == "cudaEventRecord" || Name == "cudaMemsetAsync" ||
                 Name == "cudaMemcpyAsync" || Name == "cudaMemcpy2DAsync" ||
                 Name == "cudaMemcpy3DAsync" ||
                 Name == "cudaMemcpyToSymbolAsync" ||
                 Name == "cudaMemcpyFromSymbolAsync") {
        unsigned I = Name == "cudaEventRecord"     ? 1
                     : Name == "cudaMemsetAsync"   ? 3
                     : Name == "cudaMemcpyAsync"   ? 4
                     : Name == "cudaMemcpy2DAsync" ? 7
                     : Name == "cudaMemcpy3DAsync" ? 1
                                                   : 5;
        stream(Arg(I));
      }
      return true;
    }
  } Vis(Ctx);
  Vis.TraverseStmt(F->getBody());
  if (UsesDefault)
    *UsesDefault = Vis.Default;
  return Vis.Pipeline || Vis.Streams.size() >= 2 ||
         (Vis.Default && Vis.NonBlocking);
}

/// Whether \p F reaches a stream it does not create: a parameter, a global
/// or a member of type `cudaStream_t` (or an array of, or a pointer to,
/// streams). Work its caller left running may be in flight on those.
bool usesCallersStreams(const FunctionDecl *F) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    bool Found = false;
    static bool isStream(QualType T) {
      while (true) {
        T = T.getNonReferenceType().getCanonicalType();
        if (const auto *PT = T->getAs<PointerType>())
          T = PT->getPointeeType();
        else if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
          T = AT->getElementType();
        else
          break;
      }
      const auto *RD = T->getAsRecordDecl();
      return RD && RD->getName() == "CUstream_st";
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (V && (isa<ParmVarDecl>(V) || !V->hasLocalStorage()) &&
          isStream(V->getType()))
        Found = true;
      return !Found;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      if (isStream(E->getType()))
        Found = true;
      return !Found;
    }
  } Vis;
  if (F->getBody())
    Vis.TraverseStmt(F->getBody());
  return Vis.Found;
}

/// Whether a kernel may still run on the device when the copy \p Call is
/// issued: a kernel launched earlier in its function (in the statements
/// before it, or anywhere in a loop that repeats it) with no wait for the
/// whole device in between. Without one, the copy has nothing in another
/// stream to overlap with (a set-up upload before the first launch, a
/// result download after a `cudaDeviceSynchronize`), whatever the streams.
/// The callers are not seen: work they left running may be in flight on
/// the streams they pass in (\p FromCaller), not on streams the function
/// creates itself.
bool kernelMayBeInFlight(const CallExpr *Call, bool FromCaller,
                         ASTContext &Ctx) {
  // One step up: \p P, the parent of \p Node.
  auto Step = [&](const DynTypedNode &P,
                  const DynTypedNode &Node) -> std::optional<bool> {
    const Stmt *Current = Node.get<Stmt>();
    if (const auto *Compound = P.get<CompoundStmt>(); Compound && Current) {
      // The statements before Current in this block, nearest first.
      auto Begin = Compound->body_begin();
      auto It = llvm::find(Compound->body(), Current);
      while (It != Begin) {
        --It;
        if (waitsForDevice(*It, Ctx))
          return false;
        if (launchesKernel(*It))
          return true;
      }
    }
    // A loop repeats what follows Current in it before Current runs again.
    if (const Stmt *Loop = P.get<Stmt>();
        Loop && isLoop(Loop, Ctx) && launchesKernel(Loop))
      return true;
    return std::nullopt;
  };
  return walkUpToFunction(Call, Ctx, /*AtFunction=*/FromCaller, Step);
}

/// Whether \p Call lies between a `cudaStreamBeginCapture` and the next
/// `cudaStreamEndCapture` of its function \p F, in source order: it is
/// recorded into a graph, not run.
bool inStreamCapture(const CallExpr *Call, const FunctionDecl *F,
                     ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::SmallVector<std::pair<SourceLocation, bool>, 4> Marks;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return true;
      StringRef Name = FD->getName();
      if (Name.starts_with("cudaStreamBeginCapture"))
        Marks.push_back({C->getBeginLoc(), true});
      else if (Name == "cudaStreamEndCapture")
        Marks.push_back({C->getBeginLoc(), false});
      return true;
    }
  } Fn;
  if (!F->getBody())
    return false;
  Fn.TraverseStmt(F->getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<bool> Last; // The last mark before the copy: begin or end.
  SourceLocation LastLoc;
  for (const auto &[Loc, Begin] : Fn.Marks)
    if (SM.isBeforeInTranslationUnit(Loc, Call->getBeginLoc()) &&
        (!Last || SM.isBeforeInTranslationUnit(LastLoc, Loc))) {
      Last = Begin;
      LastLoc = Loc;
    }
  return Last && *Last;
}

bool isLoop(const Stmt *S, ASTContext &Ctx) {
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    // `do { ... } while (0)` of a macro is not a loop.
    Expr::EvalResult R;
    return !(Do->getCond()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0);
  }
  return isa<ForStmt, WhileStmt, CXXForRangeStmt>(S);
}

} // namespace clang::tidy::cuda::pageable_copy
