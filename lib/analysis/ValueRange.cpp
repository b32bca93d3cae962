//===--- ValueRange.cpp - cuda-lint ---------------------------------------===//

#include "cudalint/analysis/ValueRange.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

namespace {

class RefFinder : public RecursiveASTVisitor<RefFinder> {
public:
  explicit RefFinder(const VarDecl *V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == V)
      Refs.push_back(E);
    return true;
  }
  const VarDecl *V;
  SmallVector<const DeclRefExpr *, 8> Refs;
};

class SignAnalysis {
public:
  explicit SignAnalysis(ASTContext &Ctx) : Ctx(Ctx) {}

  /// \p ToSigned: the value is converted to a signed type, where unsigned
  /// arithmetic that wraps (`threadIdx.x - 1`) becomes negative.
  bool nonNegative(const Expr *E, unsigned Depth = 0, bool ToSigned = false) {
    if (!E || Depth > 32)
      return false;
    E = E->IgnoreParens();
    QualType T = E->getType();
    // In a template pattern, an initialiser with arguments of a dependent
    // type (`int n(p.size);`) is kept as a ParenListExpr, which has no type.
    if (T.isNull())
      return false;
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      QualType From = Cast->getSubExpr()->getType();
      if (!From->isIntegralOrEnumerationType() && !From->isBooleanType())
        return false;
      if (T->isSignedIntegerOrEnumerationType() && !From->isBooleanType() &&
          Ctx.getIntWidth(T) < Ctx.getIntWidth(From)) {
        // Narrowing to a signed type (`char lane = threadIdx.x`): values
        // that do not fit wrap, to negative ones too. Only a constant is
        // known.
        Expr::EvalResult R;
        return !Cast->isValueDependent() && Cast->EvaluateAsInt(R, Ctx) &&
               !R.Val.getInt().isNegative();
      }
      bool Signed = ToSigned || (T->isSignedIntegerOrEnumerationType() &&
                                 From->isUnsignedIntegerOrEnumerationType());
      return nonNegative(Cast->getSubExpr(), Depth + 1, Signed);
    }
    if (T->isBooleanType())
      return true;
    if (T->isUnsignedIntegerOrEnumerationType()) {
      if (!ToSigned)
        return true;
      // Unsigned values are small unless arithmetic wraps them.
      if (const auto *UO = dyn_cast<UnaryOperator>(E))
        return UO->getOpcode() != UO_Minus && UO->getOpcode() != UO_Not &&
               UO->getOpcode() != UO_PreDec && UO->getOpcode() != UO_PostDec;
      if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
        switch (BO->getOpcode()) {
        case BO_Add:
        case BO_Mul:
        case BO_Or:
          return nonNegative(BO->getLHS(), Depth + 1, true) &&
                 nonNegative(BO->getRHS(), Depth + 1, true);
        case BO_Div:
        case BO_Rem:
        case BO_Shr:
          return nonNegative(BO->getLHS(), Depth + 1, true);
        case BO_And:
          return nonNegative(BO->getLHS(), Depth + 1, true) ||
                 nonNegative(BO->getRHS(), Depth + 1, true);
        default:
          return false;
        }
      }
      if (const auto *CO = dyn_cast<ConditionalOperator>(E))
        return nonNegative(CO->getTrueExpr(), Depth + 1, true) &&
               nonNegative(CO->getFalseExpr(), Depth + 1, true);
      return true;
    }
    if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr>(E))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Mul:
      case BO_Div:
      case BO_Or:
        return nonNegative(BO->getLHS(), Depth + 1) &&
               nonNegative(BO->getRHS(), Depth + 1);
      case BO_Shl:
        // `1 << k`: a power of two, assuming (as every power-of-two divisor
        // does) that k stays below the sign bit.
        if (const auto *Lit =
                dyn_cast<IntegerLiteral>(BO->getLHS()->IgnoreParenImpCasts()))
          return Lit->getValue() == 1;
        return false;
      case BO_Shr:
      case BO_Rem: // The remainder has the sign of the dividend.
        return nonNegative(BO->getLHS(), Depth + 1);
      case BO_And:
        return nonNegative(BO->getLHS(), Depth + 1) ||
               nonNegative(BO->getRHS(), Depth + 1);
      case BO_Comma:
        return nonNegative(BO->getRHS(), Depth + 1);
      default:
        return false;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return nonNegative(CO->getTrueExpr(), Depth + 1) &&
             nonNegative(CO->getFalseExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V && variableNonNegative(V, Depth);
    }
    return false;
  }

