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

} // namespace clang::tidy::cuda::threadindex

#endif // CUDA_LINT_THREADINDEXIMPL_H
