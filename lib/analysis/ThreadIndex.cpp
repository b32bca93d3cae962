//===--- ThreadIndex.cpp - cuda-lint --------------------------------------===//

#include "cudalint/analysis/ThreadIndex.h"
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
// IndexSymbol and IndexPoly
//===----------------------------------------------------------------------===//

std::string IndexSymbol::str() const {
  static const char *const Dims[] = {"x", "y", "z"};
  switch (Kind) {
  case ThreadIdx:
    return std::string("threadIdx.") + Dims[Dim];
  case BlockIdx:
    return std::string("blockIdx.") + Dims[Dim];
  case BlockDim:
    return std::string("blockDim.") + Dims[Dim];
  case GridDim:
    return std::string("gridDim.") + Dims[Dim];
  case Variable:
    return getDecl()->getNameAsString();
  case Opaque:
    return "<uniform>";
  case Modulo:
    return "<modulo>";
  }
  return "?";
}

IndexPoly IndexPoly::constant(int64_t C) {
  IndexPoly P;
  if (C != 0)
    P.Terms[Monomial()] = C;
  return P;
}

IndexPoly IndexPoly::symbol(IndexSymbol S) {
  IndexPoly P;
  Monomial M;
  M.push_back(S);
  P.Terms[M] = 1;
  return P;
}

IndexPoly IndexPoly::operator+(const IndexPoly &O) const {
  IndexPoly R = *this;
  for (const auto &[M, C] : O.Terms) {
    int64_t &Slot = R.Terms[M];
    Slot += C;
    if (Slot == 0)
      R.Terms.erase(M);
  }
  return R;
}

IndexPoly IndexPoly::operator*(int64_t C) const {
  IndexPoly R;
  if (C == 0)
    return R;
  for (const auto &[M, K] : Terms)
    R.Terms[M] = K * C;
  return R;
}

IndexPoly IndexPoly::operator-(const IndexPoly &O) const {
  return *this + O * -1;
}

IndexPoly IndexPoly::operator*(const IndexPoly &O) const {
  IndexPoly R;
  for (const auto &[M1, C1] : Terms)
    for (const auto &[M2, C2] : O.Terms) {
      Monomial M = M1;
      M.append(M2.begin(), M2.end());
      llvm::sort(M);
      IndexPoly T;
      T.Terms[M] = C1 * C2;
      R = R + T;
    }
  return R;
}

std::optional<int64_t> IndexPoly::getConstant() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

bool IndexPoly::isThreadDependent() const {
  for (const auto &Entry : Terms)
    for (const IndexSymbol &S : Entry.first)
      if (S.isThreadDependent())
        return true;
  return false;
}

bool IndexPoly::mentions(IndexSymbol::SymbolKind Kind) const {
  for (const auto &Entry : Terms)
    for (const IndexSymbol &S : Entry.first)
      if (S.Kind == Kind)
        return true;
  return false;
}

std::optional<IndexPoly> IndexPoly::coefficientOf(IndexSymbol S) const {
  // A Modulo symbol may hide S; the caller cannot know how it moves.
  if (S.isThreadDependent() && mentions(IndexSymbol::Modulo))
    return std::nullopt;
  IndexPoly Coef;
  for (const auto &[M, C] : Terms) {
    unsigned Count = llvm::count(M, S);
    if (Count == 0)
      continue;
    if (Count > 1)
      return std::nullopt;
    Monomial Rest;
    for (const IndexSymbol &T : M)
      if (T != S)
        Rest.push_back(T);
    IndexPoly Term;
    Term.Terms[Rest] = C;
    Coef = Coef + Term;
  }
  return Coef;
}

IndexPoly IndexPoly::uniformPart() const {
  IndexPoly R;
  for (const auto &[M, C] : Terms)
    if (llvm::none_of(
            M, [](const IndexSymbol &S) { return S.isThreadDependent(); }))
      R.Terms[M] = C;
  return R;
}

