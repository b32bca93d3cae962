//===--- PageableAsyncCopyCheck.cpp - cuda-lint ---------------------------===//
//
// OpenCL best-practices guide 3.1.1 ("Pinned Memory") and 3.1.3
// ("Overlapping Transfers and Device Computation"): overlapping transfers
// with kernels requires "host side memory buffers using pinned memory". An
// asynchronous copy from or to pageable memory is staged through a pinned
// buffer by the driver and does not overlap.
//
//===----------------------------------------------------------------------===//

#include "PageableAsyncCopyCheck.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/HostMemory.h"
#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

// cudaMemcpyKind.
enum : int64_t {
  HostToHost = 0,
  HostToDevice = 1,
  DeviceToHost = 2,
  DeviceToDevice = 3,
  Default = 4
};

/// The host-side pointer arguments of a copy and its kind argument.
struct CopyShape {
  int Dst = -1, Src = -1, Kind = -1;
  /// The byte count (Size), or the width in bytes and the height of a 2D
  /// copy (Size, Height); the stream.
  int Size = -1, Height = -1, Stream = -1;
  /// `cudaMemcpy3DAsync(&parms, stream)`: the pointers and the kind are
  /// fields of a `cudaMemcpy3DParms`.
  bool Parms = false;
};

CopyShape shapeOf(StringRef Name) {
  CopyShape S;
  if (Name == "cudaMemcpyAsync") {
    S.Dst = 0, S.Src = 1, S.Kind = 3, S.Size = 2, S.Stream = 4;
  } else if (Name == "cudaMemcpy2DAsync") {
    S.Dst = 0, S.Src = 2, S.Kind = 6, S.Size = 4, S.Height = 5, S.Stream = 7;
  } else if (Name == "cudaMemcpyToSymbolAsync") {
    S.Src = 1, S.Kind = 4, S.Size = 2, S.Stream = 5;
  } else if (Name == "cudaMemcpyFromSymbolAsync") {
    S.Dst = 0, S.Kind = 4, S.Size = 2, S.Stream = 5;
  } else if (Name == "cudaMemcpy3DAsync") {
    S.Parms = true, S.Stream = 1;
  }
  return S;
}

std::optional<int64_t> evaluateKind(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// The values assigned to the fields of a local `cudaMemcpy3DParms`:
/// `p.srcPtr = make_cudaPitchedPtr(h, ...)`, `p.srcPtr.ptr = h`,
/// `p.kind = cudaMemcpyHostToDevice`. Unknown (false) when the variable is
/// used otherwise than so and by cudaMemcpy3D calls.
struct ParmsFields {
  llvm::SmallVector<const Expr *, 2> Src, Dst, Kind, Extent;
};

bool collectParms(const VarDecl *V, const Stmt *Body, ParmsFields &Out) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const VarDecl *V;
    ParmsFields &Out;
    bool OK = true;
    Visitor(const VarDecl *V, ParmsFields &Out) : V(V), Out(Out) {}
    /// `p.a.b` -> p, with the names of the members.
    const DeclRefExpr *base(const Expr *E, SmallVectorImpl<StringRef> &Path) {
      E = E->IgnoreParenImpCasts();
      while (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (!ME->getMemberDecl()->getIdentifier())
          return nullptr;
        Path.insert(Path.begin(), ME->getMemberDecl()->getName());
        E = ME->getBase()->IgnoreParenImpCasts();
      }
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && DRE->getDecl() == V ? DRE : nullptr;
    }
    void assign(const Expr *LHS, const Expr *RHS) {
      SmallVector<StringRef, 2> Path;
      if (!base(LHS, Path))
        return;
      if (Path.size() == 1 && Path[0] == "kind")
        Out.Kind.push_back(RHS);
      else if (Path.size() == 1 && Path[0] == "extent")
        Out.Extent.push_back(RHS);
      else if (!Path.empty() && Path[0] == "extent")
        Out.Extent.push_back(nullptr); // A part of it: not followed.
      else if (!Path.empty() && (Path[0] == "srcPtr" || Path[0] == "dstPtr") &&
               (Path.size() == 1 || (Path.size() == 2 && Path[1] == "ptr")))
        (Path[0] == "srcPtr" ? Out.Src : Out.Dst).push_back(RHS);
      else if (Path.empty() || Path[0] == "srcPtr" || Path[0] == "dstPtr")
        OK = false; // The whole struct, or a part of a pointer field.
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign)
        assign(BO->getLHS(), BO->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      // Struct fields (`p.srcPtr = make_cudaPitchedPtr(...)`) are assigned
      // through the implicit copy assignment operator.
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        assign(Op->getArg(0), Op->getArg(1));
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      SmallVector<StringRef, 2> Path;
      if (UO->getOpcode() == UO_AddrOf && base(UO->getSubExpr(), Path) &&
          !Path.empty())
        OK = false; // `&p.srcPtr` escapes.
      return true;
    }
  } Vis(V, Out);
  Vis.TraverseStmt(const_cast<Stmt *>(Body));
  return Vis.OK;
}

