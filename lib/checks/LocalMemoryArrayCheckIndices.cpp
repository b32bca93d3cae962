//===--- LocalMemoryArrayCheckIndices.cpp - cuda-lint ---------------------===//
//
// The indices of cuda-local-memory-array's per-thread arrays
// (LocalMemoryArrayIndices.h): what an index is after nvcc has unrolled
// what it unrolls, and the accesses of an array variable. Guide section:
// OpenCL best-practices guide for CUDA GPUs, 3.2.3 "Local Memory".
//
//===----------------------------------------------------------------------===//

#include "LocalMemoryArrayIndices.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::cuda::local_memory_array {

/// Both operands of an operation: the weaker knowledge wins.
IndexClass &IndexClass::operator+=(const IndexClass &O) {
  if (O.Kind == RunTime && Kind == RunTime) {
    PredicateBits += O.PredicateBits;
    OtherRunTime |= O.OtherRunTime;
  } else if (O.Kind > Kind) {
    Kind = O.Kind;
    Cause = O.Cause;
    PredicateBits = O.PredicateBits;
    OtherRunTime = O.OtherRunTime;
  }
  for (const VarDecl *V : O.Counters)
    if (!llvm::is_contained(Counters, V))
      Counters.push_back(V);
  return *this;
}

namespace {

/// Functions whose value is a pure function of their integer arguments.
bool isPureIntegerCall(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"min",     "max",      "umin",     "umax",    "llmin",
              "llmax",   "ullmin",   "ullmax",   "abs",     "labs",
              "llabs",   "__mul24",  "__umul24", "__mulhi", "__umulhi",
              "__popc",  "__popcll", "__clz",    "__clzll", "__ffs",
              "__ffsll", "__brev",   "__brevll"},
             true)
      .Default(false);
}

/// Calls whose value differs between threads or runs: shuffles, votes,
/// atomics, loads through the cache operators, clocks, random numbers.
bool isRunTimeCall(StringRef Name) {
  return Name.starts_with("__shfl") || isAtomicFunctionName(Name) ||
         Name.starts_with("__ld") || Name.starts_with("clock") ||
         Name.starts_with("__ballot") || Name.starts_with("curand") ||
         Name == "__activemask" || Name == "__any_sync" ||
         Name == "__all_sync" || Name == "__match_any_sync";
}

/// The variable at the root of `a[i][j]`, `*p`, `p->f` (through casts).
const VarDecl *rootVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
}

} // namespace

IndexClass IndexClassifier::classify(const Expr *E) {
  if (!E)
    return IndexClass::unknown();
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent())
    return IndexClass::unknown();
  if (E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects))
      return {};
  }
  if (ThreadIndexAnalysis::builtinSymbol(E))
    return IndexClass::runTime(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return classify(Cast->getSubExpr());
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return classify(S->getReplacement());
  if (const auto *C = dyn_cast<ConstantExpr>(E))
    return classify(C->getSubExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V ? classifyVariable(V, E) : IndexClass::unknown();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return classify(BO->getRHS());
    if (BO->isAssignmentOp())
      return IndexClass::unknown();
    IndexClass L = classify(BO->getLHS());
    L += classify(BO->getRHS());
    if (L.Kind == IndexClass::RunTime &&
        (BO->isComparisonOp() || BO->isLogicalOp()))
      return IndexClass::predicate(L);
    return L;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_Plus:
    case UO_Minus:
    case UO_Not:
      return classify(UO->getSubExpr());
    case UO_LNot: {
      IndexClass C = classify(UO->getSubExpr());
      return C.Kind == IndexClass::RunTime ? IndexClass::predicate(C) : C;
    }
    case UO_Deref:
      return load(E);
    default:
      return IndexClass::unknown();
    }
  }
  // `c ? a : b` with constant arms becomes a select of two loads, not a
  // run-time index: only the arms count.
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    IndexClass T = classify(CO->getTrueExpr());
    T += classify(CO->getFalseExpr());
    return T;
  }
  if (isa<ArraySubscriptExpr, MemberExpr>(E))
    return load(E);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || isa<CXXMemberCallExpr>(Call))
      return IndexClass::unknown();
    StringRef Name = Callee->getName();
    if (isRunTimeCall(Name))
      return IndexClass::runTime(E);
    if (!isPureIntegerCall(Name))
      return IndexClass::unknown();
    IndexClass R;
    for (const Expr *Arg : Call->arguments())
      R += classify(Arg);
    return R;
  }
  return IndexClass::unknown();
}

/// A value read from memory: data, unless it is read from a per-thread
/// variable (whose contents may be constants that nvcc folds) or from a
/// constant table.
IndexClass IndexClassifier::load(const Expr *E) {
  const VarDecl *Root = rootVariable(E);
  if (!Root)
    return IndexClass::unknown();
  if (const auto *P = dyn_cast<ParmVarDecl>(Root))
    return isKernel(&FD) && P->getDeclContext() == &FD ? IndexClass::runTime(E)
                                                       : IndexClass::unknown();
  if (Root->hasGlobalStorage() && !Root->getType().isConstQualified())
    return IndexClass::runTime(E);
  if (Root->hasAttr<CUDAConstantAttr>() || Root->hasAttr<CUDASharedAttr>())
    return IndexClass::runTime(E);
  return IndexClass::unknown();
}

