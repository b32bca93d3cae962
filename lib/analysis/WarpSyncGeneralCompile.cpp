//===--- WarpSyncGeneralCompile.cpp - cuda-lint ------------------------===//
//
// The general race analysis of cuda-warp-synchronous: subscripts and
// conditions compiled to small expression trees, and the loops whose values
// they are evaluated for.
//
//===----------------------------------------------------------------------===//

#include "WarpSyncGeneralImpl.h"
#include <functional>

namespace clang::tidy::cuda::warpsync {

GeneralRaces::Impl::Impl(Analysis &A, const FunctionDecl *FD, bool Kernel,
                         std::optional<BlockShape> Launched, bool LaunchedOnly)
    : A(A), Ctx(A.Ctx), FD(FD), Kernel(Kernel), TIA(A.Ctx, FD),
      Launched(Launched), LaunchedOnly(LaunchedOnly) {}

int GeneralRaces::Impl::converted(int Sub, QualType T) {
  Node N;
  N.Kind = Node::Wrap;
  N.Width = unsigned(Ctx.getIntWidth(T));
  N.Unsigned = T->isUnsignedIntegerOrEnumerationType();
  N.L = Sub;
  return add(N);
}

int GeneralRaces::Impl::add(Node N) {
  N.HasSym = N.Kind == Node::Sym;
  for (int C : {N.L, N.R, N.X})
    N.HasSym |= C >= 0 && C < int(Nodes.size()) && Nodes[C].HasSym;
  if (Nodes.size() >= MaxNodes) {
    if (Nodes.empty() || Nodes.back().Kind != Node::Unknown)
      Nodes.push_back(Node());
    return int(Nodes.size()) - 1;
  }
  Nodes.push_back(N);
  return int(Nodes.size()) - 1;
}

int GeneralRaces::Impl::constant(int64_t C) {
  Node N;
  N.Kind = Node::Const;
  N.C = C;
  return add(N);
}

int GeneralRaces::Impl::unknown() { return add(Node()); }

namespace {

/// Whether \p Body may change \p P or a field of it: an assignment, an
/// increment or a non-const method call on it, its address taken, or it
/// bound to a reference to non-const.
bool writtenIn(const Stmt *Body, const ParmVarDecl *P) {
  auto isP = [&](const Expr *E) {
    while (E) {
      E = E->IgnoreParenCasts();
      if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
        E = M->getBase();
      else
        break;
    }
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
    return DRE && DRE->getDecl() == P;
  };
  bool Written = false;
  forEachDescendant(Body, [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      Written |= BO->isAssignmentOp() && isP(BO->getLHS());
    else if (const auto *UO = dyn_cast<UnaryOperator>(S))
      Written |=
          (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
          isP(UO->getSubExpr());
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
      Written |= isP(MC->getImplicitObjectArgument()) && MC->getMethodDecl() &&
                 !MC->getMethodDecl()->isConst();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S))
      Written |=
          OC->getNumArgs() > 0 && isP(OC->getArg(0)) && OC->isAssignmentOp();
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = Call->getDirectCallee())
        for (unsigned I = 0; I < Call->getNumArgs() && I < F->getNumParams();
             ++I) {
          QualType T = F->getParamDecl(I)->getType();
          Written |= T->isReferenceType() &&
                     !T.getNonReferenceType().isConstQualified() &&
                     isP(Call->getArg(I));
        }
  });
  return Written;
}

} // namespace

bool GeneralRaces::Impl::paramWritten(const FunctionDecl *F,
                                      const ParmVarDecl *P) {
  auto [W, Fresh] = ParamWritten.try_emplace(P, false);
  if (Fresh)
    W->second = writtenIn(F->getBody(), P);
  return W->second;
}

int GeneralRaces::Impl::symbol(ArrayRef<const ValueDecl *> Path) {
  // A kernel's parameters are the same in every thread; a helper's may
  // not be.
  const auto *P = Path.empty() ? nullptr : dyn_cast<ParmVarDecl>(Path[0]);
  if (!Kernel || !P || P->getDeclContext() != FD ||
      P->getType()->isReferenceType() ||
      !Path.back()->getType()->isIntegralOrUnscopedEnumerationType())
    return -1;
  if (paramWritten(FD, P))
    return -1;
  auto [It, New] = SymIds.try_emplace(
      std::vector<const ValueDecl *>(Path.begin(), Path.end()),
      int(SymNames.size()));
  if (New) {
    std::string Name;
    for (const ValueDecl *D : Path)
      Name += (Name.empty() ? "" : ".") + D->getName().str();
    SymNames.push_back(Name);
  }
  // splitmix64 of the id: a fixed point, so that reports do not change
  // from run to run, and odd, so that products keep their low bits.
  uint64_t Z = uint64_t(It->second + 1) * 0x9e3779b97f4a7c15ull;
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  Z ^= Z >> 31;
  Node N;
  N.Kind = Node::Sym;
  N.C = int64_t(Z | 1);
  N.Dim = unsigned(It->second);
  return add(N);
}

