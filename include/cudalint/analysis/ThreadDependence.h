//===--- ThreadDependence.h - cuda-lint -------------------------*- C++ -*-===//
//
// A small, self-contained analysis of which values in a device function can
// differ between the threads of a block, and which statements only some
// threads reach. Used by the checks that must tell a block-uniform branch
// from a divergent one (cuda-divergent-barrier, cuda-legacy-warp-intrinsic),
// and by ThreadIndex, whose uniform unknowns (a variable with several
// definitions, a value it cannot form as a polynomial) it decides: the one
// notion of uniformity of the project.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_THREADDEPENDENCE_H
#define CUDA_LINT_THREADDEPENDENCE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::cuda {

/// Which expressions of one function are thread-dependent.
///
/// An expression is thread-dependent when it mentions `threadIdx` (and so
/// any lane id such as `threadIdx.x & 31` or `threadIdx.x % 32`), a local
/// variable a thread-dependent definition of which may reach the use (its
/// initialiser or an assignment to it, thread-dependent or made under a
/// thread-dependent condition; `for (i = 0; ...)` after
/// `for (i = tid; ...)` reuses the counter with a uniform value), a
/// read through a pointer or array at a thread-dependent
/// index, or the result of a call that returns per-thread values (atomics,
/// warp shuffles, `clock`, a visible function that returns a
/// thread-dependent value with uniform arguments), or a call with a
/// thread-dependent argument. A definition that a `break` or `continue`
/// under a thread-dependent condition lets some threads skip is
/// thread-dependent where those threads meet the others again. A counter
/// that every loop using it starts afresh (`int j; ... for (j = 0; ...)`)
/// is born in each: the conditions around the loop decide only which
/// threads run it together.
///
/// Everything else is taken as block-uniform: `blockIdx`, `blockDim`,
/// `gridDim`, constants, parameters (kernel parameters are uniform; the
/// parameters of a `__device__` function are assumed to be) and reads of
/// memory at a uniform address. A read of `__shared__` memory at a uniform
/// address is uniform too: every thread reads the same location, which is
/// what code that broadcasts a value through shared memory relies on.
///
/// At warp scope (for warp intrinsics and `__syncwarp`), values that are the
/// same in every lane of a warp are uniform too: the warp index
/// (`threadIdx.x / 32`, `threadIdx.x >> 5`, also through a local variable
/// that holds `threadIdx.x` unchanged; this assumes warps are formed from
/// consecutive `threadIdx.x`, as in one-dimensional blocks), a global warp
/// index (`(threadIdx.x + blockIdx.x * 256) / 32`) and the comparison of
/// such an index with a multiple of 32 (`idx < nWarps * 32`), the results of
/// warp votes (`__any`, `__all`, `__ballot`, their `_sync` forms,
/// `__activemask`) and of a shuffle from a warp-uniform source lane.
///
/// At grid scope (for a cooperative-groups grid sync, which every thread of
/// the grid must reach), the block index is thread-dependent too.
class ThreadDependence {
public:
  enum class Scope { Block, Warp, Grid };
  /// \p LaunchedX: the block's x extent where every launch of the kernel
  /// has the same one (at warp scope, `threadIdx.y` and `.z` are the same
  /// in every lane of a warp when it is a multiple of 32; `threadIdx.x` is
  /// below it).
  /// \p ParamsDependent: take every parameter as thread-dependent (for
  /// deciding what a callee returns whatever its arguments).
  /// \p UnseenDependent: what the definitions do not show, an integer or
  /// pointer variable whose address is taken or that is bound to a
  /// reference, or one assigned in a function with `goto`, is
  /// thread-dependent: for the analyses whose claims rest on a value being
  /// uniform (ThreadIndex's symbols). By default it is uniform, for those
  /// whose claims rest on a value being thread-dependent (a divergent
  /// barrier).
  ThreadDependence(const FunctionDecl &FD, ASTContext &Ctx,
                   Scope Level = Scope::Block,
                   std::optional<int64_t> LaunchedX = std::nullopt,
                   bool ParamsDependent = false, unsigned CallDepth = 0,
                   bool AssumeMultiples = false, bool UnseenDependent = false);

