//===--- WarpSyncThreads.cpp - cuda-lint
//------------------------------------===//
//
// Own indices and thread dependence for cuda-warp-synchronous: which values are
// the thread's own index, which differ between threads, and the guards
// that conditions on them put on the threads reaching a statement.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/WarpSyncAnalysis.h"
#include <functional>

namespace clang::tidy::cuda::warpsync {

std::optional<int64_t> Analysis::constant(const Expr *E) const {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripCasts(E))) {
    auto It = LoopValues.find(DRE->getDecl());
    if (It != LoopValues.end())
      return It->second;
  }
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

Base Analysis::baseOf(const Expr *E) const {
  E = stripCasts(E);
  if (isThreadIdxX(E))
    return Base::Tid;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = OwnVars.find(DRE->getDecl());
    return It == OwnVars.end() ? Base::None : It->second;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_And && BO->getOpcode() != BO_Rem)
      return Base::None;
    std::optional<int64_t> C = constant(BO->getRHS());
    int64_t Want = BO->getOpcode() == BO_And ? WarpSize - 1 : WarpSize;
    if (!C || *C != Want || baseOf(BO->getLHS()) == Base::None)
      return Base::None;
    return Base::Lane;
  }
  return Base::None;
}

std::optional<IndexForm> Analysis::parseIndex(const Expr *E) const {
  E = stripCasts(E);
  if (Base B = baseOf(E); B != Base::None)
    return IndexForm{B, false, 0};
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op != BO_Add && Op != BO_Sub && Op != BO_Xor)
    return std::nullopt;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (Op != BO_Sub && baseOf(L) == Base::None)
    std::swap(L, R);
  Base B = baseOf(L);
  std::optional<int64_t> C = constant(R);
  if (B == Base::None || !C)
    return std::nullopt;
  if (Op == BO_Xor)
    return *C == 0 ? IndexForm{B, false, 0} : IndexForm{B, true, *C};
  return IndexForm{B, false, Op == BO_Sub ? -*C : *C};
}

bool Analysis::threadDependent(const Expr *E, bool Shared) const {
  bool Dep = false;
  forEachDescendant(E, [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (OwnVars.count(DRE->getDecl()))
        Dep = true;
      else if (VD && VD->isLocalVarDecl() && Varying.count(VD) &&
               (Shared || !VD->hasAttr<CUDASharedAttr>()))
        Dep = true;
    } else if (isa<CallExpr>(S)) {
      std::optional<GroupQuery> Q = groupQueryCall(cast<CallExpr>(S));
      Dep |= Q &&
             (Q->Query == GroupQuery::Rank || Q->Query == GroupQuery::MetaRank);
    } else if (const auto *POE = dyn_cast<PseudoObjectExpr>(S)) {
      if (isThreadIdxX(POE))
        Dep = true;
      else if (const auto *Prop =
                   dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm())) {
        // threadIdx.y/.z: thread-dependent, not an own index we track.
        const Expr *B = Prop->getBaseExpr()->IgnoreImpCasts();
        if (const auto *OVE = dyn_cast<OpaqueValueExpr>(B))
          B = OVE->getSourceExpr()->IgnoreImpCasts();
        if (const auto *D = dyn_cast<DeclRefExpr>(B))
          Dep |= D->getDecl()->getName() == "threadIdx";
      }
    }
  });
  return Dep;
}

bool Analysis::varyingExpr(const Expr *E, bool Builtins, bool Shared) const {
  if (threadDependent(E, Shared))
    return true;
  bool V = false;
  forEachDescendant(E, [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Builtins && Callee && Callee->getIdentifier() &&
          Callee->getName().starts_with("__fetch_builtin_"))
        return;
      V |= !Callee || !Callee->isConstexpr();
    }
  });
  return V;
}

