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
  /// The subscript, or for a `__shared__` scalar the reference to it.
  const Expr *E;
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
  /// For a branch with a barrier on one path and a condition the same in
  /// every thread (no thread index, no call: `if (len[0] == 0)` after a
  /// barrier): the branch, and whether the access is on the path after
  /// that barrier. Every thread takes the same path, so the accesses after
  /// the barrier never meet those of the other path. With barriers on both
  /// paths, PathAfterBarrier tells the then-path's accesses from the
  /// else-path's (separatePaths).
  const clang::IfStmt *PathOf = nullptr;
  bool PathAfterBarrier = false;
  /// The general analysis (WarpSyncGeneral.cpp): the array as declared
  /// (before canonicalArray), its subscripts outermost first, the loops
  /// walked once that enclose the access (innermost last), and the values
  /// of the halving or doubling loop variables it was walked with.
  const VarDecl *Root = nullptr;
  /// The pointer field of Root that is indexed, when Root is a kernel
  /// parameter passed by value as a struct (`q.p[0]`, `q.v.p[i]`): the
  /// outermost member expression. Null for an array or pointer Root.
  const clang::MemberExpr *Member = nullptr;
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
  /// A write by a plain `=`: the value it stores (null for `+=`, `++`,
  /// whose value depends on the element's old one).
  const Expr *Stored = nullptr;
  /// Made in a helper that the walk followed from its call
  /// (Analysis::inlineCall): only the own-index test applies to it.
  bool Inlined = false;
  /// Made by an atomic (`atomicAdd(&s[i], v)`: a read and a write): two
  /// atomics never race with each other, an atomic and a plain access do.
  bool Atomic = false;
  /// Through a helper's pointer parameter that every call binds to its
  /// warp's own window of a shared array (see collectWindowParams):
  /// threads of different warps reach different windows, so only lanes of
  /// one warp race there.
  bool WarpWindow = false;
  /// The caller's call that led to it, for an inlined access.
  const CallExpr *Via = nullptr;
  /// For an inlined access: the helper whose body holds it, and how many
  /// calls deep it is (1: a helper the analysed function calls itself,
  /// whose parameters are the arguments of Via).
  const FunctionDecl *InlinedFrom = nullptr;
  unsigned InlineDepth = 0;
};

/// The type indexed by an access's first subscript: the member's (a pointer
/// field of a struct parameter) or its root's.
clang::QualType accessedType(const Access &X);
/// How the indexed array is spelled: `q.v.p` for a member, else the root's
/// name.
std::string accessedName(const Access &X);

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

/// A cooperative_groups query that is a function of the thread's place in
/// the block: `thread_rank()`, a tile's `meta_group_rank()` (the block
/// rank divided by the tile size) and `meta_group_size()`, and a group's
/// `size()` / `num_threads()`.
struct GroupQuery {
  enum QueryKind { Rank, MetaRank, MetaSize, Size } Query;
  ThreadRank Group;
};

/// \p E as such a query on a group of a known kind. A tile's meta group
/// is known only where the tile is a partition of the block: its parent
/// is `thread_block`, or it is not named and the tile is a whole warp or
/// more.
std::optional<GroupQuery> groupQueryCall(const Expr *E);

/// `threadIdx.x`.
bool isThreadIdxX(const Expr *E);

/// \p E without parentheses, implicit casts and explicit integral casts.
const Expr *stripCasts(const Expr *E);

