//===--- ThreadIndexImpl.h - cuda-lint --------------------------*- C++ -*-===//
//
// Helpers of ThreadIndexAnalysis private to lib/analysis, shared by
// ThreadIndex.cpp (where they are defined) and ThreadIndexUniform.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_THREADINDEXIMPL_H
#define CUDA_LINT_THREADINDEXIMPL_H

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"

namespace clang::tidy::cuda::threadindex {

/// An integer or unscoped enumeration type other than bool.
bool isIntegerLike(QualType T);

/// Functions of their arguments only: with uniform arguments, a uniform
/// result (builtins, min, max, abs, __popc, ...).
bool isPureIntegerFunction(const FunctionDecl *Callee);

} // namespace clang::tidy::cuda::threadindex

#endif // CUDA_LINT_THREADINDEXIMPL_H
