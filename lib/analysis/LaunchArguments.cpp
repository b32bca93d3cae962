//===--- LaunchArguments.cpp - cuda-lint ----------------------------------===//

#include "cudalint/analysis/LaunchArguments.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

namespace {

bool sameFunction(const FunctionDecl *Callee, const FunctionDecl &Target) {
  if (!Callee)
    return false;
  if (Callee->getCanonicalDecl() == Target.getCanonicalDecl())
    return true;
  if (!Target.getDescribedFunctionTemplate())
    return false;
  const FunctionTemplateDecl *P = Callee->getPrimaryTemplate();
  return P &&
         P->getTemplatedDecl()->getCanonicalDecl() == Target.getCanonicalDecl();
}

/// The uses of a function's name, and its `<<<...>>>` launches (of a
/// kernel) or calls (of a host function) with their callers.
class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(ASTContext &Ctx, const FunctionDecl &Target)
      : Ctx(Ctx), Target(Target) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    // A template's pattern launches through its instantiations.
    if (FD->isDependentContext() && FD->getDescribedFunctionTemplate())
      return true;
    return inCaller(
        FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    if (FD->isDependentContext())
      return true;
    return inCaller(
        FD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(FD); });
  }
  /// Runs \p Traverse with \p FD as the caller of the launches it finds.
  template <typename Fn> bool inCaller(const FunctionDecl *FD, Fn Traverse) {
    const FunctionDecl *Saved = Caller;
    Caller = FD;
    bool R = Traverse();
    Caller = Saved;
    return R;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    if (!sameFunction(Launch->getDirectCallee(), Target))
      return true;
    Launches.push_back({Launch, Caller});
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Launch->getCallee()->IgnoreParenImpCasts()))
      LaunchRefs.push_back(DRE);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CUDAKernelCallExpr, CXXOperatorCallExpr>(Call) ||
        !sameFunction(Call->getDirectCallee(), Target))
      return true;
    Calls.push_back({Call, Caller});
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      CallRefs.push_back(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (sameFunction(dyn_cast<FunctionDecl>(DRE->getDecl()), Target) &&
        !isKernelQueryArgument(Ctx, DRE))
      Refs.push_back(DRE);
    return true;
  }

  ASTContext &Ctx;
  const FunctionDecl &Target;
  const FunctionDecl *Caller = nullptr;
  llvm::SmallVector<std::pair<const CUDAKernelCallExpr *, const FunctionDecl *>,
                    4>
      Launches;
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4> Calls;
  llvm::SmallVector<const DeclRefExpr *, 4> Refs, LaunchRefs, CallRefs;
};

/// The call that \p DRE is handed to by address (`parse(argc, argv,
/// &n)`) or by non-const reference (`parse(argv, n)` with `int &`), or
/// null.
const CallExpr *passedToCall(ASTContext &Ctx, const DeclRefExpr *DRE) {
  DynTypedNode N = DynTypedNode::create(*DRE);
  bool AddressTaken = false;
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    DynTypedNodeList Ps = Ctx.getParents(N);
    if (Ps.empty())
      return nullptr;
    if (const auto *Call = Ps[0].get<CallExpr>()) {
      if (isa<CXXOperatorCallExpr>(Call))
        return nullptr;
      const FunctionDecl *F = Call->getDirectCallee();
      for (unsigned I = 0, E = Call->getNumArgs(); I != E; ++I) {
        if (Call->getArg(I) != N.get<Expr>())
          continue;
        if (AddressTaken)
          return Call;
        QualType T = F && I < F->getNumParams() ? F->getParamDecl(I)->getType()
                                                : QualType();
        return !T.isNull() && T->isReferenceType() ? Call : nullptr;
      }
      return nullptr;
    }
    if (const auto *UO = Ps[0].get<UnaryOperator>();
        UO && UO->getOpcode() == UO_AddrOf && !AddressTaken) {
      AddressTaken = true;
    } else if (!Ps[0].get<ParenExpr>() && !Ps[0].get<ImplicitCastExpr>()) {
      return nullptr;
    }
    N = Ps[0];
  }
  return nullptr;
}

