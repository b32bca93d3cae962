//===--- WarpSyncAnalysis.h - cuda-lint -------------------------*- C++ -*-===//
//
// A small, self-contained thread-index analysis for cuda-warp-synchronous:
// accesses `A[base + c]` / `A[base ^ c]` where `base` is the thread's own
// index (threadIdx.x, a lane `threadIdx.x & 31`, a local or a helper
// parameter bound to one), grouped into barrier-free regions with the range
// of threads that reach them, and the races between them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_WARPSYNCANALYSIS_H
#define CUDA_LINT_WARPSYNCANALYSIS_H

#include "cudalint/analysis/KernelLaunches.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace clang::tidy::cuda::warpsync {

constexpr int64_t Inf = std::numeric_limits<int64_t>::max() / 4;
constexpr int64_t WarpSize = 32;

/// What an own-index value is: the thread's index in the block, or its lane.
enum class Base { None, Tid, Lane };

/// `base + Off` or `base ^ Off`.
struct IndexForm {
  Base B = Base::None;
  bool Xor = false;
  int64_t Off = 0;
};

/// What is known about the threads that reach a point.
struct Guard {
  int64_t TidLo = 0, TidHi = Inf;        ///< threadIdx.x in [TidLo, TidHi).
  int64_t LaneLo = 0, LaneHi = WarpSize; ///< lane in [LaneLo, LaneHi).
  bool WarpUniform = true;  ///< Whole warps reach this point or none.
  bool BlockUniform = true; ///< Every thread of the block reaches it.
  /// TidHi comes from the sizes of the arrays accessed, not a condition.
  bool Bounded = false;
  /// Every thread in the ranges reaches this point: each thread-dependent
  /// condition on the way is a range of the thread index or lane, taken on
  /// its true side, with no early exit before.
  bool Exact = true;
  /// The thread-dependent conditions on the path here, and the value each
  /// has on it (for the general analysis, which evaluates them per thread),
  /// and the conditions on the block's shape (blockShapeCondition).
  SmallVector<std::pair<const Expr *, bool>, 2> Conds;
};

enum class SlotKind { Compound, IfThen, IfElse, Other };

/// Where a statement sits: what may be inserted before it or around it.
struct Slot {
  SlotKind Kind = SlotKind::Other;
  const Stmt *Parent = nullptr;
  Guard G;
};

struct Access {
  const ArraySubscriptExpr *E;
  const ValueDecl *Array;
  bool Write;
  IndexForm Idx;
  Guard G;
  const Stmt *Stmt; ///< The innermost statement holding the access.
  unsigned Order;
  /// Copied past a branch that has a barrier on only one of its paths.
  bool Carried = false;
  /// The first such branch, and whether its barrier is on its true path.
  const clang::IfStmt *CarriedBy = nullptr;
  bool CarriedThen = false;
  /// The general analysis (WarpSyncGeneral.cpp): the array as declared
  /// (before canonicalArray), its subscripts outermost first, the loops
  /// walked once that enclose the access (innermost last), and the values
  /// of the halving or doubling loop variables it was walked with.
  const VarDecl *Root = nullptr;
  SmallVector<const Expr *, 2> Subs;
  /// Added to the subscript: the element of Root that the pointer indexed
  /// points at (`float *p = &tile[e]; p[i]` is `tile[e + i]`).
  const Expr *Offset = nullptr;
  SmallVector<const clang::Stmt *, 2> Loops;
  SmallVector<std::pair<const ValueDecl *, int64_t>, 1> Fixed;
  /// In a back-edge region: 1 for the head of the loop body (the accesses
  /// before its first barrier, as the next iteration makes them), 2 for its
  /// tail; only head/tail pairs race there.
  unsigned char Side = 0;
  const clang::Stmt *BackEdgeLoop = nullptr;
  /// In a grid region: the accesses to memory that other blocks may share,
  /// with only grid-wide synchronizations between regions (block barriers
  /// do not order blocks); only races between blocks count there.
  bool GridOnly = false;
};

struct CallSite {
  const CallExpr *Call;
  Guard G;
  const FunctionDecl *Caller = nullptr;
};

/// The calls of each function, with the guards at each call site.
using CallMap = llvm::DenseMap<const FunctionDecl *, SmallVector<CallSite, 2>>;

/// What orders the threads of different blocks: cooperative_groups
/// `grid.sync()` (and `sync(grid)`), and `__threadfence()` (with which
/// blocks publish results behind an atomic flag, as in the
/// threadFenceReduction sample).
bool isGridSyncCall(const CallExpr *Call);

