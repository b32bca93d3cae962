//===--- LaneGuards.h - cuda-lint -------------------------------*- C++ -*-===//
//
// Which threads of a block reach an access: the conditions on the way to it
// (enclosing `if`s, `?:` branches, the left operand of `&&` and `||`, and
// earlier `if (c) return;` in enclosing blocks), evaluated thread by thread
// where they are made of thread indices, constants and the local variables
// defined from them (`if (tid == 0)`, `if (lane < 16)` with
// `lane = threadIdx.x & 31`). A condition that cannot be evaluated lets
// every thread in.
//
// Shared by cuda-shared-bank-conflict (which notes, in addition, whether a
// condition on the thread index could not be evaluated: undecided()),
// cuda-uncoalesced-access and the impact estimate.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_LANEGUARDS_H
#define CUDA_LINT_LANEGUARDS_H

#include "cudalint/analysis/KernelLaunches.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <functional>
#include <optional>

namespace clang::tidy::cuda {

/// The conditions on the way to an access that decide, thread by thread,
/// whether it runs. A lane that a condition provably keeps out does not
/// take part in the access; a condition the analysis cannot evaluate lets
/// every lane in. \p Exact, where known, gives blockDim its value;
/// \p ParamValue, where given, the values of parameters that every launch
/// passes one constant for (`if (i < n && j < n)` with `n == 4`); \p Grid,
/// where known, gridDim (and blockIdx, 0 in a dimension one block wide).
/// \p NoteUndecided: whether mayRun notes, for undecided(), a condition
/// that depends on the thread index and could not be evaluated.
class LaneGuards {
public:
  using ParamValueFn =
      std::function<std::optional<int64_t>(const ParmVarDecl *)>;
  LaneGuards(ASTContext &Ctx, ThreadIndexAnalysis &TIA,
             std::optional<BlockShape> Exact, const Stmt *Access,
             ParamValueFn ParamValue = nullptr,
             std::optional<BlockShape> Grid = std::nullopt,
             bool NoteUndecided = false)
      : Ctx(Ctx), TIA(TIA), Exact(Exact), ParamValue(std::move(ParamValue)),
        Grid(Grid), NoteUndecided(NoteUndecided) {
    collect(Access);
  }

  bool mayRun(int64_t X, int64_t Y, int64_t Z) {
    Coords = {X, Y, Z};
    Block.reset();
    return mayRunHere();
  }

  /// mayRun for thread (X, Y, Z) of the block with blockIdx \p B (the
  /// impact estimate asks whether one block alone runs a statement).
  bool mayRunIn(int64_t X, int64_t Y, int64_t Z, std::array<int64_t, 3> B) {
    Coords = {X, Y, Z};
    Block = B;
    return mayRunHere();
  }

  /// Whether some condition on the way was collected.
  bool guarded() const { return !Conds.empty(); }

  /// With NoteUndecided: whether some condition that depends on the thread
  /// index could not be evaluated by a mayRun so far (`if (tid <= k)` with
  /// a loop counter `k`): which lanes run the access then changes from one
  /// execution to the next. Always false without NoteUndecided.
  bool undecided() const { return Undecided; }

private:
  bool mayRunHere();
  void collect(const Stmt *Access);
  std::optional<int64_t> constantInt(const Expr *E);
  std::optional<int64_t> evalInt(const Expr *E, unsigned Depth);
  std::optional<bool> evalBool(const Expr *E, unsigned Depth);

  ASTContext &Ctx;
  ThreadIndexAnalysis &TIA;
  std::optional<BlockShape> Exact;
  ParamValueFn ParamValue;
  std::optional<BlockShape> Grid;
  bool NoteUndecided;
  SmallVector<std::pair<const Expr *, bool>, 4> Conds;
  std::array<int64_t, 3> Coords = {0, 0, 0};
  std::optional<std::array<int64_t, 3>> Block;
  bool Undecided = false;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LANEGUARDS_H
