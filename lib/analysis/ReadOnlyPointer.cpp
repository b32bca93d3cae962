//===--- ReadOnlyPointer.cpp - cuda-lint ----------------------------------===//
//
// Kepler tuning guide 1.4.4.3: data read through the read-only data cache
// must be read-only for the lifetime of the kernel. This analysis proves it
// for a pointer parameter from the kernel's body and its device callees.
// This file holds the recursion model (isKeptRecursiveCall) and the roots
// a pointer points into; the walk over a body is ReadOnlyPointerWalker.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ReadOnlyPointer.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>

namespace clang::tidy::cuda {

namespace {

/// Whether the store target \p E is one of the function's own locals: a
/// local variable (not a reference, not `__shared__`), or an element or
/// member of a local array or struct. Stores to those are not memory effects
/// of the function (LLVM keeps them in its own stack frame).
bool isOwnLocal(const Expr *E) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow() || ME->getMemberDecl()->getType()->isReferenceType())
        return false;
      E = ME->getBase();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return false;
      E = Base;
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
           !V->hasAttr<CUDASharedAttr>();
  }
  return false;
}

/// Whether a call of \p Callee, a function without a body here or from a
/// system header, may write memory: atomics, printf, allocation, memory
/// copies, assertions and unknown functions do; the math and intrinsic
/// functions of the CUDA headers do not.
bool mayWriteOpaque(const FunctionDecl *Callee) {
  if (!Callee->getIdentifier())
    return true;
  StringRef Name = Callee->getName();
  if (isAtomicFunctionName(Name) || Name.contains("Atomic") ||
      Name.contains("printf") || Name.contains("alloc") ||
      Name.contains("free") || Name.starts_with("mem") ||
      Name.contains("assert") || Name.starts_with("__st"))
    return true;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation()));
}

/// Whether \p FD may write memory other than its own locals, itself or in
/// the user functions it calls (followed four calls deep; deeper counts as
/// a write).
bool mayWriteMemory(const FunctionDecl *FD,
                    llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited,
                    unsigned Depth) {
  if (Depth > 4)
    return true;
  if (!Visited.insert(FD->getCanonicalDecl()).second)
    return false; // Already being scanned.
  struct Scan : RecursiveASTVisitor<Scan> {
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited;
    unsigned Depth;
    bool Writes = false;
    Scan(llvm::SmallPtrSetImpl<const FunctionDecl *> &Visited, unsigned Depth)
        : Visited(Visited), Depth(Depth) {}
    bool store(const Expr *Target) {
      Writes |= !isOwnLocal(Target);
      return !Writes;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      return BO->isAssignmentOp() ? store(BO->getLHS()) : true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      return UO->isIncrementDecrementOp() ? store(UO->getSubExpr()) : true;
    }
    bool VisitAsmStmt(AsmStmt *) { return !(Writes = true); }
    bool VisitCXXNewExpr(CXXNewExpr *) { return !(Writes = true); }
    bool VisitCXXDeleteExpr(CXXDeleteExpr *) { return !(Writes = true); }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return !(Writes = true); // An indirect call.
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
        if (Op->isAssignmentOp() && Op->getNumArgs() >= 1 &&
            !isOwnLocal(Op->getArg(0)))
          return !(Writes = true);
      const FunctionDecl *Def = nullptr;
      const SourceManager &SM = Callee->getASTContext().getSourceManager();
      if (Callee->hasBody(Def) && Def->getBody() &&
          !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
        Writes |= mayWriteMemory(Def, Visited, Depth + 1);
      else
        Writes |= mayWriteOpaque(Callee);
      return !Writes;
    }
  } S(Visited, Depth);
  S.TraverseStmt(FD->getBody());
  return S.Writes;
}

} // namespace