/// A barrier: __syncthreads and variants, __syncwarp, __barrier_sync,
/// cooperative_groups sync().
bool isBarrierCall(const CallExpr *Call);

/// What a cooperative_groups `g.thread_rank()` counts: the thread's rank
/// in the block (`thread_block`), in a tile of Size threads of it
/// (`thread_block_tile<Size>`: the block rank modulo Size) or in the grid.
struct ThreadRank {
  enum RankKind { Block, Tile, Grid } Kind;
  int64_t Size = 0;
};

/// \p E as a call of `thread_rank()` on a cooperative group of a known
/// kind.
std::optional<ThreadRank> threadRankCall(const Expr *E);

/// `threadIdx.x`.
bool isThreadIdxX(const Expr *E);

/// \p E without parentheses, implicit casts and explicit integral casts.
const Expr *stripCasts(const Expr *E);

template <typename Fn> void forEachDescendant(const Stmt *S, Fn F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *C : S->children())
    forEachDescendant(C, F);
}

/// The own-index variables of a translation unit's device functions, and the
/// walk of one function into barrier-free regions of accesses.
class Analysis {
public:
  Analysis(ASTContext &Ctx) : Ctx(Ctx) {}

  std::optional<int64_t> constant(const Expr *E) const {
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

  Base baseOf(const Expr *E) const {
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

  std::optional<IndexForm> parseIndex(const Expr *E) const {
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

  /// Whether \p E may differ between the threads of a block: it names the
  /// thread index or a local variable that may hold different values in
  /// different threads.
  bool threadDependent(const Expr *E) const {
    bool Dep = false;
    forEachDescendant(E, [&](const Stmt *S) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (OwnVars.count(DRE->getDecl()))
          Dep = true;
        else if (VD && VD->isLocalVarDecl() && Varying.count(VD))
          Dep = true;
      } else if (isa<CallExpr>(S) && threadRankCall(cast<CallExpr>(S))) {
        Dep = true;
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

  /// Whether \p E may have different values in different threads: it is
  /// thread-dependent or calls a function (which may return anything).
  /// \p Builtins: the getters behind blockIdx, blockDim and gridDim (the
  /// same in every thread of a block; threadIdx is thread-dependent) do
  /// not count as calls.
  bool varyingExpr(const Expr *E, bool Builtins = false) const {
    if (threadDependent(E))
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

  /// Finds the locals of \p FD that may hold different values in different
  /// threads: initialised or assigned from a varying value, or under a
  /// thread-dependent condition, or whose address is taken.
  void collectVarying(const FunctionDecl *FD) {
    bool Changed = true;
    auto mark = [&](const Expr *Target) {
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            VD && VD->isLocalVarDecl())
          Changed |= Varying.insert(VD).second;
    };
    std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S,
                                                       bool Ctrl) {
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
              (Ctrl ||
               varyingExpr(VD->getInit(),
                           /*Builtins=*/VD->getType()->isIntegerType())))
            Changed |= Varying.insert(VD).second;
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (BO->isAssignmentOp() && (Ctrl || varyingExpr(BO->getRHS())))
          mark(BO->getLHS());
      } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->getOpcode() == UO_AddrOf ||
            (UO->isIncrementDecrementOp() && Ctrl))
          mark(UO->getSubExpr());
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
          const ParmVarDecl *P = Callee && I < Callee->getNumParams()
                                     ? Callee->getParamDecl(I)
                                     : nullptr;
          if (!P || (P->getType()->isReferenceType() &&
                     !P->getType().getNonReferenceType().isConstQualified()))
            mark(Call->getArg(I));
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

  /// Whether some threads may leave \p S early (a `return`, or a `break` or
  /// `continue` of the loop whose body is \p S when \p Loop, or of the
  /// statement list \p S is in) under a thread-dependent condition, so that
  /// what follows is not reached by all of them.
  bool divergentExit(const Stmt *S, bool Loop) const {
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

  /// Whether \p C is a condition on the block's shape alone (`blockDim.x <=
  /// 32`: blockDim and constants), the same in every thread of the block
  /// and decided by the model block of the general analysis. A kernel that
  /// takes one path for small blocks and another for large ones
  /// (`if (blockDim.x <= 32) return s[0];`) has accesses that never meet.
  bool blockShapeCondition(const Expr *C) const;

  /// What a condition taken on its true side lets in, at most (a bit set):
  /// one thread of each block, or the threads of one block.
  enum SingleKind : unsigned { SingleThread = 1, SingleBlock = 2 };

  /// How few threads \p C lets in: `threadIdx.x == U` and the bracket
  /// `P[t] <= K && K < P[t + 1]` over a sorted P (one thread of a block),
  /// a ticket `atomicAdd(count, 1) == U` (one thread of the grid) and a
  /// flag set only from one (`isLast = ticket == gridDim.x - 1`, one
  /// block); 0 for anything else. The values U and K must be the same in
  /// every thread that evaluates C: they go to \p Uniform, for the caller
  /// to check that nothing writes what they read.
  unsigned singleCondition(const Expr *C,
                           SmallVectorImpl<const Expr *> &Uniform) const;
  bool ticket(const Expr *E) const;
  bool ticketCompare(const Expr *E) const;

  /// Narrows \p G by the condition \p Cond being true.
  void refine(Guard &G, const Expr *Cond) const {
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

  /// Finds the own-index variables of \p FD: locals initialised from an own
  /// index and never assigned.
  void collectLocals(const FunctionDecl *FD) {
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

  /// Binds the parameters of helpers that every call site passes an own
  /// index.
  void bindParameters(llvm::ArrayRef<const FunctionDecl *> Functions) {
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

  bool containsBarrier(const FunctionDecl *FD, unsigned Depth = 0) const {
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

  // The walk over one function.
  void walkFunction(const FunctionDecl *FD, Guard Entry) {
    Regions.clear();
    Current.clear();
    FirstRegionAtEntry = true;
    Slots.clear();
    Order = 0;
    CurrentFD = FD;
    FlushOrders.clear();
    EdgeRegions.clear();
    LoopStack.clear();
    GridCurrent.clear();
    walkStmt(FD->getBody(), Entry, FD->getBody());
    flush();
    for (auto &R : EdgeRegions)
      Regions.push_back(std::move(R));
    EdgeRegions.clear();
    flushGrid();
    for (auto &R : GridRegions)
      Regions.push_back(std::move(R));
    GridRegions.clear();
  }

  /// Barriers passed so far.
  unsigned flushes() const { return FlushOrders.size(); }

  void flushGrid() {
    if (!GridCurrent.empty())
      GridRegions.push_back(std::move(GridCurrent));
    GridCurrent.clear();
  }

  /// The condition of `if (C) return;` (or `{ return; }`), else null.
  static const Expr *exitCondition(const Stmt *S) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
      return nullptr;
    const Stmt *Then = If->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then))
      Then = CS->size() == 1 ? CS->body_front() : nullptr;
    return Then && isa<ReturnStmt>(Then) ? If->getCond() : nullptr;
  }

  /// The body of the loop \p Loop, walked once from the order \p O0 on,
  /// passed barriers (from flush number \p F0 on): the accesses after its
  /// last barrier meet, across the back edge, those before its first
  /// barrier in the next iteration. They form a region of their own in
  /// which only head/tail pairs count.
  void backEdgeRegion(const Stmt *Loop, unsigned F0, unsigned O0) {
    unsigned HeadEnd = FlushOrders[F0];
    SmallVector<Access, 8> Edge;
    auto take = [&](const Access &X, unsigned char Side) {
      Access Y = X;
      Y.Side = Side;
      Y.Carried = false;
      Y.CarriedBy = nullptr;
      Y.BackEdgeLoop = Loop;
      Edge.push_back(std::move(Y));
    };
    for (const auto &R : Regions)
      for (const Access &X : R)
        if (!X.Side && !X.Carried && X.Order >= O0 && X.Order < HeadEnd)
          take(X, 1);
    for (const Access &X : Current)
      if (!X.Side && !X.Carried && X.Order >= O0 && X.Order < HeadEnd)
        take(X, 1);
    bool Head = !Edge.empty();
    unsigned TailStart = FlushOrders.back();
    for (const Access &X : Current)
      if (!X.Side && !X.Carried && X.Order >= TailStart)
        take(X, 2);
    if (Head && Edge.back().Side == 2)
      EdgeRegions.push_back(std::move(Edge));
  }

  void flush() {
    FlushOrders.push_back(Order);
    if (Regions.empty() && Current.empty())
      FirstRegionAtEntry = false;
    if (!Current.empty())
      Regions.push_back(std::move(Current));
    Current.clear();
  }

  void setSlot(const Stmt *S, SlotKind K, const Stmt *Parent, const Guard &G) {
    if (S)
      Slots[S] = Slot{K, Parent, G};
  }

  void walkStmt(const Stmt *S, Guard G, const Stmt *Holder) {
    if (!S)
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body()) {
        setSlot(Child, SlotKind::Compound, CS, G);
        walkStmt(Child, G, Child);
        // After `if (tid >= n) return;` not every thread is here.
        if (divergentExit(Child, false)) {
          G.BlockUniform = G.WarpUniform = G.Exact = false;
          if (const Expr *C = exitCondition(Child))
            G.Conds.push_back({C, false});
        } else if (const Expr *C = exitCondition(Child);
                   C && blockShapeCondition(C)) {
          // After `if (blockDim.x <= 32) return ...;` the blocks are larger.
          G.Conds.push_back({C, false});
        }
      }
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit())
        walkStmt(If->getInit(), G, Holder);
      const Expr *Cond = If->getCond();
      walkExpr(Cond, G, Holder);
      bool Value;
      if (!Cond->isValueDependent() &&
          Cond->EvaluateAsBooleanCondition(Value, Ctx)) {
        const Stmt *Taken = Value ? If->getThen() : If->getElse();
        setSlot(Taken, Value ? SlotKind::IfThen : SlotKind::IfElse, If, G);
        walkStmt(Taken, G, Taken);
        return;
      }
      Guard GT = G, GE = G;
      refine(GT, Cond);
      if (threadDependent(Cond)) {
        GE.BlockUniform = GE.WarpUniform = GE.Exact = false;
        GT.Conds.push_back({Cond, true});
        GE.Conds.push_back({Cond, false});
      } else if (blockShapeCondition(Cond)) {
        // The same in every thread: the general analysis decides it for
        // its model block.
        GT.Conds.push_back({Cond, true});
        GE.Conds.push_back({Cond, false});
      }
      SmallVector<Access, 8> Before(Current);
      unsigned F0 = flushes();
      setSlot(If->getThen(), SlotKind::IfThen, If, GT);
      walkStmt(If->getThen(), GT, If->getThen());
      unsigned F1 = flushes();
      setSlot(If->getElse(), SlotKind::IfElse, If, GE);
      walkStmt(If->getElse(), GE, If->getElse());
      // `if (c) __syncthreads();`: on the path without the barrier, the
      // accesses before the branch meet those after it.
      if ((F1 != F0) != (flushes() != F1))
        for (Access X : Before) {
          if (!X.Carried) {
            X.CarriedBy = If;
            X.CarriedThen = F1 != F0;
          }
          X.Carried = true;
          Current.push_back(X);
        }
      return;
    }
    const Expr *LoopCond = nullptr;
    const Stmt *Body = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      walkStmt(For->getInit(), G, Holder);
      LoopCond = For->getCond();
      Body = For->getBody();
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      LoopCond = While->getCond();
      Body = While->getBody();
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      LoopCond = Do->getCond();
      Body = Do->getBody();
    }
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      const VarDecl *Var = nullptr;
      SmallVector<int64_t, 8> Values;
      if ((halvingLoop(For, Var, Values) || doublingLoop(For, Var, Values)) &&
          !divergentExit(For->getBody(), true)) {
        // `for (o = C; o > 0; o >>= 1)`, `for (o = 1; o < C; o <<= 1)`: the
        // same trip count for every thread; walked once per value of `o`.
        setSlot(Body, SlotKind::Other, S, G);
        for (int64_t V : Values) {
          LoopValues[Var] = V;
          walkStmt(Body, G, Body);
        }
        LoopValues.erase(Var);
        return;
      }
    }
    if (Body) {
      Guard GB = G;
      if (LoopCond)
        collectSpinReads(S, LoopCond, Body);
      if (LoopCond) {
        walkExpr(LoopCond, G, Holder);
        if (threadDependent(LoopCond))
          GB.BlockUniform = GB.WarpUniform = GB.Exact = false;
      }
      if (divergentExit(Body, true))
        GB.BlockUniform = GB.WarpUniform = GB.Exact = false;
      setSlot(Body, SlotKind::Other, S, GB);
      unsigned F0 = flushes(), O0 = Order;
      LoopStack.push_back(S);
      walkStmt(Body, GB, Body);
      if (const auto *For = dyn_cast<ForStmt>(S))
        if (For->getInc())
          walkExpr(For->getInc(), GB, Holder);
      LoopStack.pop_back();
      if (flushes() != F0)
        backEdgeRegion(S, F0, O0);
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      walkExpr(E, G, Holder);
      return;
    }
    for (const Stmt *Child : S->children())
      walkStmt(Child, G, Holder);
  }