void GeneralRaces::Impl::symbolsOf(int N, SmallVectorImpl<int> &Ids) const {
  const Node &Nd = Nodes[N];
  if (Nd.Kind == Node::Sym && !llvm::is_contained(Ids, int(Nd.Dim)))
    Ids.push_back(int(Nd.Dim));
  if (!Nd.HasSym)
    return;
  for (int C : {Nd.L, Nd.R, Nd.X})
    if (C >= 0)
      symbolsOf(C, Ids);
}

const ForStmt *GeneralRaces::Impl::loopOf(const Access &X,
                                          const VarDecl *V) const {
  for (const Stmt *L : X.Loops) {
    const auto *For = dyn_cast<ForStmt>(L);
    const auto *Init =
        For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
    if (Init && Init->isSingleDecl() && Init->getSingleDecl() == V &&
        !Analysis::assignedIn(For->getBody(), V))
      return For;
  }
  return nullptr;
}

namespace {

/// The node of a built-in variable (`threadIdx` and the others).
Node::NodeKind builtinNode(IndexSymbol::SymbolKind K) {
  switch (K) {
  case IndexSymbol::ThreadIdx:
    return Node::Tid;
  case IndexSymbol::BlockIdx:
    return Node::Bid;
  case IndexSymbol::BlockDim:
    return Node::BDim;
  case IndexSymbol::GridDim:
    return Node::GDim;
  default:
    return Node::Unknown;
  }
}

} // namespace