/// The expression of the pointer in a `cudaPitchedPtr` value:
/// `make_cudaPitchedPtr(h, ...)` gives h; a `.ptr` assignment is the pointer
/// itself.
const Expr *pitchedPointer(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isPointerType())
    return E;
  if (const auto *Call = dyn_cast<CallExpr>(E->IgnoreImplicit()))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getIdentifier() && FD->getName() == "make_cudaPitchedPtr" &&
        Call->getNumArgs() >= 1)
      return Call->getArg(0);
  return nullptr;
}

/// The largest host-to-device copy, in bytes, that is asynchronous with
/// respect to the host even from pageable memory (CUDA C++ Programming
/// Guide, "Concurrent Execution between Host and Device": "Memory copies
/// from host to device of a memory block of 64 KB or less").
constexpr uint64_t SmallCopyBytes = 64 * 1024;

/// The value of the integer expression \p E when it is a constant: a
/// constant expression (`sizeof`, literals, macros, `constexpr` and `const`
/// variables), or sums, products and shifts of constants and of local
/// variables of \p F that are never changed after a constant initialiser
/// (`int n = 1024; ... n * sizeof(int)`).
std::optional<uint64_t> foldBytes(const Expr *E, const FunctionDecl *F,
                                  ASTContext &Ctx, unsigned Depth = 0) {
  if (!E || Depth > 8 || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx)) {
    const llvm::APSInt &V = R.Val.getInt();
    if (V.isSigned() && V.isNegative())
      return std::nullopt;
    if (V.getActiveBits() > 63)
      return std::nullopt;
    return V.getZExtValue();
  }
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    // Integer conversions (a count of `int` times a `size_t` sizeof); a
    // narrowing conversion of a value that fits keeps it.
    if (!Cast->getSubExpr()->getType()->isIntegerType() ||
        !E->getType()->isIntegerType())
      return std::nullopt;
    std::optional<uint64_t> V =
        foldBytes(Cast->getSubExpr(), F, Ctx, Depth + 1);
    uint64_t Width = Ctx.getTypeSize(E->getType());
    if (E->getType()->isSignedIntegerType())
      --Width;
    if (!V || (Width < 64 && (*V >> Width)))
      return std::nullopt;
    return V;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    std::optional<uint64_t> L = foldBytes(BO->getLHS(), F, Ctx, Depth + 1);
    std::optional<uint64_t> Rv = foldBytes(BO->getRHS(), F, Ctx, Depth + 1);
    if (!L || !Rv)
      return std::nullopt;
    uint64_t Out;
    switch (BO->getOpcode()) {
    case BO_Mul:
      if (__builtin_mul_overflow(*L, *Rv, &Out))
        return std::nullopt;
      return Out;
    case BO_Add:
      if (__builtin_add_overflow(*L, *Rv, &Out))
        return std::nullopt;
      return Out;
    case BO_Shl:
      if (*Rv >= 63 || (*L >> (63 - *Rv)))
        return std::nullopt;
      return *L << *Rv;
    default:
      return std::nullopt;
    }
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
      !V->getType()->isIntegerType() || !F->getBody() ||
      V->getType()->isReferenceType())
    return std::nullopt;
  // Never changed: every reference in the function only reads it.
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Ctx;
    const VarDecl *V;
    bool Changed = false;
    Visitor(ASTContext &Ctx, const VarDecl *V) : Ctx(Ctx), V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == V && classifyVarUse(Ctx, Ref) != VarUse::Read)
        Changed = true;
      return !Changed;
    }
  } Vis(Ctx, V);
  Vis.TraverseStmt(F->getBody());
  if (Vis.Changed)
    return std::nullopt;
  return foldBytes(V->getInit(), F, Ctx, Depth + 1);
}

