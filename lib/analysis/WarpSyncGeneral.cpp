//===--- WarpSyncGeneral.cpp - cuda-lint ----------------------------------===//
//
// The general race analysis of cuda-warp-synchronous: subscripts compiled
// to small expression trees and evaluated for every thread of a model block
// (see GeneralRaces in WarpSyncAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "cudalint/analysis/ThreadIndex.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <tuple>
#include <vector>

namespace clang::tidy::cuda::warpsync {

namespace {

constexpr int64_t MaxLoopTrips = 128;
constexpr size_t MaxInstances = size_t(1) << 17;
constexpr unsigned MaxDepth = 24;
constexpr size_t MaxNodes = 1 << 16;
constexpr uint64_t MaxEvaluations = uint64_t(1) << 21;

/// One node of a compiled integer expression.
struct Node {
  enum NodeKind : unsigned char {
    Const,
    Tid,
    Bid,
    BDim,
    GDim,
    Var,     ///< A loop variable that is enumerated.
    Unknown, ///< A value the evaluation cannot know.
    Bin,
    Neg,
    Not,
    LNot,
    Cond,
    Wrap, ///< Conversion to an integer type of Width bits.
  };
  NodeKind Kind = Unknown;
  BinaryOperatorKind Op = BO_Add;
  unsigned Dim = 0;
  unsigned Width = 64;
  bool Unsigned = false;
  int64_t C = 0;
  const VarDecl *V = nullptr;
  int L = -1, R = -1, X = -1;
  /// An Unknown read from memory (or returned by a call): data, as opposed
  /// to a uniform value such as a kernel parameter.
  bool Data = false;
};

/// The values of the built-in variables and loop variables for one thread.
struct Env {
  int64_t T[3] = {0, 0, 0}, B[3] = {0, 0, 0}, BD[3] = {1, 1, 1},
          GD[3] = {1, 1, 1};
  SmallVector<std::pair<const VarDecl *, int64_t>, 4> Vars;
};

int64_t wrap(int64_t V, unsigned Width, bool Unsigned) {
  if (Width >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Width) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (Unsigned)
    return int64_t(U);
  if (U & (uint64_t(1) << (Width - 1)))
    return int64_t(U) - int64_t(uint64_t(1) << Width);
  return int64_t(U);
}

/// One thread's access: the element (linear, in elements of the array) and
/// the thread (block * 1024 + linear thread index).
struct Instance {
  int64_t Elem;
  uint32_t Thread;
  /// The iteration of the loops with barriers around both accesses (a hash
  /// of their variables' values): accesses of different iterations of such
  /// a loop are in different barrier intervals.
  uint64_t Iter;
  /// The thread reaches the access only if a condition on data that the
  /// evaluation cannot know holds (`if (keys[t] <= k && k < keys[t + 1])`).
  bool Maybe = false;
};

} // namespace

struct GeneralRaces::Impl {
  Analysis &A;
  ASTContext &Ctx;
  const FunctionDecl *FD;
  bool Kernel;
  ThreadIndexAnalysis TIA;
  std::vector<Node> Nodes;
  int64_t Shape[3] = {1, 1, 1};
  int64_t Grid[3] = {1, 1, 1};
  bool ShapeKnown = false;
  bool UsedT[3] = {false, false, false}, UsedB[3] = {false, false, false};
  using InstanceKey = std::tuple<const Access *, bool,
                                 std::vector<const VarDecl *>, const VarDecl *>;
  std::map<InstanceKey, std::optional<std::vector<Instance>>> Cache;
  llvm::DenseMap<const Stmt *, bool> BarrierLoops;

  /// The shape the translation unit launches the kernel with, if known;
  /// \c LaunchedOnly: it is the only one.
  std::optional<BlockShape> Launched;
  bool LaunchedOnly = false;

  Impl(Analysis &A, const FunctionDecl *FD, bool Kernel,
       std::optional<BlockShape> Launched, bool LaunchedOnly)
      : A(A), Ctx(A.Ctx), FD(FD), Kernel(Kernel), TIA(A.Ctx, FD),
        Launched(Launched), LaunchedOnly(LaunchedOnly) {}

  llvm::SmallPtrSet<const VarDecl *, 8> Following; ///< Definitions in progress.

  int add(Node N) {
    if (Nodes.size() >= MaxNodes) {
      if (Nodes.empty() || Nodes.back().Kind != Node::Unknown)
        Nodes.push_back(Node());
      return int(Nodes.size()) - 1;
    }
    Nodes.push_back(N);
    return int(Nodes.size()) - 1;
  }
  int constant(int64_t C) {
    Node N;
    N.Kind = Node::Const;
    N.C = C;
    return add(N);
  }
  int unknown() { return add(Node()); }

  /// The `for` loop of \p X.Loops whose init declares \p V, if \p V is its
  /// induction variable (not assigned in the body).
  const ForStmt *loopOf(const Access &X, const VarDecl *V) const {
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

  /// Compiles \p E, the value of an integer expression in the context of the
  /// access \p X. Loop variables it uses go to \p Vars.
  int compile(const Expr *E, const Access &X,
              SmallVectorImpl<const VarDecl *> &Vars, unsigned Depth = 0) {
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
      switch (Sym->Kind) {
      case IndexSymbol::ThreadIdx:
        N.Kind = Node::Tid;
        break;
      case IndexSymbol::BlockIdx:
        N.Kind = Node::Bid;
        break;
      case IndexSymbol::BlockDim:
        N.Kind = Node::BDim;
        break;
      case IndexSymbol::GridDim:
        N.Kind = Node::GDim;
        break;
      default:
        return unknown();
      }
      return add(N);
    }
    if (std::optional<ThreadRank> Rank = threadRankCall(E))
      return rank(*Rank);
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
      case CK_IntegralCast: {
        Node N;
        N.Kind = Node::Wrap;
        N.Width = Width;
        N.Unsigned = Unsigned;
        N.L = Sub;
        return add(N);
      }
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
      if (V->getType()->isReferenceType())
        return unknown();
      if (const Expr *Def = TIA.definitionAt(V, DRE);
          Def && Following.insert(V).second) {
        int D = compile(Def, X, Vars, Depth + 1);
        Following.erase(V);
        Node N;
        N.Kind = Node::Wrap;
        N.Width = Width;
        N.Unsigned = Unsigned;
        N.L = D;
        return add(N);
      }
      return unknown();
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma ||
          BO->isPtrMemOp())
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
    // A value read from memory or returned by a call: data.
    if (isa<ArraySubscriptExpr, MemberExpr, CallExpr>(E) ||
        (isa<UnaryOperator>(E) &&
         cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
      Node N;
      N.Data = true;
      return add(N);
    }
    return unknown();
  }