IndexPoly IndexPoly::threadPart() const { return *this - uniformPart(); }

std::string IndexPoly::str() const {
  if (Terms.empty())
    return "0";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  bool First = true;
  // Symbols first, the constant last: `threadIdx.x * 3 + 1`.
  auto Emit = [&](const Monomial &M, int64_t C) {
    if (!First)
      OS << (C < 0 ? " - " : " + ");
    else if (C < 0)
      OS << "-";
    First = false;
    int64_t A = C < 0 ? -C : C;
    if (M.empty()) {
      OS << A;
      return;
    }
    if (A != 1)
      OS << A << " * ";
    for (unsigned I = 0; I < M.size(); ++I)
      OS << (I ? " * " : "") << M[I].str();
  };
  for (const auto &[M, C] : Terms)
    if (!M.empty())
      Emit(M, C);
  auto It = Terms.find(Monomial());
  if (It != Terms.end())
    Emit(It->first, It->second);
  return Out;
}

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

const VarDecl *assignedVar(const Stmt *S) {
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool isIntegerLike(QualType T) {
  T = T.getCanonicalType();
  return T->isIntegralOrUnscopedEnumerationType() && !T->isBooleanType();
}

// Functions of their arguments only: with uniform arguments, a uniform
// result.
bool isPureIntegerFunction(const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  if (Callee->getBuiltinID() != 0)
    return true;
  if (!Callee->getIdentifier())
    return false;
  return llvm::is_contained({"min", "max", "umin", "umax", "llmin", "llmax",
                             "abs", "labs", "llabs", "__mul24", "__umul24",
                             "__mulhi", "__umulhi", "__clz", "__popc", "__ffs",
                             "__brev"},
                            Callee->getName());
}

} // namespace

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

//===--- Definitions of local variables -----------------------------------===//

namespace {

// Records, for each variable of a function body, how it is defined and
// whether it escapes.
class DefinitionScanner {
public:
  using Handler = llvm::function_ref<void(const VarDecl *, const Expr *Def,
                                          bool IsUpdate, const Stmt *InForInc,
                                          bool Escapes, SourceLocation Where)>;
  explicit DefinitionScanner(Handler H) : H(H) {}

  void visit(const Stmt *S, const Stmt *Parent, const Stmt *ForInc) {
    if (!S)
      return;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      visit(For->getInit(), For, ForInc);
      visit(For->getCond(), For, ForInc);
      visit(For->getInc(), For, For);
      visit(For->getBody(), For, ForInc);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        if (const VarDecl *V = refVar(BO->getLHS())) {
          H(V, BO->getOpcode() == BO_Assign ? BO->getRHS() : BO,
            BO->getOpcode() != BO_Assign, ForInc, false, BO->getBeginLoc());
          visit(BO->getRHS(), BO, ForInc);
          return;
        }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        if (const VarDecl *V = refVar(UO->getSubExpr())) {
          H(V, UO, true, ForInc, false, UO->getBeginLoc());
          return;
        }
      if (UO->getOpcode() == UO_AddrOf)
        if (const VarDecl *V = refVar(UO->getSubExpr())) {
          H(V, nullptr, false, ForInc, true, UO->getBeginLoc());
          return;
        }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      // Any other use as an lvalue (bound to a reference, a member call,
      // an asm operand) may change the variable.
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
      bool Read = Cast && (Cast->getCastKind() == CK_LValueToRValue ||
                           Cast->getCastKind() == CK_ArrayToPointerDecay ||
                           (Cast->getCastKind() == CK_NoOp &&
                            Cast->getType().isConstQualified()));
      if (V && !Read && !isa_and_nonnull<UnaryExprOrTypeTraitExpr>(Parent) &&
          !isa_and_nonnull<MemberExpr>(Parent))
        H(V, nullptr, false, ForInc, true, DRE->getBeginLoc());
      return;
    }
    const Stmt *Me = isa<ParenExpr>(S) ? Parent : S;
    for (const Stmt *Child : S->children())
      visit(Child, Me, ForInc);
  }

private:
  static const VarDecl *refVar(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
  Handler H;
};

} // namespace

