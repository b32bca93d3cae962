//===--- ThreadDependence.cpp - cuda-lint ---------------------------------===//
//
// ThreadDependence (see ThreadDependence.h): the definitions of the local
// variables of a function, which of them are thread-dependent (to a fixed
// point), the definitions that reach a use, and whether an expression is
// thread-dependent. Warp-level facts are in ThreadDependenceWarps.cpp,
// divergence in ThreadDependenceDivergence.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadDependence.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>

namespace clang::tidy::cuda {

namespace {

/// Calls whose result differs between threads even with uniform arguments.
bool returnsPerThreadValue(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  return Name.starts_with("__shfl") || isAtomicFunctionName(Name) ||
         Name.starts_with("__nvvm_shfl") ||
         Name.starts_with("__nvvm_read_ptx_sreg_tid") ||
         Name.starts_with("__nvvm_read_ptx_sreg_laneid") ||
         Name == "__lane_id" || Name == "clock" || Name == "clock64" ||
         Name == "__match_any_sync" || Name == "curand" ||
         Name == "curand_uniform";
}

/// The local variable (or parameter) that an assignment to \p LHS writes:
/// `x`, `x[i]`, `x.f`, `x[i].f`.
const VarDecl *assignedLocal(const Expr *LHS) {
  while (LHS) {
    LHS = LHS->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && VD->hasLocalStorage() ? VD : nullptr;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS)) {
      // Writing a local array element; a pointer base writes memory.
      if (!ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return nullptr;
      LHS = ASE->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(LHS)) {
      if (ME->isArrow())
        return nullptr;
      LHS = ME->getBase();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

using Definition = ThreadDependence::Definition;

/// Whether the reference \p DRE may let its variable change where the
/// definitions do not show it: anything but a read, a definition (the left
/// of an assignment, `++`), `sizeof` or a member's base, such as `&x` or a
/// binding to a non-const reference.
bool escapes(const DeclRefExpr *DRE,
             const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) {
  const Stmt *Cur = DRE;
  const Stmt *P = Parents.lookup(Cur);
  while (isa_and_nonnull<ParenExpr>(P)) {
    Cur = P;
    P = Parents.lookup(P);
  }
  // In a template's pattern the conversions that tell a read are not there
  // yet.
  if (!P || (isa<Expr>(P) && cast<Expr>(P)->isInstantiationDependent()))
    return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P))
    return !(
        Cast->getCastKind() == CK_LValueToRValue ||
        Cast->getCastKind() == CK_ArrayToPointerDecay ||
        (Cast->getCastKind() == CK_NoOp && Cast->getType().isConstQualified()));
  if (isa<UnaryExprOrTypeTraitExpr, MemberExpr>(P))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return !(BO->isAssignmentOp() && BO->getLHS() == Cur);
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return !UO->isIncrementDecrementOp();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P))
    return !(Op->isAssignmentOp() && Op->getNumArgs() == 2 &&
             Op->getArg(0) == Cur);
  return true;
}

/// The loop (or, for `break`, switch) that \p Jump leaves; null if none.
const Stmt *
jumpTarget(const Stmt *Jump,
           const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) {
  for (const Stmt *S = Parents.lookup(Jump); S; S = Parents.lookup(S))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) ||
        (isa<BreakStmt>(Jump) && isa<SwitchStmt>(S)))
      return S;
  return nullptr;
}

/// The definition of the function \p Call calls, where its body can be
/// read: a plain call (a method reads its object, which may be the thread's
/// own) of a non-void function whose body is visible and not a template
/// pattern; null otherwise.
const FunctionDecl *visibleCallee(const CallExpr *Call) {
  if (isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
    return nullptr;
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || FD->getReturnType()->isVoidType() || !FD->hasBody(Def) || !Def ||
      Def->isDependentContext())
    return nullptr;
  return Def;
}

/// ThreadDependence::startsVariable.
bool startsAfresh(const Stmt *S, const VarDecl *V) {
  const auto *For = dyn_cast<ForStmt>(S);
  const Stmt *Init = For ? For->getInit() : nullptr;
  if (!Init)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
    Init = EWC->getSubExpr();
  const auto *BO = dyn_cast<BinaryOperator>(Init);
  if (!BO || BO->getOpcode() != BO_Assign)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  if (!DRE || DRE->getDecl() != V)
    return false;
  std::function<bool(const Stmt *)> Reads = [&](const Stmt *X) {
    if (const auto *R = dyn_cast_or_null<DeclRefExpr>(X))
      return R->getDecl() == V;
    return X && llvm::any_of(X->children(), Reads);
  };
  return !Reads(BO->getRHS());
}