/// The writes of local \p V in \p Body (its initialiser excluded): its
/// assignments, and, with \p Calls, the calls it is handed to by address
/// or reference (which may write it, where they stand); false when some
/// use of it may write it in a way this does not follow (its address
/// otherwise taken, a reference bound to it, `++`).
bool writesOf(ASTContext &Ctx, const Stmt *Body, const VarDecl *V,
              llvm::SmallVectorImpl<const Expr *> &Writes, bool Calls = false) {
  for (const DeclRefExpr *DRE : referencesTo(Body, V)) {
    DynTypedNodeList Ps = Ctx.getParents(*DRE);
    if (Ps.empty())
      return false;
    if (const auto *Cast = Ps[0].get<ImplicitCastExpr>();
        Cast && Cast->getCastKind() == CK_LValueToRValue)
      continue;
    // A copy (`dim3 g` passed to a launch): through a conversion to const.
    DynTypedNodeList Up = Ps;
    if (const auto *Cast = Up[0].get<ImplicitCastExpr>();
        Cast && Cast->getCastKind() == CK_NoOp &&
        Cast->getType().isConstQualified())
      Up = Ctx.getParents(*Cast);
    if (const auto *CE = Up.empty() ? nullptr : Up[0].get<CXXConstructExpr>();
        CE && CE->getConstructor()->isCopyConstructor())
      continue;
    const auto *BO = Ps[0].get<BinaryOperator>();
    if (BO && BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == DRE) {
      Writes.push_back(BO);
      continue;
    }
    if (const CallExpr *Call = Calls ? passedToCall(Ctx, DRE) : nullptr) {
      Writes.push_back(Call);
      continue;
    }
    return false;
  }
  return true;
}

/// The statement of \p Block's list that holds \p S, or null.
const Stmt *childOf(ASTContext &Ctx, const CompoundStmt *Block, const Stmt *S) {
  for (const Stmt *X = S; X;) {
    DynTypedNodeList Ps = Ctx.getParents(*X);
    if (Ps.empty())
      return nullptr;
    const auto *P = Ps[0].get<Stmt>();
    if (P == Block)
      return X;
    X = P;
  }
  return nullptr;
}

const CompoundStmt *enclosingBlock(ASTContext &Ctx, const Stmt *S) {
  for (const Stmt *X = S; X;) {
    DynTypedNodeList Ps = Ctx.getParents(*X);
    if (Ps.empty())
      return nullptr;
    const auto *P = Ps[0].get<Stmt>();
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P))
      return CS;
    X = P;
  }
  return nullptr;
}

bool multipleOf(ASTContext &Ctx, const Expr *E, int64_t Step,
                const FunctionDecl *Caller, const Stmt *At, unsigned Depth);

/// Whether every call of \p Caller passes a multiple of \p Step for its
/// parameter \p P (`n *= 1024; launch(n);` where `launch` passes its `n`
/// to the kernel): the translation unit holds all its calls (at least one,
/// its name used for nothing else; see callsStayInFile).
bool paramMultiple(ASTContext &Ctx, const ParmVarDecl &P, int64_t Step,
                   const FunctionDecl &Caller, unsigned Depth) {
  if (Depth > 6 || !callsStayInFile(&Caller, Ctx.getSourceManager()))
    return false;
  Finder F(Ctx, Caller);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (F.Calls.empty() || F.Refs.size() != F.CallRefs.size())
    return false;
  unsigned Index = P.getFunctionScopeIndex();
  for (const auto &[Call, From] : F.Calls) {
    if (Index >= Call->getNumArgs())
      return false;
    const Expr *Arg = Call->getArg(Index);
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = Default->getExpr();
    if (!multipleOf(Ctx, Arg, Step, From, Call, Depth + 1))
      return false;
  }
  return true;
}

