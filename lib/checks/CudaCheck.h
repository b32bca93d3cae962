//===--- CudaCheck.h - cuda-lint --------------------------------*- C++ -*-===//
//
// The base of every cuda-* check: a ClangTidyCheck whose warnings carry an
// impact estimate (include/cudalint/analysis/Impact.h). `diag()` here hides
// ClangTidyCheck::diag: each warning is followed by one note at its
// location, `impact: <level> (rank N/100): <reason>` (one line of text: clang
// does not repeat the excerpt of a location), that both front ends print and
// the JSON and SARIF reports read back as fields; a performance finding
// ranked below the `MinImpact` option (low, medium or high; default medium;
// the driver's --min-impact sets it for every check) is not emitted, its
// notes and fixes with it. Correctness checks are ranked but never hidden.
// docs/impact.md has the model.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_CUDACHECK_H
#define CUDA_LINT_CUDACHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "cudalint/analysis/Impact.h"
#include <optional>
#include <string>
#include <type_traits>

namespace clang::tidy::cuda {

class CudaCheck;

/// A diagnostic under construction: forwards `<<` to clang's builder (or
/// drops it, for a hidden finding); on destruction emits the diagnostic,
/// then its impact note. Copying moves the diagnostic, as DiagnosticBuilder
/// does.
class CudaDiag {
public:
  CudaDiag(std::optional<DiagnosticBuilder> B, CudaCheck *Owner = nullptr,
           std::string Note = "", SourceLocation Loc = SourceLocation())
      : B(std::move(B)), Owner(Owner), Note(std::move(Note)), Loc(Loc) {}
  CudaDiag(const CudaDiag &O) : B(std::move(O.B)), Owner(O.Owner), Loc(O.Loc) {
    Note.swap(O.Note);
    O.B.reset();
    O.Owner = nullptr;
  }
  CudaDiag &operator=(const CudaDiag &) = delete;
  ~CudaDiag();

  template <typename T> const CudaDiag &operator<<(const T &V) const {
    if (B)
      *B << V;
    return *this;
  }
  template <typename T,
            typename = std::enable_if_t<!std::is_lvalue_reference<T>::value>>
  const CudaDiag &operator<<(T &&V) const {
    if (B)
      *B << std::move(V);
    return *this;
  }

private:
  mutable std::optional<DiagnosticBuilder> B;
  mutable CudaCheck *Owner;
  mutable std::string Note;
  SourceLocation Loc;
};

class CudaCheck : public ClangTidyCheck {
public:
  CudaCheck(StringRef Name, ClangTidyContext *Context);

  void onStartOfTranslationUnit() override;
  /// Every cuda-* check reads CUDA only.
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

protected:
  /// ClangTidyCheck::diag, with the impact note after a warning; a
  /// performance warning below MinImpact is dropped, and so are the notes
  /// that follow it.
  CudaDiag diag(SourceLocation Loc, StringRef Description,
                DiagnosticIDs::Level Level = DiagnosticIDs::Warning);
  CudaDiag diag(StringRef Description,
                DiagnosticIDs::Level Level = DiagnosticIDs::Warning);
  /// diag() for a warning whose fix changes no instruction (\p Why says how
  /// that is known, e.g. nvcc already computes it so): ranked low, at most
  /// 5, whatever the code around it, and so hidden by the default profile.
  CudaDiag diagNoCodeChange(SourceLocation Loc, StringRef Description,
                            StringRef Why);
  /// diag() for a warning that the check knows to be worth less than where
  /// it runs says: ranked at most \p MaxRank, with \p Why as the reason
  /// when the cap lowers the model's rank (e.g. `every load of 'p' precedes
  /// the stores: __restrict__ only adds .nc`). The model's rank and reason
  /// stand when they are already lower.
  CudaDiag diagCapped(SourceLocation Loc, StringRef Description,
                      unsigned MaxRank, StringRef Why);
  /// diag() for a warning whose worth does not depend on where the code
  /// runs (a build break): ranked at least \p MinRank, with \p Why as the
  /// reason when that raises the model's rank.
  CudaDiag diagAtLeast(SourceLocation Loc, StringRef Description,
                       unsigned MinRank, StringRef Why);
  /// The rank the impact model gives a finding at \p Loc (50 where the
  /// model is off): for a finding made of several sites, to report it at
  /// the one that runs hottest.
  unsigned rankAt(SourceLocation Loc);

private:
  friend class CudaDiag;
  void run(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void emitNote(SourceLocation Loc, StringRef Note);
  CudaDiag diagRanked(SourceLocation Loc, StringRef Description,
                      DiagnosticIDs::Level Level, unsigned MaxRank = 100,
                      StringRef Why = "", unsigned MinRank = 0);

  ASTContext *Ctx = nullptr;
  /// A correctness check: ranked, never hidden.
  bool Correctness;
  Impact::Level MinImpact = Impact::Medium;
};

} // namespace clang::tidy::cuda

#endif // CUDA_LINT_CUDACHECK_H