void ThreadIndexAnalysis::scanBody() {
  if (BodyScanned)
    return;
  BodyScanned = true;
  if (!FD || !FD->getBody())
    return;
  auto Record = [&](const VarDecl *V, const Expr *Def, bool IsUpdate,
                    const Stmt *InForInc, bool Escapes, SourceLocation Where) {
    VarInfo &Info = Vars[V];
    if (Escapes) {
      Info.Escapes = true;
      return;
    }
    if (IsUpdate) {
      Info.Updates.push_back(Def);
      // Remember the innermost for loop whose increment holds the update.
      if (!InForInc)
        Info.UpdateOnlyInForInc = false;
      else if (!Info.InductionFor)
        Info.InductionFor = InForInc; // Checked against the declaring loop.
      else if (Info.InductionFor != InForInc)
        Info.UpdateOnlyInForInc = false;
      return;
    }
    Info.Assigned.push_back(Def);
    Info.AssignedAt.push_back(Where);
  };
  DefinitionScanner Scanner(Record);
  Scanner.visit(FD->getBody(), nullptr, nullptr);
  // Parents, for dominating definitions; a goto makes them unusable.
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (isa<GotoStmt, IndirectGotoStmt>(S))
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
  Walk(FD->getBody());
}

bool ThreadIndexAnalysis::definesVar(const Stmt *S, const VarDecl *V) {
  bool Found = false;
  auto Record = [&](const VarDecl *W, const Expr *, bool, const Stmt *, bool,
                    SourceLocation) { Found |= W == V; };
  DefinitionScanner Scanner(Record);
  Scanner.visit(S, nullptr, nullptr);
  return Found;
}

const Expr *ThreadIndexAnalysis::dominatingDefinition(const VarDecl *V,
                                                      const Expr *Use,
                                                      SourceLocation &Where) {
  scanBody();
  if (HasGoto)
    return nullptr;
  const Stmt *Cur = Use;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    // A jump target: the use may be reached without the statements before.
    if (isa<SwitchCase, LabelStmt>(Cur))
      return nullptr;
    auto Body = CS->body();
    const auto *Pos = llvm::find(Body, Cur);
    while (Pos != Body.begin()) {
      const Stmt *Sib = *--Pos;
      if (isa<SwitchCase, LabelStmt>(Sib))
        return nullptr;
      if (const auto *DS = dyn_cast<DeclStmt>(Sib);
          DS && llvm::is_contained(DS->decls(), V)) {
        if (!V->getInit() || definesVar(Cur, V))
          return nullptr;
        Where = V->getLocation();
        return V->getInit();
      }
      if (!definesVar(Sib, V))
        continue;
      // The nearest definition must be the whole statement `V = E;`.
      if (assignedVar(Sib) != V || definesVar(Cur, V))
        return nullptr;
      const Stmt *Plain = Sib;
      if (const auto *EWC = dyn_cast<ExprWithCleanups>(Plain))
        Plain = EWC->getSubExpr();
      const auto *BO = cast<BinaryOperator>(Plain);
      if (definesVar(BO->getRHS(), V))
        return nullptr;
      Where = BO->getBeginLoc();
      return BO->getRHS();
    }
  }
  return nullptr;
}

const Expr *ThreadIndexAnalysis::definitionAt(const VarDecl *V, const Expr *Use,
                                              SourceLocation *Where) {
  SourceLocation Loc;
  const Expr *Def = singleDefinition(V);
  if (Def) {
    Loc = V->getLocation();
    const VarInfo &Info = Vars[V];
    if (!V->getInit() && Info.Assigned.size() == 1)
      Loc = Info.AssignedAt.front();
  } else if (Use && V->getDeclContext() == FD && !isa<ParmVarDecl>(V)) {
    auto It = Vars.find(V);
    if (It != Vars.end() && !It->second.Escapes && It->second.Updates.empty())
      Def = dominatingDefinition(V, Use, Loc);
  }
  if (Def && Where)
    *Where = Loc;
  return Def;
}

