//===--- IntegerDivisionCheck.h - cuda-lint ---------------------*- C++ -*-===//

#ifndef CUDA_LINT_INTEGERDIVISIONCHECK_H
#define CUDA_LINT_INTEGERDIVISIONCHECK_H

#include "CudaCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::cuda {

/// Finds integer division and modulo in device code by divisors that are not
/// compile-time constants (and signed division by a power of two of values
/// that are never negative), and rewrites divisions by a power of two as a
/// shift and a mask where that is exact.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-integer-division.md
class IntegerDivisionCheck : public CudaCheck {
public:
  IntegerDivisionCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void onEndOfTranslationUnit() override;

  /// A macro defined in the translation unit, and how often it was expanded.
  struct MacroDef {
    std::string Name;
    SourceLocation Begin, End; ///< The definition, `#define` line.
    unsigned Expansions = 0;
  };
  /// One expansion of an operation spelled in a macro body: its exact
  /// rewrite, or why there is none.
  struct MacroInstance {
    std::string Replacement;
    /// The first and last token of what is replaced, as expanded.
    SourceLocation Begin, End;
    StringRef WhyNot;
    /// Spelling locations of the text the rewrite is made of: all must be in
    /// the macro's body.
    llvm::SmallVector<SourceLocation, 8> SpelledAt;
  };
  /// What a finding says, kept until it is reported.
  struct Finding {
    SourceLocation Loc;
    bool IsRem = false, Const = false, InLoop = false;
    std::string Divisor;
    /// The note: a `1 << k` divisor (its shift amount), or a run-time one.
    std::optional<std::string> ShiftAmount;
    /// The operation's spelling in a macro body, for a deferred finding.
    SourceLocation Spelling;
    /// The other half of a `/` and `%` pair computed with one division.
    SourceLocation Partner;
    /// Why the operation is worth little beside its loop's other work (the
    /// reason of a low rank).
    std::optional<std::string> SmallShare;
    /// A run-time division of 64-bit operands that may take nvcc's 32-bit
    /// path for values that fit (none is shifted past 32 bits).
    bool Wide = false;
  };

private:
  void report(const Finding &F, std::optional<FixItHint> Fix, StringRef WhyNot);
  /// The fix of an operation spelled at \p Spelling in a macro body, the
  /// same for every expansion, or why there is none.
  std::optional<FixItHint> macroFix(SourceLocation Spelling,
                                    std::string &WhyNot);

  const bool WarnOutsideLoops;
  const bool WarnNonPowerOfTwoConstants;
  llvm::DenseSet<SourceLocation> Reported;
  const SourceManager *SM = nullptr;
  const LangOptions *LangOpts = nullptr;
  Preprocessor *PP = nullptr;
  llvm::DenseMap<const void *, MacroDef> Macros; ///< By MacroInfo.
  llvm::DenseMap<SourceLocation, llvm::SmallVector<MacroInstance, 4>> MacroOps;
  llvm::SmallVector<Finding, 8> Deferred;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_INTEGERDIVISIONCHECK_H