/// The bytes of a `make_cudaExtent(width, height, depth)` with constant
/// arguments.
std::optional<uint64_t> extentBytes(const Expr *E, const FunctionDecl *F,
                                    ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  const auto *Call =
      dyn_cast<CallExpr>(E->IgnoreParenImpCasts()->IgnoreImplicit());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "make_cudaExtent" ||
      Call->getNumArgs() != 3)
    return std::nullopt;
  uint64_t Bytes = 1;
  for (const Expr *A : Call->arguments()) {
    std::optional<uint64_t> V = foldBytes(A, F, Ctx);
    if (!V || __builtin_mul_overflow(Bytes, *V, &Bytes))
      return std::nullopt;
  }
  return Bytes;
}

/// True when \p Body launches a kernel or waits for the device: the work
/// that a copy repeated with it could overlap with, or the wait it adds to.
/// Kernel launches, `cudaLaunch*`, `cuda*Synchronize`, `cudaEventRecord`,
/// the synchronous copies and memsets, and calls of functions whose body
/// (one level deep) does one of these.
bool hasDeviceWork(const Stmt *Body, unsigned Depth = 0) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    unsigned Depth;
    bool Found = false;
    explicit Visitor(unsigned Depth) : Depth(Depth) {}
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) {
      Found = true;
      return false;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return true;
      StringRef Name = FD->getName();
      if (Name.starts_with("cudaLaunch") || Name == "cudaEventRecord" ||
          (Name.starts_with("cuda") && Name.ends_with("Synchronize")) ||
          ((Name.starts_with("cudaMemcpy") || Name.starts_with("cudaMemset")) &&
           !Name.ends_with("Async")))
        Found = true;
      else if (Depth == 0 && !Name.starts_with("cuda"))
        if (const FunctionDecl *Def = FD->getDefinition();
            Def && Def->getBody() && hasDeviceWork(Def->getBody(), Depth + 1))
          Found = true;
      return !Found;
    }
  } Vis(Depth);
  Vis.TraverseStmt(const_cast<Stmt *>(Body));
  return Vis.Found;
}

/// True when \p S is repeated by a loop of its function (in its body,
/// condition or increment) that, for a copy to the device (\p ToDevice),
/// also launches a kernel or synchronizes: a loop that only uploads the
/// parts of a data structure one after another is a one-time upload.
bool inLoop(const Stmt *S, bool ToDevice, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>() || P.get<BlockDecl>())
      return false;
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
    Node = P;
  }
  return false;
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
                        bool *UsesDefault = nullptr) {
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

bool isLoop(const Stmt *S, ASTContext &Ctx);

/// The variable whose value, or whose element, \p E names: `fns`, `fns[j]`,
/// `*fns`.
const VarDecl *storageOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      E = ASE->getBase()->IgnoreParenImpCasts();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    else
      break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool isAllocation(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (isa<CXXNewExpr>(E))
    return true;
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() &&
         llvm::is_contained({"malloc", "calloc"}, FD->getName());
}

bool addCallTargets(const Expr *E, llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
                    SmallVectorImpl<const FunctionDecl *> &Out);

/// Adds the functions that \p V (a function pointer, or an array or a
/// buffer of them) can hold: every value stored into it in the translation
/// unit must be a function, an element of another such variable, or (for
/// the variable itself) a fresh allocation, and the variable must not be
/// used otherwise (its address passed on, an extern or a parameter).
bool addStoredTargets(const VarDecl *V,
                      llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
                      SmallVectorImpl<const FunctionDecl *> &Out) {
  if (!Seen.insert(V).second)
    return true;
  if (isa<ParmVarDecl>(V) || V->hasExternalStorage() || Seen.size() > 8)
    return false;
  if (const Expr *Init = V->getInit()) {
    if (const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreParenImpCasts())) {
      for (const Expr *X : IL->inits())
        if (!isa<ImplicitValueInitExpr>(X) && !addCallTargets(X, Seen, Out))
          return false;
    } else if (!isAllocation(Init) && !addCallTargets(Init, Seen, Out)) {
      return false;
    }
  }
  // Every use must be one of: a store (`V[i] = X`, `V = malloc(...)`), a
  // call through an element, a copy of an element into another variable
  // (whose own stores are followed from there), `free(V)`.
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const VarDecl *V;
    llvm::SmallPtrSetImpl<const VarDecl *> &Seen;
    SmallVectorImpl<const FunctionDecl *> &Out;
    unsigned Uses = 0, Accounted = 0;
    bool Ok = true;
    Visitor(const VarDecl *V, llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
            SmallVectorImpl<const FunctionDecl *> &Out)
        : V(V), Seen(Seen), Out(Out) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool isElementOfV(const Expr *E) const {
      E = E->IgnoreParenImpCasts();
      return (isa<ArraySubscriptExpr>(E) || isa<UnaryOperator>(E)) &&
             storageOf(E) == V;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Uses += DRE->getDecl() == V;
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign)
        return true;
      if (storageOf(BO->getLHS()) == V) {
        ++Accounted;
        bool Whole = isa<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        if (!(Whole && isAllocation(BO->getRHS())) &&
            !addCallTargets(BO->getRHS(), Seen, Out))
          Ok = false;
      }
      Accounted += isElementOfV(BO->getRHS());
      return Ok;
    }
    bool VisitVarDecl(VarDecl *D) {
      Accounted += D != V && D->getInit() && isElementOfV(D->getInit());
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD && storageOf(Call->getCallee()) == V)
        ++Accounted;
      else if (FD && FD->getIdentifier() && FD->getName() == "free" &&
               Call->getNumArgs() == 1 && storageOf(Call->getArg(0)) == V)
        ++Accounted;
      return true;
    }
  } Vis(V, Seen, Out);
  Vis.TraverseDecl(V->getASTContext().getTranslationUnitDecl());
  return Vis.Ok && Vis.Uses == Vis.Accounted;
}

