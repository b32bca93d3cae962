//===--- PageableCopyArgs.h - cuda-lint -------------------------*- C++ -*-===//
//
// The arguments of an asynchronous copy, for cuda-pageable-async-copy: which
// arguments are the host pointers, the kind, the size and the stream; the
// fields of a `cudaMemcpy3DParms`; the bytes copied when they are constant.
// Used only by PageableAsyncCopyCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PAGEABLECOPYARGS_H
#define CUDA_LINT_PAGEABLECOPYARGS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::cuda::pageable_copy {

// cudaMemcpyKind.
enum : int64_t {
  HostToHost = 0,
  HostToDevice = 1,
  DeviceToHost = 2,
  DeviceToDevice = 3,
  Default = 4
};

/// The host-side pointer arguments of a copy and its kind argument.
struct CopyShape {
  int Dst = -1, Src = -1, Kind = -1;
  /// The byte count (Size), or the width in bytes and the height of a 2D
  /// copy (Size, Height); the stream.
  int Size = -1, Height = -1, Stream = -1;
  /// `cudaMemcpy3DAsync(&parms, stream)`: the pointers and the kind are
  /// fields of a `cudaMemcpy3DParms`.
  bool Parms = false;
};

CopyShape shapeOf(StringRef Name);

std::optional<int64_t> evaluateKind(const Expr *E, const ASTContext &Ctx);

/// The values assigned to the fields of a local `cudaMemcpy3DParms`:
/// `p.srcPtr = make_cudaPitchedPtr(h, ...)`, `p.srcPtr.ptr = h`,
/// `p.kind = cudaMemcpyHostToDevice`. Unknown (false) when the variable is
/// used otherwise than so and by cudaMemcpy3D calls.
struct ParmsFields {
  llvm::SmallVector<const Expr *, 2> Src, Dst, Kind, Extent;
};

bool collectParms(const VarDecl *V, const Stmt *Body, ParmsFields &Out);

/// The expression of the pointer in a `cudaPitchedPtr` value:
/// `make_cudaPitchedPtr(h, ...)` gives h; a `.ptr` assignment is the pointer
/// itself.
const Expr *pitchedPointer(const Expr *E);

/// The largest host-to-device copy, in bytes, that is asynchronous with
/// respect to the host even from pageable memory (CUDA C++ Programming
/// Guide, "Concurrent Execution between Host and Device": "Memory copies
/// from host to device of a memory block of 64 KB or less").
constexpr uint64_t SmallCopyBytes = 64 * 1024;

/// The value of the integer expression \p E when it is a constant: a
/// constant expression (`sizeof`, literals, macros, `constexpr` and `const`
/// variables), or sums, products and shifts of constants and of local
/// variables of \p F that are never changed after a constant initialiser
/// (`int n = 1024; ... n * sizeof(int)`).
std::optional<uint64_t> foldBytes(const Expr *E, const FunctionDecl *F,
                                  ASTContext &Ctx, unsigned Depth = 0);

/// The bytes of a `make_cudaExtent(width, height, depth)` with constant
/// arguments.
std::optional<uint64_t> extentBytes(const Expr *E, const FunctionDecl *F,
                                    ASTContext &Ctx);

} // namespace clang::tidy::cuda::pageable_copy

#endif // CUDA_LINT_PAGEABLECOPYARGS_H
