//===--- Bulk.h - cuda-lint -------------------------------------*- C++ -*-===//
//
// Running cuda-lint over many translation units: finding the inputs (a
// directory, a whole compile database, a shard of either, the files a git
// change touched), running one child cuda-lint per translation unit in
// parallel, merging what they found (de-duplicating header findings and
// fixes, refusing conflicting fixes), and writing it as text, JSON or SARIF.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_BULK_H
#define CUDA_LINT_BULK_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudalint {

/// Every `.cu` and `.cuh` file under \p Dir, recursively, as absolute paths
/// in sorted order. Hidden directories (`.git`, ...) are skipped.
std::vector<std::string> findCudaSources(llvm::StringRef Dir);

/// The translation units of \p Files (as findCudaSources returns them): every
/// `.cu` file, and only the `.cuh` headers that no file in the set includes,
/// directly or through other headers. An included header is analysed
/// through the translation unit that includes it (clang-tidy reports and
/// fixes findings in headers too); a header alone is linted as its own
/// translation unit. Includes are read from the text (`#include "..."` and
/// `<...>`), resolved beside the including file, then by path suffix.
std::vector<std::string> translationUnits(llvm::ArrayRef<std::string> Files);

/// One `#include` directive read from a file's text.
struct IncludeDirective {
  llvm::StringRef Name; ///< The spelled name, without quotes or brackets.
  bool Quoted;          ///< `"..."` rather than `<...>`.
};

/// The `#include "..."` and `#include <...>` directives of \p Text, in order,
/// read line by line without preprocessing (names point into \p Text).
std::vector<IncludeDirective> includeDirectives(llvm::StringRef Text);

/// Whether \p File is a CUDA header by name (`.cuh`).
bool isCudaHeaderName(llvm::StringRef File);

/// Parses `K/N` (1 <= K <= N).
bool parseShard(llvm::StringRef Spec, unsigned &K, unsigned &N);

/// The K-th of N deterministic shares of \p Files: the files are sorted and
/// dealt out round-robin, so that every file is in exactly one share and the
/// shares differ in size by at most one.
std::vector<std::string> selectShard(llvm::ArrayRef<std::string> Files,
                                     unsigned K, unsigned N);

/// Lines added or changed per file (absolute paths), as inclusive ranges.
using LineRanges =
    std::map<std::string, std::vector<std::pair<unsigned, unsigned>>>;

/// Reads the output of `git diff -U0` (file names relative to \p Root).
/// Deleted files and pure deletions contribute nothing.
LineRanges parseUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Root);

/// clang-tidy's --line-filter JSON for \p Ranges.
std::string lineFilterJson(const LineRanges &Ranges);

/// Reads the diagnostics of a clang-tidy --export-fixes YAML file; an empty
/// file has none. Returns false with \p Error set when it cannot be read.
bool readFixesYaml(llvm::StringRef Path,
                   std::vector<clang::tooling::Diagnostic> &Out,
                   std::string &Error);

/// One diagnostic with its position resolved to a line and column.
struct Finding {
  clang::tooling::Diagnostic Diag;
  std::string File;
  unsigned Line = 0, Column = 0;
};

/// Findings merged from many translation units. The same finding reported
/// through two translation units (a warning in a shared header) is kept once.
class FindingSet {
public:
  /// Adds the diagnostics of a clang-tidy --export-fixes YAML file. An empty
  /// file adds nothing. Returns false with \p Error set when it cannot be read.
  bool addYaml(llvm::StringRef Path, std::string &Error);
  /// Adds one diagnostic; returns false when it was already there.
  bool add(const clang::tooling::Diagnostic &D);

  /// All findings sorted by file and position (compiler errors included).
  std::vector<Finding> findings() const;
  /// Writes the merged diagnostics as one --export-fixes YAML file.
  void writeYaml(llvm::raw_ostream &OS, llvm::StringRef MainFile = "") const;

  /// Line and column (1-based, in bytes) of \p Offset in \p File.
  std::pair<unsigned, unsigned> position(llvm::StringRef File,
                                         unsigned Offset) const;

private:
  std::vector<clang::tooling::Diagnostic> Diags;
  std::map<std::string, size_t> Seen;
  mutable std::map<std::string, std::string> Contents;
};

/// The result of merging the fixes of many findings.
struct FixPlan {
  /// New contents of each file that changes.
  std::map<std::string, std::string> NewContents;
  /// Number of distinct edits per file that is changed.
  std::map<std::string, unsigned> EditCount;
  /// One message per conflict; the file it names gets no fix at all.
  std::vector<std::string> Conflicts;
  /// Files whose fixes could not be computed (unreadable, out of range).
  std::vector<std::string> Errors;
};

/// Merges the fixes of \p Findings per file: identical edits (the same header
/// fix from two translation units) are applied once; overlapping different
/// edits are a conflict, and the file they are in is left alone.
FixPlan planFixes(llvm::ArrayRef<Finding> Findings);

/// Why \p File must not be rewritten by --fix (it does not exist, or it is
/// not writable: no write permission for this user, or no owner write bit,
/// which marks a file read-only even for root), or nothing.
std::optional<std::string> notWritableReason(llvm::StringRef File);

/// Prints each conflict and error of \p Plan as a one-line error; true when
/// there are none.
bool reportPlanProblems(const FixPlan &Plan);

/// What writeFixPlan did.
struct PlanWrite {
  llvm::StringSet<> Written; ///< The files written.
  unsigned Edits = 0;        ///< Their distinct edits.
  bool Ok = true;            ///< Every file of the plan was written.
};

/// Writes every file of \p Plan with writeFileAtomically. A file that is not
/// writable (notWritableReason) or cannot be written is reported as a
/// one-line error naming it and left unchanged.
PlanWrite writeFixPlan(const FixPlan &Plan);

/// Replaces the contents of \p File with \p Text atomically: the text goes to
/// a temporary file in the same directory, with the original's permissions
/// (and owner, where allowed), which is then renamed over it. A symbolic link
/// is followed, so its target changes, not the link. The original is never
/// opened for writing, so an interrupted run leaves it old or new. Returns an
/// error message, or nothing on success.
std::optional<std::string> writeFileAtomically(llvm::StringRef File,
                                               llvm::StringRef Text);

/// A unified diff (`diff -u` style, with a/ and b/ prefixes relative to
/// \p Root) of every file \p Plan changes.
std::string unifiedDiff(const FixPlan &Plan, llvm::StringRef Root);

/// A file that could not be analysed.
struct Failure {
  std::string File;
  std::string Reason;
};

/// SARIF 2.1.0: one run, one rule per check (with its documentation link and
/// description), results with regions, notes as related locations and fixes
/// as SARIF fixes. Paths under \p Root are relative to `%SRCROOT%`.
std::string toSarif(llvm::ArrayRef<Finding> Findings,
                    llvm::ArrayRef<Failure> Failures, llvm::StringRef Root,
                    llvm::StringRef DocsDir);

/// Merges SARIF logs written by toSarif (the runs of several shards) into one
/// log with one run. Returns std::nullopt with \p Error set on bad input.
std::optional<std::string> mergeSarif(llvm::ArrayRef<std::string> Logs,
                                      std::string &Error);

/// The JSON report for scripts: findings, fixes, failures and a summary.
std::string toJson(llvm::ArrayRef<Finding> Findings,
                   llvm::ArrayRef<Failure> Failures);

/// The documentation link of a check.
std::string checkDocsUrl(llvm::StringRef Check);

} // namespace cudalint

#endif // CUDA_LINT_BULK_H
