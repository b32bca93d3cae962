//===--- DeviceCode.h - cuda-lint -------------------------------*- C++ -*-===//
//
// Where code runs: helpers and AST matchers that tell device code
// (__global__, __device__, __host__ __device__ functions, device lambdas,
// templates as instantiated) from host code. Shared by every check.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_DEVICECODE_H
#define CUDA_LINT_DEVICECODE_H

#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <optional>

namespace clang::tidy::cuda {

/// True for a `__global__` function (a kernel).
bool isKernel(const FunctionDecl *FD);

/// True for a function that is compiled for the device: a kernel, a
/// `__device__` or `__host__ __device__` function, a device lambda's call
/// operator. Functions that clang makes implicitly host-device only because
/// they are `constexpr` are host code unless written as device code. A lambda
/// without an execution-space attribute (implicitly host-device in clang) is
/// device code only where the function that defines it is, as in nvcc.
bool isDeviceFunction(const FunctionDecl *FD);

/// Whether \p Name is one of CUDA's atomic functions (`atomicAdd`,
/// `atomicCAS_block`, ...) or a compiler builtin behind them
/// (`__nvvm_atom_add_gen_i`, `__iAtomicAdd`, `__atomic_fetch_add`).
bool isAtomicFunctionName(llvm::StringRef Name);
/// isAtomicFunctionName of \p F's name; false for null or unnamed.
bool isAtomicFunction(const FunctionDecl *F);

/// Functions of their arguments only: with uniform arguments, a uniform
/// result (builtins, min, max, abs, __popc, ...).
bool isPureIntegerFunction(const FunctionDecl *Callee);

/// Whether \p Ref, a reference to a kernel, is (through casts, `&` and
/// parentheses) an argument of a CUDA runtime call that reads or sets the
/// kernel's attributes without launching it (`cudaFuncSetCacheConfig`,
/// `cudaFuncGetAttributes`, `cudaOccupancyMaxActiveBlocksPerMultiprocessor`
/// and their kin): no launch with unknown arguments or shape.
bool isKernelQueryArgument(ASTContext &Ctx, const Expr *Ref);

/// Whether evaluating \p S reads memory or calls a function: a subscript, a
/// dereference, `->`, a call. With \p NamedMemory, a reference to a
/// variable that is not in a register (a global or `__shared__` one) reads
/// memory too, and `blockIdx.x` and its kin (a property read through a
/// call) do not.
bool readsMemory(const Stmt *S, bool NamedMemory = false);

/// Whether \p A and \p B are spelled the same, parentheses and implicit
/// casts aside (canonical profiles).
bool sameExpr(const ASTContext &Ctx, const Expr *A, const Expr *B);

/// Whether \p A and \p B are the same expression (canonical profiles), or
/// integer constants of the same value.
bool sameExprOrValue(ASTContext &Ctx, const Expr *A, const Expr *B);

/// The body of a `for`, range-`for`, `while` or `do` statement; null for any
/// other statement.
const Stmt *loopBody(const Stmt *Loop);

/// Every reference to \p V in \p S, in traversal order.
llvm::SmallVector<const DeclRefExpr *, 8> referencesTo(const Stmt *S,
                                                       const ValueDecl *V);

/// The function, lambda call operator or block whose body holds \p S, or null.
const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt &S);

/// The parent of \p E above the implicit casts and parentheses around it,
/// stopping below an lvalue-to-rvalue cast (a load) where \p StopAtLoad;
/// none where there is none.
std::optional<DynTypedNode> parentAboveCasts(ASTContext &Ctx, const Expr *E,
                                             bool StopAtLoad);

/// Makes the checks' parent lookups (`getParents`, `hasAncestor`) cost what
/// the user's code costs, not what the CUDA headers cost: at the start of the
/// match traversal, limits the AST context's traversal scope to the
/// top-level declarations outside system headers, so that the parent map is
/// built over those alone. Every CUDA file includes the CUDA runtime headers
/// (tens of thousands of declarations, mostly from the precompiled prelude);
/// a parent map over all of them cost more than parsing the file. Checks
/// that look up parents call this from registerMatchers; it is idempotent.
/// Findings in system headers never need parents from it: clang-tidy drops
/// them unless --system-headers is given.
void limitParentMapToUserCode(ast_matchers::MatchFinder *Finder);

/// Whether the precompiled header of this process's translation unit holds
/// headers of the build's own (an include prefix, set by the cuda-lint
/// driver): then their declarations, which the checks analyse as user code,
/// come from the PCH and are not among those parsed in the translation unit.
void setUserHeadersPrecompiled(bool Yes);
bool userHeadersPrecompiled();

/// The declarations of \p DC that can hold user code: those parsed in the
/// translation unit (`noload_decls`: the declarations of the precompiled CUDA
/// prelude are system code and are not loaded), and those of a precompiled
/// include prefix when it holds the build's own headers (`decls`, which
/// loads every declaration of the PCHs).
DeclContext::decl_range userCodeDecls(const DeclContext *DC);

namespace matchers {
AST_MATCHER(FunctionDecl, isCudaKernel) { return isKernel(&Node); }
AST_MATCHER(FunctionDecl, isCudaDeviceFunction) {
  return isDeviceFunction(&Node);
}
} // namespace matchers

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_DEVICECODE_H