private:
  /// Every value stored in \p V is non-negative. Cycles (`k = k + 1`) are
  /// judged inductively: while V is being judged it is assumed non-negative.
  bool variableNonNegative(const VarDecl *V, unsigned Depth) {
    if (isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
        V->getType().isVolatileQualified() || V->getType()->isReferenceType())
      return false;
    if (auto It = Known.find(V); It != Known.end())
      return It->second;
    if (!V->getInit())
      return false;
    const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
    if (!FD || !FD->getBody())
      return false;
    Known[V] = true; // Inductive hypothesis.
    bool Result = nonNegative(V->getInit(), Depth + 1) &&
                  everyStoreNonNegative(V, FD->getBody(), Depth);
    Known[V] = Result;
    return Result;
  }

  bool everyStoreNonNegative(const VarDecl *V, Stmt *Body, unsigned Depth) {
    RefFinder F(V);
    F.TraverseStmt(Body);
    for (const DeclRefExpr *Ref : F.Refs) {
      const BinaryOperator *BO = nullptr;
      switch (classifyVarUse(Ctx, Ref, &BO)) {
      case VarUse::Read:
      case VarUse::Increment:
        continue;
      case VarUse::Decrement:
      case VarUse::Escape:
        return false;
      case VarUse::Store:
        break;
      }
      switch (BO->getOpcode()) {
      case BO_Assign:
      case BO_AddAssign:
      case BO_MulAssign:
      case BO_DivAssign:
      case BO_RemAssign:
      case BO_OrAssign:
        if (!nonNegative(BO->getRHS(), Depth + 1))
          return false;
        continue;
      case BO_ShrAssign:
      case BO_AndAssign:
        continue;
      default:
        return false;
      }
    }
    return true;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const VarDecl *, bool> Known;
};

/// Whether the call or construction \p Call binds its argument \p Arg to a
/// reference to const (rather than a non-const reference or an unknown
/// parameter).
bool bindsConstReference(const Expr *Call, const Expr *Arg) {
  const FunctionDecl *Callee = nullptr;
  ArrayRef<const Expr *> Args;
  unsigned Offset = 0;
  if (const auto *CE = dyn_cast<CallExpr>(Call)) {
    Callee = CE->getDirectCallee();
    Args = ArrayRef(CE->getArgs(), CE->getNumArgs());
    if (isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(Callee))
      Offset = 1;
  } else if (const auto *CC = dyn_cast<CXXConstructExpr>(Call)) {
    Callee = CC->getConstructor();
    Args = ArrayRef(CC->getArgs(), CC->getNumArgs());
  }
  if (!Callee)
    return false;
  for (unsigned I = 0; I != Args.size(); ++I) {
    if (Args[I] != Arg)
      continue;
    if (I < Offset) {
      const auto *M = cast<CXXMethodDecl>(Callee);
      return M->isConst();
    }
    if (I - Offset >= Callee->getNumParams())
      return false;
    QualType PT = Callee->getParamDecl(I - Offset)->getType();
    return PT->isReferenceType() && PT.getNonReferenceType().isConstQualified();
  }
  return false;
}

} // namespace

VarUse classifyVarUse(ASTContext &Ctx, const DeclRefExpr *Ref,
                      const BinaryOperator **Store) {
  const Expr *Cur = Ref;
  DynTypedNodeList Parents = Ctx.getParents(*Cur);
  const Stmt *P = nullptr;
  while (true) {
    if (Parents.empty())
      return VarUse::Escape;
    P = Parents[0].get<Stmt>();
    if (!P) {
      // The initialiser of another variable: a copy, unless that variable
      // is a non-const reference (`int &r = x; r = -7;`).
      if (const auto *VD = Parents[0].get<VarDecl>()) {
        QualType T = VD->getType();
        return T->isReferenceType() &&
                       !T.getNonReferenceType().isConstQualified()
                   ? VarUse::Escape
                   : VarUse::Read;
      }
      return VarUse::Escape;
    }
    const auto *IC = dyn_cast<ImplicitCastExpr>(P);
    if (!isa<ParenExpr>(P) && !(IC && IC->getCastKind() == CK_NoOp))
      break;
    Cur = cast<Expr>(P);
    Parents = Ctx.getParents(*P);
  }
  if (isa<ImplicitCastExpr>(P))
    return VarUse::Read; // An lvalue-to-rvalue conversion.
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->isIncrementOp())
      return VarUse::Increment;
    if (UO->isDecrementOp())
      return VarUse::Decrement;
    return VarUse::Escape; // `&x`, and anything else of the lvalue.
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->isAssignmentOp() && BO->getLHS() == Cur) {
      if (Store)
        *Store = BO;
      return VarUse::Store;
    }
    if (BO->getOpcode() == BO_Comma && BO->getLHS() == Cur)
      return VarUse::Read; // Discarded.
    return VarUse::Escape;
  }
  if (isa<CallExpr, CXXConstructExpr>(P))
    return bindsConstReference(cast<Expr>(P), Cur) ? VarUse::Read
                                                   : VarUse::Escape;
  // A lambda's capture: its body's uses are references of their own.
  if (isa<LambdaExpr, UnaryExprOrTypeTraitExpr>(P))
    return VarUse::Read;
  if (isa<Expr, AsmStmt, ReturnStmt>(P))
    return VarUse::Escape; // Bound to a reference member, returned by
                           // reference, an asm operand, ...
  return VarUse::Read;     // A discarded expression statement.
}