/// Whether \p E is a reference to \p V, through stripCasts.
bool refersTo(const Expr *E, const VarDecl *V);

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
  explicit Analysis(ASTContext &Ctx);

  std::optional<int64_t> constant(const Expr *E) const;

  Base baseOf(const Expr *E) const;

  std::optional<IndexForm> parseIndex(const Expr *E) const;

  /// Whether \p E may differ between the threads of a block: it names the
  /// thread index or a local variable that may hold different values in
  /// different threads. \p Shared: a `__shared__` variable stored under a
  /// thread-dependent condition counts (the guards treat such a flag as a
  /// condition to evaluate); without it, it holds one value for the block.
  bool threadDependent(const Expr *E, bool Shared = true) const;

  /// Whether \p E may have different values in different threads: it is
  /// thread-dependent or calls a function (which may return anything).
  /// \p Builtins: the getters behind blockIdx, blockDim and gridDim (the
  /// same in every thread of a block; threadIdx is thread-dependent) do
  /// not count as calls.
  bool varyingExpr(const Expr *E, bool Builtins = false,
                   bool Shared = true) const;

  /// Finds the locals of \p FD that may hold different values in different
  /// threads: initialised or assigned from a varying value, or under a
  /// thread-dependent condition, or whose address is taken.
  void collectVarying(const FunctionDecl *FD);

  /// Whether some threads may leave \p S early (a `return`, or a `break` or
  /// `continue` of the loop whose body is \p S when \p Loop, or of the
  /// statement list \p S is in) under a thread-dependent condition, so that
  /// what follows is not reached by all of them.
  bool divergentExit(const Stmt *S, bool Loop) const;

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
  void refine(Guard &G, const Expr *Cond) const;

  /// Finds the own-index variables of \p FD: locals initialised from an own
  /// index and never assigned.
  void collectLocals(const FunctionDecl *FD);

  /// Binds the parameters of helpers that every call site passes an own
  /// index.
  void bindParameters(llvm::ArrayRef<const FunctionDecl *> Functions);

  bool containsBarrier(const FunctionDecl *FD, unsigned Depth = 0) const;

  // The walk over one function.
  void walkFunction(const FunctionDecl *FD, Guard Entry);

  /// Barriers passed so far.
  unsigned flushes() const;
  /// Marks the accesses made since \p O0 as on one path of \p If (those
  /// before \p O1: its then-path) so that the two paths never meet.
  void separatePaths(const clang::IfStmt *If, unsigned O0, unsigned O1);

  void flushGrid();

  /// The condition of `if (C) return;` (or `{ return; }`), else null.
  static const Expr *exitCondition(const Stmt *S);

  /// The body of the loop \p Loop, walked once from the order \p O0 on,
  /// passed barriers (from flush number \p F0 on): the accesses after its
  /// last barrier meet, across the back edge, those before its first
  /// barrier in the next iteration. They form a region of their own in
  /// which only head/tail pairs count.
  void backEdgeRegion(const Stmt *Loop, unsigned F0, unsigned O0);

  void flush();

  void setSlot(const Stmt *S, SlotKind K, const Stmt *Parent, const Guard &G);

  void walkStmt(const Stmt *S, Guard G, const Stmt *Holder);

  /// The array a local pointer \p VD, never assigned after its
  /// declaration, points into at the element \p Offset: `&A[e]` or
  /// `A + e` of the same element type, with A a one-dimensional array or a
  /// pointer that is not itself moved.
  const VarDecl *offsetAlias(const VarDecl *VD, const Expr *&Offset) const;

  /// Whether \p E names memory private to each thread: a local array that
  /// is not __shared__ (`s`, `&s[i]`, `s + i`), or a parameter bound to one
  /// at every call (see collectPrivateParams).
  bool threadPrivateArg(const Expr *E) const;

  /// The pointer parameters of helpers that every call in the translation
  /// unit binds to a thread's own local array (`float s[4]; qk(q, s);`):
  /// their memory is private to the thread (registers or local memory), so
  /// their accesses are not shared. From the calls of the first walk, to a
  /// fixed point through helpers that pass them on.
  void collectPrivateParams();

  /// The pointer parameters of helpers that every call in the translation
  /// unit binds to a window, from the calls of the first walk: its warp's
  /// own window of a __shared__ array (`s + (threadIdx.x >> 5) * 512`,
  /// taken to be disjoint; their accesses are marked Access::WarpWindow),
  /// or its thread's own window of K elements (`scratch + (threadIdx.x +
  /// blockIdx.x * blockDim.x) * 16`, a global index for global memory)
  /// used only as `p[c]` with constants 0 <= c < |K| (added to
  /// PrivateParams).
  void collectWindowParams();
  /// Whether accesses to \p Array (an Access::Array) are made through a
  /// per-warp window parameter, directly or through a local view of it.
  bool inWarpWindow(const ValueDecl *Array) const;

  /// Whether \p VD is a pointer that may point at a different element in
  /// each thread: assigned after its declaration (`p = &p[x];`,
  /// `p += x;`), or a local initialised from the thread
  /// (`float *row = (float *)((char *)base + y * pitch);`). What its
  /// subscripts index is not known; its accesses are left out.
  bool rebased(const VarDecl *VD) const;

  /// The array \p VD names: `s` for `volatile T *vs = s;` (a local pointer
  /// never reassigned), \p VD otherwise.
  const ValueDecl *canonicalArray(const ValueDecl *D) const;

  /// The integer variable \p Var that the init of \p For declares, and its
  /// constant start value in (0, 4096]; \p Cond, the loop's condition, a
  /// comparison with \p Var on its left.
  std::optional<int64_t> loopStart(const ForStmt *For, const VarDecl *&Var,
                                   const BinaryOperator *&Cond) const;

  /// Whether \p Inc doubles \p Var (\p Up: `o <<= 1`, `o *= 2`,
  /// `o = o << 1`, `o = o * 2`, `o += o`) or halves it (`o >>= 1`,
  /// `o /= 2`, `o = o >> 1`, `o = o / 2`), and the loop's body \p Body
  /// leaves it alone (a null \p Body: not checked).
  bool stepsByTwo(const Stmt *Inc, const Stmt *Body, const VarDecl *Var,
                  bool Up) const;

  /// Whether the walk takes \p Loop once per value of its variable \p Var
  /// (halvingLoop, doublingLoop, doublingWhile, and no thread leaves the
  /// body early): its \p Values, and \p ShapeCond, the condition on the
  /// block's shape each value holds under (doublingValues), or null.
  bool unrolledLoop(const Stmt *Loop, const VarDecl *&Var,
                    SmallVector<int64_t, 8> &Values,
                    const Expr *&ShapeCond) const;
  bool unrolledLoop(const Stmt *Loop) const;
  /// The loop walked once per value (unrolledLoop) around \p R in which
  /// \p W is in another iteration (its variable has another value): the
  /// pair meets across the loop's back edge, and a barrier at the end of
  /// its body separates them. Null when there is none, and for accesses of
  /// one statement (the fixer splits it, ending with a barrier).
  const Stmt *crossIterationLoop(const Access &W, const Access &R) const;

  /// `for (T o = C; o > 0; o >>= 1)` (or `o /= 2`, `o >= 1`, `o != 0`) with
  /// `o` not assigned in the body: the values of `o`, C, C / 2, ..., 1.
  bool halvingLoop(const ForStmt *For, const VarDecl *&Var,
                   SmallVector<int64_t, 8> &Values) const;

  /// `for (T o = C0; o < C; o <<= 1)` (or `o *= 2`, `o = o * 2`,
  /// `o = o << 1`, `o += o`, `o <= C`) with `o` not assigned in the body: the
  /// values of `o`, C0, 2 C0, ... below C (doublingValues).
  bool doublingLoop(const ForStmt *For, const VarDecl *&Var,
                    SmallVector<int64_t, 8> &Values,
                    const Expr *&ShapeCond) const;
  /// The same for `T o = C0; ... while (o < C) { ...; o *= 2; }`: `o`
  /// declared before the loop in the block that holds it, not assigned in
  /// between, and stepped only by the body's last statement.
  bool doublingWhile(const WhileStmt *While, const VarDecl *&Var,
                     SmallVector<int64_t, 8> &Values,
                     const Expr *&ShapeCond) const;
  /// The values C0, 2 C0, ... that `o` takes under \p Cond (`o < C`,
  /// `o <= C`). Where C is a bound on the block's shape (`blockDim.x`),
  /// up to the largest block, with \p Cond in \p ShapeCond for the model
  /// block to decide each value.
  bool doublingValues(int64_t Start, const BinaryOperator *Cond,
                      SmallVector<int64_t, 8> &Values,
                      const Expr *&ShapeCond) const;

  /// Whether \p S assigns \p Var or takes its address.
  static bool assignedIn(const Stmt *S, const VarDecl *Var);

  /// The volatile reads that a spin-wait loop polls: `while (flag[i] < 0);`
  /// or `do { v = flag[i]; } while (v < 0);` (a chained scan waiting for
  /// the block before to publish). The loop exits only once the value it
  /// reads changes: the wait is the synchronization (volatile accesses to
  /// one word do not tear), not a racy read. Only a loop that does nothing
  /// but wait counts: its body empty, or assignments of volatile reads to
  /// the variables its condition tests, and fences.
  void collectSpinReads(const Stmt *Loop, const Expr *Cond, const Stmt *Body);

  /// Walks the body of the helper that \p Call calls as if it were at the
  /// call: its accesses join the caller's region, each pointer parameter
  /// naming the array its argument names (`foo(p)` with `int foo(int *q)
  /// { return q[tid]; }` reads p[tid] at the call). Only a straight-line
  /// helper (declarations, expressions, a final return; no barrier) whose
  /// every pointer argument names an array or a pointer variable is
  /// followed, four calls deep at most.
  void inlineCall(const CallExpr *Call, const Guard &G, const Stmt *Holder);

  void record(const ArraySubscriptExpr *ASE, bool Write, const Guard &G,
              const Stmt *Holder, const Expr *Stored = nullptr);

  /// \p E when it is a pointer field of a struct that a parameter of the
  /// analysed function holds by value (`q.p`, `q.v.p`: members with `.`
  /// all the way down); null otherwise.
  const clang::MemberExpr *structParamPointer(const Expr *E) const;
  /// The parameter at the root of a chain of `.` members (`q` of `q.v.p`);
  /// null when a link is `->`, not a field, or the root is no parameter.
  static const clang::ParmVarDecl *memberRoot(const clang::MemberExpr *ME);

  /// The element an assignment or increment of \p LHS stores to: `s[i]`
  /// for `s[i]`, `s[i].x` and a vector lane of `s[i]`; null otherwise.
  static const ArraySubscriptExpr *storedElement(const Expr *LHS);

  /// Whether `__shared__` scalars are tracked (cuda-warp-synchronous's
  /// SharedScalars option; off by default: see its docs page).
  bool TrackScalars = false;

  /// A `__shared__` scalar of arithmetic type (not volatile: spin flags),
  /// which the analysis treats as an array of one element.
  static const VarDecl *sharedScalar(const Expr *E);

  /// Adds \p X, made where the walk is, to the current region (and, for
  /// memory that other blocks may share, to the grid region).
  void push(Access X);

  /// The accesses of an atomic on an element or a shared scalar
  /// (`atomicAdd(&s[i], 1)`, `atomicMax(&best, v)`): a read and a write.
  void recordAtomic(const CallExpr *Call, const Guard &G, const Stmt *Holder);
  bool RecordingAtomic = false;

  /// An access to the shared scalar \p DRE names: element 0 of it.
  void recordScalar(const DeclRefExpr *DRE, bool Write, const Guard &G,
                    const Stmt *Holder, const Expr *Stored = nullptr);

  void walkSubscriptOperands(const ArraySubscriptExpr *ASE, const Guard &G,
                             const Stmt *Holder);

  void walkExpr(const Stmt *S, const Guard &G, const Stmt *Holder);

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
  /// Locals handed to a call that may write them (by address, by reference
  /// to non-const, or as the object of a non-const method): what they hold
  /// after it is the callee's business (a block-wide reduction, say).
  llvm::DenseSet<const VarDecl *> Opaque;
  llvm::DenseSet<const ParmVarDecl *> PrivateParams; ///< collectPrivateParams
  /// collectWindowParams
  llvm::DenseSet<const ParmVarDecl *> WarpWindowParams;
  llvm::DenseSet<const Expr *> SpinReads; ///< See collectSpinReads.

  SmallVector<unsigned, 8> FlushOrders;   ///< Order at each barrier passed.
  SmallVector<const Stmt *, 4> LoopStack; ///< Loops walked once, around.
  SmallVector<SmallVector<Access, 8>, 2> EdgeRegions; ///< backEdgeRegion.
  SmallVector<Access, 8> GridCurrent; ///< Since the last grid-wide sync.
  SmallVector<SmallVector<Access, 8>, 2> GridRegions;

  /// While inlineCall walks a helper: the helpers followed, and the array
  /// each of their pointer parameters names.
  SmallVector<const FunctionDecl *, 4> InlineStack;
  llvm::DenseMap<const VarDecl *, const VarDecl *> InlineBound;
  const CallExpr *InlineVia = nullptr;

  bool FirstRegionAtEntry = true; ///< No barrier before the first region.
  const FunctionDecl *CurrentFD = nullptr; ///< The function being walked.
};