  /// True if \p E can have different values in different threads.
  bool isDependent(const Expr *E) const;

  /// True if local variable (or parameter) \p VD has a thread-dependent
  /// definition.
  bool isDependentVar(const VarDecl *VD) const {
    return DependentVars.contains(VD);
  }

  /// One definition of a local variable: the variable and the value (and,
  /// for an element or a compound assignment, the written l-value) it gets.
  struct Definition {
    const VarDecl *Var;
    const Expr *Value;  // May be null (++x).
    const Expr *Target; // The l-value whose old value counts; may be null.
    const Stmt *At;
  };

  /// Why \p S is reached by only some threads of the block.
  struct Divergence {
    /// The thread-dependent condition that controls \p S, or the early
    /// `return` that lets some threads leave before it; null if every
    /// thread reaches \p S (as far as this analysis can tell).
    const Stmt *Cause = nullptr;
    /// True when Cause is an early `return`.
    bool EarlyExit = false;
    /// For an early `return` that ends the thread: the barrier the
    /// returning threads reach before they return, where \p S is the one
    /// the other threads meet in its place (`if (t < k) { __syncthreads();
    /// return; } __syncthreads();`); null when they reach none there.
    const Stmt *OtherBarrier = nullptr;
    explicit operator bool() const { return Cause != nullptr; }
  };
  /// With \p EndExits (the function is a kernel, or every call of it ends
  /// a kernel), reaching the end of the function ends the thread: a
  /// thread-dependent `if` or loop whose excluded threads run to the end
  /// without meeting another barrier is an exit like an early `return`
  /// (Cause is then its condition and EarlyExit is set).
  Divergence divergence(const Stmt &S, bool EndExits = false) const;

  /// With AssumeMultiples (see the constructor): whether \p For is a
  /// block-stride loop taken to run equally often in every thread because
  /// its bound is assumed a multiple of its step.
  bool assumedMultiple(const ForStmt *For) const {
    return Assumed.contains(For);
  }
  /// For a block-stride loop whose bound is not known to be a multiple of
  /// its step (`for (i = threadIdx.x; i < n; i += S)`, S at least the
  /// block's x extent): the bound, and the step in
  /// \p Step; else null.
  const Expr *boundUnlessMultiple(const ForStmt &For, const Expr *&Step) const {
    const Expr *Bound = nullptr;
    Step = nullptr;
    if (AssumeMultiples || hasUniformTripCount(For, &Bound, &Step))
      return nullptr;
    return Bound;
  }

  /// Whether \p S calls a barrier (`__syncthreads*`, `__syncwarp`, a
  /// cooperative-groups `sync`), directly or through a function whose body
  /// is visible.
  static bool hasBarrier(const Stmt *S);

private:
  /// The thread-dependent condition among the conditions that control \p S
  /// inside the function body, or null. With \p Var, conditions whose
  /// controlled statement declares \p Var are ignored: a variable that lives
  /// entirely inside a divergent region is not made divergent by it.
  /// With \p ExitCause, dependent conditions whose excluded threads run to
  /// the end of the function (see runsToEnd) are skipped; the first of them
  /// is stored there.
  /// With \p Stop, only the conditions below \p Stop count (not Stop's own).
  const Expr *dependentCondition(const Stmt &S, const VarDecl *Var = nullptr,
                                 const Expr **ExitCause = nullptr,
                                 const Stmt *Stop = nullptr) const;
  /// Whether every reference to local variable \p V is inside a
  /// `for (V = E; ...)` loop whose \p E does not read V: V is born again
  /// in each such loop (a C-style counter `int j; ... for (j = 0; ...)`),
  /// and only the threads that run that loop together read it.
  bool isLoopBorn(const VarDecl *V) const;
  /// Whether \p S is `for (V = E; ...)` with an \p E that does not read
  /// \p V: the loop starts \p V afresh.
  static bool startsVariable(const Stmt *S, const VarDecl *V);
  /// The statement \p V is born in for its definition at \p At: the
  /// innermost loop that starts it where it is loop-born, else the one
  /// that holds its declaration; null for a parameter.
  const Stmt *bornIn(const VarDecl *V, const Stmt *At) const;
  /// Adds to \p Loops the loops that a `break` only some threads take
  /// leaves while definition \p D is made in them; false when a
  /// `continue` (or a `break` out of a `switch`) only some threads take
  /// skips \p D in the others: the threads that stay in the loop then
  /// disagree too.
  bool addDivergentJumps(const Definition &D,
                         llvm::SmallVectorImpl<const Stmt *> &Loops) const;
  bool isAncestor(const Stmt *A, const Stmt *S) const;
  /// Whether nothing runs after \p S in the function (but `return;`).
  bool inTailPosition(const Stmt *S) const;
  /// The `__syncthreads` calls in \p Region whose place is between \p After
  /// and \p Before, in source order, each on the straight-line path through
  /// \p Region (no loop or condition around it inside \p Region); nullopt
  /// when one is not, or when a call there may reach a barrier in a callee.
  std::optional<llvm::SmallVector<const Stmt *, 4>>
  straightBarriers(const Stmt *Region, SourceLocation After,
                   SourceLocation Before) const;
  /// For the early `return` \p RS under the thread-dependent condition
  /// \p Cond: the barrier the returning threads reach in place of \p S
  /// (see Divergence::OtherBarrier), or null.
  const Stmt *pairedBarrier(const ReturnStmt &RS, const Expr &Cond,
                            const Stmt &S) const;
  /// Whether the threads that the condition of \p P (an `if` or a loop)
  /// keeps out of \p Cur run to the end of the function without another
  /// barrier.
  bool runsToEnd(const Stmt *P, const Stmt *Cur) const;

