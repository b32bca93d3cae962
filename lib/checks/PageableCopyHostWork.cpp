//===--- PageableCopyHostWork.cpp - cuda-lint -----------------------------===//
//
// The host side of an asynchronous copy, for cuda-pageable-async-copy
// (PageableCopyHostWork.h): what the statements after it do on the host,
// through calls of launch wrappers and of function pointers.
//
//===----------------------------------------------------------------------===//

#include "PageableCopyHostWork.h"
#include "PageableCopyStreams.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::pageable_copy {

namespace {

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

/// Whether the construction \p E runs code of a constructor: one that is
/// neither trivial nor constexpr, other than `dim3`'s (a launch
/// configuration's, not host work).
bool runsConstructorCode(const CXXConstructExpr *E) {
  const CXXConstructorDecl *Ctor = E->getConstructor();
  return !Ctor->isTrivial() && !Ctor->isConstexpr() &&
         Ctor->getParent()->getName() != "dim3";
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
        if (runsConstructorCode(E))
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
      if (runsConstructorCode(E))
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

} // namespace

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
                     llvm::ArrayRef<const ValueDecl *> Needed) {
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
  // What the statement \p S settles: false where it reads a needed variable
  // or waits for the device, true where it is host work; nothing otherwise.
  auto Settles = [&](const Stmt *S) -> std::optional<bool> {
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
    return std::nullopt;
  };
  // One step up: \p P, the parent of \p Node.
  auto Step = [&](const DynTypedNode &P,
                  const DynTypedNode &Node) -> std::optional<bool> {
    const auto *Compound = P.get<CompoundStmt>();
    const Stmt *Current = Node.get<Stmt>();
    if (!Compound || !Current)
      return std::nullopt;
    // The statements after Current in this block.
    bool After = false;
    for (const Stmt *S : Compound->body()) {
      if (S == Current) {
        After = true;
        continue;
      }
      if (!After)
        continue;
      if (std::optional<bool> Settled = Settles(S))
        return *Settled;
    }
    // The end of a loop body: the next iteration begins.
    auto Up = Ctx.getParents(*Compound);
    if (!Up.empty())
      if (const Stmt *Loop = Up[0].get<Stmt>(); Loop && isLoop(Loop, Ctx)) {
        for (const Stmt *S : Compound->body()) {
          if (S == Current)
            return false;
          if (std::optional<bool> Settled = Settles(S))
            return *Settled;
        }
        return false;
      }
    return std::nullopt;
  };
  return walkUpToFunction(Call, Ctx, /*AtFunction=*/false, Step);
}

} // namespace clang::tidy::cuda::pageable_copy
