//===--- WarpSyncArrays.cpp - cuda-lint
//-------------------------------------===//
//
// Which array an access touches for cuda-warp-synchronous: aliases and
// offsets of local pointers, thread-private helper parameters, and the
// volatile reads of spin-waits.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadDependence.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include <functional>

namespace clang::tidy::cuda::warpsync {

const VarDecl *Analysis::offsetAlias(const VarDecl *VD,
                                     const Expr *&Offset) const {
  if (!VD->getType()->isPointerType() || !VD->hasLocalStorage() ||
      isa<ParmVarDecl>(VD) || !VD->getInit() || Reassigned.count(VD))
    return nullptr;
  const Expr *Init = VD->getInit()->IgnoreParenImpCasts();
  const Expr *BaseE = nullptr, *Off = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(Init);
      UO && UO->getOpcode() == UO_AddrOf) {
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
      BaseE = ASE->getBase();
      Off = ASE->getIdx();
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Init);
             BO && BO->getOpcode() == BO_Add) {
    BaseE = BO->getLHS();
    Off = BO->getRHS();
    if (!BaseE->getType()->isPointerType())
      std::swap(BaseE, Off);
  }
  if (!BaseE || !Off || !Off->getType()->isIntegerType())
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(BaseE->IgnoreParenImpCasts());
  const auto *T = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!T || T == VD || Reassigned.count(T))
    return nullptr;
  QualType Elem;
  if (const auto *AT = Ctx.getAsArrayType(T->getType())) {
    Elem = AT->getElementType();
    if (Elem->isArrayType())
      return nullptr;
  } else if (const auto *PT = T->getType()->getAs<PointerType>()) {
    if (T->hasLocalStorage() && !isa<ParmVarDecl>(T))
      return nullptr;
    Elem = PT->getPointeeType();
  } else {
    return nullptr;
  }
  QualType Pointee = VD->getType()->getPointeeType();
  if (!Ctx.hasSameUnqualifiedType(Elem, Pointee))
    return nullptr;
  Offset = Off;
  return T;
}

bool Analysis::threadPrivateArg(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      E = ASE->getBase()->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAdditiveOp() && BO->getType()->isPointerType())
    E = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS())
            ->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD)
    return false;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD))
    return PrivateParams.count(P);
  return VD->hasLocalStorage() && VD->getType()->isArrayType() &&
         !VD->hasAttr<CUDASharedAttr>();
}

void Analysis::collectPrivateParams() {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Callee, Sites] : Calls) {
      if (Sites.empty())
        continue;
      const FunctionDecl *Def = Callee->getDefinition();
      if (!Def || Def->hasAttr<CUDAGlobalAttr>())
        continue;
      for (const ParmVarDecl *P : Def->parameters()) {
        QualType T = P->getType();
        if (PrivateParams.count(P) ||
            !(T->isPointerType() || T->isReferenceType()))
          continue;
        unsigned I = P->getFunctionScopeIndex();
        bool All = llvm::all_of(Sites, [&](const CallSite &CS) {
          return I < CS.Call->getNumArgs() &&
                 threadPrivateArg(CS.Call->getArg(I));
        });
        if (All) {
          PrivateParams.insert(P);
          Changed = true;
        }
      }
    }
  }
}

namespace {

/// The variable a local pointer \p VD that is never moved (\p Reassigned)
/// is initialised to (`T *p = (T *)q;`, casts aside); null otherwise.
const VarDecl *
viewedVariable(const ValueDecl *D,
               const llvm::DenseSet<const ValueDecl *> &Reassigned) {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  if (!VD || !VD->hasLocalStorage() || !VD->getType()->isPointerType() ||
      isa<ParmVarDecl>(VD) || !VD->getInit() || Reassigned.count(VD))
    return nullptr;
  const auto *Target = dyn_cast<DeclRefExpr>(VD->getInit()->IgnoreParenCasts());
  return Target ? dyn_cast<VarDecl>(Target->getDecl()) : nullptr;
}

/// What the window tests ask of a caller, each built once per caller.
struct CallerAnalyses {
  ASTContext &Ctx;
  const FunctionDecl &Caller;
  std::unique_ptr<ThreadDependence> Warp, Block;
  std::unique_ptr<ThreadIndexAnalysis> Index;
  ThreadDependence &warp() {
    if (!Warp)
      Warp = std::make_unique<ThreadDependence>(Caller, Ctx,
                                                ThreadDependence::Scope::Warp);
    return *Warp;
  }
  ThreadDependence &block() {
    if (!Block)
      Block = std::make_unique<ThreadDependence>(Caller, Ctx);
    return *Block;
  }
  ThreadIndexAnalysis &index() {
    if (!Index)
      Index = std::make_unique<ThreadIndexAnalysis>(Ctx, &Caller);
    return *Index;
  }
};

/// Whether \p E, an argument of a call in \p Caller, points at a window of
/// a __shared__ array that is the same for the lanes of a warp and differs
/// between warps: `s + (threadIdx.x >> 5) * 512`, `&s[warp * 32]`, or a
/// local pointer never moved (\p Reassigned) that is initialised so.
bool warpWindowArg(const llvm::DenseSet<const ValueDecl *> &Reassigned,
                   const Expr *E, CallerAnalyses &Caller) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        VD->getType()->isPointerType() && VD->getInit() &&
        !Reassigned.count(VD))
      E = VD->getInit()->IgnoreParenImpCasts();
  const Expr *Base = nullptr, *Off = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add) {
    bool LeftPtr = BO->getLHS()->getType()->isPointerType();
    Base = LeftPtr ? BO->getLHS() : BO->getRHS();
    Off = LeftPtr ? BO->getRHS() : BO->getLHS();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_AddrOf) {
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
      Base = ASE->getBase();
      Off = ASE->getIdx();
    }
  }
  const auto *DRE =
      Base ? dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts()) : nullptr;
  const auto *Shared = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!Shared || !Shared->hasAttr<CUDASharedAttr>() ||
      !Shared->getType()->isArrayType())
    return false;
  return !Caller.warp().isDependent(Off) && Caller.block().isDependent(Off);
}

} // namespace

