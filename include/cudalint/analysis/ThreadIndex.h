//===--- ThreadIndex.h - cuda-lint ------------------------------*- C++ -*-===//
//
// How an index expression moves with the thread: expresses an integer
// expression in device code as a polynomial in `threadIdx`, `blockIdx`,
// `blockDim`, `gridDim`, kernel parameters, loop induction variables and
// other uniform values, following local variables back to their definitions.
// From that form the checks read the lane stride (how many elements apart
// two threads with consecutive `threadIdx.x` access), whether an expression
// depends on the thread at all, and whether it is provably non-negative.
// Unknown stays unknown: nothing here guesses.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_THREADINDEX_H
#define CUDA_LINT_THREADINDEX_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clang::tidy::cuda {

class ThreadDependence;

/// One symbol of an index polynomial.
struct IndexSymbol {
  enum SymbolKind : unsigned char {
    ThreadIdx, ///< threadIdx.{x,y,z}: the only lane-varying built-in.
    BlockIdx,  ///< blockIdx.{x,y,z}
    BlockDim,  ///< blockDim.{x,y,z}
    GridDim,   ///< gridDim.{x,y,z}
    Variable,  ///< A parameter, loop induction variable or uniform global.
    Opaque,    ///< A uniform value the analysis does not look into.
    Modulo,    ///< `E % M` with a thread-dependent `E` and a constant `M`.
  };
  SymbolKind Kind;
  unsigned Dim = 0;          ///< 0, 1, 2 for .x, .y, .z.
  const void *Ptr = nullptr; ///< ValueDecl (Variable) or Expr (Opaque, Modulo).

  static IndexSymbol threadIdx(unsigned Dim) {
    return {ThreadIdx, Dim, nullptr};
  }
  /// True when the symbol's value differs between the threads of a block.
  bool isThreadDependent() const { return Kind == ThreadIdx || Kind == Modulo; }
  const ValueDecl *getDecl() const {
    return Kind == Variable ? static_cast<const ValueDecl *>(Ptr) : nullptr;
  }
  const Expr *getExpr() const {
    return Kind == Opaque || Kind == Modulo ? static_cast<const Expr *>(Ptr)
                                            : nullptr;
  }
  std::string str() const;

  bool operator<(const IndexSymbol &O) const {
    if (Kind != O.Kind)
      return Kind < O.Kind;
    if (Dim != O.Dim)
      return Dim < O.Dim;
    return Ptr < O.Ptr;
  }
  bool operator==(const IndexSymbol &O) const {
    return Kind == O.Kind && Dim == O.Dim && Ptr == O.Ptr;
  }
  bool operator!=(const IndexSymbol &O) const { return !(*this == O); }
};

/// A polynomial in index symbols with integer coefficients: the exact value
/// of an integer index expression (wrap-around aside).
class IndexPoly {
public:
  using Monomial = llvm::SmallVector<IndexSymbol, 2>; ///< Sorted.

  IndexPoly() = default;
  static IndexPoly constant(int64_t C);
  static IndexPoly symbol(IndexSymbol S);

  IndexPoly operator+(const IndexPoly &O) const;
  IndexPoly operator-(const IndexPoly &O) const;
  IndexPoly operator*(const IndexPoly &O) const;
  IndexPoly operator*(int64_t C) const;
  bool operator==(const IndexPoly &O) const { return Terms == O.Terms; }
  bool operator!=(const IndexPoly &O) const { return !(*this == O); }

  bool isZero() const { return Terms.empty(); }
  /// The value when the polynomial has no symbols.
  std::optional<int64_t> getConstant() const;
  /// The coefficient of the term without symbols (0 if there is none).
  int64_t constantTerm() const;
  /// True when some term holds a thread-dependent symbol.
  bool isThreadDependent() const;
  /// True when some term holds a symbol of this kind.
  bool mentions(IndexSymbol::SymbolKind Kind) const;
  /// Writes this as `C * S + R` where neither C nor R holds \p S; nullopt when
  /// \p S occurs squared or inside a Modulo symbol that depends on it
  /// (the caller cannot know how the value moves with \p S).
  std::optional<IndexPoly> coefficientOf(IndexSymbol S) const;
  /// The terms that hold no thread-dependent symbol.
  IndexPoly uniformPart() const;
  /// The terms that hold a thread-dependent symbol.
  IndexPoly threadPart() const;
  const std::map<Monomial, int64_t> &terms() const { return Terms; }
  std::string str() const;

private:
  std::map<Monomial, int64_t> Terms; ///< Never holds a zero coefficient.
};

/// A definition of a local variable that an index was built from.
struct IndexDefinition {
  const VarDecl *Var = nullptr;
  const Expr *Value = nullptr; ///< The initializer or the assigned value.
  SourceLocation Loc;          ///< The declaration or the assignment.
  bool operator==(const IndexDefinition &O) const {
    return Var == O.Var && Value == O.Value;
  }
};