void Analysis::collectVarying(const FunctionDecl *FD) {
  bool Changed = true;
  auto local = [](const Expr *Target) -> const VarDecl * {
    const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && VD->isLocalVarDecl() ? VD : nullptr;
  };
  auto mark = [&](const Expr *Target) {
    if (const VarDecl *VD = local(Target))
      Changed |= Varying.insert(VD).second;
  };
  // Handed to a call that may write it: its value there is the callee's.
  auto opaque = [&](const Expr *Target) {
    if (const VarDecl *VD = local(Target))
      Opaque.insert(VD);
  };
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool Ctrl) {
    if (!S || isa<LambdaExpr>(S))
      return;
    const Expr *Cond = nullptr;
    const Stmt *Body = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      Walk(If->getInit(), Ctrl);
      Walk(If->getConditionVariableDeclStmt(), Ctrl);
      Walk(If->getCond(), Ctrl);
      bool C = Ctrl || threadDependent(If->getCond());
      Walk(If->getThen(), C);
      Walk(If->getElse(), C);
      return;
    }
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      Walk(For->getInit(), Ctrl);
      Cond = For->getCond();
      Body = For->getBody();
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      Cond = While->getCond();
      Body = While->getBody();
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      Cond = Do->getCond();
      Body = Do->getBody();
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      Walk(Switch->getCond(), Ctrl);
      Walk(Switch->getBody(), Ctrl || threadDependent(Switch->getCond()));
      return;
    }
    if (Body) {
      bool C = Ctrl || (Cond && threadDependent(Cond)) ||
               divergentExit(Body, /*Loop=*/true);
      Walk(Cond, C);
      Walk(Body, C);
      if (const auto *For = dyn_cast<ForStmt>(S))
        Walk(For->getInc(), C);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getInit() &&
            (Ctrl || varyingExpr(VD->getInit(),
                                 /*Builtins=*/VD->getType()->isIntegerType())))
          Changed |= Varying.insert(VD).second;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp() && (Ctrl || varyingExpr(BO->getRHS())))
        mark(BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->getOpcode() == UO_AddrOf ||
          (UO->isIncrementDecrementOp() && Ctrl))
        mark(UO->getSubExpr());
      if (UO->getOpcode() == UO_AddrOf)
        opaque(UO->getSubExpr());
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
          MC && MC->getMethodDecl() && !MC->getMethodDecl()->isConst())
        opaque(MC->getImplicitObjectArgument());
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        const ParmVarDecl *P = Callee && I < Callee->getNumParams()
                                   ? Callee->getParamDecl(I)
                                   : nullptr;
        if (!P || (P->getType()->isReferenceType() &&
                   !P->getType().getNonReferenceType().isConstQualified())) {
          mark(Call->getArg(I));
          opaque(Call->getArg(I));
        }
      }
    }
    for (const Stmt *C : S->children())
      Walk(C, Ctrl);
  };
  for (int Round = 0; Changed && Round < 8; ++Round) {
    Changed = false;
    Walk(FD->getBody(), false);
  }
}

bool Analysis::divergentExit(const Stmt *S, bool Loop) const {
  bool Exit = false;
  std::function<void(const Stmt *, bool, bool)> Walk =
      [&](const Stmt *X, bool Under, bool Nested) {
        if (!X || Exit || isa<LambdaExpr>(X))
          return;
        if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(X) ||
            (isa<BreakStmt, ContinueStmt>(X) && !Nested)) {
          Exit |= Under;
          return;
        }
        if (const auto *If = dyn_cast<IfStmt>(X)) {
          bool U = Under || threadDependent(If->getCond());
          Walk(If->getThen(), U, Nested);
          Walk(If->getElse(), U, Nested);
          return;
        }
        if (isa<ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(X)) {
          // An early exit of a nested loop ends only that loop; a return
          // inside it still counts, under whatever condition.
          for (const Stmt *C : X->children())
            Walk(C, true, true);
          return;
        }
        for (const Stmt *C : X->children())
          Walk(C, Under, Nested);
      };
  (void)Loop;
  Walk(S, false, false);
  return Exit;
}