  /// The \p I-th subscript of \p X, with the offset of the pointer it
  /// indexes.
  int compileSub(const Access &X, size_t I,
                 SmallVectorImpl<const VarDecl *> &Vars) {
    int N = compile(X.Subs[I], X, Vars);
    if (I != 0 || !X.Offset)
      return N;
    return bin(BO_Add, compile(X.Offset, X, Vars), N);
  }

  int bin(BinaryOperatorKind Op, int L, int R) {
    Node N;
    N.Kind = Node::Bin;
    N.Op = Op;
    N.L = L;
    N.R = R;
    return add(N);
  }
  int builtin(Node::NodeKind K, unsigned Dim) {
    Node N;
    N.Kind = K;
    N.Dim = Dim;
    return add(N);
  }

  /// `g.thread_rank()`: the linear thread index in the block (x fastest),
  /// modulo the tile size for a tile; in the grid, after the threads of the
  /// blocks before.
  int rank(const ThreadRank &R) {
    int InBlock = bin(
        BO_Add, builtin(Node::Tid, 0),
        bin(BO_Mul, builtin(Node::BDim, 0),
            bin(BO_Add, builtin(Node::Tid, 1),
                bin(BO_Mul, builtin(Node::BDim, 1), builtin(Node::Tid, 2)))));
    if (R.Kind == ThreadRank::Tile)
      return bin(BO_Rem, InBlock, constant(R.Size));
    if (R.Kind == ThreadRank::Block)
      return InBlock;
    int Block = bin(
        BO_Add, builtin(Node::Bid, 0),
        bin(BO_Mul, builtin(Node::GDim, 0),
            bin(BO_Add, builtin(Node::Bid, 1),
                bin(BO_Mul, builtin(Node::GDim, 1), builtin(Node::Bid, 2)))));
    int Threads =
        bin(BO_Mul, builtin(Node::BDim, 0),
            bin(BO_Mul, builtin(Node::BDim, 1), builtin(Node::BDim, 2)));
    return bin(BO_Add, bin(BO_Mul, Block, Threads), InBlock);
  }

  /// Whether the tree at \p N holds a value read from memory.
  bool hasData(int N) const {
    const Node &Nd = Nodes[N];
    if (Nd.Data)
      return true;
    for (int C : {Nd.L, Nd.R, Nd.X})
      if (C >= 0 && hasData(C))
        return true;
    return false;
  }

  /// Whether the tree at \p N can be evaluated without unknown values.
  bool known(int N) const {
    const Node &Nd = Nodes[N];
    if (Nd.Kind == Node::Unknown)
      return false;
    for (int C : {Nd.L, Nd.R, Nd.X})
      if (C >= 0 && !known(C))
        return false;
    return true;
  }

  std::optional<int64_t> eval(int N, const Env &En) const {
    const Node &Nd = Nodes[N];
    switch (Nd.Kind) {
    case Node::Const:
      return Nd.C;
    case Node::Tid:
      return En.T[Nd.Dim];
    case Node::Bid:
      return En.B[Nd.Dim];
    case Node::BDim:
      return En.BD[Nd.Dim];
    case Node::GDim:
      return En.GD[Nd.Dim];
    case Node::Var:
      for (const auto &[V, Val] : En.Vars)
        if (V == Nd.V)
          return Val;
      return std::nullopt;
    case Node::Unknown:
      return std::nullopt;
    case Node::Wrap: {
      auto V = eval(Nd.L, En);
      if (!V)
        return std::nullopt;
      return wrap(*V, Nd.Width, Nd.Unsigned);
    }
    case Node::Neg: {
      auto V = eval(Nd.L, En);
      if (!V)
        return std::nullopt;
      return wrap(int64_t(0 - uint64_t(*V)), Nd.Width, Nd.Unsigned);
    }
    case Node::Not: {
      auto V = eval(Nd.L, En);
      if (!V)
        return std::nullopt;
      return wrap(~*V, Nd.Width, Nd.Unsigned);
    }
    case Node::LNot: {
      auto V = eval(Nd.L, En);
      if (!V)
        return std::nullopt;
      return int64_t(*V == 0);
    }
    case Node::Cond: {
      auto C = eval(Nd.X, En);
      if (!C)
        return std::nullopt;
      return eval(*C ? Nd.L : Nd.R, En);
    }
    case Node::Bin:
      break;
    }
    // Short-circuit operators: a known side can decide alone.
    if (Nd.Op == BO_LAnd || Nd.Op == BO_LOr) {
      auto L = eval(Nd.L, En);
      bool Decides = Nd.Op == BO_LAnd ? false : true;
      if (L && bool(*L) == Decides)
        return int64_t(Decides);
      auto R = eval(Nd.R, En);
      if (R && bool(*R) == Decides)
        return int64_t(Decides);
      if (L && R)
        return int64_t(!Decides);
      return std::nullopt;
    }
    auto L = eval(Nd.L, En);
    auto R = eval(Nd.R, En);
    if (!L || !R)
      return std::nullopt;
    uint64_t UL = uint64_t(*L), UR = uint64_t(*R);
    int64_t V;
    switch (Nd.Op) {
    case BO_Add:
      V = int64_t(UL + UR);
      break;
    case BO_Sub:
      V = int64_t(UL - UR);
      break;
    case BO_Mul:
      V = int64_t(UL * UR);
      break;
    case BO_Div:
    case BO_Rem:
      if (*R == 0 || (*R == -1 && *L == std::numeric_limits<int64_t>::min()))
        return std::nullopt;
      V = Nd.Op == BO_Div ? *L / *R : *L % *R;
      break;
    case BO_Shl:
      if (*R < 0 || *R >= 63)
        return std::nullopt;
      V = int64_t(UL << *R);
      break;
    case BO_Shr:
      if (*R < 0 || *R >= 63)
        return std::nullopt;
      V = *L >> *R;
      break;
    case BO_And:
      V = *L & *R;
      break;
    case BO_Or:
      V = *L | *R;
      break;
    case BO_Xor:
      V = *L ^ *R;
      break;
    case BO_LT:
      return int64_t(*L < *R);
    case BO_LE:
      return int64_t(*L <= *R);
    case BO_GT:
      return int64_t(*L > *R);
    case BO_GE:
      return int64_t(*L >= *R);
    case BO_EQ:
      return int64_t(*L == *R);
    case BO_NE:
      return int64_t(*L != *R);
    default:
      return std::nullopt;
    }
    return wrap(V, Nd.Width, Nd.Unsigned);
  }