/// Whether the accesses \p W and \p R of one region can meet: in a
/// back-edge region only a head and a tail access (one iteration's end, the
/// next one's start), elsewhere any pair but two copies carried past a
/// branch (they met before it).
bool canMeet(const Access &W, const Access &R);

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
  /// The access whose index is read from memory, where the race needs that
  /// index to name another thread's element (a DataDependent race).
  const Expr *DataIndex = nullptr;
};

/// The race between the write \p W and the read \p R, if a thread that
/// reaches \p R reads an element that another thread reaching \p W writes.
/// \p WriteWrite: \p R is a write too (a write-write race).
/// \p MaxThreadsX bounds threadIdx.x (the launched block, or
/// `__launch_bounds__`): `buf[tid - 256] += buf[tid]` under `tid >= 256`
/// reads [256, 320) and writes [0, 64) in blocks of 320 threads.
std::optional<Race> raceBetween(const Access &W, const Access &R,
                                int64_t MaxThreadsX = Inf,
                                bool WriteWrite = false);

/// Whether the writes \p X and \p Y may store different values in the
/// threads that meet at one element, so that which one lands matters (a
/// write-write race; GPUVerify tolerates writes of one value): one stores
/// a thread-dependent value, or both store constants that differ. For
/// writes of different blocks (\p Blocks), a value that depends on the
/// block. Stores whose value depends on the old one (`+=`) are left to the
/// read they make.
bool storesDiffer(const Analysis &A, const Access &X, const Access &Y,
                  bool Blocks);