bool ReadOnlyPointerAnalysis::isKeptRecursiveCall(const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return false;
  auto It = KeptRecursive.find(FD);
  if (It != KeptRecursive.end())
    return It->second;
  const FunctionDecl *Self = FD->getCanonicalDecl();
  bool ReturnsVoid = FD->getReturnType()->isVoidType();
  // Whether what runs after the statement \p S satisfies \p Next: the
  // statement that follows it, or at the end of a block or `if` branch what
  // follows that, or null where the function's body ends.
  std::function<bool(const Stmt *, llvm::function_ref<bool(const Stmt *)>)>
      Then = [&](const Stmt *S, llvm::function_ref<bool(const Stmt *)> Next) {
        DynTypedNodeList Parents = Ctx.getParents(*S);
        if (Parents.size() != 1)
          return false;
        if (Parents[0].get<FunctionDecl>())
          return Next(nullptr);
        const Stmt *P = Parents[0].get<Stmt>();
        if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P)) {
          const Stmt *const *Pos = llvm::find(CS->body(), S);
          if (Pos == CS->body_end())
            return false;
          return Pos + 1 == CS->body_end() ? Then(CS, Next) : Next(*(Pos + 1));
        }
        if (const auto *If = dyn_cast_or_null<IfStmt>(P))
          return If->getCond() != S && Then(If, Next);
        return false;
      };
  // Whether the statement \p S is the last thing the function does: the
  // last statement of its body, of a block or `if` branch that is, or one
  // followed by `return;`.
  auto IsLast = [&](const Stmt *S) {
    return Then(S, [](const Stmt *N) {
      const auto *Ret = dyn_cast_or_null<ReturnStmt>(N);
      return !N || (Ret && !Ret->getRetValue());
    });
  };
  // The one parent of \p S, where it has one and that is a statement.
  auto ParentStmt = [&](const Stmt *S) -> const Stmt * {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
  };
  // Whether the call \p Call is a tail call, which nvcc turns into a loop:
  // `return f(...);` (or an arm of a `?:` that is returned), or, in a void
  // function, a call statement that is the last thing the function does.
  auto IsTailCall = [&](const CallExpr *Call) {
    const Stmt *S = Call;
    for (int Depth = 0; Depth < 16; ++Depth) {
      const Stmt *P = ParentStmt(S);
      if (!P)
        return false;
      if (isa<ReturnStmt>(P))
        return true;
      if (isa<ParenExpr, ExprWithCleanups>(P) ||
          (isa<ImplicitCastExpr>(P) &&
           cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp)) {
        S = P;
        continue;
      }
      if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
        if (CO->getCond() == S)
          return false;
        S = P;
        continue;
      }
      if (isa<Expr>(P))
        return false;
      return ReturnsVoid && S == Call && IsLast(S);
    }
    return false;
  };
  struct Calls : RecursiveASTVisitor<Calls> {
    const FunctionDecl *Self;
    SmallVector<const CallExpr *, 4> Found;
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Callee->getCanonicalDecl() == Self)
          Found.push_back(Call);
      return true;
    }
  } C;
  C.Self = Self;
  C.TraverseStmt(FD->getBody());
  // Whether the statement \p S is followed by `return V;`, directly or
  // at the end of the blocks and `if` branches that enclose it.
  auto ReturnsNext = [&](const Stmt *S, const VarDecl *V) {
    return Then(S, [&](const Stmt *N) {
      const auto *Ret = dyn_cast_or_null<ReturnStmt>(N);
      const auto *Ref =
          Ret && Ret->getRetValue()
              ? dyn_cast<DeclRefExpr>(Ret->getRetValue()->IgnoreParenImpCasts())
              : nullptr;
      return Ref && Ref->getDecl() == V;
    });
  };
  // Whether the result of the call \p Call is accumulated into the
  // function's result by an associative operator: `return 1 + f(a) +
  // f(b);`, or `ans += f(a);` followed by `return ans;` (Eval, CalcMFFC).
  // nvcc's tail recursion elimination then turns one call into a loop with
  // an accumulator and keeps the other, and it no longer proves anything
  // about the pointer arguments (nvcc 13.0 -ptx): results stored into
  // locals or memory (`int v = f(a);`, minatoIsopRec, a void BuildSubgr)
  // leave the pointer's loads ld.global.nc.
  auto IsAccumulative = [](BinaryOperatorKind Op) {
    return Op == BO_Add || Op == BO_Mul || Op == BO_And || Op == BO_Or ||
           Op == BO_Xor || Op == BO_AddAssign || Op == BO_MulAssign ||
           Op == BO_AndAssign || Op == BO_OrAssign || Op == BO_XorAssign;
  };
  auto IsAccumulated = [&](const CallExpr *Call) {
    const Stmt *S = Call;
    bool Operand = false;
    for (int Depth = 0; Depth < 16; ++Depth) {
      const Stmt *P = ParentStmt(S);
      if (!P)
        return false;
      if (isa<ReturnStmt>(P))
        return Operand;
      if (isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups>(P)) {
        S = P;
        continue;
      }
      const auto *BO = dyn_cast<BinaryOperator>(P);
      if (!BO || !IsAccumulative(BO->getOpcode()))
        return false;
      if (BO->isCompoundAssignmentOp()) {
        const auto *Ref =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        return BO->getRHS() == S && V && V->hasLocalStorage() &&
               ReturnsNext(BO, V);
      }
      Operand = true;
      S = P;
    }
    return false;
  };
  unsigned Kept = llvm::count_if(
      C.Found, [&](const CallExpr *Call) { return !IsTailCall(Call); });
  bool Result = false;
  if (Kept >= 2 && llvm::any_of(C.Found, IsAccumulated)) {
    llvm::SmallPtrSet<const FunctionDecl *, 8> Visited;
    Result = mayWriteMemory(FD, Visited, 0);
  }
  return KeptRecursive[FD] = Result;
}