void Analysis::refine(Guard &G, const Expr *Cond) const {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    if (BO->getOpcode() == BO_LAnd) {
      refine(G, BO->getLHS());
      refine(G, BO->getRHS());
      return;
    }
    if (BO->isComparisonOp()) {
      BinaryOperatorKind Op = BO->getOpcode();
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      if (baseOf(L) == Base::None) {
        std::swap(L, R);
        Op = BinaryOperator::reverseComparisonOp(Op);
      }
      Base B = baseOf(L);
      std::optional<int64_t> C = constant(R);
      if (B != Base::None && C) {
        int64_t &Lo = B == Base::Tid ? G.TidLo : G.LaneLo;
        int64_t &Hi = B == Base::Tid ? G.TidHi : G.LaneHi;
        bool Aligned = B == Base::Tid && *C % WarpSize == 0;
        switch (Op) {
        case BO_LT:
          Hi = std::min(Hi, *C);
          break;
        case BO_LE:
          Hi = std::min(Hi, *C + 1);
          Aligned = B == Base::Tid && (*C + 1) % WarpSize == 0;
          break;
        case BO_GT:
          Lo = std::max(Lo, *C + 1);
          Aligned = B == Base::Tid && (*C + 1) % WarpSize == 0;
          break;
        case BO_GE:
          Lo = std::max(Lo, *C);
          break;
        case BO_EQ:
          Lo = std::max(Lo, *C);
          Hi = std::min(Hi, *C + 1);
          Aligned = false;
          break;
        default:
          Aligned = false;
          break;
        }
        G.BlockUniform = false;
        G.WarpUniform &= Aligned;
        return;
      }
    }
  }
  if (threadDependent(Cond)) {
    G.BlockUniform = false;
    G.WarpUniform = false;
    G.Exact = false;
  }
}

void Analysis::collectLocals(const FunctionDecl *FD) {
  llvm::DenseSet<const ValueDecl *> Assigned;
  forEachDescendant(FD->getBody(), [&](const Stmt *S) {
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      Target = BO->isAssignmentOp() ? BO->getLHS() : nullptr;
    else if (const auto *UO = dyn_cast<UnaryOperator>(S))
      Target = UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf
                   ? UO->getSubExpr()
                   : nullptr;
    if (Target)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
        Assigned.insert(DRE->getDecl());
  });
  for (const ParmVarDecl *P : FD->parameters())
    if (Assigned.count(P))
      OwnVars.erase(P);
  Reassigned.insert(Assigned.begin(), Assigned.end());
  forEachDescendant(FD->getBody(), [&](const Stmt *S) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      return;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getInit() || Assigned.count(VD) ||
          !VD->getType()->isIntegerType())
        continue;
      if (Base B = baseOf(VD->getInit()); B != Base::None)
        OwnVars[VD] = B;
    }
  });
}

void Analysis::bindParameters(llvm::ArrayRef<const FunctionDecl *> Functions) {
  llvm::DenseMap<const ParmVarDecl *, Base> Bound;
  llvm::DenseSet<const ParmVarDecl *> Unbound;
  for (const FunctionDecl *FD : Functions)
    forEachDescendant(FD->getBody(), [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      if (!Callee || isa<CXXOperatorCallExpr>(Call))
        return;
      for (unsigned I = 0, N = std::min<unsigned>(Call->getNumArgs(),
                                                  Callee->getNumParams());
           I < N; ++I) {
        const ParmVarDecl *P = Callee->getParamDecl(I);
        if (!P->getType()->isIntegerType())
          continue;
        Base B = baseOf(Call->getArg(I));
        auto It = Bound.find(P);
        if (B == Base::None || (It != Bound.end() && It->second != B))
          Unbound.insert(P);
        else
          Bound[P] = B;
      }
    });
  for (auto &[P, B] : Bound)
    if (!Unbound.count(P))
      OwnVars[P] = B;
}

bool Analysis::containsBarrier(const FunctionDecl *FD, unsigned Depth) const {
  if (!FD || !FD->getBody() || Depth > 3)
    return false;
  bool Found = false;
  forEachDescendant(FD->getBody(), [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Found |= isBarrierCall(Call) ||
               containsBarrier(Call->getDirectCallee(), Depth + 1);
  });
  return Found;
}

} // namespace clang::tidy::cuda::warpsync