bool isProvablyNonNegative(const Expr *E, ASTContext &Ctx) {
  return SignAnalysis(Ctx).nonNegative(E);
}

namespace {

/// Whether \p S lies within \p Outer (or is it).
bool isWithin(ASTContext &Ctx, const Stmt *S, const Stmt *Outer) {
  DynTypedNode Cur = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    if (Cur.get<Stmt>() == Outer)
      return true;
    DynTypedNodeList Parents = Ctx.getParents(Cur);
    if (Parents.empty() || Parents[0].get<FunctionDecl>())
      return false;
    Cur = Parents[0];
  }
  return false;
}

/// `v > c` (c >= -1), `v >= c` (c >= 0), or the same written the other way
/// round: the condition holds only for a non-negative \p V.
bool guardsNonNegative(ASTContext &Ctx, const Expr *Cond, const VarDecl *V) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(
      Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_LAnd)
    return guardsNonNegative(Ctx, BO->getLHS(), V) ||
           guardsNonNegative(Ctx, BO->getRHS(), V);
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *VarSide = BO->getLHS(), *ConstSide = BO->getRHS();
  if (Op == BO_LT || Op == BO_LE) { // `0 < v`, `0 <= v`
    std::swap(VarSide, ConstSide);
    Op = Op == BO_LT ? BO_GT : BO_GE;
  }
  if (Op != BO_GT && Op != BO_GE)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(VarSide->IgnoreParenImpCasts());
  if (!DRE || DRE->getDecl() != V || ConstSide->isValueDependent())
    return false;
  std::optional<llvm::APSInt> C = ConstSide->getIntegerConstantExpr(Ctx);
  return C && C->getExtValue() >= (Op == BO_GT ? -1 : 0);
}

class CompilerSign {
public:
  CompilerSign(ASTContext &Ctx, const Expr *At) : Ctx(Ctx), At(At) {}

  bool nonNegative(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 16 || E->isValueDependent())
      return false;
    E = E->IgnoreParenImpCasts();
    if (!E->getType()->isIntegerType())
      return false;
    if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
      return !C->isNegative();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->getType()->isSignedIntegerType())
        return false; // Unsigned arithmetic may wrap.
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Mul:
        return nonNegative(BO->getLHS(), Depth + 1) &&
               nonNegative(BO->getRHS(), Depth + 1);
      case BO_Div:
      case BO_Shr: {
        std::optional<llvm::APSInt> C =
            BO->getRHS()->getIntegerConstantExpr(Ctx);
        return C && C->isStrictlyPositive() &&
               nonNegative(BO->getLHS(), Depth + 1);
      }
      default:
        return false;
      }
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
        V->getType().isVolatileQualified() || V->getType()->isReferenceType())
      return false;
    return guarded(V) || inductionVariable(V, Depth) ||
           (V->getInit() && changes(V, nullptr).empty() &&
            nonNegative(V->getInit(), Depth + 1));
  }