IndexClass IndexClassifier::classifyVariable(const VarDecl *V,
                                             const Expr *Ref) {
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    // A kernel's parameters are run-time values; a device function's may
    // be constants where it is inlined.
    if (isKernel(&FD) && P->getDeclContext() == &FD)
      return IndexClass::runTime(Ref);
    return IndexClass::unknown();
  }
  if (V->hasGlobalStorage())
    return V->getType().isConstQualified() || V->isConstexpr()
               ? IndexClass::unknown()
               : IndexClass::runTime(Ref);
  if (!V->hasLocalStorage() || !V->getType()->isIntegralOrEnumerationType())
    return IndexClass::unknown();
  if (!InProgress.insert(V).second)
    return IndexClass::unknown();
  IndexClass R = classifyLocal(V, Ref);
  InProgress.erase(V);
  return R;
}

IndexClass IndexClassifier::classifyLocal(const VarDecl *V, const Expr *Ref) {
  if (TIA.isInductionVariable(V)) {
    if (TIA.constantLoopSpan(V))
      return IndexClass::counter(V);
    // A loop whose bound or start is a run-time value.
    const auto *For = loopOf(V);
    if (!For)
      return IndexClass::unknown();
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Cond || !Cond->isComparisonOp())
      return IndexClass::unknown();
    // The counter itself is in progress (unknown); a run-time bound or
    // start makes it a run-time value.
    IndexClass B = classify(Cond);
    IndexClass Start = classify(V->getInit());
    if (B.Kind == IndexClass::RunTime)
      return IndexClass::runTime(B.Cause);
    if (Start.Kind == IndexClass::RunTime)
      return IndexClass::runTime(Start.Cause);
    return IndexClass::unknown();
  }
  if (const Expr *Def = TIA.singleDefinition(V))
    return classify(Def);
  return IndexClass::unknown();
}

const ForStmt *IndexClassifier::loopOf(const VarDecl *V) {
  DynTypedNodeList P = Ctx.getParents(*V);
  if (P.empty() || !P[0].get<DeclStmt>())
    return nullptr;
  P = Ctx.getParents(*P[0].get<DeclStmt>());
  return P.empty() ? nullptr : P[0].get<ForStmt>();
}

/// The per-thread array variable that the access \p Sub (its outermost
/// subscript) reads, with its indices from the outermost in; null when it
/// is not a subscript chain on an array variable.
const VarDecl *accessedArray(const ArraySubscriptExpr *Sub,
                             llvm::SmallVectorImpl<const Expr *> &Indices) {
  const Expr *Base = Sub;
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base)) {
    // Only arrays: `p[i]` on a pointer is no per-thread array.
    if (!ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      return nullptr;
    Indices.push_back(ASE->getIdx());
    Base = ASE->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Every access of \p Array in \p Body, by its outermost subscript, in
/// source order.
llvm::SmallVector<const ArraySubscriptExpr *, 8>
accessesOf(const VarDecl *Array, const Stmt *Body) {
  llvm::SmallVector<const ArraySubscriptExpr *, 8> Out;
  llvm::DenseSet<const Stmt *> Inner;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S);
        ASE && !Inner.contains(ASE)) {
      llvm::SmallVector<const Expr *, 2> Idx;
      if (accessedArray(ASE, Idx) == Array) {
        Out.push_back(ASE);
        for (const Expr *B = ASE->getBase()->IgnoreParenImpCasts();
             const auto *In = dyn_cast<ArraySubscriptExpr>(B);
             B = In->getBase()->IgnoreParenImpCasts())
          Inner.insert(In);
      }
    }
    // Children in reverse, so that the first child is visited first.
    llvm::SmallVector<const Stmt *, 8> Children(S->child_begin(),
                                                S->child_end());
    for (const Stmt *C : llvm::reverse(Children))
      Work.push_back(C);
  }
  return Out;
}

/// Whether the access \p A (an outermost subscript) only reads the element:
/// its value is loaded, it is not assigned, incremented, bound to a
/// reference or decayed to a pointer.
bool onlyReads(ASTContext &Ctx, const ArraySubscriptExpr *A) {
  const Stmt *Cur = A;
  DynTypedNodeList P = Ctx.getParents(*Cur);
  while (!P.empty() && P[0].get<ParenExpr>()) {
    Cur = P[0].get<Stmt>();
    P = Ctx.getParents(*Cur);
  }
  if (P.empty())
    return false;
  const auto *Cast = P[0].get<ImplicitCastExpr>();
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

} // namespace clang::tidy::cuda::local_memory_array
