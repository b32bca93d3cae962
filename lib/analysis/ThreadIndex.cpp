//===--- ThreadIndex.cpp - cuda-lint --------------------------------------===//
//
// ThreadIndexAnalysis (see ThreadIndex.h): the built-in variables, the
// polynomial form of an expression and of a variable, lane strides and
// signs. IndexPoly is in ThreadIndexPoly.cpp, the definitions of local
// variables in ThreadIndexDefinitions.cpp, uniformity in
// ThreadIndexUniform.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadIndex.h"
#include "ThreadIndexImpl.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/ThreadDependence.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

namespace clang::tidy::cuda {

//===----------------------------------------------------------------------===//
// ThreadIndexAnalysis
//===----------------------------------------------------------------------===//

namespace {

IndexForm unknown(bool MayDependOnThread = true) {
  IndexForm F;
  F.MayDependOnThread = MayDependOnThread;
  return F;
}

IndexForm known(IndexPoly P) {
  IndexForm F;
  F.MayDependOnThread = P.isThreadDependent();
  F.Poly = std::move(P);
  return F;
}

void mergeDefinitions(IndexForm &To, const IndexForm &From) {
  for (const IndexDefinition &D : From.Definitions)
    if (!llvm::is_contained(To.Definitions, D))
      To.Definitions.push_back(D);
}

void addDefinition(IndexForm &To, IndexDefinition D) {
  if (!llvm::is_contained(To.Definitions, D))
    To.Definitions.push_back(D);
}

} // namespace

namespace threadindex {

bool isIntegerLike(QualType T) {
  T = T.getCanonicalType();
  return T->isIntegralOrUnscopedEnumerationType() && !T->isBooleanType();
}

} // namespace threadindex

using threadindex::isIntegerLike;

ThreadIndexAnalysis::ThreadIndexAnalysis(ASTContext &Ctx,
                                         const FunctionDecl *FD)
    : Ctx(Ctx), FD(FD) {}

std::optional<IndexSymbol> ThreadIndexAnalysis::builtinSymbol(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const Expr *Base = nullptr;
  StringRef Field;
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    const auto *Ref =
        dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
    if (!Ref)
      return std::nullopt;
    Base = Ref->getBaseExpr();
    if (const auto *Prop = Ref->getPropertyDecl())
      if (Prop->getIdentifier())
        Field = Prop->getName();
  } else if (const auto *Ref = dyn_cast<MSPropertyRefExpr>(E)) {
    Base = Ref->getBaseExpr();
    if (const auto *Prop = Ref->getPropertyDecl())
      if (Prop->getIdentifier())
        Field = Prop->getName();
  } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const auto *MD = Call->getMethodDecl();
    if (!MD || !MD->getIdentifier() ||
        !MD->getName().starts_with("__fetch_builtin_"))
      return std::nullopt;
    Base = Call->getImplicitObjectArgument();
    Field = MD->getName().drop_front(strlen("__fetch_builtin_"));
  }
  if (!Base)
    return std::nullopt;
  Base = Base->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    if (OVE->getSourceExpr())
      Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  if (!DRE || !DRE->getDecl()->getIdentifier())
    return std::nullopt;
  unsigned Dim;
  if (Field == "x")
    Dim = 0;
  else if (Field == "y")
    Dim = 1;
  else if (Field == "z")
    Dim = 2;
  else
    return std::nullopt;
  StringRef Name = DRE->getDecl()->getName();
  IndexSymbol::SymbolKind Kind;
  if (Name == "threadIdx")
    Kind = IndexSymbol::ThreadIdx;
  else if (Name == "blockIdx")
    Kind = IndexSymbol::BlockIdx;
  else if (Name == "blockDim")
    Kind = IndexSymbol::BlockDim;
  else if (Name == "gridDim")
    Kind = IndexSymbol::GridDim;
  else
    return std::nullopt;
  return IndexSymbol{Kind, Dim, nullptr};
}