private:
  /// The references to \p V (within \p Scope, or its function) that may
  /// change it.
  SmallVector<const DeclRefExpr *, 4> changes(const VarDecl *V,
                                              const Stmt *Scope) {
    SmallVector<const DeclRefExpr *, 4> Out;
    if (!Scope) {
      const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
      Scope = FD ? FD->getBody() : nullptr;
      if (!Scope) {
        Out.push_back(nullptr);
        return Out;
      }
    }
    RefFinder F(V);
    F.TraverseStmt(const_cast<Stmt *>(Scope));
    for (const DeclRefExpr *Ref : F.Refs)
      if (classifyVarUse(Ctx, Ref) != VarUse::Read)
        Out.push_back(Ref);
    return Out;
  }

  /// Whether \p Ref is the dividend written back by At itself (`v /= 2`,
  /// `v = v / 2`).
  bool isAtItself(const DeclRefExpr *Ref) {
    const BinaryOperator *Store = nullptr;
    if (classifyVarUse(Ctx, Ref, &Store) != VarUse::Store)
      return false;
    return Store == At || (Store->getOpcode() == BO_Assign &&
                           Store->getRHS()->IgnoreParenImpCasts() == At);
  }

  /// \p V read at At within a loop whose condition holds only for a
  /// non-negative V, and which changes V only by At itself or, At being in
  /// the body, in its `for` increment.
  bool guarded(const VarDecl *V) {
    if (!At)
      return false;
    DynTypedNode Cur = DynTypedNode::create(*At);
    for (unsigned Depth = 0; Depth < 256; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(Cur);
      if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
          Parents[0].get<LambdaExpr>())
        return false;
      const Stmt *Loop = Parents[0].get<Stmt>();
      const Expr *Cond = nullptr;
      const Stmt *Body = nullptr;
      const Expr *Inc = nullptr;
      if (const auto *FS = dyn_cast_or_null<ForStmt>(Loop)) {
        Cond = FS->getCond();
        Body = FS->getBody();
        Inc = FS->getInc();
      } else if (const auto *WS = dyn_cast_or_null<WhileStmt>(Loop)) {
        Cond = WS->getCond();
        Body = WS->getBody();
      }
      const Stmt *From = Cur.get<Stmt>();
      if (Body && From && (From == Body || From == Inc) &&
          guardsNonNegative(Ctx, Cond, V)) {
        bool InBody = From == Body;
        for (const DeclRefExpr *Ref : changes(V, Loop)) {
          if (isAtItself(Ref))
            continue;
          if (const auto *FS = dyn_cast<ForStmt>(Loop);
              FS && FS->getInit() && isWithin(Ctx, Ref, FS->getInit()))
            continue; // Before the first test of the guard.
          if (InBody && Inc && isWithin(Ctx, Ref, Inc))
            continue;
          return false;
        }
        return true;
      }
      Cur = Parents[0];
    }
    return false;
  }

  /// \p V is declared in a `for` initialiser with a non-negative value and
  /// changed only by its increment, `++v`, `v++` or `v += c` (c > 0).
  bool inductionVariable(const VarDecl *V, unsigned Depth) {
    if (!V->getInit() || !V->getType()->isSignedIntegerType())
      return false;
    DynTypedNodeList Parents = Ctx.getParents(*V);
    const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    if (!DS)
      return false;
    Parents = Ctx.getParents(*DS);
    const auto *FS = Parents.empty() ? nullptr : Parents[0].get<ForStmt>();
    if (!FS || FS->getInit() != DS || !FS->getInc())
      return false;
    // Of `i++, c++` (two counters, the condition testing either), the part
    // that steps V.
    const Expr *Inc = FS->getInc()->IgnoreParens();
    while (const auto *Comma = dyn_cast<BinaryOperator>(Inc)) {
      if (Comma->getOpcode() != BO_Comma)
        break;
      RefFinder InLeft(V);
      InLeft.TraverseStmt(const_cast<Expr *>(Comma->getLHS()));
      Inc = (InLeft.Refs.empty() ? Comma->getRHS() : Comma->getLHS())
                ->IgnoreParens();
    }
    bool Counts = false;
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
      Counts = UO->isIncrementOp();
    else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
             CA && CA->getOpcode() == BO_AddAssign) {
      std::optional<llvm::APSInt> C =
          CA->getRHS()->isValueDependent()
              ? std::nullopt
              : CA->getRHS()->getIntegerConstantExpr(Ctx);
      Counts = C && C->isStrictlyPositive();
    }
    if (!Counts)
      return false;
    SmallVector<const DeclRefExpr *, 4> Changes = changes(V, FS);
    if (Changes.size() != 1 || !isWithin(Ctx, Changes.front(), Inc))
      return false;
    return nonNegative(V->getInit(), Depth + 1);
  }

  ASTContext &Ctx;
  const Expr *At;
};

} // namespace

bool isNonNegativeToCompiler(const Expr *E, const Expr *At, ASTContext &Ctx) {
  return CompilerSign(Ctx, At).nonNegative(E);
}

namespace {

/// Whether an arithmetic expression has one value that the compiler knows,
/// and folds (see isFoldedConstant).
class ConstantFolding {
public:
  explicit ConstantFolding(ASTContext &Ctx) : Ctx(Ctx) {}