/// Whether local \p V holds a multiple of \p Step at \p At: the last write
/// before \p At's statement, in its block or a block around it, with no
/// other write in between or within the statements that hold \p At, makes
/// it one; for a parameter that nothing writes before \p At, every call of
/// \p Caller passes one.
bool localMultiple(ASTContext &Ctx, const VarDecl *V, int64_t Step,
                   const FunctionDecl *Caller, const Stmt *At, unsigned Depth) {
  if (!Caller || !Caller->getBody() || !V->hasLocalStorage() ||
      V->getType()->isReferenceType())
    return false;
  llvm::SmallVector<const Expr *, 4> Writes;
  if (!writesOf(Ctx, Caller->getBody(), V, Writes, /*Calls=*/true))
    return false;
  // From At's statement up through the blocks that hold it: the latest
  // write before it, with none in the statements on the way (a loop that
  // holds At and writes V elsewhere brings that write round).
  for (const Stmt *Cur = At;;) {
    const CompoundStmt *Block = enclosingBlock(Ctx, Cur);
    const Stmt *AtChild = Block ? childOf(Ctx, Block, Cur) : nullptr;
    if (!AtChild)
      return false;
    auto Contains = [&](const Stmt *Outer, const Stmt *Inner) {
      return Inner == Outer || childOf(Ctx, Block, Inner) == Outer;
    };
    for (const Expr *W : Writes)
      if (Contains(AtChild, W))
        return false;
    // The statements of the block before At's, latest first.
    auto Body = Block->body();
    for (auto It = std::make_reverse_iterator(llvm::find(Body, AtChild));
         It != std::make_reverse_iterator(Body.begin()); ++It) {
      const Stmt *S = *It;
      llvm::SmallVector<const Expr *, 2> Here;
      for (const Expr *W : Writes)
        if (Contains(S, W))
          Here.push_back(W);
      if (const auto *DS = dyn_cast<DeclStmt>(S);
          DS && llvm::is_contained(DS->decls(), V)) {
        if (!Here.empty() || !V->getInit())
          return false;
        return multipleOf(Ctx, V->getInit(), Step, Caller, S, Depth + 1);
      }
      if (Here.empty())
        continue;
      // The write must be the statement itself, an assignment (a call
      // that may write it is no value known here).
      const auto *W = dyn_cast<BinaryOperator>(Here[0]);
      if (Here.size() != 1 || Here[0] != S || !W)
        return false;
      if (W->getOpcode() == BO_MulAssign || W->getOpcode() == BO_Assign)
        return multipleOf(Ctx, W->getRHS(), Step, Caller, S, Depth + 1);
      return false;
    }
    // No write before At in the function: a parameter's incoming value.
    if (Block == Caller->getBody()) {
      const auto *P = dyn_cast<ParmVarDecl>(V);
      return P && paramMultiple(Ctx, *P, Step, *Caller, Depth);
    }
    Cur = Block;
  }
}

bool multipleOf(ASTContext &Ctx, const Expr *E, int64_t Step,
                const FunctionDecl *Caller, const Stmt *At, unsigned Depth) {
  if (!E || Depth > 6 || E->isValueDependent())
    return false;
  E = E->IgnoreParenImpCasts();
  if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
    return C->getSignificantBits() <= 63 && C->getExtValue() % Step == 0;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto M = [&](const Expr *X) {
      return multipleOf(Ctx, X, Step, Caller, At, Depth + 1);
    };
    switch (BO->getOpcode()) {
    case BO_Mul:
      return M(BO->getLHS()) || M(BO->getRHS());
    case BO_Add:
    case BO_Sub:
      return M(BO->getLHS()) && M(BO->getRHS());
    case BO_Shl: {
      if (M(BO->getLHS()))
        return true;
      std::optional<llvm::APSInt> K =
          BO->getRHS()->isValueDependent()
              ? std::nullopt
              : BO->getRHS()->getIntegerConstantExpr(Ctx);
      return K && !K->isNegative() && K->getZExtValue() < 62 &&
             (int64_t(1) << K->getZExtValue()) % Step == 0;
    }
    default:
      return false;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return localMultiple(Ctx, V, Step, Caller, At, Depth);
  return false;
}

/// \p E without parentheses, casts and `dim3(x)` (its x), and for a local
/// of \p Caller that is never written after its initialiser, that
/// initialiser.
const Expr *strip(ASTContext &Ctx, const Expr *E, const FunctionDecl *Caller,
                  unsigned Depth = 0) {
  while (E && Depth < 8) {
    ++Depth;
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *RD = CE->getType()->getAsCXXRecordDecl();
      if (!RD || !RD->getIdentifier() || CE->getNumArgs() == 0 ||
          (RD->getName() != "dim3" && RD->getName() != "uint3"))
        return E;
      // A copy of a dim3 is the dim3.
      E = CE->getArg(0);
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    llvm::SmallVector<const Expr *, 2> Writes;
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
        V->getType()->isReferenceType() || !Caller || !Caller->getBody() ||
        !writesOf(Ctx, Caller->getBody(), V, Writes) || !Writes.empty())
      return E;
    E = V->getInit();
  }
  return E;
}

/// \p E as a sum of terms: each with its sign.
void terms(const Expr *E, bool Neg,
           llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    terms(BO->getLHS(), Neg, Out);
    terms(BO->getRHS(), BO->getOpcode() == BO_Sub ? !Neg : Neg, Out);
    return;
  }
  Out.push_back({E, Neg});
}

