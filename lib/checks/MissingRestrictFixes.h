//===--- MissingRestrictFixes.h - cuda-lint ---------------------*- C++ -*-===//
//
// The fixes of cuda-missing-restrict: the kernel declaration a fix starts
// from, `const` and `__restrict__` on a parameter, explicit instantiations,
// and which loads `__ldg()` takes. Defined in MissingRestrictCheckFixes.cpp
// (with MissingRestrictCheck::constifyLocals and constifyCallee); used only
// by MissingRestrictCheck.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_MISSINGRESTRICTFIXES_H
#define CUDA_LINT_MISSINGRESTRICTFIXES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::missing_restrict {

/// An explicit specialization of a function template (`template <>
/// __global__ void k<int>(...)`).
bool isExplicitSpecialization(const FunctionDecl *FD);

/// The declaration whose parameters a kernel's fix starts from: the template
/// pattern of an instantiation, and also of an explicit specialization, whose
/// parameter types must keep matching the primary template's.
const FunctionDecl *kernelPattern(const FunctionDecl *FD);

/// The canonical declaration of a kernel's pattern (see kernelPattern).
const FunctionDecl *kernelKey(const FunctionDecl *FD);

/// The fix for parameter \p Index of an explicit instantiation
/// (`template __global__ void k<float>(float *, float *);`), whose parameter
/// types must keep matching the template once it gets `const`: `const` before
/// the parameter's type. Found by lexing from the kernel's name \p NameLoc,
/// as the AST keeps no type locations for it. Sets \p WhyNot when the
/// parameter is not spelled as a plain `type *` or `type *name`.
std::optional<FixItHint> explicitInstantiationFix(SourceLocation NameLoc,
                                                  unsigned Index,
                                                  const SourceManager &SM,
                                                  const LangOptions &LO,
                                                  std::string &WhyNot);

/// Whether `__ldg` has an overload for loads of type \p T.
bool ldgSupports(QualType T);

/// The fix that adds `const` to the pointee of parameter \p PD and
/// `__restrict__` to the parameter, as asked: insertions for a pointer
/// declarator (`const` before the pointee type, also where that is a macro's
/// name, `__restrict__` before the name), or the declarator rewritten for an
/// array or a typedef. Returns false, with \p WhyNot, when there is none.
bool paramFix(const ParmVarDecl *PD, bool AddConst, bool AddRestrict,
              const ASTContext &Ctx, std::vector<FixItHint> &Fixes,
              llvm::SmallPtrSetImpl<const void *> &Done, std::string &WhyNot);

} // namespace clang::tidy::cuda::missing_restrict

#endif // CUDA_LINT_MISSINGRESTRICTFIXES_H
