//===--- KernelLaunchConfig.cpp - cuda-lint -------------------------------===//
//
// The evaluator of launch configurations (see KernelLaunches.h): the
// extents of a launch's block or grid argument, a constant, a `dim3`, or a
// local variable or member assignments that reach the launch, and the
// public evaluateDim3, evaluateBlockXY and evaluateBlock. The collection
// of a translation unit's launches is KernelLaunches.cpp.
//
//===----------------------------------------------------------------------===//

#include "KernelLaunchesImpl.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/IntegerFold.h"
#include "cudalint/analysis/KernelLaunches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

namespace {

constexpr int MaxDepth = 8;

std::optional<BlockShape> evaluate(const Expr *E, const FunctionDecl *Caller,
                                   ASTContext &Ctx, int Depth);

} // namespace

namespace launches {

/// \p E, with member accesses, parentheses and no-op casts taken off, is a
/// reference to \p VD.
bool names(const Expr *E, const VarDecl *VD) {
  while (E) {
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *PE = dyn_cast<ParenExpr>(E))
      E = PE->getSubExpr();
    else if (const auto *IC = dyn_cast<ImplicitCastExpr>(E);
             IC && IC->getCastKind() == CK_NoOp)
      E = IC->getSubExpr();
    else
      break;
  }
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  return DRE && DRE->getDecl() == VD;
}

} // namespace launches

namespace {

bool mentions(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD)
    return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    if (llvm::is_contained(DS->decls(), VD))
      return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return mentions(C, VD); });
}

} // namespace

namespace launches {

/// Whether every use of \p VD in \p S only reads it: a value or member read,
/// a copy (a launch configuration, a by-value argument).
bool onlyReads(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S);
      DS && llvm::is_contained(DS->decls(), VD))
    return false;
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S);
      IC && IC->getCastKind() == CK_LValueToRValue &&
      names(IC->getSubExpr(), VD))
    return true;
  if (const auto *E = dyn_cast<Expr>(S); E && names(E, VD))
    return false;
  const auto *Copy = dyn_cast<CXXConstructExpr>(S);
  bool IsCopy = Copy && Copy->getConstructor()->isCopyConstructor();
  for (const Stmt *Child : S->children())
    if (!(IsCopy && isa<Expr>(Child) && names(cast<Expr>(Child), VD)) &&
        !onlyReads(Child, VD))
      return false;
  return true;
}

} // namespace launches

namespace {

/// The `VD = E` (\p Field -1) or `VD.x = E` (\p Field 0, 1, 2 for x, y,
/// z) that \p S is, or null.
const Expr *assignmentTo(const Stmt *S, const VarDecl *VD, int &Field) {
  auto IsVD = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        IsVD(Op->getArg(0))) {
      Field = -1;
      return Op->getArg(1);
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Assign) {
    if (IsVD(BO->getLHS())) {
      Field = -1;
      return BO->getRHS();
    }
    if (const auto *ME =
            dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
        ME && IsVD(ME->getBase())) {
      StringRef Name = ME->getMemberDecl()->getName();
      Field = Name == "x" ? 0 : Name == "y" ? 1 : Name == "z" ? 2 : -2;
      return Field >= 0 ? BO->getRHS() : nullptr;
    }
  }
  return nullptr;
}

/// The statements from \p S down to \p Target, both included, through
/// their children; false when \p Target is not in \p S.
bool pathTo(const Stmt *S, const Stmt *Target,
            SmallVectorImpl<const Stmt *> &Path) {
  if (!S)
    return false;
  Path.push_back(S);
  if (S == Target)
    return true;
  for (const Stmt *Child : S->children())
    if (pathTo(Child, Target, Path))
      return true;
  Path.pop_back();
  return false;
}