int GeneralRaces::Impl::compile(const Expr *E, const Access &X,
                                SmallVectorImpl<const VarDecl *> &Vars,
                                unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return unknown();
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent())
    return unknown();
  QualType T = E->getType();
  if (!T->isIntegralOrUnscopedEnumerationType() && !T->isBooleanType())
    return unknown();
  if (auto Sym = ThreadIndexAnalysis::builtinSymbol(E)) {
    Node N;
    N.Dim = Sym->Dim;
    N.Kind = builtinNode(Sym->Kind);
    return add(N);
  }
  if (std::optional<GroupQuery> Q = groupQueryCall(E))
    return groupQuery(*Q);
  Expr::EvalResult ER;
  if (E->EvaluateAsInt(ER, Ctx) && ER.Val.isInt() &&
      ER.Val.getInt().getSignificantBits() <= 64)
    return constant(ER.Val.getInt().isSigned()
                        ? ER.Val.getInt().getSExtValue()
                        : int64_t(ER.Val.getInt().getZExtValue()));
  unsigned Width = Ctx.getIntWidth(T);
  bool Unsigned = T->isUnsignedIntegerOrEnumerationType();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    int Sub = compile(Cast->getSubExpr(), X, Vars, Depth + 1);
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      return Sub;
    case CK_IntegralCast:
      return converted(Sub, T);
    case CK_IntegralToBoolean: {
      Node N;
      N.Kind = Node::Bin;
      N.Op = BO_NE;
      N.L = Sub;
      N.R = constant(0);
      return add(N);
    }
    default:
      return unknown();
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return unknown();
    for (const auto &[D, Val] : X.Fixed)
      if (D == V)
        return constant(Val);
    auto Own = A.OwnVars.find(V);
    if (Own != A.OwnVars.end()) {
      Node N;
      N.Kind = Node::Tid;
      int TidNode = add(N);
      if (Own->second == Base::Tid)
        return TidNode;
      Node M;
      M.Kind = Node::Bin;
      M.Op = BO_Rem;
      M.L = TidNode;
      M.R = constant(WarpSize);
      return add(M);
    }
    if (loopOf(X, V)) {
      if (!llvm::is_contained(Vars, V))
        Vars.push_back(V);
      Node N;
      N.Kind = Node::Var;
      N.V = V;
      return add(N);
    }
    // A variable of the helper an inlined access is in: its definition
    // there, or the caller's argument for a parameter.
    if (X.Inlined && X.InlinedFrom && V->getDeclContext() == X.InlinedFrom) {
      int H = X.InlineDepth == 1 ? helperValue(V, DRE, X, Vars, Depth) : -1;
      return H >= 0 ? H : unknown();
    }
    if (V->getType()->isReferenceType())
      return unknown();
    if (const Expr *Def = TIA.definitionAt(V, DRE);
        Def && Following.insert(V).second) {
      int D = compile(Def, X, Vars, Depth + 1);
      Following.erase(V);
      return converted(D, T);
    }
    if (int S = symbol({V}); S >= 0)
      return S;
    return unknown();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma || BO->isPtrMemOp())
      return unknown();
    Node N;
    N.Kind = Node::Bin;
    N.Op = BO->getOpcode();
    N.Width = Width;
    N.Unsigned = Unsigned;
    N.L = compile(BO->getLHS(), X, Vars, Depth + 1);
    N.R = compile(BO->getRHS(), X, Vars, Depth + 1);
    return add(N);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    int Sub = compile(UO->getSubExpr(), X, Vars, Depth + 1);
    Node N;
    N.Width = Width;
    N.Unsigned = Unsigned;
    N.L = Sub;
    switch (UO->getOpcode()) {
    case UO_Plus:
      return Sub;
    case UO_Minus:
      N.Kind = Node::Neg;
      return add(N);
    case UO_Not:
      N.Kind = Node::Not;
      return add(N);
    case UO_LNot:
      N.Kind = Node::LNot;
      return add(N);
    default:
      return unknown();
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Node N;
    N.Kind = Node::Cond;
    N.X = compile(CO->getCond(), X, Vars, Depth + 1);
    N.L = compile(CO->getTrueExpr(), X, Vars, Depth + 1);
    N.R = compile(CO->getFalseExpr(), X, Vars, Depth + 1);
    return add(N);
  }
  // A field of a kernel's by-value parameter (`p.n`, `p.dims.x`): a
  // symbol, as the parameter is.
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
    SmallVector<const ValueDecl *, 3> Path;
    const Expr *Base = E;
    while (const auto *M = dyn_cast<MemberExpr>(Base->IgnoreParens())) {
      if (M->isArrow() || !isa<FieldDecl>(M->getMemberDecl()))
        break;
      Path.push_back(M->getMemberDecl());
      Base = M->getBase();
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParens())) {
      Path.push_back(DRE->getDecl());
      std::reverse(Path.begin(), Path.end());
      if (int S = symbol(Path); S >= 0)
        return S;
    }
  }
  // A value read from memory or returned by a call: data.
  if (isa<ArraySubscriptExpr, MemberExpr, CallExpr>(E) ||
      (isa<UnaryOperator>(E) &&
       cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    Node N;
    N.Data = true;
    N.Loaded = isa<ArraySubscriptExpr, UnaryOperator>(E);
    return add(N);
  }
  return unknown();
}

int GeneralRaces::Impl::helperValue(const VarDecl *V, const DeclRefExpr *Use,
                                    const Access &X,
                                    SmallVectorImpl<const VarDecl *> &Vars,
                                    unsigned Depth) {
  const FunctionDecl *H = X.InlinedFrom;
  if (V->getType()->isReferenceType() || !X.Via)
    return -1;
  std::unique_ptr<ThreadIndexAnalysis> &HT = HelperTIAs[H];
  if (!HT)
    HT = std::make_unique<ThreadIndexAnalysis>(Ctx, H);
  QualType T = V->getType();
  if (!T->isIntegralOrUnscopedEnumerationType())
    return -1;
  if (const Expr *Def = HT->definitionAt(V, Use);
      Def && Following.insert(V).second) {
    int D = compile(Def, X, Vars, Depth + 1);
    Following.erase(V);
    return converted(D, T);
  }
  const auto *P = dyn_cast<ParmVarDecl>(V);
  if (!P || P->getFunctionScopeIndex() >= X.Via->getNumArgs())
    return -1;
  if (paramWritten(H, P))
    return -1;
  return converted(
      compile(X.Via->getArg(P->getFunctionScopeIndex()), X, Vars, Depth + 1),
      T);
}

int GeneralRaces::Impl::compileSub(const Access &X, size_t I,
                                   SmallVectorImpl<const VarDecl *> &Vars) {
  int N = compile(X.Subs[I], X, Vars);
  if (I != 0 || !X.Offset)
    return N;
  return bin(BO_Add, compile(X.Offset, X, Vars), N);
}