bool ThreadIndexAnalysis::isInductionVariable(const VarDecl *V) {
  scanBody();
  auto It = Vars.find(V);
  if (It == Vars.end())
    return false;
  const VarInfo Info = It->second; // A copy: analyze() may grow Vars.
  if (Info.Escapes || !Info.Assigned.empty() || Info.Updates.empty() ||
      !Info.UpdateOnlyInForInc || !Info.InductionFor || !V->getInit())
    return false;
  const auto *For = cast<ForStmt>(Info.InductionFor);
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  if (!DS || !llvm::is_contained(DS->decls(), V))
    return false;
  // Each step must be `++`, `--`, `+= U` or `-= U` with a uniform U.
  for (const Expr *Update : Info.Updates) {
    if (isa<UnaryOperator>(Update))
      continue;
    const auto *BO = cast<BinaryOperator>(Update);
    if (BO->getOpcode() != BO_AddAssign && BO->getOpcode() != BO_SubAssign)
      return false;
    if (analyze(BO->getRHS()).MayDependOnThread)
      return false;
  }
  return true;
}

std::optional<LoopSpan>
ThreadIndexAnalysis::constantLoopSpan(const VarDecl *V) {
  if (!isInductionVariable(V))
    return std::nullopt;
  const auto *For = cast<ForStmt>(Vars[V].InductionFor);
  auto Eval = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (!E || E->isValueDependent() ||
        !E->getType()->isIntegralOrEnumerationType() ||
        !E->EvaluateAsInt(R, Ctx) || !R.Val.isInt() ||
        R.Val.getInt().getSignificantBits() > 40)
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  };
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  const Expr *Bound = nullptr;
  if (IsV(Cond->getLHS()) && (Op == BO_LT || Op == BO_LE))
    Bound = Cond->getRHS();
  else if (IsV(Cond->getRHS()) && (Op == BO_GT || Op == BO_GE)) {
    Bound = Cond->getLHS();
    Op = Op == BO_GT ? BO_LT : BO_LE;
  }
  std::optional<int64_t> A = Eval(V->getInit()), N = Eval(Bound);
  if (!A || !N)
    return std::nullopt;
  // The one update, in the increment: ++V, V++ or V += S.
  const VarInfo &Info = Vars[V];
  if (Info.Updates.size() != 1)
    return std::nullopt;
  int64_t Step = 0;
  const Expr *Inc = Info.Updates.front();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementOp())
      Step = 1;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
    if (BO->getOpcode() == BO_AddAssign)
      if (auto S = Eval(BO->getRHS()); S && *S > 0)
        Step = *S;
  }
  int64_t Hi = Op == BO_LT ? *N - 1 : *N;
  if (Step == 0 || Hi < *A)
    return std::nullopt;
  return LoopSpan{For, *A, *A + (Hi - *A) / Step * Step, Step};
}

const Expr *ThreadIndexAnalysis::singleDefinition(const VarDecl *V) {
  scanBody();
  auto It = Vars.find(V);
  if (It == Vars.end())
    return V->getInit();
  const VarInfo &Info = It->second;
  if (Info.Escapes || !Info.Updates.empty())
    return nullptr;
  if (Info.Assigned.empty())
    return V->getInit();
  if (Info.Assigned.size() == 1 && !V->getInit() && !isa<ParmVarDecl>(V))
    return Info.Assigned.front();
  return nullptr;
}

bool ThreadIndexAnalysis::isUnmodified(const VarDecl *V) {
  scanBody();
  auto It = Vars.find(V);
  if (It == Vars.end())
    return true;
  return !It->second.Escapes && It->second.Assigned.empty() &&
         It->second.Updates.empty();
}

