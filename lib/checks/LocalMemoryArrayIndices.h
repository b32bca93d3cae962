//===--- LocalMemoryArrayIndices.h - cuda-lint ------------------*- C++ -*-===//
//
// The indices of cuda-local-memory-array's per-thread arrays: what an index
// is after nvcc has unrolled what it unrolls (IndexClass, IndexClassifier),
// and the accesses of an array variable. Defined in
// LocalMemoryArrayCheckIndices.cpp; used only by LocalMemoryArrayCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_LOCALMEMORYARRAYINDICES_H
#define CUDA_LINT_LOCALMEMORYARRAYINDICES_H

#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::local_memory_array {

/// What an index is after nvcc has unrolled what it unrolls.
struct IndexClass {
  enum ClassKind {
    Constant, ///< A compile-time constant.
    Counter,  ///< Built from counters of loops with constant trip counts.
    Unknown,  ///< Perhaps a constant once inlined or folded: not reported.
    RunTime,  ///< Certainly a run-time value (data, thread index, a bound).
  };
  ClassKind Kind = Constant;
  llvm::SmallVector<const VarDecl *, 2> Counters; ///< For Counter.
  const Expr *Cause = nullptr;                    ///< For RunTime.
  /// For RunTime: the comparison results (`a > b`, `!p`, `p && q`) its
  /// run-time part is made of, and whether it has any other run-time part
  /// (data, a thread index, a parameter) used as a number.
  unsigned PredicateBits = 0;
  bool OtherRunTime = false;

  static IndexClass unknown() { return {Unknown, {}, nullptr}; }
  static IndexClass runTime(const Expr *E) { return {RunTime, {}, E, 0, true}; }
  static IndexClass counter(const VarDecl *V) {
    return {Counter, {V}, nullptr};
  }
  /// A comparison of run-time values: one bit.
  static IndexClass predicate(const IndexClass &Operands) {
    return {RunTime, Operands.Counters, Operands.Cause, 1, false};
  }

  /// Both operands of an operation: the weaker knowledge wins.
  IndexClass &operator+=(const IndexClass &O);
};

/// Classifies the index expressions of one function.
class IndexClassifier {
public:
  IndexClassifier(ASTContext &Ctx, const FunctionDecl &FD,
                  ThreadIndexAnalysis &TIA)
      : Ctx(Ctx), FD(FD), TIA(TIA) {}

  IndexClass classify(const Expr *E);

private:
  IndexClass load(const Expr *E);
  IndexClass classifyVariable(const VarDecl *V, const Expr *Ref);
  IndexClass classifyLocal(const VarDecl *V, const Expr *Ref);
  const ForStmt *loopOf(const VarDecl *V);

  ASTContext &Ctx;
  const FunctionDecl &FD;
  ThreadIndexAnalysis &TIA;
  llvm::DenseSet<const VarDecl *> InProgress;
};

/// The per-thread array variable that the access \p Sub (its outermost
/// subscript) reads, with its indices from the outermost in; null when it
/// is not a subscript chain on an array variable.
const VarDecl *accessedArray(const ArraySubscriptExpr *Sub,
                             llvm::SmallVectorImpl<const Expr *> &Indices);

/// Every access of \p Array in \p Body, by its outermost subscript, in
/// source order.
llvm::SmallVector<const ArraySubscriptExpr *, 8>
accessesOf(const VarDecl *Array, const Stmt *Body);

/// Whether the access \p A (an outermost subscript) only reads the element:
/// its value is loaded, it is not assigned, incremented, bound to a
/// reference or decayed to a pointer.
bool onlyReads(ASTContext &Ctx, const ArraySubscriptExpr *A);

} // namespace clang::tidy::cuda::local_memory_array

#endif // CUDA_LINT_LOCALMEMORYARRAYINDICES_H