IndexForm ThreadIndexAnalysis::analyzeVariable(const VarDecl *V,
                                               const Expr *Ref) {
  IndexForm F = analyzeVariableImpl(V, Ref);
  // A variable with several definitions, each uniform (a C-style loop
  // counter, a reassigned parameter, a pointer moved along a row): a uniform
  // value the analysis does not know. One symbol per use, since the uses
  // may see different definitions.
  if (F.Poly || !F.MayDependOnThread || !Ref || !isUniformUse(V, Ref))
    return F;
  if (isIntegerLike(V->getType()))
    return uniformOpaque(sameValueUse(V, Ref));
  return unknown(false);
}

IndexForm ThreadIndexAnalysis::analyzeVariableImpl(const VarDecl *V,
                                                   const Expr *Ref) {
  // A use that one of several definitions dominates: per use, not cached
  // by variable.
  if (Ref && V->getDeclContext() == FD && !isa<ParmVarDecl>(V) &&
      isIntegerLike(V->getType()) && !singleDefinition(V) &&
      !isInductionVariable(V)) {
    SourceLocation Where;
    if (const Expr *Def = definitionAt(V, Ref, &Where)) {
      IndexForm F = analyze(Def);
      if (F.MayDependOnThread)
        addDefinition(F, {V, Def, Where});
      return F;
    }
  }
  auto Cached = VarCache.find(V);
  if (Cached != VarCache.end())
    return Cached->second;
  // A definition that reads the variable itself (`i = i * 2`) is unknown.
  if (InProgress.lookup(V))
    return unknown();
  InProgress[V] = true;
  IndexForm Result = [&]() -> IndexForm {
    bool Local = V->isLocalVarDeclOrParm() && V->getDeclContext() == FD;
    if (!Local) {
      // A global that no constant evaluation could read: uniform, unknown
      // value.
      if (V->hasGlobalStorage() && isIntegerLike(V->getType()))
        return known(IndexPoly::symbol({IndexSymbol::Variable, 0, V}));
      return unknown(!V->hasGlobalStorage());
    }
    scanBody();
    const VarInfo Info = Vars.lookup(V); // A copy: analyze() may grow Vars.
    bool Integer = isIntegerLike(V->getType());
    if (Info.Escapes)
      return unknown();
    if (isInductionVariable(V)) {
      IndexForm Init = analyze(V->getInit());
      IndexPoly Sym = IndexPoly::symbol({IndexSymbol::Variable, 0, V});
      if (!Init.MayDependOnThread) {
        IndexForm F = known(Sym);
        return F;
      }
      if (!Init.Poly || !Integer)
        return Init;
      IndexForm F = known(Init.Poly->threadPart() + Sym);
      mergeDefinitions(F, Init);
      addDefinition(F, {V, V->getInit(), V->getLocation()});
      return F;
    }
    if (!Info.Updates.empty())
      return unknown();
    SmallVector<const Expr *, 2> Defs;
    if (V->getInit())
      Defs.push_back(V->getInit());
    Defs.append(Info.Assigned.begin(), Info.Assigned.end());
    if (isa<ParmVarDecl>(V)) {
      if (!Defs.empty())
        return unknown();
      if (Integer)
        return known(IndexPoly::symbol({IndexSymbol::Variable, 0, V}));
      return unknown(false);
    }
    if (Defs.empty())
      return unknown();
    IndexForm First = analyze(Defs.front());
    if (!Integer) {
      // Pointers and other values: only whether they are uniform.
      bool May = First.MayDependOnThread || Defs.size() > 1;
      return unknown(May);
    }
    for (const Expr *D : llvm::drop_begin(Defs)) {
      IndexForm Other = analyze(D);
      if (!First.Poly || !Other.Poly || *First.Poly != *Other.Poly)
        return unknown();
    }
    IndexForm F = First;
    if (F.MayDependOnThread)
      addDefinition(
          F, {V, Defs.front(),
              V->getInit() ? V->getLocation() : Info.AssignedAt.front()});
    return F;
  }();
  InProgress[V] = false;
  VarCache[V] = Result;
  return Result;
}