/// What the analysis knows about one integer expression.
struct IndexForm {
  /// The exact polynomial, or nullopt when unknown.
  std::optional<IndexPoly> Poly;
  /// Conservative: false only when the value is provably the same for all
  /// threads of a block.
  bool MayDependOnThread = true;
  /// The definitions of local variables that were followed to build a
  /// thread-dependent value (for notes: "index 'i' is computed here").
  llvm::SmallVector<IndexDefinition, 2> Definitions;

  bool isKnown() const { return Poly.has_value(); }
};

/// How far apart, in elements, two threads with consecutive `threadIdx.x`
/// access.
struct LaneStride {
  enum StrideKind { Constant, Symbolic, Unknown };
  StrideKind Kind = Unknown;
  int64_t Value = 0; ///< For Constant.
  IndexPoly Symbols; ///< For Symbolic: a uniform polynomial such as `width`.
  bool isConstant() const { return Kind == Constant; }
  bool isSymbolic() const { return Kind == Symbolic; }
  bool isUnknown() const { return Kind == Unknown; }
};

/// The values an induction variable takes in a loop with constant bounds.
struct LoopSpan {
  const Stmt *Loop = nullptr; ///< The `for` statement.
  int64_t First = 0;          ///< The first value.
  int64_t Last = 0;           ///< The last value the body runs with.
  int64_t Step = 1;
};

/// Analyses the integer expressions of one function. Results are cached, so
/// one instance should serve every question about one function body.
class ThreadIndexAnalysis {
public:
  /// \p FD is the function whose body holds the expressions (its parameters
  /// and local variables are followed); it may be null for global code.
  ThreadIndexAnalysis(ASTContext &Ctx, const FunctionDecl *FD);
  ~ThreadIndexAnalysis();

  /// The polynomial form of \p E.
  IndexForm analyze(const Expr *E);
  /// The lane stride of an index: the coefficient of `threadIdx.x`.
  LaneStride laneStride(const Expr *E);
  LaneStride laneStride(const IndexForm &F) const;
  /// Which subscript of a multi-dimensional access (`tile[a][b]`, given as
  /// `{a, b}`) carries `threadIdx.x`: the first one whose lane stride is not
  /// provably 0. nullopt when none does.
  std::optional<unsigned>
  laneSubscript(llvm::ArrayRef<const Expr *> Subscripts);
  /// Conservative: true unless the value is provably uniform over the block.
  bool isThreadDependent(const Expr *E);
  /// True when the value provably varies with `threadIdx.x` (lane-dependent).
  bool isLaneDependent(const Expr *E);
  /// True when \p E is provably >= 0.
  bool isNonNegative(const Expr *E);
  /// The form of the operand of a Modulo symbol, and its modulus.
  std::optional<std::pair<IndexPoly, int64_t>> moduloOperand(IndexSymbol S);

  /// True when \p V is a local variable that the analysis treats as a loop
  /// induction variable: declared in a `for` statement's init and changed
  /// only by the loop's increment, by a uniform step.
  bool isInductionVariable(const VarDecl *V);
  /// The values of the induction variable \p V (see isInductionVariable)
  /// of `for (int V = A; V < N; V += S)` (`<=`, `++V`, `V++`, the bound on
  /// either side) with constants A, N and S > 0, when the body runs at
  /// least once; nullopt otherwise.
  std::optional<LoopSpan> constantLoopSpan(const VarDecl *V);
  /// The one expression that defines \p V (its initializer, or its only
  /// assignment), when \p V is a local variable or parameter that is never
  /// otherwise changed nor has its address taken; null otherwise.
  const Expr *singleDefinition(const VarDecl *V);
  /// The definition of \p V that reaches \p Use: its single definition,
  /// or else the one that dominates \p Use in straight-line code: the
  /// nearest earlier statement of an enclosing block that defines \p V is
  /// `V = E;` (or `V`'s declaration), with no label in between and no
  /// definition of \p V in the statement that holds \p Use (a loop could
  /// bring it round). Null otherwise. \p Where receives the location of
  /// the declaration or assignment.
  const Expr *definitionAt(const VarDecl *V, const Expr *Use,
                           SourceLocation *Where = nullptr);
  /// True when \p V (a parameter or local variable) is never assigned,
  /// incremented, nor has its address taken after its declaration.
  bool isUnmodified(const VarDecl *V);

  /// Recognises `threadIdx.x` and the other built-in variables (as written
  /// in CUDA, through clang's property accessors).
  static std::optional<IndexSymbol> builtinSymbol(const Expr *E);

private:
  struct VarInfo {
    bool Scanned = false;
    bool Escapes = false; ///< Address taken, bound to a reference.
    llvm::SmallVector<const Expr *, 2> Assigned; ///< `V = E` right sides.
    llvm::SmallVector<const Expr *, 2> Updates;  ///< `V += E`, `V++`, ...
    bool UpdateOnlyInForInc = true;
    const Stmt *InductionFor = nullptr; ///< The for loop declaring V.
    /// Where each of Assigned is assigned.
    llvm::SmallVector<SourceLocation, 2> AssignedAt;
  };

