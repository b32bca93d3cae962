//===--- WarpSyncGeneralImpl.h - cuda-lint ----------------------*- C++ -*-===//
//
// The general race analysis of cuda-warp-synchronous, private to
// lib/analysis: the compiled subscripts (Node), one thread's values (Env),
// one thread's access (Instance) and GeneralRaces::Impl, whose members are
// defined by responsibility in WarpSyncGeneralCompile.cpp (subscripts to
// trees), WarpSyncGeneralEval.cpp (trees evaluated for a model block) and
// WarpSyncGeneral.cpp (the race between two accesses).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_WARPSYNCGENERALIMPL_H
#define CUDA_LINT_WARPSYNCGENERALIMPL_H

#include "cudalint/analysis/ThreadIndex.h"
#include "cudalint/analysis/WarpSyncAnalysis.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace clang::tidy::cuda::warpsync {

inline constexpr int64_t MaxLoopTrips = 128;
inline constexpr size_t MaxInstances = size_t(1) << 17;
inline constexpr unsigned MaxDepth = 24;
inline constexpr size_t MaxNodes = 1 << 16;
inline constexpr uint64_t MaxEvaluations = uint64_t(1) << 21;

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
    /// A value the evaluation cannot know that is the same in every thread
    /// and at every access of the function (a kernel's integer parameter
    /// that it never writes): a symbol, evaluated at a pseudo-random point
    /// (Sym::C) so that accesses whose subscripts hold it alike (`A[base +
    /// tid]` against `A[base + tid + 1]`) meet as they would for any value,
    /// and accesses that hold it differently never do.
    Sym,
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
  /// Data loaded from an array or through a pointer (`in[i]`, `*p`), as
  /// opposed to a call's result or a member (`bar()` may return the
  /// thread index, `p.n` is a parameter's field).
  bool Loaded = false;
  /// The tree holds a Sym.
  bool HasSym = false;
};

/// The values of the built-in variables and loop variables for one thread.
struct Env {
  int64_t T[3] = {0, 0, 0}, B[3] = {0, 0, 0}, BD[3] = {1, 1, 1},
          GD[3] = {1, 1, 1};
  SmallVector<std::pair<const VarDecl *, int64_t>, 4> Vars;
  /// The value a load from memory (Node::Loaded) takes in an index read
  /// from memory, one of the samples the analysis tries; none: unknown.
  std::optional<int64_t> Loaded;
  /// Sym nodes take their values; otherwise they are unknown (the model
  /// block's shape and the conditions are never decided by a symbol).
  bool Symbols = false;
};

/// \p V converted to an integer of \p Width bits.
int64_t wrap(int64_t V, unsigned Width, bool Unsigned);

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