/// The expression that \p F returns when its body is that one `return`.
const Expr *singleReturn(const FunctionDecl *F) {
  const auto *Body = F ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

/// A reference to \p P in \p E, or null.
const Expr *referenceTo(const Expr *E, const ParmVarDecl *P) {
  auto Refs = referencesTo(E, P);
  return Refs.empty() ? nullptr : Refs.front();
}

/// Whether \p G blocks of \p B threads are at least \p A threads: G is
/// ceil(A / B) in one of its usual spellings, or all three are constants.
bool covers(ASTContext &Ctx, const Expr *G, const Expr *B, const Expr *A,
            const FunctionDecl *Caller, unsigned Depth = 0) {
  G = strip(Ctx, G, Caller);
  B = strip(Ctx, B, Caller);
  A = strip(Ctx, A, Caller);
  if (!G || !B || !A || G->isValueDependent() || B->isValueDependent() ||
      A->isValueDependent())
    return false;
  std::optional<llvm::APSInt> CG = G->getIntegerConstantExpr(Ctx),
                              CB = B->getIntegerConstantExpr(Ctx),
                              CA = A->getIntegerConstantExpr(Ctx);
  if (CG && CB && CA)
    return CG->getExtValue() * CB->getExtValue() >= CA->getExtValue();
  // Values known where the launch reads them (`dim3 grid(16)`, `int n = 6
  // * 6 * 6`): a grid-stride loop over x covers A when gridDim.x *
  // blockDim.x threads reach it.
  if (Depth == 0) {
    std::optional<BlockShape> SG = KernelLaunches::evaluateDim3(G, Caller, Ctx),
                              SB = KernelLaunches::evaluateDim3(B, Caller, Ctx),
                              SA = KernelLaunches::evaluateDim3(A, Caller, Ctx);
    if (SG && SB && SA && (*SA)[1] == 1 && (*SA)[2] == 1 &&
        (*SG)[0] * (*SB)[0] >= (*SA)[0])
      return true;
  }
  auto isA = [&](const Expr *E) {
    return sameExprOrValue(Ctx, strip(Ctx, E, Caller), A);
  };
  auto isB = [&](const Expr *E) {
    return sameExprOrValue(Ctx, strip(Ctx, E, Caller), B);
  };
  // `div_up(A, B)`, `ceil(A / (float)B)`.
  if (const auto *Call = dyn_cast<CallExpr>(G)) {
    const FunctionDecl *F = Call->getDirectCallee();
    // A helper whose body returns a covering count of its parameters
    // (`int get_blocks(int n) { return (n + T - 1) / T; }`), with B a
    // constant or passed in too.
    if (const Expr *R = singleReturn(F); R && Depth < 2)
      for (unsigned I = 0, N = std::min(Call->getNumArgs(), F->getNumParams());
           I != N; ++I) {
        const Expr *PA =
            isA(Call->getArg(I)) ? referenceTo(R, F->getParamDecl(I)) : nullptr;
        const Expr *PB = nullptr;
        for (unsigned J = 0; J != N && !PB; ++J)
          if (J != I && isB(Call->getArg(J)))
            PB = referenceTo(R, F->getParamDecl(J));
        if (!PB && CB)
          PB = B;
        if (PA && PB && covers(Ctx, R, PB, PA, F, Depth + 1))
          return true;
      }
    std::string Name =
        F && F->getIdentifier() ? F->getName().lower() : std::string();
    if (Call->getNumArgs() == 2 && isA(Call->getArg(0)) &&
        isB(Call->getArg(1)) &&
        (Name.find("ceil") != std::string::npos ||
         (Name.find("div") != std::string::npos &&
          Name.find("up") != std::string::npos)))
      return true;
    if (Call->getNumArgs() == 1 && (Name == "ceil" || Name == "ceilf"))
      if (const auto *D =
              dyn_cast<BinaryOperator>(strip(Ctx, Call->getArg(0), Caller));
          D && D->getOpcode() == BO_Div)
        return isA(D->getLHS()) && isB(D->getRHS());
    return false;
  }
  // `(A + K) / B + C` (C blocks more, maybe none) covers A when
  // K + C * B >= B - 1: `(A + B - 1) / B`, `(A - 1) / B + 1`.
  auto divCovers = [&](const Expr *E, int64_t C) {
    const auto *Div = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!Div || Div->getOpcode() != BO_Div || !isB(Div->getRHS()))
      return false;
    llvm::SmallVector<std::pair<const Expr *, bool>, 4> Ts;
    terms(Div->getLHS(), false, Ts);
    bool HasA = false;
    int64_t Bs = C, K = 0;
    for (const auto &[T, Neg] : Ts) {
      std::optional<llvm::APSInt> CT =
          T->isValueDependent() ? std::nullopt : T->getIntegerConstantExpr(Ctx);
      if (!HasA && !Neg && isA(T))
        HasA = true;
      else if (CT)
        K += Neg ? -CT->getExtValue() : CT->getExtValue();
      else if (!Neg && isB(T))
        ++Bs;
      else
        return false;
    }
    if (!HasA)
      return false;
    if (CB)
      return K + Bs * CB->getExtValue() >= CB->getExtValue() - 1;
    return Bs >= 1 && K >= -1;
  };
  if (divCovers(G, 0))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(G);
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_Add)
    for (auto [Q, X] : {std::pair(BO->getLHS(), BO->getRHS()),
                        std::pair(BO->getRHS(), BO->getLHS())})
      if (std::optional<llvm::APSInt> C = X->isValueDependent()
                                              ? std::nullopt
                                              : X->getIntegerConstantExpr(Ctx);
          C && divCovers(Q, C->getExtValue()))
        return true;
  if (BO->getOpcode() != BO_Add)
    return false;
  // `A / B + X` with X one of `A % B != 0`, `A % B ? 1 : 0`, `A % B > 0`.
  const Expr *Q = BO->getLHS()->IgnoreParenImpCasts(),
             *X = BO->getRHS()->IgnoreParenImpCasts();
  const auto *Div = dyn_cast<BinaryOperator>(Q);
  if (!Div || Div->getOpcode() != BO_Div || !isA(Div->getLHS()) ||
      !isB(Div->getRHS()))
    return false;
  if (const auto *CO = dyn_cast<ConditionalOperator>(X))
    X = CO->getCond()->IgnoreParenImpCasts();
  if (const auto *Cmp = dyn_cast<BinaryOperator>(X);
      Cmp && (Cmp->getOpcode() == BO_NE || Cmp->getOpcode() == BO_GT))
    X = Cmp->getLHS()->IgnoreParenImpCasts();
  const auto *Rem = dyn_cast<BinaryOperator>(X);
  return Rem && Rem->getOpcode() == BO_Rem && isA(Rem->getLHS()) &&
         isB(Rem->getRHS());
}