/// Adds the functions \p E (the callee of a call through a pointer, or a
/// value stored into one) can be: `f`, `&f`, `fns[j]`.
bool addCallTargets(const Expr *E, llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
                    SmallVectorImpl<const FunctionDecl *> &Out) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      Out.push_back(FD);
      return true;
    }
  const VarDecl *V = storageOf(E);
  return V && V->getType()->isFunctionPointerType() == isa<DeclRefExpr>(E) &&
         addStoredTargets(V, Seen, Out);
}

/// The functions a call through a pointer can reach, when the pointer's
/// every value is visible in this translation unit (crs calls
/// `coding_function_ptrs[j](...)`, a buffer filled from
/// `void (*coding_func_array[])(...) = {m_1_w_4_coding, ...}`); empty when
/// they are not known.
SmallVector<const FunctionDecl *, 8> callTargets(const CallExpr *Call) {
  SmallVector<const FunctionDecl *, 8> Out;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  if (Call->getDirectCallee() || !addCallTargets(Call->getCallee(), Seen, Out))
    Out.clear();
  return Out;
}

bool launchesOnlyThrough(const CallExpr *Call);

/// Whether \p S does nothing on the host but issue device work: kernel
/// launches, CUDA runtime calls, declarations and updates of local scalars
/// (a launch loop's offsets), in blocks, branches and loops of those; with
/// \p Depth 0, also calls of functions whose body is such (a wrapper that
/// only launches). Such a statement takes no host time worth overlapping.
bool launchesOnly(const Stmt *S, unsigned Depth = 0) {
  if (!S || isa<NullStmt>(S))
    return true;
  auto CallOnly = [&](const Expr *E) {
    // No call but kernel launches, CUDA runtime calls and launch wrappers.
    struct Visitor : RecursiveASTVisitor<Visitor> {
      unsigned Depth;
      bool Ok = true;
      explicit Visitor(unsigned Depth) : Depth(Depth) {}
      bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *) { return true; }
      bool VisitCallExpr(CallExpr *Call) {
        const FunctionDecl *FD = Call->getDirectCallee();
        if (FD && FD->getIdentifier() &&
            (FD->getName().starts_with("cuda") ||
             FD->getName().starts_with("__cuda")))
          return true;
        const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
        if (Depth == 0 && Def && Def->getBody() &&
            launchesOnly(Def->getBody(), Depth + 1))
          return true;
        if (Depth == 0 && !FD && launchesOnlyThrough(Call))
          return true;
        Ok = false;
        return false;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr *E) {
        const CXXConstructorDecl *Ctor = E->getConstructor();
        if (!Ctor->isTrivial() && !Ctor->isConstexpr() &&
            Ctor->getParent()->getName() != "dim3")
          Ok = false;
        return Ok;
      }
    } Vis(Depth);
    Vis.TraverseStmt(const_cast<Expr *>(E));
    return Vis.Ok;
  };
  auto LocalScalar = [](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && V->getType()->isScalarType();
  };
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(C->body(),
                        [&](const Stmt *X) { return launchesOnly(X, Depth); });
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return llvm::all_of(DS->decls(), [&](const Decl *D) {
      const auto *V = dyn_cast<VarDecl>(D);
      return V && (!V->getInit() || CallOnly(V->getInit()));
    });
  if (const auto *For = dyn_cast<ForStmt>(S))
    return launchesOnly(For->getInit(), Depth) &&
           (!For->getCond() || CallOnly(For->getCond())) &&
           (!For->getInc() || CallOnly(For->getInc())) &&
           launchesOnly(For->getBody(), Depth);
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return CallOnly(While->getCond()) && launchesOnly(While->getBody(), Depth);
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return CallOnly(Do->getCond()) && launchesOnly(Do->getBody(), Depth);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return (!If->getInit() || launchesOnly(If->getInit(), Depth)) &&
           CallOnly(If->getCond()) && launchesOnly(If->getThen(), Depth) &&
           launchesOnly(If->getElse(), Depth);
  if (const auto *E = dyn_cast<Expr>(S)) {
    E = E->IgnoreParenImpCasts();
    if (isa<CUDAKernelCallExpr>(E))
      return CallOnly(E);
    if (isa<CallExpr>(E))
      return CallOnly(E);
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->isIncrementDecrementOp() && LocalScalar(UO->getSubExpr());
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma)
        return launchesOnly(BO->getLHS(), Depth) &&
               launchesOnly(BO->getRHS(), Depth);
      return BO->isAssignmentOp() && LocalScalar(BO->getLHS()) &&
             CallOnly(BO->getRHS());
    }
    return false;
  }
  return false;
}