bool ThreadIndexAnalysis::fitsIn(const IndexPoly &P, QualType T) const {
  // Bounds of the built-in variables: threadIdx below the largest block,
  // blockDim up to it. Other symbols are unbounded.
  static const int64_t MaxDim[] = {1024, 1024, 64};
  int64_t Lo = 0, Hi = 0;
  for (const auto &[M, C] : P.terms()) {
    int64_t MLo = 1, MHi = 1;
    for (const IndexSymbol &S : M) {
      if (S.Kind == IndexSymbol::ThreadIdx)
        MLo = 0, MHi *= MaxDim[S.Dim] - 1;
      else if (S.Kind == IndexSymbol::BlockDim)
        MHi *= MaxDim[S.Dim];
      else
        return false;
      if (MHi > (int64_t(1) << 40))
        return false;
    }
    if (C > (int64_t(1) << 20) || C < -(int64_t(1) << 20))
      return false;
    Lo += C < 0 ? C * MHi : C * MLo;
    Hi += C < 0 ? C * MLo : C * MHi;
  }
  unsigned Width = Ctx.getIntWidth(T);
  if (Width >= 63)
    return true;
  if (T->isUnsignedIntegerOrEnumerationType())
    return Lo >= 0 && Hi < (int64_t(1) << Width);
  return Lo >= -(int64_t(1) << (Width - 1)) && Hi < (int64_t(1) << (Width - 1));
}

IndexForm ThreadIndexAnalysis::uniformOpaque(const Expr *E) {
  if (!isIntegerLike(E->getType()))
    return unknown(false);
  return known(IndexPoly::symbol({IndexSymbol::Opaque, 0, E}));
}

IndexForm ThreadIndexAnalysis::analyze(const Expr *E) {
  if (!E)
    return unknown();
  auto It = Cache.find(E);
  if (It != Cache.end())
    return It->second;
  IndexForm F = analyzeImpl(E);
  Cache[E] = F;
  return F;
}