/// No thread.
inline constexpr uint32_t None = ~0u;

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
  using InstanceKey =
      std::tuple<const Access *, bool, std::vector<const VarDecl *>,
                 const VarDecl *, bool>;
  /// A condition on the path that the evaluation cannot decide makes the
  /// instance a maybe, as one on data does (for write-write races).
  bool StrictConds = false;
  std::map<InstanceKey, std::optional<std::vector<Instance>>> Cache;
  llvm::DenseMap<const Stmt *, bool> BarrierLoops;

  /// The shape the translation unit launches the kernel with, if known;
  /// \c LaunchedOnly: it is the only one.
  std::optional<BlockShape> Launched;
  bool LaunchedOnly = false;
  /// The one grid every launch gives the kernel, if known.
  std::optional<BlockShape> LaunchGrid;

  Impl(Analysis &A, const FunctionDecl *FD, bool Kernel,
       std::optional<BlockShape> Launched, bool LaunchedOnly);

  llvm::SmallPtrSet<const VarDecl *, 8> Following; ///< Definitions in progress.

  int add(Node N);
  /// Node \p Sub converted to the integer type \p T.
  int converted(int Sub, QualType T);
  int constant(int64_t C);
  int unknown();

  /// The symbols of the function, by the declarations that name them (a
  /// parameter, then the fields of a member chain on it).
  std::map<std::vector<const ValueDecl *>, int> SymIds;
  std::vector<std::string> SymNames;
  std::map<const ValueDecl *, bool> ParamWritten;
  /// Whether \p F may change its parameter \p P (or a field of it), once.
  bool paramWritten(const FunctionDecl *F, const ParmVarDecl *P);
  /// The definitions of the helpers whose accesses the walk inlined.
  std::map<const FunctionDecl *, std::unique_ptr<ThreadIndexAnalysis>>
      HelperTIAs;
  /// The value of \p V, a variable of the helper whose body holds the
  /// inlined access \p X, read at \p Use: its definition there, or for a
  /// parameter the helper never writes, the argument of the call (X.Via)
  /// in the caller's context. -1 when neither is known.
  int helperValue(const VarDecl *V, const DeclRefExpr *Use, const Access &X,
                  SmallVectorImpl<const VarDecl *> &Vars, unsigned Depth);
  /// The Sym node of the kernel parameter (or by-value field of one) that
  /// \p Path names, or -1 when it is not one: an integer the kernel never
  /// assigns or takes the address of.
  int symbol(ArrayRef<const ValueDecl *> Path);
  /// The names of the symbols in the tree at \p N, in the order of ids.
  void symbolsOf(int N, SmallVectorImpl<int> &Ids) const;

  /// The `for` loop of \p X.Loops whose init declares \p V, if \p V is its
  /// induction variable (not assigned in the body).
  const ForStmt *loopOf(const Access &X, const VarDecl *V) const;

  /// Compiles \p E, the value of an integer expression in the context of the
  /// access \p X. Loop variables it uses go to \p Vars.
  int compile(const Expr *E, const Access &X,
              SmallVectorImpl<const VarDecl *> &Vars, unsigned Depth = 0);

  /// The \p I-th subscript of \p X, with the offset of the pointer it
  /// indexes.
  int compileSub(const Access &X, size_t I,
                 SmallVectorImpl<const VarDecl *> &Vars);

  int bin(BinaryOperatorKind Op, int L, int R);
  int builtin(Node::NodeKind K, unsigned Dim);

  /// `g.thread_rank()`: the linear thread index in the block (x fastest),
  /// modulo the tile size for a tile; in the grid, after the threads of the
  /// blocks before.
  int rank(const ThreadRank &R);
  /// A cooperative-groups query (groupQueryCall) as a tree.
  int groupQuery(const GroupQuery &Q);

  /// Whether the tree at \p N holds a value read from memory.
  bool hasData(int N) const;

  /// Whether the tree at \p N can be evaluated without unknown values.
  bool known(int N) const;

  /// Whether every value the evaluation cannot know in the tree at \p N
  /// is loaded from memory (Node::Loaded), and there is one.
  bool onlyData(int N) const;

  /// The values a load in an index read from memory is tried with: small
  /// bins, warp and block boundaries.
  static constexpr int64_t DataSamples[] = {0,  1,  2,  3,   5,   31,  32,
                                            33, 63, 64, 127, 255, 256, 1023};

  std::optional<int64_t> eval(int N, const Env &En) const;

  /// The constant extents of the array \p X accesses, outermost first, one
  /// per subscript; 0 where unknown (a pointer, `extern __shared__ T s[]`).
  bool extents(const Access &X, SmallVectorImpl<int64_t> &Out) const;

  /// Whether threads of different blocks may share the memory \p X
  /// accesses: global memory, or what a kernel's pointer parameter points
  /// to. A helper's pointer parameter may point to shared memory: no.
  bool gridWide(const Access &X) const;

  struct LoopDomain {
    const VarDecl *V;
    int Init, Bound, Step;
    BinaryOperatorKind Cmp;
  };

  /// The domain of the induction variable \p V of \p For: `V = init`,
  /// `V < bound` (or `<=`, `>`, `>=`, `!=`), `++V`, `V += step`, ...
  std::optional<LoopDomain> domain(const ForStmt *For, const VarDecl *V,
                                   const Access &X,
                                   SmallVectorImpl<const VarDecl *> &Vars);

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
    /// Its one subscript is read from memory (`hist[in[i] & 63]`): its
    /// instances try each of DataSamples for the loaded values, and are
    /// all maybes.
    bool AnyIndex = false;
    /// A subscript holds a symbol: its element is a pseudo-random value
    /// that only an access with the same symbols can meet.
    bool Symbolic = false;
  };
  std::map<const Access *, std::optional<Compiled>> CompiledCache;

  /// \p X compiled, once; nullopt when it cannot be evaluated.
  const std::optional<Compiled> &compiled(const Access &X);

  /// Whether the body of the loop \p L holds a barrier: its iterations are
  /// then different barrier intervals.
  bool barrierLoop(const Stmt *L);

  std::optional<Compiled> compileAccess(const Access &X);

  /// Adds to \p C the domains of the loop variables \p Vars that it has
  /// none for yet, and of those their bounds use, outer loops first.
  bool addDomains(Compiled &C, const Access &X,
                  SmallVectorImpl<const VarDecl *> &Vars);

  /// The element \p C accesses in \p En, if in bounds.
  std::optional<int64_t> element(const Compiled &C, const Env &En) const;

  /// Whether a thread in \p En reaches \p C: no condition on its path is
  /// false; \p Maybe when one on data is unknown.
  bool reaches(const Compiled &C, const Env &En, bool &Maybe) const;

  void setBlock(Env &En) const;

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
            const VarDecl *Next);

  /// The model block: launch bounds, the extents of arrays that every
  /// thread indexes with `threadIdx.d + c`, and defaults.
  void computeShape();

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
  void ownElementBounds(int64_t (&Bound)[3]);

  /// Bounds the block by the strides of the global indices the accesses
  /// use: `blockIdx.x * NT + threadIdx.x` (NT a constant) gives each block
  /// NT elements, one per thread, so the blocks have at most NT threads in
  /// x; blocks of more would overlap, which is not what such an index
  /// means.
  void blockStrideBounds(int64_t (&Bound)[3]);
  /// blockStrideBounds for the subscript \p N with a symbol: `(blockIdx.x *
  /// 16 + threadIdx.x) * height` bounds x by 16.
  void symbolicStrideBounds(const Compiled &C, int N, int64_t (&Bound)[3]);

  std::string thread(uint32_t Key, bool WithBlock) const;

  /// What the conditions around both \p W and \p R (the same `if`, taken
  /// on its true side) let in at most: Analysis::SingleKind bits. Only
  /// where the values they compare with are the same for both: not across
  /// iterations of a loop without a barrier that changes them, and not
  /// read from memory that the region writes.
  unsigned singleCondition(const Access &W, const Access &R);

  std::optional<Race> race(const Access &W, const Access &R, bool BlocksOnly,
                           bool WriteWrite);

  /// The writer maps of the instance lists of the write WriterMapsOf
  /// (which live in Cache, at fixed addresses), without and with the Maybe
  /// instances. A write is paired with every read of its region, one after
  /// the other: building its map again for each pair cost more than the
  /// rest of the analysis (hexciton). Only the current write's maps are
  /// kept.
  std::map<std::pair<const std::vector<Instance> *, bool>, WriterMap>
      WriterMaps;
  const Access *WriterMapsOf = nullptr;

  const WriterMap &writers(const std::vector<Instance> &IW, bool WithMaybe);

  std::optional<Race> match(const Access &W, const Access &R,
                            const std::vector<Instance> &IW,
                            const std::vector<Instance> &IR, bool BlocksOnly,
                            bool SameBlockOnly, bool WithMaybe);

  /// Whether the writes \p W and \p R store one value, the same in every
  /// thread of the model block (and grid): an integer that the evaluation
  /// knows.
  bool sameStoredValue(const Access &W, const Access &R);

  /// What \p I, an instance of \p R, does where \p Writer writes: `thread
  /// 1 reads 'A[2]', which thread 2 writes`, or, for a subscript with a
  /// symbol, `... the element of 'A' that thread 2 writes, whatever 'n'
  /// is`.
  std::string example(const Access &R, const Instance &I,
                      const std::string &Writer, bool Blocks);

  /// `tile[3][5]` for the linear element \p Elem of \p X's array.
  std::string subscripted(const Access &X, int64_t Elem) const;
};

} // namespace clang::tidy::cuda::warpsync

#endif // CUDA_LINT_WARPSYNCGENERALIMPL_H