/// The innermost `for (V = E; ...)` loop around \p S (or \p S itself) that
/// starts \p V afresh; null if none.
const Stmt *
startingLoop(const Stmt *S, const VarDecl *V,
             const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) {
  for (; S; S = Parents.lookup(S))
    if (startsAfresh(S, V))
      return S;
  return nullptr;
}

/// Whether \p S holds a `continue` of the loop whose body it is.
bool continues(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(),
                      [](const Stmt *C) { return continues(C); });
}

/// `x = E` of the whole variable: its old value does not count.
bool wholeVariable(const Expr *LHS) {
  return isa<DeclRefExpr>(LHS->IgnoreParenImpCasts());
}

void collect(const Stmt *S, llvm::SmallVectorImpl<Definition> &Defs,
             llvm::SmallVectorImpl<const ReturnStmt *> &Returns) {
  if (!S)
    return;
  if (isa<LambdaExpr>(S))
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->hasLocalStorage() && VD->getInit())
          Defs.push_back({VD, VD->getInit(), nullptr, S});
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *VD = assignedLocal(BO->getLHS()))
        Defs.push_back(
            {VD, BO->getRHS(),
             BO->getOpcode() == BO_Assign && wholeVariable(BO->getLHS())
                 ? nullptr
                 : BO->getLHS(),
             S});
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (const VarDecl *VD = assignedLocal(UO->getSubExpr()))
        Defs.push_back({VD, nullptr, UO->getSubExpr(), S});
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      if (const VarDecl *VD = assignedLocal(Op->getArg(0)))
        Defs.push_back(
            {VD, Op->getArg(1),
             Op->getOperator() == OO_Equal && wholeVariable(Op->getArg(0))
                 ? nullptr
                 : Op->getArg(0),
             S});
  } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    Returns.push_back(RS);
  }
  for (const Stmt *Child : S->children())
    collect(Child, Defs, Returns);
}

} // namespace

bool ThreadDependence::startsVariable(const Stmt *S, const VarDecl *V) {
  return startsAfresh(S, V);
}

ThreadDependence::ThreadDependence(const FunctionDecl &FD, ASTContext &Ctx,
                                   Scope Level,
                                   std::optional<int64_t> LaunchedX,
                                   bool ParamsDependent, unsigned CallDepth,
                                   bool AssumeMultiples, bool UnseenDependent)
    : Ctx(Ctx), Function(FD), Level(Level), LaunchedX(LaunchedX),
      AssumeMultiples(AssumeMultiples), ParamsDependent(ParamsDependent),
      UnseenDependent(UnseenDependent), CallDepth(CallDepth) {
  collect(FD.getBody(), Defs, Returns);
  for (const auto &[I, D] : llvm::enumerate(Defs)) {
    if (!isa<DeclStmt>(D.At))
      Reassigned.insert(D.Var);
    DefsOf[D.Var].push_back(I);
  }
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (isa<GotoStmt, IndirectGotoStmt, LabelStmt, SwitchStmt>(S))
      HasJumps = true;
    if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(S))
      HasGoto = true;
    if (isa<BreakStmt, ContinueStmt>(S))
      Jumps.push_back(S);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        Refs[V].push_back(DRE);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          DeclStmts[V] = DS;
    for (const Stmt *Child : S->children())
      if (Child) {
        Parents[Child] = S;
        Walk(Child);
      }
  };
  if (FD.getBody())
    Walk(FD.getBody());
  // Only the UnseenDependent policy reads them.
  for (const auto &[V, VRefs] : Refs)
    if (UnseenDependent && (V->hasLocalStorage() || isa<ParmVarDecl>(V)) &&
        (V->getType()->isIntegralOrEnumerationType() ||
         V->getType()->isPointerType()) &&
        llvm::any_of(VRefs, [&](const DeclRefExpr *DRE) {
          return escapes(DRE, Parents);
        }))
      Escaped.insert(V);
  // Iterate to a fixed point: each round can only add definitions. A use
  // of a variable is thread-dependent when a thread-dependent definition of
  // it may reach the use.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const auto &[I, D] : llvm::enumerate(Defs)) {
      auto LoopOnly = LoopOnlyDefs.find(I);
      if (DependentDefs.contains(I) && LoopOnly == LoopOnlyDefs.end())
        continue;
      std::optional<llvm::SmallVector<const Stmt *, 2>> Loops =
          dependentLoopsOf(I);
      if (Loops && Loops->empty())
        continue;
      if (LoopOnly != LoopOnlyDefs.end()) {
        if (Loops && *Loops == LoopOnly->second)
          continue;
        LoopOnlyDefs.erase(LoopOnly);
      }
      if (Loops)
        LoopOnlyDefs[I] = *Loops;
      DependentDefs.insert(I);
      DependentVars.insert(D.Var);
      Changed = true;
    }
  }
}

