//===--- LaunchAliasing.h - cuda-lint ---------------------------*- C++ -*-===//
//
// Launch aliasing analysis: the kernel launches of a translation unit that
// pass pointers into one allocation to two pointer parameters, directly
// (`k<<<g, b>>>(p, p + n)`, a local pointer initialised or assigned from
// another) or one level up, through a host function that forwards its
// parameters to the launch and is called with such pointers. Shared by
// cuda-restrict-aliasing (which reports launches that pass the same pointer
// to a `__restrict__` parameter and a written one) and cuda-missing-restrict
// (which does not add `__restrict__` where a launch aliases).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_LAUNCHALIASING_H
#define CUDA_LINT_LAUNCHALIASING_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

class LaunchAliasing {
public:
  /// Two pointer parameters of one launch that get pointers into the same
  /// allocation.
  struct Pair {
    /// The launched kernel (the specialisation, for a template).
    const FunctionDecl *Kernel = nullptr;
    /// The launch.
    const CallExpr *Launch = nullptr;
    /// The parameters, First < Second.
    unsigned First = 0, Second = 0;
    /// The host function that forwards its parameters to the launch, and
    /// its call that passes the aliasing pointers; null for a launch that
    /// aliases itself.
    const FunctionDecl *Wrapper = nullptr;
    const CallExpr *WrapperCall = nullptr;
    /// Whether the two arguments are visibly the same pointer (the same
    /// variable, or the same expression of variables and constants), not
    /// only pointers into one allocation with offsets that may differ.
    bool SameValue = false;
    /// The member both arguments share, when that is all they share: the
    /// same field of objects that may be different (`a.data`, `b.data`),
    /// which may or may not hold the same pointer. Null otherwise.
    const FieldDecl *Member = nullptr;

    /// The launch, or the call of the wrapper that aliases.
    SourceLocation loc() const {
      return WrapperCall ? WrapperCall->getBeginLoc() : Launch->getBeginLoc();
    }
  };

  /// Collects the launches in the user code of \p Ctx's translation unit
  /// (template instantiations included). Needs the parent map (the
  /// launches' enclosing functions).
  explicit LaunchAliasing(ASTContext &Ctx);

  llvm::ArrayRef<Pair> pairs() const { return Pairs; }

  /// Whether \p A and \p B, two expressions evaluated at the same point,
  /// are visibly the same pointer: the same variables, members and
  /// constants combined the same way, with no call or side effect.
  static bool samePointer(const Expr *A, const Expr *B, const ASTContext &Ctx);

private:
  llvm::SmallVector<Pair, 8> Pairs;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_LAUNCHALIASING_H