int GeneralRaces::Impl::bin(BinaryOperatorKind Op, int L, int R) {
  Node N;
  N.Kind = Node::Bin;
  N.Op = Op;
  N.L = L;
  N.R = R;
  return add(N);
}

int GeneralRaces::Impl::builtin(Node::NodeKind K, unsigned Dim) {
  Node N;
  N.Kind = K;
  N.Dim = Dim;
  return add(N);
}

int GeneralRaces::Impl::rank(const ThreadRank &R) {
  int InBlock =
      bin(BO_Add, builtin(Node::Tid, 0),
          bin(BO_Mul, builtin(Node::BDim, 0),
              bin(BO_Add, builtin(Node::Tid, 1),
                  bin(BO_Mul, builtin(Node::BDim, 1), builtin(Node::Tid, 2)))));
  if (R.Kind == ThreadRank::Tile)
    return bin(BO_Rem, InBlock, constant(R.Size));
  if (R.Kind == ThreadRank::Block)
    return InBlock;
  int Block =
      bin(BO_Add, builtin(Node::Bid, 0),
          bin(BO_Mul, builtin(Node::GDim, 0),
              bin(BO_Add, builtin(Node::Bid, 1),
                  bin(BO_Mul, builtin(Node::GDim, 1), builtin(Node::Bid, 2)))));
  int Threads =
      bin(BO_Mul, builtin(Node::BDim, 0),
          bin(BO_Mul, builtin(Node::BDim, 1), builtin(Node::BDim, 2)));
  return bin(BO_Add, bin(BO_Mul, Block, Threads), InBlock);
}

int GeneralRaces::Impl::groupQuery(const GroupQuery &Q) {
  if (Q.Query == GroupQuery::Rank)
    return rank(Q.Group);
  int Threads =
      bin(BO_Mul, builtin(Node::BDim, 0),
          bin(BO_Mul, builtin(Node::BDim, 1), builtin(Node::BDim, 2)));
  int64_t N = Q.Group.Size;
  switch (Q.Query) {
  case GroupQuery::MetaRank:
    return bin(BO_Div, rank(ThreadRank{ThreadRank::Block, 0}), constant(N));
  case GroupQuery::MetaSize:
    return bin(BO_Div, bin(BO_Add, Threads, constant(N - 1)), constant(N));
  default:
    return Q.Group.Kind == ThreadRank::Tile ? constant(N) : Threads;
  }
}

bool GeneralRaces::Impl::hasData(int N) const {
  const Node &Nd = Nodes[N];
  if (Nd.Data)
    return true;
  for (int C : {Nd.L, Nd.R, Nd.X})
    if (C >= 0 && hasData(C))
      return true;
  return false;
}

bool GeneralRaces::Impl::onlyData(int N) const {
  std::function<bool(int)> Walk = [&](int M) {
    const Node &Nd = Nodes[M];
    if (Nd.Kind == Node::Unknown && !Nd.Loaded)
      return false;
    for (int C : {Nd.L, Nd.R, Nd.X})
      if (C >= 0 && !Walk(C))
        return false;
    return true;
  };
  return hasData(N) && Walk(N);
}

bool GeneralRaces::Impl::known(int N) const {
  const Node &Nd = Nodes[N];
  if (Nd.Kind == Node::Unknown)
    return false;
  for (int C : {Nd.L, Nd.R, Nd.X})
    if (C >= 0 && !known(C))
      return false;
  return true;
}

