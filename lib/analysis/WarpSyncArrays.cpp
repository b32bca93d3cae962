//===--- WarpSyncArrays.cpp - cuda-lint
//-------------------------------------===//
//
// Which array an access touches for cuda-warp-synchronous: aliases and
// offsets of local pointers, thread-private helper parameters, and the
// volatile reads of spin-waits.
//
//===----------------------------------------------------------------------===//

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

bool Analysis::rebased(const VarDecl *VD) const {
  if (!VD->getType()->isPointerType())
    return false;
  if (Reassigned.count(VD))
    return true;
  return VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit() &&
         canonicalArray(VD) == VD && varyingExpr(VD->getInit());
}

const ValueDecl *Analysis::canonicalArray(const ValueDecl *D) const {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD || !VD->hasLocalStorage() || !VD->getType()->isPointerType() ||
      isa<ParmVarDecl>(VD) || !VD->getInit() || Reassigned.count(VD))
    return D;
  const auto *Target = dyn_cast<DeclRefExpr>(VD->getInit()->IgnoreParenCasts());
  const auto *TV = Target ? dyn_cast<VarDecl>(Target->getDecl()) : nullptr;
  if (TV && (TV->hasAttr<CUDASharedAttr>() || TV->getType()->isPointerType()))
    return TV;
  return D;
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
