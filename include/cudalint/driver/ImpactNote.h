//===--- ImpactNote.h - cuda-lint -------------------------------*- C++ -*-===//
//
// The impact estimate a check attaches to each finding as a note at its
// location, `impact: <level> (rank N/100): <reason>` (lib/checks/CudaCheck.h,
// docs/impact.md), read back for the JSON report (an "impact" object) and
// SARIF (the result's `rank`, SARIF 2.1.0 §3.27.11, and its properties).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_IMPACTNOTE_H
#define CUDA_LINT_IMPACTNOTE_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>

namespace cudalint {

struct ImpactNote {
  unsigned Rank = 50;
  std::string Level, Reason;

  /// {"rank": N, "level": "...", "reason": "..."}
  llvm::json::Object toJson() const;
  /// The note's message, `impact: <level> (rank N/100): <reason>`.
  std::string toMessage() const;
};

/// The level of a rank: high from 65, medium from 35, low below.
llvm::StringRef impactLevel(unsigned Rank);

/// The estimate a note's message gives, when it is an impact note.
std::optional<ImpactNote> parseImpactNote(llvm::StringRef Message);

/// Whether \p N is the impact note of its finding.
bool isImpactNote(const clang::tooling::DiagnosticMessage &N);

/// The impact of a finding, from its notes.
std::optional<ImpactNote> findingImpact(const clang::tooling::Diagnostic &D);

} // namespace cudalint

#endif // CUDA_LINT_IMPACTNOTE_H
