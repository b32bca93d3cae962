//===--- SharedMemoryBanks.h - cuda-lint ------------------------*- C++ -*-===//
//
// The shared-memory bank model of cuda-shared-bank-conflict: the block shape
// a function runs with (its launches, __launch_bounds__, the extents its own
// subscripts stay in), value ranges of subscripts, the accesses of a
// __shared__ array and the degree of the bank conflict of one access, lane
// by lane. The lanes that thread-index guards let reach an access are
// LaneGuards' (LaneGuards.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_SHAREDMEMORYBANKS_H
#define CUDA_LINT_SHAREDMEMORYBANKS_H

#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace clang::tidy::cuda::banks {

/// A block shape: threads in x, y and z.
struct BlockDims {
  int64_t X = 32, Y = 1, Z = 1;
};

/// The kernel launches of a translation unit, collected on first use.
struct LaunchSites {
  bool Collected = false;
  /// Each launch, with the function it is in.
  std::vector<std::pair<const CUDAKernelCallExpr *, const FunctionDecl *>>
      Calls;
  void collect(ASTContext &Ctx);
};

/// Upper bounds on the block shape of a function, and the exact shape where
/// every launch of a kernel in this translation unit uses one constant shape.
struct BlockBounds {
  std::optional<BlockDims> Exact;
  int64_t MaxThreads = 1024;                     ///< __launch_bounds__.
  std::array<int64_t, 3> Max = {1024, 1024, 64}; ///< Bounds on blockDim.

  /// The shape assumed where the exact one is not known: the widest block
  /// the code allows, up to a warp, filled with rows of threadIdx.y, then
  /// planes of threadIdx.z, up to the bounds.
  BlockDims assumed() const;
};

/// The bounds on the block shape of \p Fn: its launches in this translation
/// unit, __launch_bounds__, and the extents of the arrays every thread
/// indexes with a thread index.
BlockBounds blockBounds(ASTContext &Ctx, const FunctionDecl *Fn,
                        ThreadIndexAnalysis &TIA, LaunchSites &Sites);

/// The value of an integer constant expression that fits in 62 bits.
std::optional<int64_t> evalInt(ASTContext &Ctx, const Expr *E);

struct Range {
  int64_t Lo, Hi;
};

/// Proves bounds on integer expressions: threadIdx below the block bounds,
/// constants, `x % M`, `x & M`, loop counters bounded by their condition,
/// sums and products of those, local variables with one definition.
class RangeAnalysis {
public:
  RangeAnalysis(ASTContext &Ctx, const FunctionDecl *Fn,
                ThreadIndexAnalysis &TIA, const BlockBounds &B)
      : Ctx(Ctx), Fn(Fn), TIA(TIA), B(B) {}

  std::optional<Range> range(const Expr *E, unsigned Depth = 0);

private:
  bool fits(const Range &R, QualType T) const;
  std::optional<Range> rangeImpl(const Expr *E, unsigned Depth);
  std::optional<Range> binary(const BinaryOperator *BO, unsigned Depth);
  const ForStmt *declaringLoop(const Stmt *S, const VarDecl *V);
  bool onlyReads(const Stmt *S, const VarDecl *V);
  std::pair<const ForStmt *, const Expr *>
  startingLoop(const Stmt *S, const VarDecl *V, const DeclRefExpr *Ref);
  std::optional<Range> loopRange(const VarDecl *V, const DeclRefExpr *Ref,
                                 unsigned Depth);

  ASTContext &Ctx;
  const FunctionDecl *Fn;
  ThreadIndexAnalysis &TIA;
  const BlockBounds &B;
};

/// The address an access reads, in elements of the array: its thread part
/// as constant coefficients of threadIdx.{x,y,z}. Modulo terms `(e % M) * c`
/// are replaced by `e * c` when that moves the byte address by a multiple of
/// the bank period (`Banks * 4` bytes), which leaves every bank unchanged.
std::optional<std::array<int64_t, 3>>
threadCoefficients(ThreadIndexAnalysis &TIA, IndexPoly L, int64_t ElemSize,
                   int64_t Banks);