std::optional<GeneralRaces::Impl::LoopDomain>
GeneralRaces::Impl::domain(const ForStmt *For, const VarDecl *V,
                           const Access &X,
                           SmallVectorImpl<const VarDecl *> &Vars) {
  LoopDomain D{V, -1, -1, -1, BO_LT};
  if (!V->getInit())
    return std::nullopt;
  D.Init = compile(V->getInit(), X, Vars);
  auto isV = [&](const Expr *E) { return refersTo(E, V); };
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !Cond->isComparisonOp())
    return std::nullopt;
  const Expr *BoundE = nullptr;
  if (isV(Cond->getLHS())) {
    D.Cmp = Cond->getOpcode();
    BoundE = Cond->getRHS();
  } else if (isV(Cond->getRHS())) {
    D.Cmp = BinaryOperator::reverseComparisonOp(Cond->getOpcode());
    BoundE = Cond->getLHS();
  } else {
    return std::nullopt;
  }
  if (D.Cmp == BO_EQ)
    return std::nullopt;
  D.Bound = compile(BoundE, X, Vars);
  const Expr *Inc =
      For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc);
      UO && UO->isIncrementDecrementOp() && isV(UO->getSubExpr())) {
    D.Step = constant(UO->isIncrementOp() ? 1 : -1);
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
             BO && isV(BO->getLHS())) {
    if (BO->getOpcode() == BO_AddAssign) {
      D.Step = compile(BO->getRHS(), X, Vars);
    } else if (BO->getOpcode() == BO_SubAssign) {
      Node N;
      N.Kind = Node::Neg;
      N.L = compile(BO->getRHS(), X, Vars);
      D.Step = add(N);
    } else if (const auto *RHS =
                   dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParens());
               BO->getOpcode() == BO_Assign && RHS &&
               RHS->getOpcode() == BO_Add && isV(RHS->getLHS())) {
      D.Step = compile(RHS->getRHS(), X, Vars);
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  // A symbol in a loop's domain would decide its trips.
  if (!known(D.Init) || !known(D.Bound) || !known(D.Step) ||
      Nodes[D.Init].HasSym || Nodes[D.Bound].HasSym || Nodes[D.Step].HasSym)
    return std::nullopt;
  return D;
}

const std::optional<GeneralRaces::Impl::Compiled> &
GeneralRaces::Impl::compiled(const Access &X) {
  auto It = CompiledCache.find(&X);
  if (It != CompiledCache.end())
    return It->second;
  return CompiledCache[&X] = compileAccess(X);
}

bool GeneralRaces::Impl::barrierLoop(const Stmt *L) {
  auto It = BarrierLoops.find(L);
  if (It != BarrierLoops.end())
    return It->second;
  bool Found = false;
  forEachDescendant(L, [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Found |=
          isBarrierCall(Call) || A.containsBarrier(Call->getDirectCallee());
  });
  return BarrierLoops[L] = Found;
}

std::optional<GeneralRaces::Impl::Compiled>
GeneralRaces::Impl::compileAccess(const Access &X) {
  Compiled C;
  // A shared scalar has no subscript: element 0 of one.
  if (!X.Root || (X.Subs.empty() && !Analysis::sharedScalar(X.E)) ||
      !extents(X, C.Ext))
    return std::nullopt;
  SmallVector<const VarDecl *, 2> Vars;
  for (size_t I = 0; I < X.Subs.size(); ++I) {
    int N = compileSub(X, I, Vars);
    // One subscript read from memory into an array of known size (`hist[
    // in[i] & 63]`): any of its elements, a race that depends on the data.
    if (!known(N) && X.Subs.size() == 1 && C.Ext[0] > 0 && onlyData(N)) {
      C.AnyIndex = true;
      C.Subs.push_back(N);
      continue;
    }
    if (!known(N))
      return std::nullopt;
    C.Symbolic |= Nodes[N].HasSym;
    C.Subs.push_back(N);
  }
  for (const auto &[E, V] : X.G.Conds)
    C.Conds.push_back({compile(E, X, Vars), V});
  C.Refs.assign(Vars.begin(), Vars.end());
  if (!addDomains(C, X, Vars))
    return std::nullopt;
  return C;
}

bool GeneralRaces::Impl::addDomains(Compiled &C, const Access &X,
                                    SmallVectorImpl<const VarDecl *> &Vars) {
  // domain() may add the variables of outer loops to Vars.
  for (size_t I = 0; I < Vars.size(); ++I) {
    const VarDecl *V = Vars[I];
    if (llvm::any_of(C.Doms, [&](const LoopDomain &D) { return D.V == V; }))
      continue;
    const ForStmt *For = loopOf(X, V);
    std::optional<LoopDomain> D = For ? domain(For, V, X, Vars) : std::nullopt;
    if (!D)
      return false;
    C.Doms.push_back(*D);
  }
  auto depth = [&](const VarDecl *V) {
    for (size_t I = 0; I < X.Loops.size(); ++I)
      if (loopOf(X, V) == X.Loops[I])
        return I;
    return X.Loops.size();
  };
  llvm::sort(C.Doms, [&](const LoopDomain &P, const LoopDomain &Q) {
    return depth(P.V) < depth(Q.V);
  });
  return true;
}

} // namespace clang::tidy::cuda::warpsync
