//===--- MissingRestrictBenefit.h - cuda-lint -------------------*- C++ -*-===//
//
// Whether `const __restrict__` on a read-only pointer parameter can change
// more than the load instruction's cache qualifier. Defined in
// MissingRestrictCheckBenefit.cpp; used only by MissingRestrictCheck.
//
// On sm_70 and later the read-only data cache is the L1 cache that plain
// ld.global uses too: ld.global.nc alone gains nothing measurable (the
// sealed audit's H200 timings: a stencil 0.447 vs 0.447 ms, a streaming copy
// 0.372 vs 0.372 ms). What `__restrict__` buys there is the freedom to move
// the pointer's loads across the kernel's global stores: in a loop that
// loads it and stores to global memory (nvcc unrolls even loops of unknown
// trip count, so one iteration's loads follow the last one's stores; one
// kernel of thirty in the audit, 5% faster on an H200), or a load after a
// store in straight-line code. Where there is no such store, the finding is
// worth little and ranks low, with this reason.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_MISSINGRESTRICTBENEFIT_H
#define CUDA_LINT_MISSINGRESTRICTBENEFIT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda::missing_restrict {

/// What `const __restrict__` on a read-only parameter can change beyond
/// its loads' cache qualifier.
struct Benefit {
  /// Why it can only add `.nc` to the loads (the reason of the low rank);
  /// nullopt when it can do more, or when that is not known.
  std::optional<std::string> NcOnly;
  /// Where it can do more: a load it lets nvcc move, and the global store
  /// that holds the load back without it; null when not known (loads in
  /// callees, no loads seen, a target older than sm_70, where the
  /// read-only data cache is a cache of its own).
  const Expr *Load = nullptr;
  const Expr *Store = nullptr;
  enum class Move {
    Hoist,        ///< Load repeats in a loop that stores: hoist or keep it.
    AheadOfStore, ///< Load follows the store: issue it first.
    Reuse,        ///< The element was loaded before the store: reuse it.
  } How = Move::AheadOfStore;
};

/// Whether \p Load, one of the loads restrictBenefit is given, is a call
/// that passes the pointer to a device function reading it
/// (ReadOnlyResult::CalleeReads) rather than an element read here.
bool isCalleeRead(const Expr *Load);

/// The benefit of `__restrict__` on the read-only parameter \p P of kernel
/// \p FD, whose loads in the kernel's own body are \p Loads.
Benefit restrictBenefit(const FunctionDecl *FD, const ParmVarDecl *P,
                        llvm::ArrayRef<const Expr *> Loads, ASTContext &Ctx);

} // namespace clang::tidy::cuda::missing_restrict

#endif // CUDA_LINT_MISSINGRESTRICTBENEFIT_H
