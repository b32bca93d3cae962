//===--- CudaCheck.cpp - cuda-lint ----------------------------------------===//

#include "CudaCheck.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>

namespace clang::tidy::cuda {

namespace {

/// The checks whose findings are wrong code, not slow code: they are
/// ranked like the others but MinImpact never hides them (docs/impact.md).
bool isCorrectnessCheck(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"cuda-warp-synchronous", "cuda-divergent-barrier",
              "cuda-unsynchronized-timing", "cuda-legacy-runtime-api",
              "cuda-legacy-warp-intrinsic", "cuda-restrict-aliasing",
              "cuda-pageable-async-copy"},
             true)
      .Default(false);
}

/// Whether the last warning was hidden: its notes are dropped with it.
/// Shared by all checks: a check's notes follow its warning within one
/// callback, whichever check ran before. Per thread: cuda-clangd analyses
/// files on several threads.
thread_local bool LastWarningHidden = false;

} // namespace

CudaDiag::~CudaDiag() {
  if (!B)
    return;
  B.reset(); // Emits the warning,
  if (Owner && !Note.empty())
    Owner->emitNote(Loc, Note); // then its impact note.
}

CudaCheck::CudaCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Correctness(isCorrectnessCheck(Name)) {
  StringRef Min = Options.getLocalOrGlobal("MinImpact", "medium");
  if (std::optional<Impact::Level> L = Impact::parseLevel(Min))
    MinImpact = *L;
  else
    configurationDiag("invalid value '%0' for %1.MinImpact: expected low, "
                      "medium or high")
        << Min << Name;
}

void CudaCheck::onStartOfTranslationUnit() {
  Ctx = nullptr;
  LastWarningHidden = false;
  resetImpactModel();
}

void CudaCheck::run(const ast_matchers::MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  check(Result);
}

unsigned CudaCheck::rankAt(SourceLocation Loc) {
  if (!impactEnabled() || !Ctx || Loc.isInvalid())
    return 50;
  return impactModelFor(*Ctx).estimate(Loc).Rank;
}

void CudaCheck::emitNote(SourceLocation Loc, StringRef Note) {
  // The message is text, not a format: escape the '%' a reason may hold.
  std::string Escaped;
  for (char C : Note) {
    Escaped += C;
    if (C == '%')
      Escaped += '%';
  }
  // At the expansion of a macro: a note inside one would repeat the
  // warning's "expanded from macro" notes.
  if (Loc.isMacroID() && Ctx)
    Loc = Ctx->getSourceManager().getExpansionLoc(Loc);
  ClangTidyCheck::diag(Loc, Escaped, DiagnosticIDs::Note);
}

CudaDiag CudaCheck::diag(SourceLocation Loc, StringRef Description,
                         DiagnosticIDs::Level Level) {
  return diagRanked(Loc, Description, Level);
}

CudaDiag CudaCheck::diagNoCodeChange(SourceLocation Loc, StringRef Description,
                                     StringRef Why) {
  return diagRanked(Loc, Description, DiagnosticIDs::Warning, 5,
                    ("the fix changes no instruction: " + Why).str());
}

CudaDiag CudaCheck::diagCapped(SourceLocation Loc, StringRef Description,
                               unsigned MaxRank, StringRef Why) {
  return diagRanked(Loc, Description, DiagnosticIDs::Warning, MaxRank, Why);
}

CudaDiag CudaCheck::diagAtLeast(SourceLocation Loc, StringRef Description,
                                unsigned MinRank, StringRef Why) {
  return diagRanked(Loc, Description, DiagnosticIDs::Warning, 100, Why,
                    MinRank);
}

CudaDiag CudaCheck::diagRanked(SourceLocation Loc, StringRef Description,
                               DiagnosticIDs::Level Level, unsigned MaxRank,
                               StringRef Why, unsigned MinRank) {
  if (Level == DiagnosticIDs::Note || Level == DiagnosticIDs::Remark) {
    if (LastWarningHidden)
      return CudaDiag(std::nullopt);
    return CudaDiag(ClangTidyCheck::diag(Loc, Description, Level));
  }
  LastWarningHidden = false;
  if (!impactEnabled() || !Ctx || Loc.isInvalid())
    return CudaDiag(ClangTidyCheck::diag(Loc, Description, Level));
  Impact I = impactModelFor(*Ctx).estimate(Loc);
  if (I.Rank > MaxRank || I.Rank < MinRank) {
    I.Rank = std::clamp(I.Rank, MinRank, MaxRank);
    I.Lvl = Impact::levelOf(I.Rank);
    I.Reason = Why.str();
  }
  Impact::Level Min = minImpactOverride().value_or(MinImpact);
  if (!Correctness && I.Lvl < Min) {
    LastWarningHidden = true;
    return CudaDiag(std::nullopt);
  }
  return CudaDiag(ClangTidyCheck::diag(Loc, Description, Level), this, I.note(),
                  Loc);
}

CudaDiag CudaCheck::diag(StringRef Description, DiagnosticIDs::Level Level) {
  LastWarningHidden = false;
  return CudaDiag(ClangTidyCheck::diag(Description, Level), nullptr, "");
}

} // namespace clang::tidy::cuda