/// Whether every launch of \p Kernel (at least one, all of them seen: the
/// kernel is referred to nowhere else) passes \p Param a value that \p Holds
/// accepts, and the kernel never writes the parameter.
template <typename Pred>
bool everyLaunchPasses(ASTContext &Ctx, const FunctionDecl &Kernel,
                       const ParmVarDecl &Param, Pred Holds) {
  if (!Kernel.getBody())
    return false;
  llvm::SmallVector<const Expr *, 2> Writes;
  if (!writesOf(Ctx, Kernel.getBody(), &Param, Writes) || !Writes.empty())
    return false;
  Finder F(Ctx, Kernel);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (F.Launches.empty() || F.Refs.size() != F.LaunchRefs.size())
    return false;
  unsigned Index = Param.getFunctionScopeIndex();
  for (const auto &[Launch, Caller] : F.Launches)
    if (Index >= Launch->getNumArgs() || !Holds(Launch, Caller, Index))
      return false;
  return true;
}

} // namespace

bool everyLaunchPassesMultiple(ASTContext &Ctx, const FunctionDecl &Kernel,
                               const ParmVarDecl &Param, int64_t Step) {
  return Step > 0 &&
         everyLaunchPasses(Ctx, Kernel, Param,
                           [&](const CUDAKernelCallExpr *Launch,
                               const FunctionDecl *Caller, unsigned Index) {
                             return multipleOf(Ctx, Launch->getArg(Index), Step,
                                               Caller, Launch, 0);
                           });
}

bool everyLaunchCoversParam(ASTContext &Ctx, const FunctionDecl &Kernel,
                            const ParmVarDecl &Param) {
  return everyLaunchPasses(Ctx, Kernel, Param,
                           [&](const CUDAKernelCallExpr *Launch,
                               const FunctionDecl *Caller, unsigned Index) {
                             const CallExpr *Config = Launch->getConfig();
                             return Config && Config->getNumArgs() >= 2 &&
                                    covers(Ctx, Config->getArg(0),
                                           Config->getArg(1),
                                           Launch->getArg(Index), Caller);
                           });
}

} // namespace clang::tidy::cuda