/// Whether \p Call, a call through a function pointer, can only reach
/// functions that only launch kernels (see callTargets).
bool launchesOnlyThrough(const CallExpr *Call) {
  SmallVector<const FunctionDecl *, 8> Targets = callTargets(Call);
  return !Targets.empty() && llvm::all_of(Targets, [](const FunctionDecl *F) {
    const FunctionDecl *Def = F->getDefinition();
    return Def && Def->getBody() && launchesOnly(Def->getBody(), 1);
  });
}

/// Whether \p S launches a kernel (directly, through `cudaLaunch*`, or in a
/// function it calls, one level deep).
bool launchesKernel(const Stmt *S, unsigned Depth = 0) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    unsigned Depth;
    bool Found = false;
    explicit Visitor(unsigned Depth) : Depth(Depth) {}
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) {
      Found = true;
      return false;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return true;
      if (FD->getName().starts_with("cudaLaunch"))
        Found = true;
      else if (Depth == 0 && !FD->getName().starts_with("cuda"))
        if (const FunctionDecl *Def = FD->getDefinition();
            Def && Def->getBody() && launchesKernel(Def->getBody(), Depth + 1))
          Found = true;
      return !Found;
    }
  } Vis(Depth);
  Vis.TraverseStmt(const_cast<Stmt *>(S));
  return Vis.Found;
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
  DynTypedNode Node = DynTypedNode::create(*static_cast<const Stmt *>(Call));
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>() || P.get<BlockDecl>())
      return FromCaller;
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
    Node = P;
  }
  return false;
}

/// What a statement after a copy does on the host.
enum class Step {
  /// Nothing that takes host time: declarations and arithmetic without
  /// calls, CUDA runtime calls that do not block, kernel launches.
  None,
  /// Waits for the device: a `cuda*Synchronize`, a synchronous copy, a
  /// `cudaFree`. (A copy to pageable memory waits too, but it is a finding
  /// of its own: pinned, it would not.)
  Sync,
  /// Host work: a call of another function (but console output) or a
  /// loop.
  Host
};