namespace {

/// Whether every use of \p P in \p Body is `P[c]` with a constant
/// 0 <= c < \p K.
bool onlyConstantSlots(ASTContext &Ctx, const Stmt *Body, const ParmVarDecl *P,
                       int64_t K) {
  bool Ok = true;
  std::function<void(const Stmt *, const Stmt *)> Visit =
      [&](const Stmt *S, const Stmt *Parent) {
        if (!S || !Ok)
          return;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
            DRE && DRE->getDecl() == P) {
          // DRE <- implicit cast (load) <- subscript base.
          const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(Parent);
          std::optional<llvm::APSInt> C =
              ASE && !ASE->getIdx()->isValueDependent()
                  ? ASE->getIdx()->getIntegerConstantExpr(Ctx)
                  : std::nullopt;
          Ok = C && !C->isNegative() && C->getSignificantBits() < 63 &&
               C->getExtValue() < K;
          return;
        }
        const Stmt *Me = isa<ImplicitCastExpr, ParenExpr>(S) ? Parent : S;
        for (const Stmt *Child : S->children())
          Visit(Child, Me);
      };
  Visit(Body, nullptr);
  return Ok;
}

/// For an argument `B + E` of a call in \p Caller whose offset E is K times
/// the thread index plus a uniform part (K a constant; for memory other than
/// __shared__, E mentions blockIdx too): |K|.
std::optional<int64_t> threadWindowWidth(const Expr *E,
                                         CallerAnalyses &Caller) {
  E = E->IgnoreParenImpCasts();
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || BO->getOpcode() != BO_Add)
    return std::nullopt;
  bool LeftPtr = BO->getLHS()->getType()->isPointerType();
  const Expr *Base =
      (LeftPtr ? BO->getLHS() : BO->getRHS())->IgnoreParenImpCasts();
  const Expr *Off = LeftPtr ? BO->getRHS() : BO->getLHS();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *B = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!B)
    return std::nullopt;
  ThreadIndexAnalysis &TIA = Caller.index();
  cuda::IndexForm F = TIA.analyze(Off);
  LaneStride S = TIA.laneStride(F);
  if (!F.Poly || !S.isConstant() || S.Value == 0)
    return std::nullopt;
  // Global memory is shared by the blocks: the offset must tell them
  // apart too (a global thread index).
  bool Shared = B->hasAttr<CUDASharedAttr>();
  if (!Shared && !F.Poly->mentions(IndexSymbol::BlockIdx))
    return std::nullopt;
  return S.Value < 0 ? -S.Value : S.Value;
}

} // namespace

void Analysis::collectWindowParams() {
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<CallerAnalyses>>
      ByCaller;
  auto caller = [&](const CallSite &CS) -> CallerAnalyses * {
    if (!CS.Caller || !CS.Caller->getBody())
      return nullptr;
    std::unique_ptr<CallerAnalyses> &A = ByCaller[CS.Caller];
    if (!A)
      A.reset(new CallerAnalyses{Ctx, *CS.Caller, nullptr, nullptr, nullptr});
    return A.get();
  };
  for (const auto &[Callee, Sites] : Calls) {
    const FunctionDecl *Def = Callee->getDefinition();
    if (Sites.empty() || !Def || Def->hasAttr<CUDAGlobalAttr>())
      continue;
    for (const ParmVarDecl *P : Def->parameters()) {
      if (!P->getType()->isPointerType())
        continue;
      unsigned I = P->getFunctionScopeIndex();
      auto arg = [&](const CallSite &CS) {
        return I < CS.Call->getNumArgs() ? CS.Call->getArg(I) : nullptr;
      };
      // Its warp's own window at every call.
      if (llvm::all_of(Sites, [&](const CallSite &CS) {
            CallerAnalyses *A = caller(CS);
            return A && arg(CS) && warpWindowArg(Reassigned, arg(CS), *A);
          }))
        WarpWindowParams.insert(P);
      // Its thread's own window at every call, the narrowest one holding
      // every slot the helper uses.
      std::optional<int64_t> Width;
      bool All = llvm::all_of(Sites, [&](const CallSite &CS) {
        CallerAnalyses *A = caller(CS);
        std::optional<int64_t> K =
            A && arg(CS) ? threadWindowWidth(arg(CS), *A) : std::nullopt;
        if (K)
          Width = Width ? std::min(*Width, *K) : *K;
        return K.has_value();
      });
      if (All && Width && Def->getBody() &&
          onlyConstantSlots(Ctx, Def->getBody(), P, *Width))
        PrivateParams.insert(P);
    }
  }
}