/// Whether the thread that makes the read \p R has itself stored, before it
/// and in the same barrier interval, the value that the write \p W stores,
/// one value for every thread (`found = false;` by every thread, then
/// `while (!found)`): the read then sees that value whichever thread's
/// store lands last, so the pair is no race. \p W must reach every thread
/// that reaches \p R, outside any loop that \p R is not in, and both must
/// name the same element (a shared scalar, or one constant subscript).
bool ownStoreFirst(const Analysis &A, const Access &W, const Access &R);

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
  /// The one grid every launch in the translation unit gives the kernel:
  /// the model grid has no more blocks in a dimension than it.
  void setLaunchGrid(std::optional<BlockShape> Grid);
  /// The definition of the function's variable \p V that reaches \p Use
  /// (ThreadIndexAnalysis::definitionAt, on the analysis's own instance).
  const Expr *definitionAt(const VarDecl *V, const Expr *Use);
  /// The race between the write \p W and the read \p R of one array in
  /// one region, if the evaluation finds one. \p WriteWrite: \p R is a
  /// write too; only threads of one block count unless \p BlocksOnly.
  std::optional<Race> race(const Access &W, const Access &R,
                           bool BlocksOnly = false, bool WriteWrite = false);
  /// The model block, as "256 threads" or "32x8 threads".
  std::string shape() const;
  /// Whether the model block is the one shape the kernel is launched with.
  bool shapeLaunched() const;
  /// The most threads a block has in x: the largest launched block, or
  /// `__launch_bounds__`; Inf when neither is known.
  int64_t maxThreadsX() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace clang::tidy::cuda::warpsync

#endif // CUDA_LINT_WARPSYNCANALYSIS_H