IndexForm ThreadIndexAnalysis::analyzeImpl(const Expr *E) {
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent() || E->getType().isNull())
    return unknown();

  if (isIntegerLike(E->getType()) || E->getType()->isBooleanType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects) && R.Val.isInt()) {
      const llvm::APSInt &V = R.Val.getInt();
      if (V.isSigned() ? V.getSignificantBits() <= 64 : V.getActiveBits() < 64)
        return known(IndexPoly::constant(
            V.isSigned() ? V.getSExtValue() : int64_t(V.getZExtValue())));
    }
  }

  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    IndexForm Sub = analyze(Cast->getSubExpr());
    switch (Cast->getCastKind()) {
    case CK_IntegralCast:
      // A narrowing conversion keeps the polynomial only where it provably
      // keeps the value: `(unsigned char)(threadIdx.x * 64)` wraps around.
      if (isIntegerLike(E->getType()) &&
          isIntegerLike(Cast->getSubExpr()->getType()) &&
          Ctx.getIntWidth(E->getType()) <
              Ctx.getIntWidth(Cast->getSubExpr()->getType()) &&
          !(Sub.Poly && fitsIn(*Sub.Poly, E->getType())))
        return unknown(Sub.MayDependOnThread);
      [[fallthrough]];
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_UserDefinedConversion:
    case CK_ConstructorConversion:
      if (isIntegerLike(E->getType()))
        return Sub;
      [[fallthrough]];
    default:
      return unknown(Sub.MayDependOnThread);
    }
  }

  // After the casts: builtinSymbol() looks through implicit ones.
  if (auto Sym = builtinSymbol(E))
    return known(IndexPoly::symbol(*Sym));

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return analyzeVariable(V, DRE);
    return unknown(!isa<EnumConstantDecl>(DRE->getDecl()) &&
                   !isa<FunctionDecl>(DRE->getDecl()));
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return analyze(BO->getRHS());
    if (BO->isAssignmentOp())
      return unknown();
    IndexForm L = analyze(BO->getLHS());
    IndexForm R = analyze(BO->getRHS());
    IndexForm F = unknown(L.MayDependOnThread || R.MayDependOnThread);
    if (L.Poly && R.Poly && isIntegerLike(E->getType())) {
      switch (BO->getOpcode()) {
      case BO_Add:
        F = known(*L.Poly + *R.Poly);
        break;
      case BO_Sub:
        F = known(*L.Poly - *R.Poly);
        break;
      case BO_Mul:
        F = known(*L.Poly * *R.Poly);
        break;
      case BO_Shl:
        if (auto C = R.Poly->getConstant(); C && *C >= 0 && *C < 62)
          F = known(*L.Poly * (int64_t(1) << *C));
        break;
      case BO_Rem:
        if (auto C = R.Poly->getConstant();
            C && *C > 0 && L.MayDependOnThread) {
          IndexForm M = known(IndexPoly::symbol({IndexSymbol::Modulo, 0, E}));
          M.MayDependOnThread = true;
          F = M;
        }
        break;
      default:
        break;
      }
    }
    if (!F.Poly && !F.MayDependOnThread)
      F = uniformOpaque(E);
    mergeDefinitions(F, L);
    mergeDefinitions(F, R);
    return F;
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    IndexForm Sub = analyze(UO->getSubExpr());
    if (UO->getOpcode() == UO_Plus)
      return Sub;
    if (UO->getOpcode() == UO_Minus && Sub.Poly) {
      IndexForm F = known(*Sub.Poly * -1);
      mergeDefinitions(F, Sub);
      return F;
    }
    if (UO->isIncrementDecrementOp())
      return unknown();
    if (!Sub.MayDependOnThread)
      return uniformOpaque(E);
    return unknown();
  }

  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    IndexForm C = analyze(CO->getCond());
    IndexForm T = analyze(CO->getTrueExpr());
    IndexForm Fa = analyze(CO->getFalseExpr());
    if (T.Poly && Fa.Poly && *T.Poly == *Fa.Poly) {
      mergeDefinitions(T, Fa);
      return T;
    }
    if (!C.MayDependOnThread && !T.MayDependOnThread && !Fa.MayDependOnThread)
      return uniformOpaque(E);
    return unknown();
  }

  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    bool May = !isPureIntegerFunction(Call->getDirectCallee());
    for (const Expr *Arg : Call->arguments())
      May |= analyze(Arg).MayDependOnThread;
    return May ? unknown() : uniformOpaque(E);
  }

  // Loads (`a[i]`, `*p`, `s.n`) and anything else: uniform when every
  // operand is.
  if (isa<ArraySubscriptExpr, MemberExpr, UnaryExprOrTypeTraitExpr,
          CXXBoolLiteralExpr, IntegerLiteral, CharacterLiteral,
          MaterializeTemporaryExpr, ExprWithCleanups,
          SubstNonTypeTemplateParmExpr, ConstantExpr>(E)) {
    if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return analyze(S->getReplacement());
    if (const auto *C = dyn_cast<ConstantExpr>(E))
      return analyze(C->getSubExpr());
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      return analyze(M->getSubExpr());
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return analyze(EWC->getSubExpr());
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return uniformOpaque(E);
    bool May = false;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        May |= analyze(CE).MayDependOnThread;
    return May ? unknown() : uniformOpaque(E);
  }
  return unknown();
}

LaneStride ThreadIndexAnalysis::laneStride(const IndexForm &F) const {
  LaneStride S;
  if (!F.Poly)
    return S;
  auto Coef = F.Poly->coefficientOf(IndexSymbol::threadIdx(0));
  if (!Coef || Coef->isThreadDependent())
    return S;
  if (auto C = Coef->getConstant()) {
    S.Kind = LaneStride::Constant;
    S.Value = *C;
    return S;
  }
  S.Kind = LaneStride::Symbolic;
  S.Symbols = *Coef;
  return S;
}