bool Analysis::inWarpWindow(const ValueDecl *Array) const {
  // A view of the parameter in other units (`unsigned char *bytes =
  // (unsigned char *)window;`) is its own array, in the same window.
  const ValueDecl *D = Array;
  if (const VarDecl *Viewed = viewedVariable(Array, Reassigned))
    D = Viewed;
  const auto *P = dyn_cast_or_null<ParmVarDecl>(D);
  return P && WarpWindowParams.count(P);
}

bool Analysis::rebased(const VarDecl *VD) const {
  if (!VD->getType()->isPointerType())
    return false;
  if (Reassigned.count(VD))
    return true;
  return VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit() &&
         canonicalArray(VD) == VD && varyingExpr(VD->getInit());
}

const ValueDecl *Analysis::canonicalArray(const ValueDecl *D) const {
  const VarDecl *TV = viewedVariable(D, Reassigned);
  if (!TV || !(TV->hasAttr<CUDASharedAttr>() || TV->getType()->isPointerType()))
    return D;
  const auto *VD = cast<VarDecl>(D);
  // A view with elements of another size (`unsigned char *bytes = (unsigned
  // char *)words;`) counts in other units: its indices are not the
  // target's.
  QualType Mine = VD->getType()->getPointeeType();
  QualType Theirs =
      TV->getType()->isPointerType()
          ? TV->getType()->getPointeeType()
          : QualType(TV->getType()->getPointeeOrArrayElementType(), 0);
  if (!Mine->isIncompleteType() && !Theirs->isIncompleteType() &&
      !Mine->isDependentType() && !Theirs->isDependentType() &&
      Ctx.getTypeSizeInChars(Mine) != Ctx.getTypeSizeInChars(Theirs))
    return D;
  return TV;
}

bool Analysis::assignedIn(const Stmt *S, const VarDecl *Var) {
  auto isVar = [&](const Expr *E) { return refersTo(E, Var); };
  bool Assigned = false;
  forEachDescendant(S, [&](const Stmt *X) {
    if (const auto *BO = dyn_cast<BinaryOperator>(X))
      Assigned |= BO->isAssignmentOp() && isVar(BO->getLHS());
    else if (const auto *UO = dyn_cast<UnaryOperator>(X))
      Assigned |=
          (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
          isVar(UO->getSubExpr());
  });
  return Assigned;
}

void Analysis::collectSpinReads(const Stmt *Loop, const Expr *Cond,
                                const Stmt *Body) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    if (For->getInc())
      return;
  auto isVolatileRead = [](const Stmt *S) -> const ArraySubscriptExpr * {
    const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(S);
    return ASE && ASE->getType().isVolatileQualified() ? ASE : nullptr;
  };
  llvm::DenseSet<const Decl *> CondVars;
  SmallVector<const ArraySubscriptExpr *, 2> Reads;
  forEachDescendant(Cond, [&](const Stmt *S) {
    if (const auto *ASE = isVolatileRead(S))
      Reads.push_back(ASE);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      CondVars.insert(DRE->getDecl());
  });
  SmallVector<const Stmt *, 4> Stmts;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Stmts.append(CS->body_begin(), CS->body_end());
  else
    Stmts.push_back(Body);
  for (const Stmt *S : Stmts) {
    if (isa<NullStmt>(S))
      continue;
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return;
    E = E->IgnoreParenCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && FD->getIdentifier() &&
          llvm::is_contained({"__threadfence", "__threadfence_block",
                              "__threadfence_system", "__nanosleep"},
                             FD->getName()))
        continue;
      return;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || BO->getOpcode() != BO_Assign)
      return;
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
    const auto *ASE = isVolatileRead(BO->getRHS()->IgnoreParenCasts());
    if (!DRE || !CondVars.count(DRE->getDecl()) || !ASE)
      return;
    Reads.push_back(ASE);
  }
  SpinReads.insert(Reads.begin(), Reads.end());
}

} // namespace clang::tidy::cuda::warpsync