const ValueDecl *pointerRoot(const Expr *E) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->isAdditiveOp())
        return nullptr;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_AddrOf)
        return nullptr;
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
        E = ASE->getBase();
        continue;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        return DRE->getDecl(); // `&x` and `&x + 1` point into x.
      return nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return DRE->getDecl();
      if (!isa<ParmVarDecl>(V) && V->hasLocalStorage() && V->getInit() &&
          V->getType()->isPointerType() &&
          V->getInit()->IgnoreParenCasts()->getType()->isPointerType()) {
        // `float *b = a + n;`: b points into a's allocation.
        if (const ValueDecl *Root = pointerRoot(V->getInit()))
          return Root;
      }
      return V;
    }
    return nullptr;
  }
  return nullptr;
}

namespace {

/// The right-hand sides of `V = ...` in one function body.
class AssignmentCollector : public RecursiveASTVisitor<AssignmentCollector> {
public:
  explicit AssignmentCollector(const VarDecl *V) : V(V) {}
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() != BO_Assign)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
    if (DRE && DRE->getDecl() == V)
      Values.push_back(BO->getRHS());
    return true;
  }
  const VarDecl *V;
  SmallVector<const Expr *, 4> Values;
};

void collectRoots(const Expr *E, SmallVectorImpl<const ValueDecl *> &Roots,
                  llvm::SmallPtrSetImpl<const VarDecl *> &Visited,
                  unsigned Depth) {
  auto Add = [&](const ValueDecl *D) {
    if (D && !llvm::is_contained(Roots, D))
      Roots.push_back(D);
  };
  for (; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma) {
        E = BO->getRHS();
        continue;
      }
      if (BO->getOpcode() == BO_Assign) {
        E = BO->getRHS();
        continue;
      }
      if (!BO->isAdditiveOp())
        return;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      collectRoots(CO->getTrueExpr(), Roots, Visited, Depth + 1);
      E = CO->getFalseExpr();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp()) {
        E = UO->getSubExpr();
        continue;
      }
      if (UO->getOpcode() != UO_AddrOf)
        return;
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
        E = ASE->getBase();
        continue;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        Add(DRE->getDecl());
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return Add(ME->getMemberDecl());
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    Add(DRE->getDecl());
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
        !V->getType()->isPointerType() || !Visited.insert(V).second)
      return;
    if (V->getInit())
      collectRoots(V->getInit(), Roots, Visited, Depth + 1);
    const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
    if (!FD || !FD->getBody())
      return;
    AssignmentCollector C(V);
    C.TraverseStmt(FD->getBody());
    for (const Expr *Value : C.Values)
      collectRoots(Value, Roots, Visited, Depth + 1);
    return;
  }
}

} // namespace

void pointerRoots(const Expr *E, SmallVectorImpl<const ValueDecl *> &Roots) {
  llvm::SmallPtrSet<const VarDecl *, 8> Visited;
  collectRoots(E, Roots, Visited, 0);
}

} // namespace clang::tidy::cuda