std::optional<llvm::SmallVector<const Stmt *, 2>>
ThreadDependence::dependentLoopsOf(unsigned I) const {
  const Definition &D = Defs[I];
  if (isDependent(D.Value) || isDependent(D.Target))
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 2> Loops;
  const Stmt *At = D.At;
  while (const Expr *Cond = dependentCondition(*At, D.Var)) {
    const Stmt *P = Parents.lookup(Cond);
    if (!P || !isa<ForStmt, WhileStmt, DoStmt>(P))
      return std::nullopt;
    Loops.push_back(P);
    At = P;
  }
  if (!addDivergentJumps(D, Loops))
    return std::nullopt;
  return Loops;
}

bool ThreadDependence::isAncestor(const Stmt *A, const Stmt *S) const {
  for (; S; S = Parents.lookup(S))
    if (S == A)
      return true;
  return false;
}

bool ThreadDependence::isLoopBorn(const VarDecl *V) const {
  if (isa<ParmVarDecl>(V))
    return false;
  if (auto It = LoopBornCache.find(V); It != LoopBornCache.end())
    return It->second;
  auto VRefs = Refs.find(V);
  bool Born = VRefs != Refs.end() && !VRefs->second.empty() &&
              llvm::all_of(VRefs->second, [&](const DeclRefExpr *R) {
                return startingLoop(R, V, Parents) != nullptr;
              });
  LoopBornCache[V] = Born;
  return Born;
}

const Stmt *ThreadDependence::bornIn(const VarDecl *V, const Stmt *At) const {
  if (isLoopBorn(V))
    return startingLoop(At, V, Parents);
  const DeclStmt *DS = DeclStmts.lookup(V);
  return DS ? Parents.lookup(DS) : nullptr;
}

bool ThreadDependence::addDivergentJumps(
    const Definition &D, llvm::SmallVectorImpl<const Stmt *> &Loops) const {
  for (const Stmt *Jump : Jumps) {
    const Stmt *Target = jumpTarget(Jump, Parents);
    if (!Target || !isAncestor(Target, D.At) ||
        !dependentCondition(*Jump, nullptr, nullptr, Target))
      continue;
    // Born inside the loop the jump leaves: the threads that stay start it
    // together.
    const Stmt *Scope = bornIn(D.Var, D.At);
    if (Scope && Scope != Target && isAncestor(Target, Scope))
      continue;
    const auto *For = dyn_cast<ForStmt>(Target);
    if (For && isAncestor(For->getInit(), D.At))
      continue;
    // Born in that loop and changed by its increment: the threads that
    // leave it no longer use it, and the others step it together.
    if (For && Scope == Target && isAncestor(For->getInc(), D.At))
      continue;
    // The threads still in a loop that some left by `break` ran the same
    // iterations; a `continue` lets some skip the rest of an iteration.
    if (!isa<BreakStmt>(Jump) || isa<SwitchStmt>(Target))
      return false;
    if (!llvm::is_contained(Loops, Target))
      Loops.push_back(Target);
  }
  return true;
}

bool ThreadDependence::killedWithin(const DeclRefExpr *DRE,
                                    const Stmt *Loop) const {
  if (!reaching(DRE))
    return false;
  // Strictly inside: a loop that is itself the killing statement (its init
  // assigns the variable) precedes the use.
  const Stmt *Kill = KillCache.lookup(DRE);
  return Kill && isAncestor(Loop, Parents.lookup(Kill));
}