  /// The array a local pointer \p VD, never assigned after its
  /// declaration, points into at the element \p Offset: `&A[e]` or
  /// `A + e` of the same element type, with A a one-dimensional array or a
  /// pointer that is not itself moved.
  const VarDecl *offsetAlias(const VarDecl *VD, const Expr *&Offset) const {
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

  /// Whether \p E names memory private to each thread: a local array that
  /// is not __shared__ (`s`, `&s[i]`, `s + i`), or a parameter bound to one
  /// at every call (see collectPrivateParams).
  bool threadPrivateArg(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
        E = ASE->getBase()->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAdditiveOp() && BO->getType()->isPointerType())
      E = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                    : BO->getRHS())
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

  /// The pointer parameters of helpers that every call in the translation
  /// unit binds to a thread's own local array (`float s[4]; qk(q, s);`):
  /// their memory is private to the thread (registers or local memory), so
  /// their accesses are not shared. From the calls of the first walk, to a
  /// fixed point through helpers that pass them on.
  void collectPrivateParams() {
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

  /// Whether \p VD is a pointer that may point at a different element in
  /// each thread: assigned after its declaration (`p = &p[x];`,
  /// `p += x;`), or a local initialised from the thread
  /// (`float *row = (float *)((char *)base + y * pitch);`). What its
  /// subscripts index is not known; its accesses are left out.
  bool rebased(const VarDecl *VD) const {
    if (!VD->getType()->isPointerType())
      return false;
    if (Reassigned.count(VD))
      return true;
    return VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit() &&
           canonicalArray(VD) == VD && varyingExpr(VD->getInit());
  }

  /// The array \p VD names: `s` for `volatile T *vs = s;` (a local pointer
  /// never reassigned), \p VD otherwise.
  const ValueDecl *canonicalArray(const ValueDecl *D) const {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !VD->hasLocalStorage() || !VD->getType()->isPointerType() ||
        isa<ParmVarDecl>(VD) || !VD->getInit() || Reassigned.count(VD))
      return D;
    const auto *Target =
        dyn_cast<DeclRefExpr>(VD->getInit()->IgnoreParenCasts());
    const auto *TV = Target ? dyn_cast<VarDecl>(Target->getDecl()) : nullptr;
    if (TV && (TV->hasAttr<CUDASharedAttr>() || TV->getType()->isPointerType()))
      return TV;
    return D;
  }

