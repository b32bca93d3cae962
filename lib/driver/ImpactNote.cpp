//===--- ImpactNote.cpp - cuda-lint ---------------------------------------===//

#include "cudalint/driver/ImpactNote.h"
#include "cudalint/analysis/Impact.h"
#include "llvm/Support/Regex.h"

namespace cudalint {

llvm::json::Object ImpactNote::toJson() const {
  return llvm::json::Object{
      {"rank", Rank}, {"level", Level}, {"reason", Reason}};
}

std::string ImpactNote::toMessage() const {
  return "impact: " + Level + " (rank " + std::to_string(Rank) +
         "/100): " + Reason;
}

llvm::StringRef impactLevel(unsigned Rank) {
  using clang::tidy::cuda::Impact;
  return Rank >= Impact::HighFrom     ? "high"
         : Rank >= Impact::MediumFrom ? "medium"
                                      : "low";
}

std::optional<ImpactNote> parseImpactNote(llvm::StringRef Message) {
  static const llvm::Regex Re(
      "^impact: (low|medium|high) \\(rank ([0-9]+)/100\\): (.*)$");
  llvm::SmallVector<llvm::StringRef, 4> M;
  if (!Re.match(Message, &M))
    return std::nullopt;
  ImpactNote N;
  if (M[2].getAsInteger(10, N.Rank) || N.Rank > 100)
    return std::nullopt;
  N.Level = M[1].str();
  N.Reason = M[3].str();
  return N;
}

bool isImpactNote(const clang::tooling::DiagnosticMessage &N) {
  return parseImpactNote(N.Message).has_value();
}

std::optional<ImpactNote> findingImpact(const clang::tooling::Diagnostic &D) {
  for (const clang::tooling::DiagnosticMessage &N : D.Notes)
    if (std::optional<ImpactNote> I = parseImpactNote(N.Message))
      return I;
  return std::nullopt;
}

} // namespace cudalint