bool ThreadDependence::mustDefine(const Stmt *S, const VarDecl *V) const {
  if (!S)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  auto isV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->getOpcode() == BO_Assign && isV(BO->getLHS());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
           isV(Op->getArg(0));
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return llvm::is_contained(DS->decls(), V);
  if (const auto *For = dyn_cast<ForStmt>(S))
    return mustDefine(For->getInit(), V);
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(CS->body(),
                        [&](const Stmt *C) { return mustDefine(C, V); });
  return false;
}

void ThreadDependence::addDefinitionsIn(
    const Stmt *S, const VarDecl *V,
    llvm::SmallVectorImpl<unsigned> &Out) const {
  auto It = DefsOf.find(V);
  if (It == DefsOf.end())
    return;
  for (unsigned I : It->second)
    if (isAncestor(S, Defs[I].At) && !llvm::is_contained(Out, I))
      Out.push_back(I);
}

const llvm::SmallVector<unsigned, 4> *
ThreadDependence::reaching(const DeclRefExpr *DRE) const {
  auto Cached = ReachingCache.find(DRE);
  if (Cached != ReachingCache.end())
    return Cached->second ? &*Cached->second : nullptr;
  std::optional<llvm::SmallVector<unsigned, 4>> &Result = ReachingCache[DRE];
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (HasJumps || !V || !Parents.count(DRE))
    return nullptr;
  // Structured code: walk out from the use. In a statement list, the
  // statements before it define what reaches it, back to one that surely
  // assigns the variable; around a loop, every definition in the loop may
  // come round its back edge, unless the loop's init assigns it first.
  llvm::SmallVector<unsigned, 4> Out;
  const Stmt *Cur = DRE;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    if (isa<LambdaExpr>(P))
      return nullptr;
    if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (Cur == For->getInit())
        continue;
      addDefinitionsIn(For, V, Out);
      if (mustDefine(For->getInit(), V)) {
        KillCache[DRE] = For->getInit();
        Result = Out;
        return &*Result;
      }
      continue;
    }
    // The condition of a do-while follows its whole body: what the body
    // assigns last reaches it.
    if (const auto *Do = dyn_cast<DoStmt>(P);
        Do && Cur == Do->getCond() && !continues(Do->getBody())) {
      if (const auto *Body = dyn_cast<CompoundStmt>(Do->getBody()))
        for (const Stmt *Sib : llvm::reverse(Body->body())) {
          addDefinitionsIn(Sib, V, Out);
          if (mustDefine(Sib, V)) {
            KillCache[DRE] = Sib;
            Result = Out;
            return &*Result;
          }
        }
    }
    if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(P)) {
      addDefinitionsIn(P, V, Out);
      continue;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      auto Body = CS->body();
      const auto *Pos = llvm::find(Body, Cur);
      while (Pos != Body.begin()) {
        const Stmt *Sib = *--Pos;
        addDefinitionsIn(Sib, V, Out);
        if (mustDefine(Sib, V)) {
          KillCache[DRE] = Sib;
          Result = Out;
          return &*Result;
        }
      }
    }
  }
  Result = Out;
  return &*Result;
}

bool ThreadDependence::returnsUniformValue(const CallExpr *Call) const {
  const FunctionDecl *Def = CallDepth < 2 ? visibleCallee(Call) : nullptr;
  if (!Def)
    return false;
  if (auto It = UniformReturnCache.find(Def); It != UniformReturnCache.end())
    return It->second;
  UniformReturnCache[Def] = false; // Recursion.
  ThreadDependence Callee(*Def, Ctx, Level, std::nullopt,
                          /*ParamsDependent=*/true, CallDepth + 1,
                          /*AssumeMultiples=*/false, UnseenDependent);
  bool Uniform = !Callee.Returns.empty() && !Callee.HasJumps &&
                 llvm::all_of(Callee.Returns, [&](const ReturnStmt *RS) {
                   return RS->getRetValue() &&
                          !Callee.isDependent(RS->getRetValue()) &&
                          !Callee.dependentCondition(*RS);
                 });
  UniformReturnCache[Def] = Uniform;
  return Uniform;
}

