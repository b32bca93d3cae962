//===--- DoublePromotionCheck.h - cuda-lint ---------------------*- C++ -*-===//

#ifndef CUDA_LINT_DOUBLEPROMOTIONCHECK_H
#define CUDA_LINT_DOUBLEPROMOTIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda {

/// Finds float data computed in double precision in device code because of an
/// unsuffixed floating literal or a call to a double math function, and adds
/// the `f` suffix (or calls the float function).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-double-promotion.md
class DoublePromotionCheck : public ClangTidyCheck {
public:
  DoublePromotionCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// How one occurrence of a literal (one instantiation, one macro
  /// expansion) is used.
  struct Occurrence {
    bool Promotes = false;       ///< Float arithmetic made double by it.
    bool NarrowedByNvcc = false; ///< A single op nvcc narrows back to float.
    SourceLocation ExpansionLoc; ///< Where to report it.
  };
  /// Every occurrence of one spelled literal. A fix is only offered when
  /// every occurrence promotes (a template also instantiated for double, a
  /// macro also used in double code, would change meaning otherwise).
  struct LiteralSite {
    std::string Spelling;
    SourceLocation SpellingLoc;
    bool Representable = true; ///< Exactly representable in float.
    bool Overflows = false;    ///< Outside float's range.
    bool InTemplate = false;
    bool InMacroBody = false;
    bool MacroInMainFile = true;
    std::string MacroName;
    double RelativeError = 0;
    SmallVector<Occurrence, 2> Occurrences;
  };

  void recordLiteral(const FloatingLiteral *Lit, const Occurrence &Occ,
                     const ast_matchers::MatchFinder::MatchResult &Result);
  void checkMathCall(const CallExpr *Call,
                     const ast_matchers::MatchFinder::MatchResult &Result);

  const bool StrictNumerics;
  llvm::MapVector<SourceLocation, LiteralSite> Sites;
  llvm::DenseMap<SourceLocation, bool> ReportedCalls;
  llvm::DenseSet<const FloatingLiteral *> VisitedLiterals;
  const SourceManager *SM = nullptr;
  const LangOptions *LangOpts = nullptr;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_DOUBLEPROMOTIONCHECK_H