LaneStride ThreadIndexAnalysis::laneStride(const Expr *E) {
  return laneStride(analyze(E));
}

std::optional<unsigned>
ThreadIndexAnalysis::laneSubscript(llvm::ArrayRef<const Expr *> Subscripts) {
  for (unsigned I = 0; I < Subscripts.size(); ++I) {
    IndexForm F = analyze(Subscripts[I]);
    if (!F.Poly) {
      if (F.MayDependOnThread)
        return I;
      continue;
    }
    auto Coef = F.Poly->coefficientOf(IndexSymbol::threadIdx(0));
    if (!Coef || !Coef->isZero())
      return I;
  }
  return std::nullopt;
}

bool ThreadIndexAnalysis::isThreadDependent(const Expr *E) {
  return analyze(E).MayDependOnThread;
}

bool ThreadIndexAnalysis::isLaneDependent(const Expr *E) {
  LaneStride S = laneStride(E);
  return (S.isConstant() && S.Value != 0) || S.isSymbolic();
}

std::optional<std::pair<IndexPoly, int64_t>>
ThreadIndexAnalysis::moduloOperand(IndexSymbol S) {
  if (S.Kind != IndexSymbol::Modulo)
    return std::nullopt;
  const auto *BO = cast<BinaryOperator>(S.getExpr());
  IndexForm L = analyze(BO->getLHS());
  IndexForm R = analyze(BO->getRHS());
  if (!L.Poly || !R.Poly || !R.Poly->getConstant())
    return std::nullopt;
  return std::make_pair(*L.Poly, *R.Poly->getConstant());
}

bool ThreadIndexAnalysis::isNonNegativePoly(const IndexPoly &P) {
  for (const auto &[M, C] : P.terms()) {
    if (C < 0)
      return false;
    for (const IndexSymbol &S : M) {
      switch (S.Kind) {
      case IndexSymbol::ThreadIdx:
      case IndexSymbol::BlockIdx:
      case IndexSymbol::BlockDim:
      case IndexSymbol::GridDim:
        continue;
      case IndexSymbol::Variable: {
        const ValueDecl *D = S.getDecl();
        if (D->getType()->isUnsignedIntegerOrEnumerationType())
          continue;
        const auto *V = dyn_cast<VarDecl>(D);
        if (V && V->getDeclContext() == FD && isInductionVariable(V) &&
            isNonNegative(V->getInit())) {
          // Only counting up keeps it non-negative.
          SmallVector<const Expr *, 2> Updates = Vars.lookup(V).Updates;
          bool Up = llvm::all_of(Updates, [&](const Expr *U) {
            if (const auto *UO = dyn_cast<UnaryOperator>(U))
              return UO->isIncrementOp();
            const auto *BO = cast<BinaryOperator>(U);
            return BO->getOpcode() == BO_AddAssign &&
                   isNonNegative(BO->getRHS());
          });
          if (Up)
            continue;
        }
        return false;
      }
      case IndexSymbol::Opaque:
      case IndexSymbol::Modulo:
        if (S.getExpr()->getType()->isUnsignedIntegerOrEnumerationType())
          continue;
        if (const auto *BO = dyn_cast<BinaryOperator>(S.getExpr()))
          if ((BO->getOpcode() == BO_Rem || BO->getOpcode() == BO_Div ||
               BO->getOpcode() == BO_Shr) &&
              isNonNegative(BO->getLHS()) && isNonNegative(BO->getRHS()))
            continue;
        return false;
      }
    }
  }
  return true;
}

bool ThreadIndexAnalysis::isNonNegative(const Expr *E) {
  if (!E)
    return false;
  if (E->getType()->isUnsignedIntegerOrEnumerationType())
    return true;
  IndexForm F = analyze(E);
  return F.Poly && isNonNegativePoly(*F.Poly);
}

} // namespace clang::tidy::cuda