  IndexForm analyzeImpl(const Expr *E);
  IndexForm analyzeVariable(const VarDecl *V, const Expr *Ref);
  IndexForm analyzeVariableImpl(const VarDecl *V, const Expr *Ref);
  /// True when the local variable or parameter \p V (an integer or a
  /// pointer), read at \p Use, holds the same value in all the threads that
  /// read it there together, however many definitions it has. The one
  /// notion of uniformity the analyses share: ThreadDependence decides
  /// (ThreadDependence.h: reaching definitions, the conditions they are
  /// made under, divergent jumps, loop-born counters).
  bool isUniformUse(const VarDecl *V, const Expr *Use);
  /// The first reference to \p V (in the body's order) that provably reads
  /// the same value as \p Use: no definition of \p V, label or `case`
  /// comes between them in straight-line code (`r = y[jj].re;
  /// i = y[jj].im;` read one `jj`, whatever defines it elsewhere); \p Use
  /// itself when there is none.
  const Expr *sameValueUse(const VarDecl *V, const Expr *Use);
  bool isAncestor(const Stmt *A, const Stmt *S) const;
  IndexForm uniformOpaque(const Expr *E);
  /// True when every value \p P can take (its built-in variables within the
  /// hardware limits) fits in \p T.
  bool fitsIn(const IndexPoly &P, QualType T) const;
  void scanBody();
  bool isNonNegativePoly(const IndexPoly &P);
  const Expr *dominatingDefinition(const VarDecl *V, const Expr *Use,
                                   SourceLocation &Where);
  bool definesVar(const Stmt *S, const VarDecl *V);

  ASTContext &Ctx;
  const FunctionDecl *FD;
  bool BodyScanned = false;
  bool HasGoto = false;
  llvm::DenseMap<const VarDecl *, VarInfo> Vars;
  llvm::DenseMap<const Expr *, IndexForm> Cache;
  llvm::DenseMap<const VarDecl *, IndexForm> VarCache;
  llvm::DenseMap<const VarDecl *, bool> InProgress;
  llvm::DenseMap<const Stmt *, const Stmt *> Parents; ///< Of the body.
  /// Every reference to each local variable or parameter in the body.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 4>>
      Refs;
  /// Which values differ between threads, built when first asked.
  std::unique_ptr<ThreadDependence> Dependence;
};

/// Whether \p S is, or holds, a label or a `case`: a jump may land inside.
bool holdsJumpTarget(const Stmt *S);

/// The value of \p E where it is an integer constant expression of at most
/// \p MaxBits significant bits.
std::optional<int64_t> constantIntValue(ASTContext &Ctx, const Expr *E,
                                        unsigned MaxBits);

/// Whether the integer evaluators look through \p Cast: a load (lvalue to
/// rvalue), a no-op, or an integral conversion.
bool isIntegerPassThroughCast(const CastExpr *Cast);

/// The bound the loop condition \p Cond puts on \p V: B in `V < B`,
/// `V <= B`, `B > V` and `B >= V`, with \p Op set to `<` or `<=` as if V
/// stood on the left; null otherwise, \p Op then being Cond's operator.
const Expr *loopBound(const BinaryOperator *Cond, const VarDecl *V,
                      BinaryOperatorKind &Op);

/// The values the counter \p V of `for` loop \p For runs through, where
/// \p Eval gives constants for its start \p Init, the bound of the
/// condition (see loopBound) and the step of the update \p Inc (`++V`,
/// `V++`, `V += S` with S > 0). Last is First - Step when the body never
/// runs, so that (Last - First) / Step + 1 is always the trip count.
/// nullopt when a value is not constant or the loop has another shape.
std::optional<LoopSpan>
forLoopSpan(const ForStmt &For, const VarDecl *V, const Expr *Init,
            const Expr *Inc,
            llvm::function_ref<std::optional<int64_t>(const Expr *)> Eval);

/// Whether \p S lies in the body of a loop below \p Top (a function body).
bool isInsideLoop(ASTContext &Ctx, const Stmt *S, const Stmt *Top);

/// Whether \p E has one value in each thread throughout the function body
/// \p Body, from where it can first be used (constancy in time within a
/// thread, not uniformity across threads, which ThreadDependence decides):
/// constants, built-in thread and block indices, unmodified parameters, and
/// unmodified local variables declared outside every loop, combined by
/// operators without side effects.
bool isFixedInEachThread(ASTContext &Ctx, ThreadIndexAnalysis &TIA,
                         const Expr *E, const Stmt *Body);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_THREADINDEX_H