IndexForm ThreadIndexAnalysis::analyzeVariable(const VarDecl *V,
                                               const Expr *Ref) {
  IndexForm F = analyzeVariableImpl(V, Ref);
  // A variable with several definitions, each uniform (a C-style loop
  // counter, a reassigned parameter, a pointer moved along a row): a uniform
  // value the analysis does not know. One symbol per use, since the uses
  // may see different definitions.
  if (F.Poly || !F.MayDependOnThread || !Ref || !isUniformVariable(V))
    return F;
  if (isIntegerLike(V->getType()))
    return uniformOpaque(sameValueUse(V, Ref));
  return unknown(false);
}

bool holdsJumpTarget(const Stmt *S) {
  if (!S)
    return false;
  if (isa<SwitchCase, LabelStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (holdsJumpTarget(Child))
      return true;
  return false;
}

const Expr *ThreadIndexAnalysis::sameValueUse(const VarDecl *V,
                                              const Expr *Use) {
  scanBody();
  if (HasGoto)
    return Use;
  // The statements in which no definition of V comes between a reference
  // and Use: the ones that hold Use while they define nothing, and their
  // earlier siblings up to the nearest one that defines V.
  SmallVector<const Stmt *, 8> Region;
  // The read itself: the reference with its parentheses and conversions
  // (`(jj)` in a macro's expansion).
  const Stmt *Read = Use;
  while (isa_and_nonnull<ParenExpr, ImplicitCastExpr>(Parents.lookup(Read)))
    Read = Parents.lookup(Read);
  const Stmt *Cur = Read;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    if (Cur != Read && (definesVar(Cur, V) || isa<SwitchCase, LabelStmt>(Cur)))
      break;
    Region.push_back(Cur);
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    auto Body = CS->body();
    const auto *Pos = llvm::find(Body, Cur);
    bool Stop = false;
    while (Pos != Body.begin()) {
      const Stmt *Sib = *--Pos;
      if (holdsJumpTarget(Sib) || definesVar(Sib, V)) {
        Stop = true;
        break;
      }
      Region.push_back(Sib);
    }
    if (Stop)
      break;
  }
  // The first reference in the body's order that the region holds.
  for (const DeclRefExpr *R : Refs.lookup(V))
    for (const Stmt *S : Region)
      if (isAncestor(S, R))
        return R;
  return Use;
}

bool ThreadIndexAnalysis::isAncestor(const Stmt *A, const Stmt *S) const {
  for (; S; S = Parents.lookup(S))
    if (S == A)
      return true;
  return false;
}

namespace {

bool refersTo(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == V;
  for (const Stmt *Child : S->children())
    if (refersTo(Child, V))
      return true;
  return false;
}

/// The condition that decides whether \p Cur, a child of \p P, runs; null
/// when there is none. \p Known is false where the analysis does not follow
/// the control flow (range-based for loops, lambdas).
const Expr *controllingCondition(const Stmt *P, const Stmt *Cur, bool &Known) {
  Known = true;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return Cur == If->getThen() || Cur == If->getElse() ? If->getCond()
                                                        : nullptr;
  if (const auto *For = dyn_cast<ForStmt>(P))
    return Cur == For->getBody() || Cur == For->getInc() ? For->getCond()
                                                         : nullptr;
  if (const auto *While = dyn_cast<WhileStmt>(P))
    return Cur == While->getBody() ? While->getCond() : nullptr;
  if (const auto *Do = dyn_cast<DoStmt>(P))
    return Cur == Do->getBody() ? Do->getCond() : nullptr;
  if (const auto *Switch = dyn_cast<SwitchStmt>(P))
    return Cur == Switch->getBody() ? Switch->getCond() : nullptr;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P))
    return Cur != CO->getCond() ? CO->getCond() : nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isLogicalOp() && Cur == BO->getRHS() ? BO->getLHS() : nullptr;
  if (isa<CXXForRangeStmt, LambdaExpr, BlockExpr, CoroutineBodyStmt>(P))
    Known = false;
  return nullptr;
}