ThreadDependence::CalleeReturn
ThreadDependence::calleeReturn(const CallExpr *Call) const {
  const FunctionDecl *Def = CallDepth < 2 ? visibleCallee(Call) : nullptr;
  if (!Def)
    return CalleeReturn::Unseen;
  if (auto It = CalleeReturnCache.find(Def); It != CalleeReturnCache.end())
    return It->second;
  CalleeReturnCache[Def] = CalleeReturn::Unseen; // Recursion.
  ThreadDependence Callee(*Def, Ctx, Level, std::nullopt,
                          /*ParamsDependent=*/false, CallDepth + 1,
                          /*AssumeMultiples=*/false, UnseenDependent);
  bool PerThread = Callee.HasJumps ||
                   llvm::any_of(Callee.Returns, [&](const ReturnStmt *RS) {
                     return Callee.isDependent(RS->getRetValue()) ||
                            Callee.dependentCondition(*RS);
                   });
  CalleeReturn Result =
      PerThread ? CalleeReturn::PerThread : CalleeReturn::OfArguments;
  CalleeReturnCache[Def] = Result;
  return Result;
}

bool ThreadDependence::isDependent(const Expr *E) const {
  if (!E)
    return false;
  if (Level == Scope::Warp && isWarpUniform(E))
    return false;
  // `threadIdx.x / 128` in blocks of at most 128 threads in x is 0.
  if (isa<BinaryOperator>(E) && isZeroThreadQuotient(E))
    return false;
  if (ParamsDependent && isa<CXXThisExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (VD->getName() == "threadIdx" ||
        (Level == Scope::Grid && VD->getName() == "blockIdx"))
      return true;
    if (ParamsDependent && isa<ParmVarDecl>(VD))
      return true;
    // Changed through a pointer or reference, or reached across a goto.
    if (UnseenDependent &&
        (Escaped.contains(VD) || (HasGoto && Reassigned.contains(VD))))
      return true;
    if (!DependentVars.contains(VD))
      return false;
    const llvm::SmallVector<unsigned, 4> *R = reaching(DRE);
    if (!R)
      return true;
    return llvm::any_of(*R, [&](unsigned I) {
      if (!DependentDefs.contains(I))
        return false;
      auto LoopOnly = LoopOnlyDefs.find(I);
      return LoopOnly == LoopOnlyDefs.end() ||
             !llvm::all_of(LoopOnly->second, [&](const Stmt *Loop) {
               return killedWithin(DRE, Loop);
             });
    });
  }
  // At warp scope, in blocks whose x extent is a multiple of 32, a warp is
  // threads of one y and z: `threadIdx.y` is the same in all its lanes.
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E);
      POE && Level == Scope::Warp && LaunchedX && *LaunchedX % 32 == 0)
    if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(
            POE->getSyntacticForm()->IgnoreParens());
        Prop && Prop->getPropertyDecl()->getName() != "x") {
      const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
      if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
        Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
      if (const auto *D = dyn_cast<DeclRefExpr>(Base);
          D && D->getDecl()->getName() == "threadIdx")
        return false;
    }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (returnsPerThreadValue(Call->getDirectCallee()))
      return true;
    // What the callee returns, not what it is given, decides.
    if (returnsUniformValue(Call))
      return false;
    switch (calleeReturn(Call)) {
    case CalleeReturn::PerThread:
      return true;
    case CalleeReturn::OfArguments:
      break;
    case CalleeReturn::Unseen:
      if (UnseenDependent && !isPureIntegerFunction(Call->getDirectCallee()))
        return true;
      break;
    }
  }
  if (isa<LambdaExpr>(E))
    return false;
  // A GNU statement expression (`({ int _x = (x); _x > 0 ? _x : 0; })`, a
  // `max` macro) has the value of its last statement.
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    const CompoundStmt *CS = SE->getSubStmt();
    const auto *Last =
        CS->body_empty() ? nullptr : dyn_cast<Expr>(CS->body_back());
    return Last && isDependent(Last);
  }
  // `threadIdx.x` is a property access whose base is an opaque value.
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return isDependent(OVE->getSourceExpr());
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (isDependent(CE))
        return true;
  return false;
}

} // namespace clang::tidy::cuda