  /// `for (T o = C; o > 0; o >>= 1)` (or `o /= 2`, `o >= 1`, `o != 0`) with
  /// `o` not assigned in the body: the values of `o`, C, C / 2, ..., 1.
  bool halvingLoop(const ForStmt *For, const VarDecl *&Var,
                   SmallVector<int64_t, 8> &Values) const {
    const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
    if (!Init || !Init->isSingleDecl())
      return false;
    Var = dyn_cast<VarDecl>(Init->getSingleDecl());
    if (!Var || !Var->getInit() || !Var->getType()->isIntegerType())
      return false;
    std::optional<int64_t> Start = constant(Var->getInit());
    if (!Start || *Start <= 0 || *Start > 4096)
      return false;
    auto isVar = [&](const Expr *E) {
      const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripCasts(E));
      return DRE && DRE->getDecl() == Var;
    };
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
    if (!Cond || !isVar(Cond->getLHS()))
      return false;
    std::optional<int64_t> Bound = constant(Cond->getRHS());
    if (!Bound || !((Cond->getOpcode() == BO_GT && *Bound == 0) ||
                    (Cond->getOpcode() == BO_NE && *Bound == 0) ||
                    (Cond->getOpcode() == BO_GE && *Bound == 1)))
      return false;
    const auto *Inc = dyn_cast_or_null<BinaryOperator>(For->getInc());
    if (!Inc || !isVar(Inc->getLHS()))
      return false;
    std::optional<int64_t> By = constant(Inc->getRHS());
    const auto *RHS = dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParens());
    if (Inc->getOpcode() == BO_ShrAssign && By && *By == 1) {
    } else if (Inc->getOpcode() == BO_DivAssign && By && *By == 2) {
    } else if (Inc->getOpcode() == BO_Assign && RHS && isVar(RHS->getLHS()) &&
               constant(RHS->getRHS()) &&
               ((RHS->getOpcode() == BO_Shr && *constant(RHS->getRHS()) == 1) ||
                (RHS->getOpcode() == BO_Div &&
                 *constant(RHS->getRHS()) == 2))) {
    } else {
      return false;
    }
    bool Assigned = false;
    forEachDescendant(For->getBody(), [&](const Stmt *X) {
      if (const auto *BO = dyn_cast<BinaryOperator>(X))
        Assigned |= BO->isAssignmentOp() && isVar(BO->getLHS());
      else if (const auto *UO = dyn_cast<UnaryOperator>(X))
        Assigned |=
            (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
            isVar(UO->getSubExpr());
    });
    if (Assigned)
      return false;
    Values.clear();
    for (int64_t V = *Start; V > 0; V /= 2)
      Values.push_back(V);
    return true;
  }

  /// `for (T o = C0; o < C; o <<= 1)` (or `o *= 2`, `o = o * 2`,
  /// `o = o << 1`, `o += o`, `o <= C`) with `o` not assigned in the body: the
  /// values of `o`, C0, 2 C0, ... below C.
  bool doublingLoop(const ForStmt *For, const VarDecl *&Var,
                    SmallVector<int64_t, 8> &Values) const {
    const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
    if (!Init || !Init->isSingleDecl())
      return false;
    Var = dyn_cast<VarDecl>(Init->getSingleDecl());
    if (!Var || !Var->getInit() || !Var->getType()->isIntegerType())
      return false;
    std::optional<int64_t> Start = constant(Var->getInit());
    if (!Start || *Start <= 0 || *Start > 4096)
      return false;
    auto isVar = [&](const Expr *E) {
      const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripCasts(E));
      return DRE && DRE->getDecl() == Var;
    };
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
    if (!Cond || !isVar(Cond->getLHS()) ||
        (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
      return false;
    std::optional<int64_t> Bound = constant(Cond->getRHS());
    if (!Bound || *Bound > 4096)
      return false;
    int64_t End = Cond->getOpcode() == BO_LT ? *Bound : *Bound + 1;
    const auto *Inc = dyn_cast_or_null<BinaryOperator>(For->getInc());
    if (!Inc || !isVar(Inc->getLHS()))
      return false;
    std::optional<int64_t> By = constant(Inc->getRHS());
    const auto *RHS = dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParens());
    std::optional<int64_t> RC = RHS ? constant(RHS->getRHS()) : std::nullopt;
    if (Inc->getOpcode() == BO_ShlAssign && By && *By == 1) {
    } else if (Inc->getOpcode() == BO_MulAssign && By && *By == 2) {
    } else if (Inc->getOpcode() == BO_AddAssign && isVar(Inc->getRHS())) {
    } else if (Inc->getOpcode() == BO_Assign && RHS && RC &&
               ((RHS->getOpcode() == BO_Shl && *RC == 1) ||
                (RHS->getOpcode() == BO_Mul && *RC == 2)) &&
               isVar(RHS->getLHS())) {
    } else {
      return false;
    }
    if (assignedIn(For->getBody(), Var))
      return false;
    Values.clear();
    for (int64_t V = *Start; V < End; V *= 2)
      Values.push_back(V);
    return true;
  }

  /// Whether \p S assigns \p Var or takes its address.
  static bool assignedIn(const Stmt *S, const VarDecl *Var) {
    auto isVar = [&](const Expr *E) {
      const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripCasts(E));
      return DRE && DRE->getDecl() == Var;
    };
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

  /// The volatile reads that a spin-wait loop polls: `while (flag[i] < 0);`
  /// or `do { v = flag[i]; } while (v < 0);` (a chained scan waiting for
  /// the block before to publish). The loop exits only once the value it
  /// reads changes: the wait is the synchronization (volatile accesses to
  /// one word do not tear), not a racy read. Only a loop that does nothing
  /// but wait counts: its body empty, or assignments of volatile reads to
  /// the variables its condition tests, and fences.
  void collectSpinReads(const Stmt *Loop, const Expr *Cond, const Stmt *Body) {
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

  void record(const ArraySubscriptExpr *ASE, bool Write, const Guard &G,
              const Stmt *Holder) {
    if (!Write && SpinReads.count(ASE))
      return;
    // `tile[a][b]`: the subscripts outermost first, down to `tile`.
    SmallVector<const Expr *, 2> Subs{ASE->getIdx()};
    const Expr *BaseE = ASE->getBase()->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(BaseE)) {
      if (!Inner->getType()->isArrayType())
        return;
      Subs.insert(Subs.begin(), Inner->getIdx());
      BaseE = Inner->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(BaseE);
    if (!DRE || !isa<VarDecl>(DRE->getDecl()))
      return;
    // A local array is private to its thread; shared and global variables
    // and memory behind pointers are not.
    const auto *VD = cast<VarDecl>(DRE->getDecl());
    if (VD->hasLocalStorage() && !VD->hasAttr<CUDASharedAttr>() &&
        !VD->getType()->isPointerType())
      return;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD); P && PrivateParams.count(P))
      return;
    // `float *l_H = &tile[e];`: l_H[i] is tile[e + i].
    const Expr *Offset = nullptr;
    if (const VarDecl *Target =
            Subs.size() == 1 ? offsetAlias(VD, Offset) : nullptr) {
      VD = Target;
      if (VD->hasLocalStorage() && !VD->hasAttr<CUDASharedAttr>() &&
          !VD->getType()->isPointerType())
        return;
    } else if (rebased(VD)) {
      return;
    }
    std::optional<IndexForm> Idx;
    if (Subs.size() == 1 && !Offset)
      Idx = parseIndex(Subs[0]);
    const ValueDecl *Array = canonicalArray(VD);
    Access X{ASE, Array, Write, Idx.value_or(IndexForm()), G, Holder, Order++};
    X.Root = VD;
    X.Subs = std::move(Subs);
    X.Offset = Offset;
    X.Loops.assign(LoopStack.begin(), LoopStack.end());
    for (const auto &KV : LoopValues)
      X.Fixed.push_back(KV);
    if (!isa<VarDecl>(Array) ||
        !cast<VarDecl>(Array)->hasAttr<CUDASharedAttr>()) {
      Access Y = X;
      Y.GridOnly = true;
      GridCurrent.push_back(std::move(Y));
    }
    Current.push_back(std::move(X));
  }

  void walkSubscriptOperands(const ArraySubscriptExpr *ASE, const Guard &G,
                             const Stmt *Holder) {
    // The inner subscripts of `tile[a][b]` select a row, not an element.
    const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
      if (!Inner->getType()->isArrayType())
        break;
      walkExpr(Inner->getIdx(), G, Holder);
      Base = Inner->getBase()->IgnoreParenImpCasts();
    }
    walkExpr(Base, G, Holder);
    walkExpr(ASE->getIdx(), G, Holder);
  }

  void walkExpr(const Stmt *S, const Guard &G, const Stmt *Holder) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      walkExpr(BO->getRHS(), G, Holder);
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())) {
        walkSubscriptOperands(ASE, G, Holder);
        if (BO->isCompoundAssignmentOp())
          record(ASE, false, G, Holder);
        record(ASE, true, G, Holder);
      } else {
        walkExpr(BO->getLHS(), G, Holder);
      }
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp()) {
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
        walkSubscriptOperands(ASE, G, Holder);
        record(ASE, false, G, Holder);
        record(ASE, true, G, Holder);
        return;
      }
    }
    // `&A[i]` takes an address: no access.
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
        walkSubscriptOperands(ASE, G, Holder);
        return;
      }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
      walkSubscriptOperands(ASE, G, Holder);
      record(ASE, false, G, Holder);
      return;
    }
    if (isa<LambdaExpr>(S))
      return;
    if (const auto *POE = dyn_cast<PseudoObjectExpr>(S)) {
      walkExpr(POE->getSyntacticForm(), G, Holder);
      return;
    }
    for (const Stmt *Child : S->children())
      walkExpr(Child, G, Holder);
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee && Callee->hasBody())
        Calls[Callee->getCanonicalDecl()].push_back(
            CallSite{Call, G, CurrentFD});
      if (isBarrierCall(Call) || containsBarrier(Call->getDirectCallee()))
        flush();
      if (isGridSyncCall(Call))
        flushGrid();
    }
    if (const auto *Asm = dyn_cast<AsmStmt>(S))
      if (Asm->generateAsmString(Ctx).find("bar.") != std::string::npos)
        flush();
  }

  ASTContext &Ctx;
  llvm::DenseMap<const ValueDecl *, Base> OwnVars;
  CallMap Calls;
  SmallVector<SmallVector<Access, 8>, 4> Regions;
  SmallVector<Access, 8> Current;
  llvm::DenseMap<const Stmt *, Slot> Slots;
  unsigned Order = 0;
  llvm::DenseMap<const ValueDecl *, int64_t> LoopValues;
  llvm::DenseSet<const ValueDecl *> Reassigned; ///< Assigned after their init.
  llvm::DenseSet<const VarDecl *> Varying;      ///< See collectVarying.
  llvm::DenseSet<const ParmVarDecl *> PrivateParams; ///< collectPrivateParams
  llvm::DenseSet<const Expr *> SpinReads;            ///< See collectSpinReads.

  SmallVector<unsigned, 8> FlushOrders;   ///< Order at each barrier passed.
  SmallVector<const Stmt *, 4> LoopStack; ///< Loops walked once, around.
  SmallVector<SmallVector<Access, 8>, 2> EdgeRegions; ///< backEdgeRegion.
  SmallVector<Access, 8> GridCurrent; ///< Since the last grid-wide sync.
  SmallVector<SmallVector<Access, 8>, 2> GridRegions;

  bool FirstRegionAtEntry = true; ///< No barrier before the first region.
  const FunctionDecl *CurrentFD = nullptr; ///< The function being walked.
};