/// The value of the local variable \p VD (a `dim3` or an integer) where
/// \p Use, in \p Caller, reads it: walking back over the statements before
/// it, in its block and the enclosing ones, to its declaration or a whole
/// assignment (`b = dim3(16, 16);`), taking member assignments (`b.x =
/// 16;`) on the way. Unknown where a statement on the way uses \p VD
/// otherwise (it may change it), where a loop around the use mentions it,
/// where the code has labels, or at the edge of a lambda.
std::optional<BlockShape> reachingValue(const VarDecl *VD, const Expr *Use,
                                        const FunctionDecl *Caller,
                                        ASTContext &Ctx, int Depth) {
  if (!VD->hasLocalStorage() || !Caller || !Caller->getBody())
    return std::nullopt;
  SmallVector<const Stmt *, 16> Path;
  if (!pathTo(Caller->getBody(), Use, Path))
    return std::nullopt;
  std::optional<int64_t> Fields[3];
  auto Finish = [&](std::optional<BlockShape> Base) {
    if (Base)
      for (int D = 0; D < 3; ++D)
        if (Fields[D])
          (*Base)[D] = *Fields[D];
    return Base;
  };
  for (size_t I = Path.size() - 1; I-- > 0;) {
    const Stmt *PS = Path[I], *CurStmt = Path[I + 1];
    if (isa<LambdaExpr>(PS))
      return std::nullopt;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LabelStmt, SwitchCase>(
            PS) &&
        !onlyReads(PS, VD))
      return std::nullopt;
    const auto *CS = dyn_cast<CompoundStmt>(PS);
    if (!CS)
      continue;
    auto It = llvm::find(CS->body(), CurStmt);
    if (It == CS->body_end())
      return std::nullopt;
    while (It != CS->body_begin()) {
      const Stmt *S = *--It;
      if (isa<LabelStmt, SwitchCase>(S))
        return std::nullopt;
      if (!mentions(S, VD) || onlyReads(S, VD))
        continue;
      if (const auto *DS = dyn_cast<DeclStmt>(S);
          DS && llvm::is_contained(DS->decls(), VD)) {
        if (!VD->getInit())
          return VD->getType()->isRecordType() ? Finish(BlockShape{1, 1, 1})
                                               : std::nullopt;
        return Finish(evaluate(VD->getInit(), Caller, Ctx, Depth + 1));
      }
      int Field = -2;
      const Expr *Value = assignmentTo(S, VD, Field);
      if (!Value || mentions(Value, VD))
        return std::nullopt;
      if (Field < 0)
        return Finish(evaluate(Value, Caller, Ctx, Depth + 1));
      if (!Fields[Field]) {
        Fields[Field] = evaluateInt(Value, Caller, Ctx, Depth + 1);
        if (!Fields[Field])
          return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

/// Calls \p F(Value, Member) for every write of the local variable \p VD in
/// \p Body: `VD = E` (Member empty), `VD.x = E` (Member "x"); a write of
/// another form (`++VD`, `&VD`, a non-const reference) gives a null Value.
template <typename Fn>
void forEachWrite(const VarDecl *VD, const Stmt *Body, Fn F) {
  if (!Body)
    return;
  auto refersTo = [&](const Expr *E, StringRef &Member) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      Member = ME->getMemberDecl()->getName();
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    return DRE && DRE->getDecl() == VD;
  };
  for (const Stmt *Child : Body->children()) {
    if (!Child)
      continue;
    StringRef Member;
    if (const auto *BO = dyn_cast<BinaryOperator>(Child);
        BO && BO->isAssignmentOp() && refersTo(BO->getLHS(), Member)) {
      F(BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr, Member);
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Child);
               Op && Op->isAssignmentOp() && Op->getNumArgs() == 2 &&
               refersTo(Op->getArg(0), Member)) {
      F(Op->getOperator() == OO_Equal ? Op->getArg(1) : nullptr, Member);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(Child);
               UO &&
               (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
               refersTo(UO->getSubExpr(), Member)) {
      F(nullptr, Member);
    } else if (const auto *Call = dyn_cast<CallExpr>(Child)) {
      // Passed by non-const reference: may change.
      const FunctionDecl *Callee = Call->getDirectCallee();
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        StringRef M;
        if (!refersTo(Call->getArg(I), M))
          continue;
        const ParmVarDecl *P = Callee && I < Callee->getNumParams()
                                   ? Callee->getParamDecl(I)
                                   : nullptr;
        if (!P || (P->getType()->isReferenceType() &&
                   !P->getType().getNonReferenceType().isConstQualified()))
          F(nullptr, M);
      }
    }
    forEachWrite(VD, Child, F);
  }
}

/// The value of the local variable \p VD (a `dim3` or an integer) of
/// \p Caller wherever it is read: its initialiser and every assignment of
/// it or of its members must be constant and agree.
std::optional<BlockShape> localValue(const VarDecl *VD,
                                     const FunctionDecl *Caller,
                                     ASTContext &Ctx, int Depth) {
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !Caller ||
      !Caller->getBody())
    return std::nullopt;
  std::optional<BlockShape> Value;
  if (const Expr *Init = VD->getInit())
    Value = evaluate(Init, Caller, Ctx, Depth + 1);
  else if (VD->getType()->isRecordType())
    Value = BlockShape{1, 1, 1};
  bool OK = Value.has_value();
  std::optional<int64_t> Members[3];
  std::optional<BlockShape> Whole;
  forEachWrite(VD, Caller->getBody(), [&](const Expr *RHS, StringRef Member) {
    if (!OK)
      return;
    if (!RHS) {
      OK = false;
      return;
    }
    if (Member.empty()) {
      std::optional<BlockShape> V = evaluate(RHS, Caller, Ctx, Depth + 1);
      if (!V || (Whole && *Whole != *V))
        OK = false;
      Whole = V;
      return;
    }
    int D = Member == "x" ? 0 : Member == "y" ? 1 : Member == "z" ? 2 : -1;
    std::optional<int64_t> V =
        D >= 0 ? evaluateInt(RHS, Caller, Ctx, Depth + 1) : std::nullopt;
    if (!V || (Members[D] && *Members[D] != *V)) {
      OK = false;
      return;
    }
    Members[D] = V;
  });
  if (!OK)
    return std::nullopt;
  if (Whole) {
    // `dim3 b; b = dim3(16, 16);`: the default value is replaced; an
    // initialiser that says otherwise is another shape.
    const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(
        VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
    bool Default = !VD->getInit() ||
                   (Ctor && llvm::all_of(Ctor->arguments(), [](const Expr *A) {
                      return isa<CXXDefaultArgExpr>(A);
                    }));
    if (!Default && *Whole != *Value)
      return std::nullopt;
    Value = Whole;
  }
  // `dim3 b(16); if (c) b.x = 32;`: where the reaching definition is not
  // known, a member write must agree with an initialiser that sets it.
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(
      VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
  for (int D = 0; D < 3; ++D) {
    if (!Members[D])
      continue;
    if (Init && D < int(Init->getNumArgs()) &&
        !isa<CXXDefaultArgExpr>(Init->getArg(D)) && (*Value)[D] != *Members[D])
      return std::nullopt;
    (*Value)[D] = *Members[D];
  }
  return Value;
}

/// The value of the variable \p VD that \p Use reads in \p Caller: the
/// definition that reaches the use, else the one value every definition
/// gives.
std::optional<BlockShape> variableValue(const VarDecl *VD, const Expr *Use,
                                        const FunctionDecl *Caller,
                                        ASTContext &Ctx, int Depth) {
  if (Depth > MaxDepth)
    return std::nullopt;
  if (std::optional<BlockShape> V = reachingValue(VD, Use, Caller, Ctx, Depth))
    return V;
  return localValue(VD, Caller, Ctx, Depth);
}

} // namespace

namespace launches {

std::optional<int64_t> evaluateInt(const Expr *E, const FunctionDecl *Caller,
                                   ASTContext &Ctx, int Depth) {
  if (!E || Depth > MaxDepth || E->getType().isNull() || E->isTypeDependent() ||
      E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx) && R.Val.isInt()) {
    const llvm::APSInt &V = R.Val.getInt();
    if (V.getSignificantBits() > 63)
      return std::nullopt;
    return V.getExtValue();
  }
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (std::optional<BlockShape> V =
              variableValue(VD, DRE, Caller, Ctx, Depth + 1);
          V && (*V)[1] == 1 && (*V)[2] == 1)
        return (*V)[0];
  // An integer conversion that keeps the value.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S)) {
    std::optional<int64_t> V =
        evaluateInt(Cast->getSubExpr(), Caller, Ctx, Depth + 1);
    if (V && *V >= 0 && *V <= INT32_MAX)
      return V;
    return std::nullopt;
  }
  // Arithmetic on values that are known where they are read (`n / 16`,
  // `(size + 255) / 256` with `int n = 2048;`), kept to non-negative
  // operands that do not overflow: a grid or block extent.
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO)
    return std::nullopt;
  std::optional<int64_t> L = evaluateInt(BO->getLHS(), Caller, Ctx, Depth + 1);
  std::optional<int64_t> Rt =
      L ? evaluateInt(BO->getRHS(), Caller, Ctx, Depth + 1) : std::nullopt;
  if (!L || !Rt || *L < 0 || *Rt < 0 || *L > INT32_MAX || *Rt > INT32_MAX)
    return std::nullopt;
  // The arithmetic of an extent; `<<` only as far as it stays within 32
  // bits.
  if (!BO->isAdditiveOp() && !BO->isMultiplicativeOp() && !BO->isShiftOp())
    return std::nullopt;
  return foldIntegerOperator(BO->getOpcode(), *L, *Rt, /*Unsigned=*/false,
                             BO->getOpcode() == BO_Shl ? 30 : 62);
}

} // namespace launches

