//===--- BulkReport.h - cuda-lint bulk reports ------------------*- C++ -*-===//
//
// The reports of a bulk run from its merged findings: text (deduplicated),
// JSON, SARIF, fixes and diffs, --merge of earlier runs, and the baseline.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_BULKREPORT_H
#define CUDA_LINT_BULKREPORT_H

#include "BulkRunner.h"
#include "cudalint/driver/Bulk.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace cudalint {

/// clang-tidy's text output with the diagnostics already printed left out
/// (and those of \p Suppressed, `file:line:col:check` keys, when given;
/// relative names are resolved against \p BaseDir, the compile command's
/// directory, too).
std::string dedupeText(llvm::StringRef Text, llvm::StringSet<> &Printed,
                       const llvm::StringMap<std::string> &Chosen,
                       const llvm::StringSet<> *Suppressed = nullptr,
                       llvm::StringRef BaseDir = "");

/// Writes \p Text to \p Output (standard output for "" or "-").
bool writeOutput(llvm::StringRef Output, llvm::StringRef Text);

/// Reports, fixes and diffs from merged findings. Returns false on an error.
bool emit(const BulkOptions &Opts, const FindingSet &Set,
          std::vector<Finding> Findings, const std::vector<Failure> &Failures,
          const std::vector<Failure> &WithErrors,
          const std::vector<Failure> &Sanitizer, llvm::StringRef Root,
          llvm::ArrayRef<VerifyUnit> Units);

/// --merge: combines fixes files or SARIF logs of earlier runs.
int runMerge(const BulkOptions &Opts, llvm::StringRef Root);

/// --baseline, --write-baseline: writes the baseline (with
/// Opts.WriteBaseline), then removes from \p Findings those it records,
/// adding their `file:line:col:check` keys to \p Suppressed; says how many
/// were left out unless Opts.Quiet. Returns false on an error (reported).
bool applyBaseline(const BulkOptions &Opts, std::vector<Finding> &Findings,
                   llvm::StringSet<> &Suppressed);

/// --prove=ptx: proves the fixes of \p Findings against \p Units (PtxProof.h)
/// on \p Jobs threads, then removes the findings the proof ranked below
/// Opts.MinImpact; says what it found unless Opts.Quiet. Returns the
/// findings the proof decided, hidden ones included, for the text output.
std::vector<Finding> proveFixes(const BulkOptions &Opts,
                                std::vector<Finding> &Findings,
                                llvm::ArrayRef<VerifyUnit> Units,
                                unsigned Jobs);

/// One `file:line:col: note: ptx: ... [check]` line per finding of
/// \p Proven, on standard output.
void printProofNotes(llvm::ArrayRef<Finding> Proven);

} // namespace cudalint

#endif // CUDA_LINT_BULKREPORT_H