/// Whether the accesses \p W and \p R of one region can meet: in a
/// back-edge region only a head and a tail access (one iteration's end, the
/// next one's start), elsewhere any pair but two copies carried past a
/// branch (they met before it).
inline bool canMeet(const Access &W, const Access &R) {
  return W.Side || R.Side ? W.Side != R.Side : !(W.Carried && R.Carried);
}

/// Bounds the thread index by the accesses that every thread of \p FD makes
/// (after A.walkFunction(FD)): `A[tid + c]` of an array of N elements in a
/// statement of the function's body (no branch, no loop, no return before
/// it) means that the block has at most N - c threads, assuming that the
/// program accesses A in bounds.
void boundThreads(Analysis &A, const FunctionDecl *FD);

/// The threads that enter \p FD: every thread for a kernel; for a helper,
/// the union of what its call sites' guards let in, mapped through the
/// parameters bound to an own index, exact only where every call is
/// reached by the same threads.
Guard entryGuard(const Analysis &A, const FunctionDecl *FD,
                 const CallMap &Calls);

/// A racing write and read.

struct Race {
  const Access *W;
  const Access *R;
  bool SameWarp;
  /// Found by the general analysis: the threads may be in different blocks
  /// (global memory), and an example pair of threads for the note.
  bool General = false;
  bool CrossBlock = false;
  std::string Example;
  /// Only threads that a condition on data (memory the analysis cannot
  /// read, such as `keys[t] <= k`) may let in race: whether they do depends
  /// on the data.
  bool DataDependent = false;
  const Expr *DataCond = nullptr; ///< Such a condition.
};

