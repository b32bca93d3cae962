//===--- UncoalescedAccessAccesses.h - cuda-lint ----------------*- C++ -*-===//
//
// The accesses of cuda-uncoalesced-access: what an element access reads or
// writes and through which pointer parameter, with which index; the launch
// values that make a lane stride constant; loads of what the same thread has
// just stored. Defined in UncoalescedAccessCheckAccesses.cpp; used only by
// UncoalescedAccessCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_UNCOALESCEDACCESSACCESSES_H
#define CUDA_LINT_UNCOALESCEDACCESSACCESSES_H

#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace clang::tidy::cuda::uncoalesced_access {

enum class AccessKind { Load, Store, LoadStore };

// One access to global memory through a pointer parameter of the kernel.
struct AccessInfo {
  AccessKind Kind;
  const ParmVarDecl *Param = nullptr;
  int64_t ElemSize = 0, AccessSize = 0;
  IndexForm Index;
  /// The run-time lane stride that the launch values make a constant.
  std::optional<IndexPoly> LaunchStride;
};

/// The value every launch passes for a parameter of the kernel.
using ParamValueFn =
    llvm::function_ref<std::optional<int64_t>(const ParmVarDecl *)>;

// True when the kernel only reads through \p P: a `const` pointee, or no
// store, call argument or dereference goes through a pointer derived from it.
bool isReadOnly(ASTContext &Ctx, const ParmVarDecl *P,
                const FunctionDecl *Kernel, ThreadIndexAnalysis &TIA);

// \p Poly with each parameter of \p Kernel that \p Value knows replaced by
// its value; \p Changed is set when one is.
IndexPoly withLaunchValues(const IndexPoly &Poly, const FunctionDecl *Kernel,
                           ParamValueFn Value, bool &Changed);

// The index of \p Info with the kernel's parameters that every launch
// passes one constant for replaced by it, where that makes the lane stride
// a constant.
void applyLaunchValues(AccessInfo &Info, const FunctionDecl *Kernel,
                       ThreadIndexAnalysis &TIA, ParamValueFn Value);

// What \p Access (through \p BasePtr, with subscript \p Idx, and for a member
// of an element the member \p Member) reads or writes, or nullopt when it is
// not an access this check analyses.
std::optional<AccessInfo>
describeAccess(ASTContext &Ctx, const FunctionDecl *Kernel, const Expr *Access,
               const Expr *BasePtr, const Expr *Idx, const FieldDecl *Member,
               ThreadIndexAnalysis &TIA);

// The pointer and subscript of `p[i]` and `*(p + i)`; false for anything
// else.
bool elementAccess(const Expr *E, const Expr *&BasePtr, const Expr *&Idx);

/// The pointer, subscript and field of a member of an element: `p[i].x`,
/// `(p + i)->x`, `(*p).x`; false for anything else.
bool memberAccess(const MemberExpr *ME, const Expr *&BasePtr, const Expr *&Idx,
                  const FieldDecl *&Member);

/// The byte offset of \p Member in its record; 0 for none.
int64_t memberOffset(const ASTContext &Ctx, const FieldDecl *Member);

/// Calls \p Visit for every element access (`p[i]`, `*(p + i)`) and member
/// of an element (`p[i].x`) in \p Body, with its pointer, subscript and
/// member (null for an element).
void forEachAccess(ASTContext &Ctx, const Stmt &Body,
                   llvm::function_ref<void(const Expr *, const Expr *,
                                           const Expr *, const FieldDecl *)>
                       Visit);

// True when the same thread has just stored the bytes \p Access reads, so
// that no load is issued.
bool loadedFromOwnStore(ASTContext &Ctx, const FunctionDecl *Kernel,
                        const Expr *Access, ThreadIndexAnalysis &TIA);

} // namespace clang::tidy::cuda::uncoalesced_access

#endif // CUDA_LINT_UNCOALESCEDACCESSACCESSES_H