  /// The constant extents of the array \p X accesses, outermost first, one
  /// per subscript; 0 where unknown (a pointer, `extern __shared__ T s[]`).
  bool extents(const Access &X, SmallVectorImpl<int64_t> &Out) const {
    QualType T = X.Root->getType();
    for (size_t I = 0; I < X.Subs.size(); ++I) {
      if (const auto *CAT = Ctx.getAsConstantArrayType(T)) {
        Out.push_back(int64_t(CAT->getSize().getZExtValue()));
        T = CAT->getElementType();
      } else if (const auto *AT = Ctx.getAsArrayType(T)) {
        Out.push_back(0);
        T = AT->getElementType();
      } else if (const auto *PT = T->getAs<PointerType>(); PT && I == 0) {
        Out.push_back(0);
        T = PT->getPointeeType();
      } else {
        return false;
      }
    }
    // Inner extents must be known to linearise.
    for (size_t I = 1; I < Out.size(); ++I)
      if (Out[I] == 0)
        return false;
    return true;
  }

  /// Whether threads of different blocks may share the memory \p X
  /// accesses: global memory, or what a kernel's pointer parameter points
  /// to. A helper's pointer parameter may point to shared memory: no.
  bool gridWide(const Access &X) const {
    const auto *VD = dyn_cast<VarDecl>(X.Array);
    if (!VD)
      return false;
    if (VD->hasAttr<CUDASharedAttr>())
      return false;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      return Kernel && P->getDeclContext() == FD;
    return VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>();
  }

  struct LoopDomain {
    const VarDecl *V;
    int Init, Bound, Step;
    BinaryOperatorKind Cmp;
  };

  /// The domain of the induction variable \p V of \p For: `V = init`,
  /// `V < bound` (or `<=`, `>`, `>=`, `!=`), `++V`, `V += step`, ...
  std::optional<LoopDomain> domain(const ForStmt *For, const VarDecl *V,
                                   const Access &X,
                                   SmallVectorImpl<const VarDecl *> &Vars) {
    LoopDomain D{V, -1, -1, -1, BO_LT};
    if (!V->getInit())
      return std::nullopt;
    D.Init = compile(V->getInit(), X, Vars);
    auto isV = [&](const Expr *E) {
      const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripCasts(E));
      return DRE && DRE->getDecl() == V;
    };
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
    if (!known(D.Init) || !known(D.Bound) || !known(D.Step))
      return std::nullopt;
    return D;
  }

  /// Calls \p F for every assignment of the loop variables \p Doms (outer
  /// first) in \p En; false when a domain is too large or not evaluable.
  template <typename Fn>
  bool forEachLoopValue(ArrayRef<LoopDomain> Doms, Env &En, Fn F) const {
    if (Doms.empty())
      return F();
    const LoopDomain &D = Doms.front();
    auto I = eval(D.Init, En), B = eval(D.Bound, En), S = eval(D.Step, En);
    if (!I || !B || !S || *S == 0)
      return false;
    int64_t Trips = 0;
    for (int64_t V = *I;; V += *S) {
      bool In = D.Cmp == BO_LT   ? V < *B
                : D.Cmp == BO_LE ? V <= *B
                : D.Cmp == BO_GT ? V > *B
                : D.Cmp == BO_GE ? V >= *B
                                 : V != *B;
      if (!In)
        break;
      if (++Trips > MaxLoopTrips)
        return false;
      En.Vars.push_back({D.V, V});
      bool OK = forEachLoopValue(Doms.drop_front(), En, F);
      En.Vars.pop_back();
      if (!OK)
        return false;
    }
    return true;
  }

  /// The compiled form of an access: its linear element, the conditions on
  /// its path, and the domains of the loop variables they use.
  struct Compiled {
    SmallVector<int, 4> Subs;
    SmallVector<int64_t, 2> Ext;
    SmallVector<std::pair<int, bool>, 2> Conds;
    SmallVector<LoopDomain, 2> Doms;
    SmallVector<const VarDecl *, 2> Refs; ///< Loop variables it uses.
  };
  std::map<const Access *, std::optional<Compiled>> CompiledCache;

  /// \p X compiled, once; nullopt when it cannot be evaluated.
  const std::optional<Compiled> &compiled(const Access &X) {
    auto It = CompiledCache.find(&X);
    if (It != CompiledCache.end())
      return It->second;
    return CompiledCache[&X] = compileAccess(X);
  }