/// The race between the write \p W and the read \p R, if a thread that
/// reaches \p R reads an element that another thread reaching \p W writes.
std::optional<Race> raceBetween(const Access &W, const Access &R);

/// The general analysis, for accesses that are not an own index plus a
/// constant (`s[255 - tid]`, `s[(tid + 1) % 256]`, `tile[ty][tx]` against
/// `tile[tx][ty]`, `buf[i + 1]` with a global index `i`, `s[0]`): each
/// subscript is compiled, following local variables to the definitions
/// that reach it (ThreadIndexAnalysis::definitionAt), and evaluated for
/// every thread of a model block (and, for global memory, of a model grid
/// of a few blocks), every value of the enclosing loops' variables that it
/// uses, and the thread-dependent conditions on its path. A write and a read
/// race when some thread reads an element that another thread writes.
/// Uniform values the evaluation cannot know (kernel parameters) make an
/// index unknown, and such accesses are left out; in conditions they may
/// go either way.
class GeneralRaces {
public:
  /// \p Launched: the block shape the translation unit launches the
  /// kernel \p FD with (the largest of them), if known; \p LaunchedOnly:
  /// every launch has that shape.
  GeneralRaces(Analysis &A, const FunctionDecl *FD, bool Kernel,
               std::optional<BlockShape> Launched = std::nullopt,
               bool LaunchedOnly = false);
  ~GeneralRaces();
  /// The race between the write \p W and the read \p R of one array in
  /// one region, if the evaluation finds one.
  std::optional<Race> race(const Access &W, const Access &R,
                           bool BlocksOnly = false);
  /// The model block, as "256 threads" or "32x8 threads".
  std::string shape() const;
  /// Whether the model block is the one shape the kernel is launched with.
  bool shapeLaunched() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace clang::tidy::cuda::warpsync

#endif // CUDA_LINT_WARPSYNCANALYSIS_H
