//===--- DoublePromotionCheck.h - cuda-lint ---------------------*- C++ -*-===//

#ifndef CUDA_LINT_DOUBLEPROMOTIONCHECK_H
#define CUDA_LINT_DOUBLEPROMOTIONCHECK_H

#include "CudaCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <vector>

namespace clang::tidy::cuda {

/// Finds float data computed in double precision in device code because of an
/// unsuffixed floating literal or a call to a double math function, and adds
/// the `f` suffix (or calls the float function).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-double-promotion.md
class DoublePromotionCheck : public CudaCheck {
public:
  DoublePromotionCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// What becomes of a double literal's value as a float literal.
  struct FloatValue {
    bool Representable = true; ///< Exactly representable in float.
    bool Overflows = false;    ///< Outside float's range.
    bool Underflows = false;   ///< Non-zero, but zero as a float.
    bool Subnormal = false;    ///< Subnormal as a float.
    double RelativeError = 0;  ///< |float - double| / |double|.
  };
  static FloatValue toFloat(const FloatingLiteral *Lit);
  /// Why \p V's float literal would not be a safe rewrite ("is outside
  /// float's range", ...), or empty when it would be.
  static StringRef whyNotFixable(const FloatValue &V);
  /// The note on what the `f` suffix does to the value, where it changes it.
  void noteNumerics(SourceLocation Loc, StringRef Spelling,
                    const FloatValue &V);

  /// How one occurrence of a literal (one instantiation, one macro
  /// expansion) is used.
  struct Occurrence {
    /// Where nvcc computes the same thing in float anyway (`nvcc -ptx` shows
    /// no f64 instruction), so that the fix changes no value.
    enum NarrowKind {
      NotNarrowed,
      /// One `+ - * /` (compound assignment included) or comparison of a
      /// float and the literal, its result straight back to float: narrowed
      /// when the literal is exactly representable in float.
      SingleOperation,
      /// A branch of `c ? x : lit` converted straight back to float: the
      /// literal becomes its float value, whatever it is.
      ConditionalBranch,
    };
    bool Promotes = false; ///< Float arithmetic made double by it.
    /// Integer data made double by it, the result narrowed into a float
    /// (`float px = 1.0 / width;`): never narrowed by nvcc.
    bool FromInteger = false;
    /// The double math function whose argument the computation is
    /// (`exp(-0.5 * x)`): the suffix switches it to its float overload.
    std::string OverloadOf;
    NarrowKind Narrowing = NotNarrowed;
    /// Where the result, narrowed to float, is converted to an integer
    /// (`uchar_out[i] = fmaxf(th, 20.f)` after `float th = 0.92 * x[i]`):
    /// a last-bits change can flip the integer there. Invalid if nowhere.
    SourceLocation ToInteger;
    SourceLocation ExpansionLoc; ///< Where to report it.
    /// The function it is in (for a template instantiation, its pattern).
    const FunctionDecl *Function = nullptr;
    /// The operand that promotes: the literal, or the literal-only
    /// expression that holds it (`(1.0 / PI)`), by where it is written.
    std::pair<SourceLocation, SourceLocation> Operand;
    std::string OperandText; ///< As written at the use (`K`).
    /// The spelling locations of the other double literals of the same
    /// double computation (`0.5` and `ONE_OVER_PI`'s literals in
    /// `atan(x) * ONE_OVER_PI + 0.5`): where one of them is not rewritten,
    /// the computation stays double whatever this literal becomes.
    llvm::SmallVector<SourceLocation, 2> OtherLiterals;
  };
  /// Every occurrence of one spelled literal. A fix is only offered when
  /// every occurrence promotes (a template also instantiated for double, a
  /// macro also used in double code, would change meaning otherwise).
  struct LiteralSite {
    std::string Spelling;
    SourceLocation SpellingLoc;
    FloatValue Value;
    bool InTemplate = false;
    bool InMacroBody = false;
    bool MacroInMainFile = true;
    std::string MacroName;
    SmallVector<Occurrence, 2> Occurrences;
  };

  /// The finding one spelled literal makes, from all of its occurrences.
  struct Verdict {
    LiteralSite *Site;
    const Occurrence *First; ///< The occurrence it is reported at.
    bool AllNarrowed, AllConditional;
    bool AnyFromInteger, AllFromInteger;
    std::string WhyNot; ///< Why it has no fix; empty when it has.
    SourceLocation ToInteger;
  };
  /// A finding of a call (`pow(x, 2)`, `exp(x)`), reported at the end of
  /// the translation unit: on its own (Emit), or in its function's finding.
  struct CallReport {
    SourceLocation Loc;
    SourceRange Range;                      ///< The call, in the file.
    const FunctionDecl *Function = nullptr; ///< Its pattern, for templates.
    std::string Callee, Replacement;        ///< `pow`, `powf` or `t * t`.
    std::vector<FixItHint> Fixes;           ///< Empty without a fix.
    std::string WhyNot;                     ///< Why there is no fix.
    bool NoCodeChange = false;              ///< nvcc folds it: never grouped.
    std::function<void()> Emit;
  };
  void addCallReport(const CallExpr *Call, ASTContext &Ctx, CallReport R);
  std::vector<Verdict> verdicts();
  void reportLiteral(const Verdict &Vd);
  /// One finding for the literals of one operand (`x * K` with `#define K
  /// (1.0 / PI)`).
  void reportOperand(llvm::ArrayRef<const Verdict *> Group);
  /// One finding for the many literals of one function.
  void reportFunction(const FunctionDecl &F,
                      llvm::ArrayRef<const Verdict *> Group,
                      llvm::ArrayRef<const CallReport *> Calls);
  void noteIntegerToFloat(SourceLocation Loc, StringRef Spelling);
  /// The fix that writes `f` after the token at \p Token (a literal's
  /// suffix, `pow` to `powf`).
  FixItHint appendF(SourceLocation Token) const;

  void checkNvccDoublePow(const CallExpr *Call,
                          const ast_matchers::MatchFinder::MatchResult &Result);
  void checkMathCall(const CallExpr *Call,
                     const ast_matchers::MatchFinder::MatchResult &Result);

  const bool StrictNumerics;
  /// Also report literals in operations that nvcc already computes in float
  /// (the suffix changes no instruction).
  const bool ReportNarrowed;
  /// A function with at least this many literal findings gets one finding
  /// for all of them (0: never).
  const unsigned FunctionGroupMin;
  llvm::MapVector<SourceLocation, LiteralSite> Sites;
  llvm::DenseMap<SourceLocation, bool> ReportedCalls;
  std::vector<CallReport> CallReports;
  llvm::DenseSet<const FloatingLiteral *> VisitedLiterals;
  const SourceManager *SM = nullptr;
  const LangOptions *LangOpts = nullptr;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_DOUBLEPROMOTIONCHECK_H
