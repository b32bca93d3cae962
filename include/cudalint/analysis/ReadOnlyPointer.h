//===--- ReadOnlyPointer.h - cuda-lint --------------------------*- C++ -*-===//
//
// Read-only pointer analysis: whether a kernel never writes through a pointer
// parameter, neither itself nor in the device functions it passes the pointer
// to, so that its loads may go through the read-only data cache.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_READONLYPOINTER_H
#define CUDA_LINT_READONLYPOINTER_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace clang::tidy::cuda {

/// What the analysis found about one pointer parameter.
struct ReadOnlyResult {
  bool ReadOnly = true;
  /// Why the pointer is not read-only ("written at ...", "passed to ...").
  std::string Reason;
  SourceLocation Where;
  /// Loads through the pointer (or local pointers derived from it) in the
  /// analysed function's own body: `p[i]` and `*p` lvalues that are read.
  llvm::SmallVector<const Expr *, 8> Loads;
  /// Whether the pointer (or one derived from it) is dereferenced by
  /// ordinary code here or in a callee: loads the compiler chooses the
  /// instruction for.
  bool PlainAccess = false;
  /// Whether one of those accesses is inside a loop (of the analysed
  /// function, or of a callee, or a call inside a loop).
  bool PlainAccessInLoop = false;
  /// Whether the pointer is passed to a function that reads it (a device
  /// function with a body, one without, memcpy): not every load is in
  /// Loads.
  bool PassedOn = false;
  /// Whether it is read by explicit load instructions: `__ldg`, `__ldcs`,
  /// `__ldcg` and the other `__ld*` intrinsics, inline asm whose only
  /// memory instructions are loads, or WMMA fragment loads
  /// (`wmma::load_matrix_sync`, PTX `wmma.load`, which has no
  /// non-coherent form). `const __restrict__` changes nothing for those: the
  /// instruction and its cache policy are written out.
  bool ExplicitLoad = false;
  /// Whether one of those explicit loads is inside a loop (as for
  /// PlainAccessInLoop).
  bool ExplicitLoadInLoop = false;
  /// Local pointer variables that hold the pointer without `const`: adding
  /// `const` to the parameter means adding it to these too.
  llvm::SmallVector<const VarDecl *, 4> NonConstLocals;
  /// Why adding `const` to the parameter would not compile (a cast to a
  /// non-const pointer); empty when it would, given NonConstCallees.
  std::string ConstBlocker;
  SourceLocation ConstBlockerLoc;
  /// A device function with a visible body that the pointer is passed to as
  /// a non-const pointer parameter it only reads (analysed read-only):
  /// `const` on the parameter here compiles only with `const` on that one.
  struct Callee {
    const FunctionDecl *Definition;
    unsigned Index;
    SourceLocation Loc; ///< The argument.
  };
  llvm::SmallVector<Callee, 2> NonConstCallees;
  /// The calls in the analysed function's own body that pass the pointer
  /// to a device function with a visible body that only reads it: where
  /// its loads there happen.
  llvm::SmallVector<const CallExpr *, 2> CalleeReads;
  /// A call, here or in a callee, that keeps nvcc from ever proving the
  /// pointer read-only, so that no load of it in the kernel becomes
  /// ld.global.nc, `const __restrict__` or not (the PTX is the same): a
  /// recursive device function that nvcc keeps as a call (see
  /// isKeptRecursiveCall), or a WMMA fragment load
  /// (`wmma::load_matrix_sync`, whose intrinsic takes the pointer: even
  /// the kernel's ordinary loads of it stay ld.global). Null when there is
  /// none.
  const FunctionDecl *NcBlocker = nullptr;
  SourceLocation NcBlockerLoc; ///< The argument.
};

/// Decides whether pointer parameters are read-only. A parameter is
/// read-only when the function, and every device function it passes the
/// pointer to, never writes through it (stores, compound assignments,
/// increments, atomics, memcpy/memset destinations, inline asm outputs),
/// never casts its constness away and never lets it escape as a non-const
/// pointer. Local copies and derived pointers (`float *row = in + j * nx`)
/// are followed. Callees without a visible body make it not read-only.
class ReadOnlyPointerAnalysis {
public:
  explicit ReadOnlyPointerAnalysis(ASTContext &Ctx) : Ctx(Ctx) {}

  /// Analyses parameter \p Param of \p FD (which must have a body).
  const ReadOnlyResult &analyze(const FunctionDecl *FD,
                                const ParmVarDecl *Param);

  /// Whether a call of the device function \p FD (a definition) keeps a
  /// pointer argument from ever being loaded with ld.global.nc in the
  /// caller: \p FD calls itself at two or more places that are not tail
  /// calls, accumulates the result of one of them into its own
  /// (`return 1 + f(a) + f(b);`, or `ans += f(a);` followed by
  /// `return ans;`), and may write memory other than its own locals (a
  /// store through a pointer, an atomic, printf, an unknown call). nvcc
  /// 13.0 keeps such a recursion as a call and proves nothing about what it
  /// does with the pointer: with `const __restrict__` on the kernel's
  /// parameter, its loads stay ld.global, in the kernel as in the callee.
  /// One recursive call, tail calls only, results stored rather than
  /// accumulated (`int v = f(a);`, a void function), or no writes but its
  /// locals do not block ld.global.nc (each checked with nvcc -ptx): the
  /// model is empirical.
  bool isKeptRecursiveCall(const FunctionDecl *FD);

private:
  ASTContext &Ctx;
  llvm::DenseMap<const ParmVarDecl *, ReadOnlyResult> Cache;
  llvm::DenseMap<const ParmVarDecl *, bool> InProgress;
  llvm::DenseMap<const FunctionDecl *, bool> KeptRecursive;
};

/// The variable a pointer expression points into, looking through
/// parentheses, casts, pointer arithmetic, `&a[i]` and local pointers
/// initialised from another pointer; null when unknown.
const ValueDecl *pointerRoot(const Expr *E);

/// Every variable a pointer expression may point into, flow-insensitively:
/// like pointerRoot, but a local pointer contributes itself and the roots of
/// its initialiser and of every value assigned to it (`b = a;`), and `c ? a
/// : b` both sides. Empty when unknown.
void pointerRoots(const Expr *E,
                  llvm::SmallVectorImpl<const ValueDecl *> &Roots);

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_READONLYPOINTER_H