Step classify(const Stmt *S, const FunctionDecl *F, ASTContext &Ctx) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const FunctionDecl *F;
    ASTContext &Ctx;
    bool Sync = false, Host = false;
    Visitor(const FunctionDecl *F, ASTContext &Ctx) : F(F), Ctx(Ctx) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (isa<CUDAKernelCallExpr>(Call))
        return true;
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD && launchesOnlyThrough(Call))
        return true;
      if (!FD || !FD->getIdentifier()) {
        Host = true;
        return true;
      }
      StringRef Name = FD->getName();
      // The launch configuration of a kernel call.
      if (Name.starts_with("__cuda"))
        return true;
      if ((Name.starts_with("cuda") && Name.ends_with("Synchronize")) ||
          (Name.starts_with("cudaMemcpy") && !Name.ends_with("Async")) ||
          Name == "cudaFree" || Name == "cudaFreeHost") {
        Sync = true;
        return false;
      }
      // Console output is not work worth overlapping, nor a call of a
      // function that only launches kernels.
      if (!Name.starts_with("cuda") && !Name.starts_with("__builtin") &&
          !llvm::is_contained(
              {"printf", "fprintf", "puts", "fputs", "putchar", "fflush"},
              Name)) {
        const FunctionDecl *Def = FD->getDefinition();
        if (!Def || !Def->getBody() || !launchesOnly(Def->getBody(), 1))
          Host = true;
      }
      return true;
    }
    bool TraverseCallExpr(CallExpr *Call) {
      // The arguments of a CUDA runtime call (`v.data()`, `v.size()`) are
      // not host work of their own.
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && FD->getIdentifier() && FD->getName().starts_with("cuda"))
        return WalkUpFromCallExpr(Call);
      return RecursiveASTVisitor::TraverseCallExpr(Call);
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      // `dim3` of a launch configuration is not host work.
      const CXXConstructorDecl *Ctor = E->getConstructor();
      if (!Ctor->isTrivial() && !Ctor->isConstexpr() &&
          Ctor->getParent()->getName() != "dim3")
        Host = true;
      return true;
    }
    // A loop is host work, unless it only launches kernels.
    bool VisitForStmt(ForStmt *S) {
      Host = Host || !launchesOnly(S);
      return true;
    }
    bool VisitWhileStmt(WhileStmt *S) {
      Host = Host || !launchesOnly(S);
      return true;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *) { return Host = true; }
  } Vis(F, Ctx);
  Vis.TraverseStmt(const_cast<Stmt *>(S));
  return Vis.Sync ? Step::Sync : Vis.Host ? Step::Host : Step::None;
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

/// True when host work follows \p Call before the next call that waits for
/// the device, in its function: the statements after it, and for the last
/// statement of a loop body the statements of the body before it (the next
/// iteration). The host work is what a copy that does not block could
/// overlap with. False when the function ends first (its callers are not
/// seen).
/// With \p Needed (the variables a copy to the host writes), a statement
/// that reads one of them first ends the search: the host needs the result
/// there, so it would wait at that point even with pinned memory.
bool hostWorkFollows(const CallExpr *Call, const FunctionDecl *F,
                     ASTContext &Ctx,
                     llvm::ArrayRef<const ValueDecl *> Needed = {}) {
  auto Reads = [&](const Stmt *S) {
    if (Needed.empty())
      return false;
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::ArrayRef<const ValueDecl *> Needed;
      bool Found = false;
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        Found |= llvm::is_contained(Needed, DRE->getDecl());
        return !Found;
      }
    } Fn;
    Fn.Needed = Needed;
    Fn.TraverseStmt(const_cast<Stmt *>(S));
    return Fn.Found;
  };
  DynTypedNode Node = DynTypedNode::create(*static_cast<const Stmt *>(Call));
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>() || P.get<BlockDecl>())
      return false;
    const auto *Compound = P.get<CompoundStmt>();
    const Stmt *Current = Node.get<Stmt>();
    if (!Compound || !Current) {
      Node = P;
      continue;
    }
    // The statements after Current in this block.
    bool After = false;
    for (const Stmt *S : Compound->body()) {
      if (S == Current) {
        After = true;
        continue;
      }
      if (!After)
        continue;
      if (Reads(S))
        return false;
      switch (classify(S, F, Ctx)) {
      case Step::Sync:
        return false;
      case Step::Host:
        return true;
      case Step::None:
        break;
      }
    }
    // The end of a loop body: the next iteration begins.
    auto Up = Ctx.getParents(*Compound);
    if (!Up.empty())
      if (const Stmt *Loop = Up[0].get<Stmt>(); Loop && isLoop(Loop, Ctx)) {
        for (const Stmt *S : Compound->body()) {
          if (S == Current || Reads(S))
            return false;
          switch (classify(S, F, Ctx)) {
          case Step::Sync:
            return false;
          case Step::Host:
            return true;
          case Step::None:
            break;
          }
        }
        return false;
      }
    Node = P;
  }
  return false;
}

} // namespace

void PageableAsyncCopyCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(
                   "cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpy3DAsync",
                   "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync"))),
               unless(isExpansionInSystemHeader()))
          .bind("copy"),
      this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("cudaHostRegister"))),
                              unless(isExpansionInSystemHeader()))
                         .bind("register"),
                     this);
  Finder->addMatcher(cudaKernelCallExpr().bind("launch"), this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(matchesName("^::cudaLaunch"))))
          .bind("launch"),
      this);
}

void PageableAsyncCopyCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (Result.Nodes.getNodeAs<CallExpr>("launch")) {
    LaunchesKernel = true;
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("copy");
  bool IsRegister = false;
  if (!Call) {
    Call = Result.Nodes.getNodeAs<CallExpr>("register");
    IsRegister = true;
  }
  const FunctionDecl *F = enclosingFunction(*Ctx, *Call);
  // Device-side copies (dynamic parallelism) are another matter; templates
  // are judged per instantiation.
  if (!F || isDeviceFunction(F) || F->isDependentContext())
    return;
  (IsRegister ? Registrations : Copies).push_back({Call, F});
}

void PageableAsyncCopyCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  // Registered ranges: the variables they are reached through; a range of
  // unknown origin (a parameter) may be any buffer.
  llvm::DenseSet<const ValueDecl *> Registered;
  bool RegisteredUnknown = false;
  for (const Copy &R : Registrations) {
    if (R.Call->getNumArgs() == 0)
      continue;
    HostMemoryOrigin O = hostMemoryOrigin(R.Call->getArg(0), R.Function, *Ctx);
    if (O.Vars.empty())
      RegisteredUnknown = true;
    Registered.insert(O.Vars.begin(), O.Vars.end());
  }

  llvm::DenseSet<SourceLocation> Reported;
  for (const Copy &C : Copies) {
    if (RegisteredUnknown)
      break;
    const FunctionDecl *Callee = C.Call->getDirectCallee();
    CopyShape S = shapeOf(Callee->getName());
    // The candidate host pointers and their direction ("from", "to").
    SmallVector<std::pair<const Expr *, bool>, 2> Candidates;
    std::optional<int64_t> Kind;
    // The bytes copied, when constant.
    std::optional<uint64_t> Bytes;
    if (S.Parms) {
      if (C.Call->getNumArgs() < 1)
        continue;
      const auto *AddrOf =
          dyn_cast<UnaryOperator>(C.Call->getArg(0)->IgnoreParenImpCasts());
      const auto *DRE =
          AddrOf && AddrOf->getOpcode() == UO_AddrOf
              ? dyn_cast<DeclRefExpr>(AddrOf->getSubExpr()->IgnoreParens())
              : nullptr;
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      ParmsFields Fields;
      if (!V || !V->hasLocalStorage() || !C.Function->getBody() ||
          !collectParms(V, C.Function->getBody(), Fields) ||
          Fields.Kind.size() != 1 || Fields.Src.size() > 1 ||
          Fields.Dst.size() > 1)
        continue;
      Kind = evaluateKind(Fields.Kind.front(), *Ctx);
      if (Fields.Extent.size() == 1)
        Bytes = extentBytes(Fields.Extent.front(), C.Function, *Ctx);
      if (!Fields.Src.empty())
        if (const Expr *P = pitchedPointer(Fields.Src.front()))
          Candidates.push_back({P, true});
      if (!Fields.Dst.empty())
        if (const Expr *P = pitchedPointer(Fields.Dst.front()))
          Candidates.push_back({P, false});
    } else {
      if (S.Kind < 0 || static_cast<unsigned>(S.Kind) >= C.Call->getNumArgs())
        continue;
      Kind = evaluateKind(C.Call->getArg(S.Kind), *Ctx);
      if (S.Size >= 0 && static_cast<unsigned>(S.Size) < C.Call->getNumArgs())
        Bytes = foldBytes(C.Call->getArg(S.Size), C.Function, *Ctx);
      if (Bytes && S.Height >= 0) {
        std::optional<uint64_t> Height =
            static_cast<unsigned>(S.Height) < C.Call->getNumArgs()
                ? foldBytes(C.Call->getArg(S.Height), C.Function, *Ctx)
                : std::nullopt;
        if (!Height || __builtin_mul_overflow(*Bytes, *Height, &*Bytes))
          Bytes.reset();
      }
      if (S.Src >= 0)
        Candidates.push_back({C.Call->getArg(S.Src), true});
      if (S.Dst >= 0)
        Candidates.push_back({C.Call->getArg(S.Dst), false});
    }
    // Which side is on the host: the kind says; cudaMemcpyDefault and a
    // kind not known here leave both (a pageable allocation is host memory
    // whatever the kind says).
    if (Kind && (*Kind == HostToHost || *Kind == DeviceToDevice))
      continue;
    // A copy recorded into a graph under stream capture is not run here.
    if (inStreamCapture(C.Call, C.Function, *Ctx))
      continue;
    // Overlap is what pinning buys; report only where the program plausibly
    // wants it: a copy repeated in a loop, or a function that works with
    // more than one stream. A one-time upload or download on the only
    // stream has nothing to overlap with (the caller's loops and streams are
    // not seen).
    for (auto &[Arg, From] : Candidates) {
      if (Kind && *Kind == HostToDevice && !From)
        continue;
      if (Kind && *Kind == DeviceToHost && From)
        continue;
      HostMemoryOrigin O = hostMemoryOrigin(Arg, C.Function, *Ctx);
      if (O.Kind != HostMemoryKind::Pageable ||
          llvm::any_of(O.Vars,
                       [&](const ValueDecl *V) { return Registered.count(V); }))
        continue;
      // A host-to-device copy of 64 KB or less returns once the driver has
      // staged it: it is asynchronous with respect to the host. Copies to
      // pageable memory wait for their completion at any size.
      if (From && Bytes && *Bytes <= SmallCopyBytes)
        continue;
      // What pinning gains: overlap with work in other streams, which needs
      // another stream; or, on one stream, overlap with the host work that
      // follows the copy before the host waits for the device anyway, which
      // needs a kernel for the device to run and a copy repeated in a loop
      // (a one-time copy gains little).
      // The caller's work may be in flight on the default stream and on
      // the streams it passes in.
      bool UsesDefault = false;
      bool Several =
          usesSeveralStreams(C.Function, *Ctx, &UsesDefault) &&
          kernelMayBeInFlight(
              C.Call, UsesDefault || usesCallersStreams(C.Function), *Ctx);
      // Host work that a copy to the host could overlap with: not when the
      // host reads the result first (it needs the data there, and with
      // pinned memory it would have to wait at that point instead).
      llvm::ArrayRef<const ValueDecl *> Needed;
      if (!From)
        Needed = O.Vars;
      bool Follows = hostWorkFollows(C.Call, C.Function, *Ctx, Needed);
      // A small copy to the host (64 KB or less) takes microseconds: it
      // loses no overlap with kernels worth having, only the host's wait,
      // which matters when host work follows.
      if (!From && Bytes && *Bytes <= SmallCopyBytes && !Follows)
        continue;
      if (!Several &&
          (!LaunchesKernel || !inLoop(C.Call, From, *Ctx) || !Follows))
        continue;
      SourceLocation Loc = C.Call->getBeginLoc();
      if (!Reported.insert(Loc).second)
        break;
      // A copy to the device of a size not known here is asynchronous up to
      // 64 KB: say so.
      diag(Loc, "'%0' %select{to|from}1 pageable host memory is not "
                "asynchronous%select{| if it is larger than 64 KB}2: "
                "%select{the host waits until the copy has completed|the host "
                "waits while the driver copies the data into a pinned staging "
                "buffer}1, %select{so the host work that follows cannot "
                "overlap with it (and, on one stream, overlap with kernels "
                "needs a second stream as well)|and the transfer cannot "
                "overlap with kernels in other streams}3")
          << Callee->getName() << From << (From && !Bytes) << Several;
      diag(O.Where,
           "%0 is pageable: allocate it with 'cudaMallocHost' or "
           "'cudaHostAlloc', or pin it with 'cudaHostRegister'",
           DiagnosticIDs::Note)
          << (O.What.empty() ? std::string("the buffer") : O.What);
      break;
    }
  }
  Copies.clear();
  Registrations.clear();
  Ctx = nullptr;
  LaunchesKernel = false;
}

} // namespace clang::tidy::cuda