/// The loop (or, for `break`, switch) a jump leaves.
bool isJumpTarget(const Stmt *S, const Stmt *Jump) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) ||
         (isa<BreakStmt>(Jump) && isa<SwitchStmt>(S));
}

/// True when \p For is `for (V = E; ...)` with an \p E that does not read
/// \p V: the loop starts \p V afresh.
bool startsVariable(const ForStmt *For, const VarDecl *V) {
  const Stmt *Init = For->getInit();
  if (!Init)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
    Init = EWC->getSubExpr();
  const auto *BO = dyn_cast<BinaryOperator>(Init);
  if (!BO || BO->getOpcode() != BO_Assign)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  return DRE && DRE->getDecl() == V && !refersTo(BO->getRHS(), V);
}

} // namespace

bool ThreadIndexAnalysis::isUniformModulo(const Expr *E, const VarDecl *V) {
  if (!E)
    return true;
  if (!refersTo(E, V))
    return !analyze(E).MayDependOnThread;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == V;
  if (isa<LambdaExpr>(E))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAssignmentOp())
      return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      return false;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (!isPureIntegerFunction(Call->getDirectCallee()))
      return false;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (!isUniformModulo(CE, V))
        return false;
  return true;
}

bool ThreadIndexAnalysis::controlledUniformly(const Stmt *S, const Stmt *Stop,
                                              const VarDecl *V) {
  const Stmt *Cur = S;
  for (const Stmt *P = Parents.lookup(Cur); P; Cur = P, P = Parents.lookup(P)) {
    if (P == Stop)
      return true;
    bool Known = true;
    const Expr *Cond = controllingCondition(P, Cur, Known);
    if (!Known || (Cond && !isUniformModulo(Cond, V)))
      return false;
  }
  return !Stop;
}

const Stmt *ThreadIndexAnalysis::scopeOf(const VarDecl *V, const Stmt *Def,
                                         bool LoopScoped) {
  if (LoopScoped) {
    for (const Stmt *S = Def; S; S = Parents.lookup(S))
      if (const auto *For = dyn_cast<ForStmt>(S); For && startsVariable(For, V))
        return For;
    return nullptr;
  }
  if (isa<ParmVarDecl>(V))
    return nullptr;
  const DeclStmt *DS = DeclStmts.lookup(V);
  return DS ? Parents.lookup(DS) : nullptr;
}