  /// `threadIdx.x`, or a local variable that holds it unchanged.
  bool isLinearThreadIndex(const Expr *E) const;
  /// A block-uniform value that is a multiple of 32: `64`, `k * 32`,
  /// `x << 5`, `blockDim.x` where every launch's x extent is one.
  bool isMultipleOf32(const Expr *E, unsigned Depth = 0) const;
  /// `threadIdx.x` plus a multiple of 32 (`threadIdx.x + blockIdx.x * 256`,
  /// `blockIdx.x * blockDim.x + threadIdx.x` in blocks of whole warps): the
  /// lanes of a warp hold 32 consecutive values starting at a multiple of 32.
  bool isWarpAlignedIndex(const Expr *E, unsigned Depth = 0) const;
  /// Whether every thread runs loop \p For the same number of times:
  /// `for (i = t; i < k * S; i += S)` with 0 <= t < S (`threadIdx.x` with S
  /// `blockDim.x` or at least every launch's x extent; the global index with
  /// S a multiple of `gridDim.x * blockDim.x`) runs k times in every thread.
  /// With \p UnlessMultiple: a block-stride loop whose bound is not known
  /// to be a multiple of its step gives the bound there (and \p Step the
  /// step); its trip count is uniform when the bound is one.
  bool hasUniformTripCount(const ForStmt &For,
                           const Expr **UnlessMultiple = nullptr,
                           const Expr **Step = nullptr) const;
  /// Whether \p S is in an arm that a constant condition never takes.
  bool isDead(const Stmt &S) const;
  /// A warp-uniform value at warp scope (see the class comment).
  bool isWarpUniform(const Expr *E) const;
  /// `threadIdx.x / K` (or `>> S`) where every launch's x extent is at
  /// most K (2^S): 0 in every thread of the block; and
  /// `(blockIdx.x * blockDim.x + threadIdx.x) / K` where K is a multiple of
  /// that x extent: the same in every thread of the block.
  bool isZeroThreadQuotient(const Expr *E) const;
  /// Whether the visible callee of \p Call returns the same value in every
  /// thread whatever its arguments: each `return` is reached by every
  /// thread that reaches the call's end and returns a uniform value with the
  /// parameters taken as thread-dependent (a block reduction returning
  /// `s[0]` from shared memory after a barrier).
  bool returnsUniformValue(const CallExpr *Call) const;
  /// What the value of \p Call rests on, where returnsUniformValue does not
  /// settle it: the thread (its visible callee returns a thread-dependent
  /// value, or returns under a thread-dependent condition, with uniform
  /// arguments: `lane()` returning `threadIdx.x & 31`), its arguments (the
  /// callee returns the same value in every thread given the same
  /// arguments), or what this analysis does not see (a callee without a
  /// body, a method).
  enum class CalleeReturn { PerThread, OfArguments, Unseen };
  CalleeReturn calleeReturn(const CallExpr *Call) const;

