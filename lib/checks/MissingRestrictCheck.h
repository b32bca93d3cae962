//===--- MissingRestrictCheck.h - cuda-lint ---------------------*- C++ -*-===//

#ifndef CUDA_LINT_MISSINGRESTRICTCHECK_H
#define CUDA_LINT_MISSINGRESTRICTCHECK_H

#include "CudaCheck.h"
#include "MissingRestrictBenefit.h"
#include "cudalint/analysis/ReadOnlyPointer.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Finds kernel pointer parameters that are only read but not declared
/// `const T *__restrict__`, so that their loads cannot use the read-only data
/// cache, and adds the missing qualifiers (or, with `UseLdg`, loads through
/// `__ldg()`).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-missing-restrict.md
class MissingRestrictCheck : public CudaCheck {
public:
  MissingRestrictCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// One pointer parameter of one kernel (the template pattern for
  /// template kernels), over every instantiation.
  struct ParamInfo {
    const FunctionDecl *Pattern = nullptr;
    unsigned Index = 0;
    bool ReadOnly = true;
    /// Dereferenced by ordinary code, and read by explicit load
    /// instructions (see ReadOnlyResult).
    bool PlainAccess = false, ExplicitLoad = false;
    /// A plain access inside a loop; passed to a function that reads it.
    bool PlainAccessInLoop = false, PassedOn = false;
    /// An explicit load inside a loop.
    bool ExplicitLoadInLoop = false;
    bool InTemplate = false;
    /// Whether an instantiation of the template pattern was analysed.
    bool PatternAnalysed = false;
    /// Explicit specializations of the template kernel: their parameter
    /// types must keep matching the primary template's.
    llvm::SmallVector<const FunctionDecl *, 2> Specializations;
    llvm::SmallVector<const Expr *, 8> Loads;
    /// Each analysed kernel (the template's instantiations, or the kernel
    /// itself) with its loads of the parameter: what `__restrict__` can
    /// change is judged in each (missing_restrict::restrictBenefit).
    llvm::SmallVector<
        std::pair<const FunctionDecl *, llvm::SmallVector<const Expr *, 8>>, 1>
        Instances;
    llvm::SmallVector<const VarDecl *, 4> NonConstLocals;
    std::string ConstBlocker;
    llvm::SmallVector<ReadOnlyResult::Callee, 2> NonConstCallees;
    /// Every analysed kernel stores only through `__restrict__` parameters
    /// (see storesOnlyThroughRestrict): nvcc already proves the other
    /// pointers read-only and loads them with ld.global.nc.
    bool NcInferred = true;
    /// Every analysed kernel passes the pointer to a call that keeps nvcc
    /// from proving it read-only (ReadOnlyResult::NcBlocker): no load of it
    /// becomes ld.global.nc, whatever its qualifiers.
    bool NcBlocked = true;
    const FunctionDecl *NcBlocker = nullptr;
  };
  struct AliasInfo {
    unsigned Other;
    /// The launch, or the call of the host function that launches it.
    SourceLocation Launch;
    /// The host function whose call passes the aliasing pointers, when the
    /// launch forwards its parameters.
    const FunctionDecl *Wrapper = nullptr;
    /// The member the two pointers are read from, when that is all they
    /// share (see LaunchAliasing::Pair::Member).
    const FieldDecl *Member = nullptr;
  };

  void diagnose(const ParamInfo &Info, ReadOnlyPointerAnalysis &Analysis);
  /// The benefit of `__restrict__` on the parameter (restrictBenefit): the
  /// ncOnly reason when it holds in every analysed kernel of the parameter
  /// (each instantiation of a template in its own body), else the first
  /// kernel's load and store that it lets nvcc move across.
  static missing_restrict::Benefit benefitInEach(const ParamInfo &Info,
                                                 ASTContext &Ctx);
  /// Where \p B shows what `__restrict__` changes: a note at the load.
  void noteBenefit(const missing_restrict::Benefit &B);
  /// Why `__restrict__` is not added to \p PP of \p Pattern: a launch
  /// passes it and another parameter pointers into one allocation.
  void noteAliased(const ParmVarDecl *PP, const FunctionDecl *Pattern,
                   const AliasInfo &A);
  /// Where the type of kernel \p Pattern is observed, so that `const` on a
  /// pointee, which changes it, must not be added: a use as a value (its
  /// address taken or stored, a template argument, a CUDA API argument),
  /// or a declaration in another file than its definition's. Sets
  /// \p Declared for the latter.
  SourceLocation observedType(const FunctionDecl *Pattern, bool &Declared);
  /// Adds to \p Fixes `const` on the pointee of parameter \p Index of the
  /// device function \p Def, in each of its declarations, and on what that
  /// needs in turn (its local copies, the parameters of the functions it
  /// passes the pointer to), recording each parameter in \p Constified.
  /// False when that is not safe: a template, an overloaded or virtual
  /// function, one used as a value, a declaration spelled in a macro or
  /// through a typedef, a cast to a non-const pointer.
  bool constifyCallee(ReadOnlyPointerAnalysis &Analysis,
                      const FunctionDecl *Def, unsigned Index,
                      std::vector<FixItHint> &Fixes,
                      llvm::SmallPtrSetImpl<const void *> &Done,
                      llvm::SmallVectorImpl<const ParmVarDecl *> &Constified,
                      unsigned Depth = 0);
  /// `const` on the pointee of each local pointer in \p Locals, which hold
  /// a pointer that becomes const; sets \p WhyNot when one cannot get it.
  void constifyLocals(llvm::ArrayRef<const VarDecl *> Locals,
                      std::vector<FixItHint> &Fixes,
                      llvm::SmallPtrSetImpl<const void *> &Done,
                      std::string &WhyNot);

  const bool RestrictWritable;
  const bool UseLdg;
  ASTContext *Ctx = nullptr;
  llvm::SmallVector<const FunctionDecl *, 8> Kernels;
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, AliasInfo> Aliased;
  /// Kernels and device functions (by kernelKey) used as values, with the
  /// first such use.
  llvm::DenseMap<const FunctionDecl *, SourceLocation> UsedAsValue;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_MISSINGRESTRICTCHECK_H