bool ThreadIndexAnalysis::isUniformVariable(const VarDecl *V) {
  if (!FD || V->getDeclContext() != FD ||
      !(V->hasLocalStorage() || isa<ParmVarDecl>(V)) ||
      !(isIntegerLike(V->getType()) || V->getType()->isPointerType()))
    return false;
  scanBody();
  if (HasGoto)
    return false;
  auto Known = Uniform.find(V);
  if (Known != Uniform.end())
    return Known->second == Uniformity::Uniform;
  Uniform[V] = Uniformity::InProgress;
  bool Result = [&] {
    const VarInfo Info = Vars.lookup(V); // A copy: analyze() may grow Vars.
    if (Info.Escapes || (!isa<ParmVarDecl>(V) && !DeclStmts.lookup(V)))
      return false;
    // The values it is given.
    if (V->getInit() && !isUniformModulo(V->getInit(), V))
      return false;
    SmallVector<const Stmt *, 4> Defs; // The assignments and updates.
    for (const Expr *RHS : Info.Assigned) {
      if (!isUniformModulo(RHS, V))
        return false;
      Defs.push_back(Parents.lookup(RHS));
    }
    for (const Expr *Update : Info.Updates) {
      if (const auto *BO = dyn_cast<BinaryOperator>(Update))
        if (!isUniformModulo(BO->getRHS(), V))
          return false;
      Defs.push_back(Update);
    }
    // Born again in each loop that starts it, when every reference is in
    // such a loop; otherwise where it is declared.
    bool LoopScoped = !isa<ParmVarDecl>(V) && !Refs.lookup(V).empty();
    for (const DeclRefExpr *Ref : Refs.lookup(V))
      LoopScoped &= scopeOf(V, Ref, true) != nullptr;
    // Each definition made by all the threads that share the scope, or
    // none of them.
    SmallVector<const Stmt *, 4> Scopes;
    for (const Stmt *Def : Defs) {
      if (!Def)
        return false;
      const Stmt *Scope = scopeOf(V, Def, LoopScoped);
      if ((!Scope && !isa<ParmVarDecl>(V)) ||
          !controlledUniformly(Def, Scope, V))
        return false;
      Scopes.push_back(Scope);
    }
    // A `break` or `continue` that only some threads take leaves the
    // others to define it alone.
    for (const Stmt *Jump : Jumps) {
      const Stmt *Target = Parents.lookup(Jump);
      while (Target && !isJumpTarget(Target, Jump))
        Target = Parents.lookup(Target);
      if (!Target)
        return false;
      if (controlledUniformly(Jump, Target, V))
        continue;
      for (unsigned I = 0; I < Defs.size(); ++I) {
        const Stmt *Def = Defs[I], *Scope = Scopes[I];
        if (!isAncestor(Target, Def))
          continue;
        // Born inside the loop the jump leaves: the threads that stay
        // start it together.
        if (Scope && Scope != Target && isAncestor(Target, Scope))
          continue;
        const auto *For = dyn_cast<ForStmt>(Target);
        if (For && isAncestor(For->getInit(), Def))
          continue;
        // Born in that loop and changed by its increment: the threads
        // that leave it no longer use it, and the others step it together.
        if (For && Scope == Target && isAncestor(For->getInc(), Def))
          continue;
        return false;
      }
    }
    return true;
  }();
  Uniform[V] = Result ? Uniformity::Uniform : Uniformity::Varying;
  return Result;
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

bool isInsideLoop(ASTContext &Ctx, const Stmt *S, const Stmt *Top) {
  DynTypedNodeList P = Ctx.getParents(*S);
  while (!P.empty()) {
    if (P[0].get<ForStmt>() || P[0].get<WhileStmt>() || P[0].get<DoStmt>() ||
        P[0].get<CXXForRangeStmt>())
      return true;
    const Stmt *Up = P[0].get<Stmt>();
    if (!Up || Up == Top)
      return false;
    P = Ctx.getParents(*Up);
  }
  return false;
}

bool isThreadInvariant(ASTContext &Ctx, ThreadIndexAnalysis &TIA, const Expr *E,
                       const Stmt *Body) {
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent() || E->isTypeDependent())
    return false;
  if (E->getType()->isIntegralOrEnumerationType() &&
      E->isEvaluatable(Ctx, Expr::SE_NoSideEffects))
    return true;
  if (ThreadIndexAnalysis::builtinSymbol(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->hasLocalStorage() || !TIA.isUnmodified(V))
      return false;
    if (isa<ParmVarDecl>(V))
      return true;
    DynTypedNodeList P = Ctx.getParents(*V);
    const auto *DS = P.empty() ? nullptr : P[0].get<DeclStmt>();
    return V->getInit() && DS && !isInsideLoop(Ctx, DS, Body);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           isThreadInvariant(Ctx, TIA, BO->getLHS(), Body) &&
           isThreadInvariant(Ctx, TIA, BO->getRHS(), Body);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
            UO->getOpcode() == UO_Not || UO->getOpcode() == UO_LNot) &&
           isThreadInvariant(Ctx, TIA, UO->getSubExpr(), Body);
  return false;
}

} // namespace clang::tidy::cuda