  /// The definitions of the variable \p DRE names that may reach it (indices
  /// into Defs), or null when every definition may.
  const llvm::SmallVector<unsigned, 4> *reaching(const DeclRefExpr *DRE) const;
  /// The loops whose thread-dependent conditions alone make definition \p I
  /// thread-dependent, or nullopt when something else does (its value, or a
  /// condition that is not a loop's); empty when it is not dependent.
  std::optional<llvm::SmallVector<const Stmt *, 2>>
  dependentLoopsOf(unsigned I) const;
  /// Whether the definitions of \p DRE's variable that reach it were all
  /// made after the latest entry into loop \p Loop.
  bool killedWithin(const DeclRefExpr *DRE, const Stmt *Loop) const;
  /// Whether \p S certainly assigns \p V, killing its earlier definitions.
  bool mustDefine(const Stmt *S, const VarDecl *V) const;
  void addDefinitionsIn(const Stmt *S, const VarDecl *V,
                        llvm::SmallVectorImpl<unsigned> &Out) const;

  ASTContext &Ctx;
  const FunctionDecl &Function;
  Scope Level;
  std::optional<int64_t> LaunchedX;
  /// Block-stride loops over a bound that is not a constant
  /// (for (i = threadIdx.x; i < n; i += S), S at least
  /// the block's x extent, n not a constant) run equally often in every thread:
  /// the bound is taken to be a multiple of the step. Those loops.
  bool AssumeMultiples = false;
  mutable llvm::SmallPtrSet<const ForStmt *, 2> Assumed;
  bool ParamsDependent = false;
  bool UnseenDependent = false;
  unsigned CallDepth = 0;
  mutable llvm::DenseMap<const FunctionDecl *, bool> UniformReturnCache;
  mutable llvm::DenseMap<const FunctionDecl *, CalleeReturn> CalleeReturnCache;
  llvm::DenseSet<const VarDecl *> Reassigned;
  llvm::DenseSet<const VarDecl *> DependentVars;
  llvm::SmallVector<const ReturnStmt *, 4> Returns;
  llvm::SmallVector<Definition, 32> Defs;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<unsigned, 4>> DefsOf;
  llvm::DenseSet<unsigned> DependentDefs;
  /// Dependent definitions made dependent only by the conditions of these
  /// enclosing loops: the threads still in such a loop ran the same
  /// iterations, so a use in the loop that only this loop's definitions
  /// reach sees the same value in all of them.
  llvm::DenseMap<unsigned, llvm::SmallVector<const Stmt *, 2>> LoopOnlyDefs;
  llvm::DenseMap<const Stmt *, const Stmt *> Parents; ///< Of the body.
  llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 2>> DefsAt;
  bool HasJumps = false; ///< goto, labels, switch: no structural reaching.
  bool HasGoto = false;  ///< goto or labels: no structural conditions.
  /// The `break` and `continue` statements of the body.
  llvm::SmallVector<const Stmt *, 4> Jumps;
  /// Every reference to each local variable or parameter in the body.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 4>>
      Refs;
  llvm::DenseMap<const VarDecl *, const DeclStmt *> DeclStmts;
  /// Local variables and parameters whose address is taken or that are
  /// bound to a reference: changed where this analysis does not see.
  llvm::DenseSet<const VarDecl *> Escaped;
  mutable llvm::DenseMap<const VarDecl *, bool> LoopBornCache;
  mutable llvm::DenseMap<const DeclRefExpr *,
                         std::optional<llvm::SmallVector<unsigned, 4>>>
      ReachingCache;
  /// Where reaching() found the definition that kills the earlier ones
  /// (null: none, the walk reached the function's top).
  mutable llvm::DenseMap<const DeclRefExpr *, const Stmt *> KillCache;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_THREADDEPENDENCE_H