namespace {

/// The extents of \p E, a `dim3` or an integer, each positive.
std::optional<BlockShape> evaluate(const Expr *E, const FunctionDecl *Caller,
                                   ASTContext &Ctx, int Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  // In a template pattern the value may depend on the template arguments
  // (each instantiation has it), or be an initialiser that Sema left
  // unresolved: `dim3 block(p.n, 4)` with `p` of a dependent type keeps its
  // arguments as a ParenListExpr, which has no type at all. Expressions
  // with errors are value-dependent too.
  if (E->getType().isNull() || E->isTypeDependent() || E->isValueDependent())
    return std::nullopt;
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    return evaluate(Cast->getSubExpr(), Caller, Ctx, Depth + 1);
  if (E->getType()->isIntegralOrEnumerationType()) {
    std::optional<int64_t> V = evaluateInt(E, Caller, Ctx, Depth + 1);
    if (!V || *V <= 0)
      return std::nullopt;
    return BlockShape{*V, 1, 1};
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
    if (Ctor->getConstructor()->isCopyOrMoveConstructor())
      return Ctor->getNumArgs() == 1
                 ? evaluate(Ctor->getArg(0), Caller, Ctx, Depth + 1)
                 : std::nullopt;
    BlockShape S{1, 1, 1};
    if (Ctor->getNumArgs() > 3)
      return std::nullopt;
    for (unsigned I = 0; I < Ctor->getNumArgs(); ++I) {
      std::optional<int64_t> V =
          evaluateInt(Ctor->getArg(I), Caller, Ctx, Depth + 1);
      if (!V || *V <= 0)
        return std::nullopt;
      S[I] = *V;
    }
    return S;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return variableValue(VD, DRE, Caller, Ctx, Depth + 1);
  return std::nullopt;
}

} // namespace

std::optional<BlockShape>
KernelLaunches::evaluateDim3(const Expr *E, const FunctionDecl *Caller,
                             ASTContext &Ctx) {
  std::optional<BlockShape> S = evaluate(E, Caller, Ctx, 0);
  if (!S || (*S)[0] <= 0 || (*S)[1] <= 0 || (*S)[2] <= 0)
    return std::nullopt;
  return S;
}

std::optional<std::pair<int64_t, int64_t>>
KernelLaunches::evaluateBlockXY(const Expr *E, const FunctionDecl *Caller,
                                ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreImplicit()->IgnoreParens();
  // The copy of a variable the launch configuration takes.
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getConstructor()->isCopyOrMoveConstructor() &&
      Copy->getNumArgs() == 1)
    E = Copy->getArg(0)->IgnoreImplicit()->IgnoreParens();
  // A local `dim3 b(4, 8, z)` whose x and y nothing writes.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !Caller ||
        !Caller->getBody() || !VD->getInit())
      return std::nullopt;
    bool Written = false;
    forEachWrite(VD, Caller->getBody(), [&](const Expr *RHS, StringRef M) {
      Written |= !RHS || M != "z";
    });
    if (Written)
      return std::nullopt;
    E = VD->getInit()->IgnoreImplicit()->IgnoreParens();
  }
  const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
  if (!Ctor || Ctor->getConstructor()->isCopyOrMoveConstructor() ||
      Ctor->getNumArgs() < 2)
    return std::nullopt;
  std::optional<int64_t> X = evaluateInt(Ctor->getArg(0), Caller, Ctx, 1);
  std::optional<int64_t> Y = evaluateInt(Ctor->getArg(1), Caller, Ctx, 1);
  if (!X || !Y || *X <= 0 || *X > 1024 || *Y <= 0 || *Y > 1024 ||
      *X * *Y > 1024)
    return std::nullopt;
  return std::make_pair(*X, *Y);
}

std::optional<BlockShape>
KernelLaunches::evaluateBlock(const Expr *E, const FunctionDecl *Caller,
                              ASTContext &Ctx) {
  std::optional<BlockShape> S = evaluateDim3(E, Caller, Ctx);
  // Each extent bounded before the product, which could overflow.
  if (!S || (*S)[0] > 1024 || (*S)[1] > 1024 || (*S)[2] > 64 ||
      (*S)[0] * (*S)[1] * (*S)[2] > 1024)
    return std::nullopt;
  return S;
}

} // namespace clang::tidy::cuda