  bool folded(const Expr *E, unsigned Depth = 0) {
    // Each local variable of a chain costs about four levels (its reference,
    // the load, a conversion, the operator): 64 follows a dozen definitions
    // (wsm5's `cpv = 4. * r_v` three variables deep). Variables are
    // memoized, so the depth bounds only the size of one expression.
    if (!E || Depth > 64)
      return false;
    E = E->IgnoreParens();
    if (E->isValueDependent() || E->isTypeDependent())
      return false;
    if (isa<FloatingLiteral, IntegerLiteral, CharacterLiteral,
            CXXBoolLiteralExpr>(E))
      return true;
    if (!E->getType()->isArithmeticType())
      return false;
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_FloatingCast:
      case CK_IntegralCast:
      case CK_IntegralToFloating:
      case CK_FloatingToIntegral:
        return folded(Cast->getSubExpr(), Depth + 1);
      default:
        return false;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
             folded(UO->getSubExpr(), Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return (BO->isAdditiveOp() || BO->isMultiplicativeOp() ||
              BO->isComparisonOp()) &&
             folded(BO->getLHS(), Depth + 1) && folded(BO->getRHS(), Depth + 1);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return folded(CO->getCond(), Depth + 1) &&
             folded(CO->getTrueExpr(), Depth + 1) &&
             folded(CO->getFalseExpr(), Depth + 1);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // The CUDA headers' square root and absolute value of a constant are
      // folded (NVVM folds its sqrt intrinsics); `pow` and the other
      // library functions are not.
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || !FD->getIdentifier() ||
          !llvm::is_contained({"sqrt", "sqrtf", "fabs", "fabsf"},
                              FD->getName()))
        return false;
      const SourceManager &SM = Ctx.getSourceManager();
      if (!SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
        return false;
      return llvm::all_of(Call->arguments(),
                          [&](const Expr *A) { return folded(A, Depth + 1); });
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (isa<EnumConstantDecl>(Ref->getDecl()))
        return true;
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        return variable(V, Depth);
      return false;
    }
    return E->isIntegerConstantExpr(Ctx);
  }

private:
  /// A local variable defined once, by its initialiser or by one
  /// assignment, with a folded value, and otherwise only read.
  bool variable(const VarDecl *V, unsigned Depth) {
    if (auto It = Known.find(V); It != Known.end())
      return It->second;
    Known[V] = false; // Cycles are not constant.
    if (!V->isLocalVarDecl() || V->isStaticLocal() ||
        V->getType().isVolatileQualified() || V->getType()->isReferenceType() ||
        V->hasAttr<CUDASharedAttr>())
      return false;
    const auto *FD =
        dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
    if (!FD || !FD->getBody())
      return false;
    RefFinder F(V);
    F.TraverseStmt(FD->getBody());
    const Expr *Value = V->getInit();
    if (Value && isa<CXXConstructExpr, InitListExpr>(Value->IgnoreParens()))
      return false;
    for (const DeclRefExpr *Ref : F.Refs) {
      const BinaryOperator *Store = nullptr;
      switch (classifyVarUse(Ctx, Ref, &Store)) {
      case VarUse::Read:
        continue;
      case VarUse::Store: {
        // `cpv = cpv;` (wsm5, through `#define cvap cpv`) changes nothing.
        const auto *Self =
            dyn_cast<DeclRefExpr>(Store->getRHS()->IgnoreParenImpCasts());
        if (Store->getOpcode() == BO_Assign && Self && Self->getDecl() == V)
          continue;
        if (Store->getOpcode() != BO_Assign)
          return false;
        // The same expression stored again (wsm5 sets `ttp = t0c + 0.01f`
        // at the start of each of its two phases): the same value, when it
        // is folded.
        if (Value) {
          llvm::FoldingSetNodeID A, B;
          Value->IgnoreParenImpCasts()->Profile(A, Ctx, /*Canonical=*/true);
          Store->getRHS()->IgnoreParenImpCasts()->Profile(B, Ctx,
                                                          /*Canonical=*/true);
          if (A != B)
            return false;
          continue;
        }
        Value = Store->getRHS();
        continue;
      }
      default:
        return false;
      }
    }
    bool Result = Value && folded(Value, Depth + 1);
    Known[V] = Result;
    return Result;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const VarDecl *, bool> Known;
};

} // namespace

bool isFoldedConstant(const Expr *E, ASTContext &Ctx) {
  return ConstantFolding(Ctx).folded(E);
}

} // namespace clang::tidy::cuda