  /// Whether the body of the loop \p L holds a barrier: its iterations are
  /// then different barrier intervals.
  bool barrierLoop(const Stmt *L) {
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

  std::optional<Compiled> compileAccess(const Access &X) {
    Compiled C;
    if (!X.Root || X.Subs.empty() || !extents(X, C.Ext))
      return std::nullopt;
    SmallVector<const VarDecl *, 2> Vars;
    for (size_t I = 0; I < X.Subs.size(); ++I) {
      int N = compileSub(X, I, Vars);
      if (!known(N))
        return std::nullopt;
      C.Subs.push_back(N);
    }
    for (const auto &[E, V] : X.G.Conds)
      C.Conds.push_back({compile(E, X, Vars), V});
    C.Refs.assign(Vars.begin(), Vars.end());
    if (!addDomains(C, X, Vars))
      return std::nullopt;
    return C;
  }

  /// Adds to \p C the domains of the loop variables \p Vars that it has
  /// none for yet, and of those their bounds use, outer loops first.
  bool addDomains(Compiled &C, const Access &X,
                  SmallVectorImpl<const VarDecl *> &Vars) {
    // domain() may add the variables of outer loops to Vars.
    for (size_t I = 0; I < Vars.size(); ++I) {
      const VarDecl *V = Vars[I];
      if (llvm::any_of(C.Doms, [&](const LoopDomain &D) { return D.V == V; }))
        continue;
      const ForStmt *For = loopOf(X, V);
      std::optional<LoopDomain> D =
          For ? domain(For, V, X, Vars) : std::nullopt;
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

  /// The element \p C accesses in \p En, if in bounds.
  std::optional<int64_t> element(const Compiled &C, const Env &En) const {
    int64_t Elem = 0;
    for (size_t I = 0; I < C.Subs.size(); ++I) {
      auto V = eval(C.Subs[I], En);
      if (!V || *V < 0 || (C.Ext[I] && *V >= C.Ext[I]))
        return std::nullopt;
      Elem = I == 0 ? *V : Elem * C.Ext[I] + *V;
    }
    return Elem;
  }

  /// Whether a thread in \p En reaches \p C: no condition on its path is
  /// false; \p Maybe when one on data is unknown.
  bool reaches(const Compiled &C, const Env &En, bool &Maybe) const {
    Maybe = false;
    for (const auto &[N, Want] : C.Conds) {
      auto V = eval(N, En);
      if (V && bool(*V) != Want)
        return false;
      if (!V && hasData(N))
        Maybe = true;
    }
    return true;
  }

  void setBlock(Env &En) const {
    for (unsigned D = 0; D < 3; ++D) {
      En.BD[D] = Shape[D];
      En.GD[D] = Grid[D];
    }
  }

  /// Calls \p F(Env, thread key) for every thread of the model (of every
  /// block of the model grid when \p Grid).
  template <typename Fn>
  void forEachThread(bool AllBlocks, bool OneWarp, Fn F) const {
    Env En;
    setBlock(En);
    int64_t NB[3] = {AllBlocks ? Grid[0] : 1, AllBlocks ? Grid[1] : 1,
                     AllBlocks ? Grid[2] : 1};
    for (int64_t BZ = 0; BZ < NB[2]; ++BZ)
      for (int64_t BY = 0; BY < NB[1]; ++BY)
        for (int64_t BX = 0; BX < NB[0]; ++BX) {
          En.B[0] = BX, En.B[1] = BY, En.B[2] = BZ;
          uint32_t Block = uint32_t(BX + NB[0] * (BY + NB[1] * BZ));
          for (int64_t TZ = 0; TZ < Shape[2]; ++TZ)
            for (int64_t TY = 0; TY < Shape[1]; ++TY)
              for (int64_t TX = 0; TX < Shape[0]; ++TX) {
                En.T[0] = TX, En.T[1] = TY, En.T[2] = TZ;
                uint32_t Lin = uint32_t(TX + Shape[0] * (TY + Shape[1] * TZ));
                if (OneWarp && Lin >= WarpSize)
                  return;
                if (!F(En, Block * 1024 + Lin))
                  return;
              }
        }
  }

  /// \p Corr: the variables of the loops with barriers around both
  /// accesses of a pair, that either uses; \p Next: the loop whose next
  /// iteration \p X is in (the head of a back-edge region), whose
  /// variable counts one step back so that it meets the tail's iteration.
  const std::optional<std::vector<Instance>> &
  instances(const Access &X, bool OneWarp, ArrayRef<const VarDecl *> Corr,
            const VarDecl *Next) {
    InstanceKey Key{&X, OneWarp,
                    std::vector<const VarDecl *>(Corr.begin(), Corr.end()),
                    Next};
    auto It = Cache.find(Key);
    if (It != Cache.end())
      return It->second;
    std::optional<std::vector<Instance>> Out;
    std::optional<Compiled> C = compiled(X);
    SmallVector<const VarDecl *, 2> Vars(Corr.begin(), Corr.end());
    if (C && !addDomains(*C, X, Vars))
      C.reset();
    if (C) {
      auto iteration = [&](const Env &En) {
        uint64_t H = 0x9e3779b97f4a7c15ull;
        for (const VarDecl *V : Corr) {
          int64_t Val = 0;
          for (const auto &[D, Value] : En.Vars)
            if (D == V)
              Val = Value;
          if (V == Next)
            for (const LoopDomain &D : C->Doms)
              if (D.V == V)
                if (auto Step = eval(D.Step, En))
                  Val -= *Step;
          H = (H ^ uint64_t(Val)) * 0x100000001b3ull;
        }
        return H;
      };
      Out.emplace();
      bool OK = true;
      uint64_t Evaluations = 0;
      forEachThread(gridWide(X) && !OneWarp, OneWarp,
                    [&](Env &En, uint32_t Key) {
                      OK = forEachLoopValue(C->Doms, En, [&] {
                        if (++Evaluations > MaxEvaluations)
                          return false;
                        bool Maybe;
                        if (!reaches(*C, En, Maybe))
                          return true;
                        if (auto E = element(*C, En))
                          Out->push_back({*E, Key, iteration(En), Maybe});
                        return Out->size() < MaxInstances;
                      });
                      return OK;
                    });
      if (!OK)
        Out.reset();
    }
    return Cache[Key] = std::move(Out);
  }

  /// The model block: launch bounds, the extents of arrays that every
  /// thread indexes with `threadIdx.d + c`, and defaults.
  void computeShape() {
    if (ShapeKnown)
      return;
    ShapeKnown = true;
    forEachDescendant(FD->getBody(), [&](const Stmt *S) {
      if (const auto *E = dyn_cast<Expr>(S))
        if (auto Sym = ThreadIndexAnalysis::builtinSymbol(E)) {
          if (Sym->Kind == IndexSymbol::ThreadIdx)
            UsedT[Sym->Dim] = true;
          else if (Sym->Kind == IndexSymbol::BlockIdx)
            UsedB[Sym->Dim] = true;
        }
      if (const auto *Call = dyn_cast<CallExpr>(S))
        if (std::optional<ThreadRank> R = threadRankCall(Call)) {
          UsedT[0] = true;
          UsedB[0] |= R->Kind == ThreadRank::Grid;
        }
    });
    for (const auto &KV : A.OwnVars)
      if (const auto *P = dyn_cast<ParmVarDecl>(KV.first);
          P && P->getDeclContext() == FD)
        UsedT[0] = true;
    int64_t Max = 1024;
    if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult R;
      if (LB->getMaxThreads() && !LB->getMaxThreads()->isValueDependent() &&
          LB->getMaxThreads()->EvaluateAsInt(R, Ctx))
        Max = std::clamp<int64_t>(R.Val.getInt().getExtValue(), 1, 1024);
    }
    int64_t Bound[3] = {Inf, Inf, Inf};
    // Probe each subscript of an access that every thread makes: a
    // subscript linear in the thread index, s.x * threadIdx.x + s.y *
    // threadIdx.y + s.z * threadIdx.z + c (each s >= 0), into an extent N
    // bounds the block: the last thread's subscript is below N, assuming
    // that the program accesses the array in bounds. `A[threadIdx.x + c]`
    // bounds x by N - c; `A[threadIdx.x * 8 + threadIdx.y]` of 64 elements
    // bounds x by 8 and, once x is 8, y by 8.
    struct Linear {
      int64_t S[3];
      int64_t Last; ///< N - 1 - c: the largest in-bounds s . t.
    };
    SmallVector<Linear, 4> Lins;
    for (int D = 0; D < 3; ++D)
      Shape[D] = 1024;
    for (const auto &Region : A.Regions)
      for (const Access &X : Region) {
        if (X.Side || X.Carried || !X.G.BlockUniform || !X.G.Conds.empty())
          continue;
        SmallVector<int64_t, 2> Ext;
        if (!X.Root || !extents(X, Ext))
          continue;
        for (size_t I = 0; I < X.Subs.size(); ++I) {
          if (!Ext[I])
            continue;
          SmallVector<const VarDecl *, 2> Vars;
          int N = compileSub(X, I, Vars);
          if (!known(N))
            continue;
          SmallVector<LoopDomain, 2> Doms;
          bool OK = true;
          for (size_t J = 0; J < Vars.size() && OK; ++J) {
            std::optional<LoopDomain> Dm =
                domain(loopOf(X, Vars[J]), Vars[J], X, Vars);
            OK = Dm.has_value();
            if (OK)
              Doms.push_back(*Dm);
          }
          if (!OK)
            continue;
          // v(t) = s . t + c for t = 0, 1, 7, ... in each dimension with
          // the others 0, and at a point that moves all three at once.
          Env En;
          setBlock(En);
          int64_t MaxC = std::numeric_limits<int64_t>::min();
          int64_t S[3] = {-1, -1, -1};
          bool Moves = true;
          forEachLoopValue(Doms, En, [&] {
            std::optional<int64_t> V0 = eval(N, En);
            if (!V0)
              return Moves = false;
            for (unsigned D = 0; D < 3 && Moves; ++D) {
              En.T[D] = 1;
              std::optional<int64_t> V1 = eval(N, En);
              int64_t Slope = V1 ? *V1 - *V0 : -1;
              if (Slope < 0 || (S[D] >= 0 && S[D] != Slope))
                Moves = false;
              S[D] = Slope;
              for (int64_t T : {7, 31, 100, 1000}) {
                En.T[D] = T;
                std::optional<int64_t> V = eval(N, En);
                if (!Moves || !V || *V != *V0 + Slope * T)
                  Moves = false;
              }
              En.T[D] = 0;
            }
            if (Moves) {
              for (unsigned D = 0; D < 3; ++D)
                En.T[D] = 3 + D;
              std::optional<int64_t> V = eval(N, En);
              Moves = V && *V == *V0 + 3 * S[0] + 4 * S[1] + 5 * S[2];
              for (unsigned D = 0; D < 3; ++D)
                En.T[D] = 0;
            }
            if (!Moves)
              return false;
            MaxC = std::max(MaxC, *V0);
            return true;
          });
          if (!Moves || MaxC == std::numeric_limits<int64_t>::min() ||
              Ext[I] - MaxC <= 0 || (S[0] <= 0 && S[1] <= 0 && S[2] <= 0))
            continue;
          Lins.push_back({{S[0], S[1], S[2]}, Ext[I] - 1 - MaxC});
          for (unsigned D = 0; D < 3; ++D)
            if (S[D] > 0)
              Bound[D] = std::min(Bound[D], Lins.back().Last / S[D] + 1);
        }
      }
    // Given the shape in the dimensions before \p D, the most threads in
    // D that keep every linear subscript in bounds.
    auto jointBound = [&](unsigned D) {
      int64_t B = Inf;
      for (const Linear &L : Lins) {
        if (L.S[D] <= 0)
          continue;
        int64_t Rest = L.Last;
        for (unsigned E = 0; E < D; ++E)
          Rest -= L.S[E] * (Shape[E] - 1);
        if (Rest >= 0)
          B = std::min(B, Rest / L.S[D] + 1);
      }
      return B;
    };
    for (unsigned D = 0; D < 3; ++D)
      Grid[D] = UsedB[D] ? 2 : 1;
    // The launches in this file say how large the blocks are.
    if (Launched) {
      for (unsigned D = 0; D < 3; ++D)
        Shape[D] = UsedT[D] ? (*Launched)[D] : 1;
      return;
    }
    blockStrideBounds(Bound);
    ownElementBounds(Bound);
    auto round = [](int64_t V) { return V > 32 ? V - V % 32 : V; };
    bool TwoD = UsedT[1] || UsedT[2];
    Shape[0] = !UsedT[0]        ? 1
               : Bound[0] < Inf ? std::min(Bound[0], Max)
               : TwoD           ? std::min<int64_t>(32, Max)
                                : Max;
    Shape[0] = round(Shape[0]);
    Bound[1] = std::min(Bound[1], jointBound(1));
    Shape[1] =
        !UsedT[1] ? 1
        : Bound[1] < Inf
            ? std::min(Bound[1], std::max<int64_t>(1, Max / Shape[0]))
            : std::min<int64_t>(32, std::max<int64_t>(1, Max / Shape[0]));
    Bound[2] = std::min(Bound[2], jointBound(2));
    Shape[2] = !UsedT[2]
                   ? 1
                   : std::min<int64_t>(
                         Bound[2] < Inf ? std::min<int64_t>(Bound[2], 64) : 4,
                         std::max<int64_t>(1, Max / (Shape[0] * Shape[1])));
  }

  /// Bounds the block by the elements each thread writes: a write that
  /// walks a loop, `p[i * 8]` with `p = s + threadIdx.y * 64 +
  /// threadIdx.x` and i = 0..7, gives thread x the elements x, x + 8, ...,
  /// x + 56 of its row, so thread 8 would write the elements of thread 0
  /// (in the same barrier interval: a write-write race). Threads that
  /// write without a barrier each write their own elements; the first
  /// thread in a dimension whose elements meet thread 0's bounds the
  /// block in that dimension (here 8 in x): the column walk of an 8x8
  /// tile means blocks 8 threads wide. Only writes with a linear element
  /// in the thread index, in loops without barriers whose domains do not
  /// depend on the block's shape; a pair the conditions on the path
  /// exclude does not count.
  void ownElementBounds(int64_t (&Bound)[3]) {
    constexpr size_t MaxFootprint = 512;
    for (const auto &Region : A.Regions)
      for (const Access &X : Region) {
        if (!X.Write || X.Side || X.Carried || !X.Root)
          continue;
        const std::optional<Compiled> &C = compiled(X);
        if (!C || C->Doms.empty() || llvm::any_of(X.Loops, [&](const Stmt *L) {
              return barrierLoop(L);
            }))
          continue;
        // Thread 0's elements, with the loop values, for two block shapes:
        // the domains must not depend on it.
        struct Point {
          int64_t Elem;
          Env En;
        };
        std::vector<Point> Foot;
        bool OK = true;
        for (int64_t Dim : {1024, 512}) {
          Env En;
          for (unsigned D = 0; D < 3; ++D) {
            En.BD[D] = Dim;
            En.GD[D] = 2;
          }
          size_t I = 0;
          OK &= forEachLoopValue(C->Doms, En, [&] {
            auto E = element(*C, En);
            if (Dim == 1024) {
              if (!E || Foot.size() >= MaxFootprint)
                return false;
              Foot.push_back({*E, En});
              return true;
            }
            return E && I < Foot.size() && Foot[I++].Elem == *E;
          });
          OK &= Foot.size() > 1 && (Dim == 1024 || I == Foot.size());
          if (!OK)
            break;
        }
        if (!OK)
          continue;
        for (unsigned D = 0; D < 3; ++D) {
          if (!UsedT[D])
            continue;
          // The element is thread 0's plus Slope * t in dimension D.
          auto at = [&](const Point &P, int64_t T) {
            Env En = P.En;
            for (unsigned E = 0; E < 3; ++E)
              En.BD[E] = 1024;
            En.T[D] = T;
            return element(*C, En);
          };
          std::optional<int64_t> One = at(Foot[0], 1);
          int64_t Slope = One ? *One - Foot[0].Elem : 0;
          bool Linear = Slope > 0;
          for (const Point &P : Foot)
            for (int64_t T : {1, 7, 31}) {
              std::optional<int64_t> V = Linear ? at(P, T) : std::nullopt;
              Linear = V && *V == P.Elem + Slope * T;
            }
          if (!Linear)
            continue;
          // The first thread t > 0 in D that writes an element of thread
          // 0: Slope * t + Foot[b] == Foot[a], both reaching the write.
          int64_t Best = Bound[D];
          for (const Point &Pa : Foot)
            for (const Point &Pb : Foot) {
              int64_t Diff = Pa.Elem - Pb.Elem;
              if (Diff <= 0 || Diff % Slope || Diff / Slope >= Best)
                continue;
              Env Eb = Pb.En;
              Eb.T[D] = Diff / Slope;
              bool Maybe;
              if (reaches(*C, Pa.En, Maybe) && reaches(*C, Eb, Maybe))
                Best = Diff / Slope;
            }
          Bound[D] = Best;
        }
      }
  }

  /// Bounds the block by the strides of the global indices the accesses
  /// use: `blockIdx.x * NT + threadIdx.x` (NT a constant) gives each block
  /// NT elements, one per thread, so the blocks have at most NT threads in
  /// x; blocks of more would overlap, which is not what such an index
  /// means.
  void blockStrideBounds(int64_t (&Bound)[3]) {
    for (const auto &Region : A.Regions)
      for (const Access &X : Region) {
        if (X.Side || X.Carried || !X.Root)
          continue;
        for (size_t I = 0; I < X.Subs.size(); ++I) {
          SmallVector<const VarDecl *, 2> Vars;
          int N = compileSub(X, I, Vars);
          if (!Vars.empty() || !known(N))
            continue;
          for (unsigned D = 0; D < 3; ++D) {
            Env En;
            setBlock(En);
            auto V0 = eval(N, En);
            En.B[D] = 1;
            auto V1 = eval(N, En);
            En.B[D] = 0;
            if (!V0 || !V1 || *V1 - *V0 <= 0 || *V1 - *V0 >= Bound[D])
              continue;
            bool Moves = true;
            for (int64_t T : {1, 7, 31}) {
              En.T[D] = T;
              auto V = eval(N, En);
              Moves &= V && *V == *V0 + T;
            }
            if (Moves)
              Bound[D] = *V1 - *V0;
          }
        }
      }
  }

  std::string thread(uint32_t Key, bool WithBlock) const {
    uint32_t Lin = Key % 1024, Block = Key / 1024;
    int64_t TX = Lin % Shape[0], TY = (Lin / Shape[0]) % Shape[1],
            TZ = Lin / (Shape[0] * Shape[1]);
    std::string S = "thread ";
    if (Shape[2] > 1)
      S += "(" + std::to_string(TX) + ", " + std::to_string(TY) + ", " +
           std::to_string(TZ) + ")";
    else if (Shape[1] > 1)
      S += "(" + std::to_string(TX) + ", " + std::to_string(TY) + ")";
    else
      S += std::to_string(TX);
    if (WithBlock) {
      int64_t BX = Block % Grid[0], BY = (Block / Grid[0]) % Grid[1];
      S += " of block ";
      S += Grid[1] > 1
               ? "(" + std::to_string(BX) + ", " + std::to_string(BY) + ")"
               : std::to_string(BX);
    }
    return S;
  }

  /// What the conditions around both \p W and \p R (the same `if`, taken
  /// on its true side) let in at most: Analysis::SingleKind bits. Only
  /// where the values they compare with are the same for both: not across
  /// iterations of a loop without a barrier that changes them, and not
  /// read from memory that the region writes.
  unsigned singleCondition(const Access &W, const Access &R) {
    if (W.Side || R.Side)
      return 0;
    const SmallVector<Access, 8> *Region = nullptr;
    for (const auto &Rg : A.Regions)
      if (!Rg.empty() && &W >= Rg.begin() && &W < Rg.end())
        Region = &Rg;
    if (!Region)
      return 0;
    auto stable = [&](const Expr *U) {
      bool OK = true;
      forEachDescendant(U, [&](const Stmt *S) {
        const auto *DRE = dyn_cast<DeclRefExpr>(S);
        const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
        if (!VD)
          return;
        // A variable that a loop without a barrier around both changes
        // may differ between its iterations, which one region holds.
        for (const Stmt *L : W.Loops) {
          if (barrierLoop(L))
            continue;
          SourceRange LR = L->getSourceRange();
          if (Analysis::assignedIn(L, VD) ||
              (VD->getLocation().isValid() &&
               !Ctx.getSourceManager().isBeforeInTranslationUnit(
                   VD->getLocation(), LR.getBegin()) &&
               !Ctx.getSourceManager().isBeforeInTranslationUnit(
                   LR.getEnd(), VD->getLocation())))
            OK = false;
        }
        if (VD->hasLocalStorage() && !VD->getType()->isPointerType() &&
            A.Reassigned.count(VD) && !W.Loops.empty())
          OK = false;
        // Memory that the region writes may be read before or after.
        const ValueDecl *Arr = A.canonicalArray(VD);
        for (const Access &X : *Region)
          if (X.Write && X.Array == Arr)
            OK = false;
      });
      return OK;
    };
    unsigned Single = 0;
    for (const auto &[CW, VW] : W.G.Conds) {
      if (!VW)
        continue;
      for (const auto &[CR, VR] : R.G.Conds) {
        if (!VR || CW != CR)
          continue;
        SmallVector<const Expr *, 2> Uniform;
        unsigned S = A.singleCondition(CW, Uniform);
        if (S && llvm::all_of(Uniform, stable))
          Single |= S;
      }
    }
    return Single;
  }

  std::optional<Race> race(const Access &W, const Access &R, bool BlocksOnly) {
    if (!W.Write || R.Write || W.Array != R.Array)
      return std::nullopt;
    if (BlocksOnly && !gridWide(W))
      return std::nullopt;
    computeShape();
    if (WriterMapsOf != &W) {
      WriterMaps.clear();
      WriterMapsOf = &W;
    }
    // A condition around both that lets in one thread of each block, or
    // one block: pairs of threads it does not let in both do not race.
    unsigned Single = singleCondition(W, R);
    if (Single & Analysis::SingleBlock) {
      if (BlocksOnly || (Single & Analysis::SingleThread))
        return std::nullopt;
    }
    if (Single & Analysis::SingleThread) {
      if (!gridWide(W))
        return std::nullopt;
      BlocksOnly = true;
    }
    bool SameBlockOnly = Single & Analysis::SingleBlock;
    // An array indexed by the lane (`s[lane]`, `lane = threadIdx.x & 31`)
    // is the warp's own: the threads of one warp, as the own-index test
    // has it.
    bool OneWarp = W.Idx.B == Base::Lane || R.Idx.B == Base::Lane;
    // The loops with barriers around both, whose variables either uses:
    // the two must be in the same iteration (the head of a back-edge
    // region in the next one).
    const std::optional<Compiled> &CW = compiled(W), &CR = compiled(R);
    if (!CW || !CR)
      return std::nullopt;
    SmallVector<const VarDecl *, 2> Corr;
    const VarDecl *EdgeVar = nullptr;
    for (const Stmt *L : W.Loops) {
      if (!llvm::is_contained(R.Loops, L) || !barrierLoop(L))
        continue;
      const auto *For = dyn_cast<ForStmt>(L);
      const auto *Init =
          For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
      const auto *V = Init && Init->isSingleDecl()
                          ? dyn_cast<VarDecl>(Init->getSingleDecl())
                          : nullptr;
      if (!V || !loopOf(W, V) ||
          (!llvm::is_contained(CW->Refs, V) &&
           !llvm::is_contained(CR->Refs, V)))
        continue;
      Corr.push_back(V);
      if (L == W.BackEdgeLoop)
        EdgeVar = V;
    }
    const auto &IW =
        instances(W, OneWarp, Corr, W.Side == 1 ? EdgeVar : nullptr);
    if (!IW || IW->empty())
      return std::nullopt;
    const auto &IR =
        instances(R, OneWarp, Corr, R.Side == 1 ? EdgeVar : nullptr);
    if (!IR || IR->empty())
      return std::nullopt;
    // First the threads that surely reach the accesses; then, if they do
    // not race, those that may, by data the evaluation cannot know.
    std::optional<Race> Rc =
        match(W, R, *IW, *IR, BlocksOnly, SameBlockOnly, false);
    if (!Rc) {
      Rc = match(W, R, *IW, *IR, BlocksOnly, SameBlockOnly, true);
      if (Rc) {
        Rc->DataDependent = true;
        for (const auto &[X, C] : {std::pair(&W, &*CW), std::pair(&R, &*CR)})
          for (size_t I = 0; I < C->Conds.size() && !Rc->DataCond; ++I)
            if (hasData(C->Conds[I].first))
              Rc->DataCond = X->G.Conds[I].first;
      }
    }
    return Rc;
  }

  static constexpr uint32_t None = ~0u;

  /// Per element (and barrier-loop iteration): the first writer, and the
  /// first writers that differ from it in thread, warp and block. Whatever
  /// thread reads the element, one of these is a writer of the worst kind
  /// for it, if any is.
  struct Writers {
    uint32_t First, OtherThread = None, OtherWarp = None, OtherBlock = None;
  };
  struct WriterMap {
    llvm::DenseMap<std::pair<int64_t, uint64_t>, Writers> Map;
    /// Some instance reaches the write only by data (Instance::Maybe).
    bool AnyMaybe = false;
  };
  /// The writer maps of the instance lists of the write WriterMapsOf
  /// (which live in Cache, at fixed addresses), without and with the Maybe
  /// instances. A write is paired with every read of its region, one after
  /// the other: building its map again for each pair cost more than the
  /// rest of the analysis (hexciton). Only the current write's maps are
  /// kept.
  std::map<std::pair<const std::vector<Instance> *, bool>, WriterMap>
      WriterMaps;
  const Access *WriterMapsOf = nullptr;

  const WriterMap &writers(const std::vector<Instance> &IW, bool WithMaybe) {
    auto [Pos, New] = WriterMaps.try_emplace({&IW, WithMaybe});
    WriterMap &WM = Pos->second;
    if (!New)
      return WM;
    WM.Map.reserve(IW.size());
    for (const Instance &I : IW) {
      WM.AnyMaybe |= I.Maybe;
      if (I.Maybe && !WithMaybe)
        continue;
      auto [It, Fresh] =
          WM.Map.try_emplace({I.Elem, I.Iter}, Writers{I.Thread});
      Writers &Wr = It->second;
      if (Fresh || Wr.First == I.Thread)
        continue;
      if (Wr.OtherThread == None)
        Wr.OtherThread = I.Thread;
      if (Wr.OtherWarp == None && Wr.First / 32 != I.Thread / 32)
        Wr.OtherWarp = I.Thread;
      if (Wr.OtherBlock == None && Wr.First / 1024 != I.Thread / 1024)
        Wr.OtherBlock = I.Thread;
    }
    return WM;
  }

  std::optional<Race> match(const Access &W, const Access &R,
                            const std::vector<Instance> &IW,
                            const std::vector<Instance> &IR, bool BlocksOnly,
                            bool SameBlockOnly, bool WithMaybe) {
    bool AnyMaybe = writers(IW, false).AnyMaybe;
    if (WithMaybe && !AnyMaybe &&
        llvm::none_of(IR, [](const Instance &I) { return I.Maybe; }))
      return std::nullopt;
    const auto &Map = writers(IW, WithMaybe).Map;
    bool Any = false, SameWarp = true, CrossBlock = false;
    int Worst = -1;
    std::string Example;
    for (const Instance &I : IR) {
      if (I.Maybe && !WithMaybe)
        continue;
      auto It = Map.find({I.Elem, I.Iter});
      if (It == Map.end())
        continue;
      const Writers &Wr = It->second;
      int Rank = -1;
      uint32_t Ex = None;
      for (uint32_t C :
           {Wr.First, Wr.OtherThread, Wr.OtherWarp, Wr.OtherBlock}) {
        if (C == None || C == I.Thread)
          continue;
        int K = C / 1024 != I.Thread / 1024 ? 2 : C / 32 != I.Thread / 32;
        if (K == 2 && SameBlockOnly)
          continue;
        if (K > Rank)
          Rank = K, Ex = C;
      }
      if (Rank < 0 || (BlocksOnly && Rank < 2))
        continue;
      Any = true;
      CrossBlock |= Rank == 2;
      SameWarp &= Rank == 0;
      if (Rank > Worst) {
        Worst = Rank;
        bool Blocks = Rank == 2;
        Example = thread(I.Thread, Blocks) + " reads '" +
                  subscripted(R, I.Elem) + "', which " + thread(Ex, Blocks) +
                  " writes";
      }
    }
    if (!Any)
      return std::nullopt;
    Race Rc{&W, &R, SameWarp};
    Rc.General = true;
    Rc.CrossBlock = CrossBlock;
    Rc.Example = Example;
    return Rc;
  }

  /// `tile[3][5]` for the linear element \p Elem of \p X's array.
  std::string subscripted(const Access &X, int64_t Elem) const {
    SmallVector<int64_t, 2> Ext;
    extents(X, Ext);
    SmallVector<int64_t, 2> Idx(Ext.size());
    for (size_t I = Ext.size(); I-- > 1;) {
      Idx[I] = Elem % Ext[I];
      Elem /= Ext[I];
    }
    if (!Idx.empty())
      Idx[0] = Elem;
    std::string S = X.Root->getName().str();
    for (int64_t V : Idx)
      S += "[" + std::to_string(V) + "]";
    return S;
  }
};

GeneralRaces::GeneralRaces(Analysis &A, const FunctionDecl *FD, bool Kernel,
                           std::optional<BlockShape> Launched,
                           bool LaunchedOnly)
    : P(std::make_unique<Impl>(A, FD, Kernel, Launched, LaunchedOnly)) {}

GeneralRaces::~GeneralRaces() = default;

std::optional<Race> GeneralRaces::race(const Access &W, const Access &R,
                                       bool BlocksOnly) {
  return P->race(W, R, BlocksOnly);
}

bool GeneralRaces::shapeLaunched() const {
  return P->Launched && P->LaunchedOnly;
}

std::string GeneralRaces::shape() const {
  const int64_t *S = P->Shape;
  if (S[2] > 1)
    return std::to_string(S[0]) + "x" + std::to_string(S[1]) + "x" +
           std::to_string(S[2]) + " threads";
  if (S[1] > 1)
    return std::to_string(S[0]) + "x" + std::to_string(S[1]) + " threads";
  return std::to_string(S[0]) + (S[0] == 1 ? " thread" : " threads");
}

} // namespace clang::tidy::cuda::warpsync