/// The degree of the bank conflict: the most distinct 4-byte words that one
/// bank serves in one pass. 4-byte and narrower accesses are served for the
/// whole warp at once; 8-byte accesses in two passes of 16 threads, 16-byte
/// accesses in four passes of 8 threads. Threads reading the same word do
/// not conflict. For elements narrower than a word the result is the least
/// over where the array starts within a word.
int64_t
conflictDegree(const std::array<int64_t, 3> &Coef, int64_t ElemSize,
               int64_t AccessSize, int64_t MemberOffset, const BlockDims &Shape,
               int64_t Banks,
               llvm::function_ref<bool(int64_t, int64_t, int64_t)> Active);

/// One use of a __shared__ array.
struct ArrayUse {
  bool IsAccess = false;            ///< A subscript for every dimension.
  const DeclRefExpr *Ref = nullptr; ///< The reference to the array.
  SmallVector<const Expr *, 3> Subscripts;
  const Expr *Access = nullptr;
  int64_t AccessSize = 0;
  int64_t MemberOffset = 0;
  /// What the access does with the element: a read, a plain assignment, a
  /// read-modify-write (`+=`, `++`), or anything else (bound to a
  /// reference, a member called).
  enum AccessKind { Load, Store, Update, Other };
  AccessKind Kind = Other;
  /// The innermost block around the access, and the index in it of the
  /// statement that holds the access.
  const CompoundStmt *Block = nullptr;
  unsigned StmtIndex = 0;
  /// Every block around the access, innermost first, with the index of
  /// the statement of it that holds the access.
  SmallVector<std::pair<const CompoundStmt *, unsigned>, 4> Blocks;
  /// True when the access runs whenever that statement does: no branch,
  /// loop, `?:` or short-circuit operator lies between them.
  bool Straight = false;
};

/// Every use of \p V, an array of \p Rank dimensions, in \p Body.
SmallVector<ArrayUse, 4> collectArrayUses(ASTContext &Ctx, const VarDecl *V,
                                          unsigned Rank, const Stmt *Body);

/// How the compiled code issues one access of a __shared__ array, as nvcc
/// does (checked in its PTX):
/// - Vector: the accesses of one thread to `w` adjacent elements
///   (`a[2 * t]` and `a[2 * t + 1]`) in straight-line code of one block,
///   all loads or all stores, whose first address is a multiple of `w`
///   elements in an array aligned to `w * size` bytes (an `extern
///   __shared__` array is aligned to 16 bytes, others to their element
///   or `__align__`), become one 8- or 16-byte `ld/st.shared.v2/.v4`: the
///   access with the lowest address stands for the vector (Width
///   elements), the others (InVector) issue nothing of their own.
/// - Reused: a load of the element that an earlier load of the same
///   statement or an earlier statement of the same block read, or an
///   earlier store wrote (the same address), with no other store to the
///   array, no call, no branch and no change of the subscripts' variables
///   in between: nvcc keeps the value in a register.
/// - Own: any other access, issued as written.
struct IssuedAccess {
  enum IssueKind { Own, Vector, InVector, Reused };
  IssueKind Kind = Own;
  unsigned Width = 1; ///< For Vector: the elements it accesses.
};

/// The issue of each of \p Uses of \p Array (elements of \p ElemSize
/// bytes), given the linear address of each in elements (nullopt where
/// unknown).
SmallVector<IssuedAccess, 4>
issuedAccesses(ASTContext &Ctx, const VarDecl *Array, ArrayRef<ArrayUse> Uses,
               ArrayRef<std::optional<IndexPoly>> Addresses, int64_t ElemSize);

} // namespace clang::tidy::cuda::banks

#endif // CUDA_LINT_SHAREDMEMORYBANKS_H
