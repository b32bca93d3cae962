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
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudalint {

/// Every `.cu` and `.cuh` file under \p Dir, recursively, as absolute paths
/// in sorted order. Hidden directories (`.git`, ...) are skipped.
std::vector<std::string> findCudaSources(llvm::StringRef Dir);

/// Where translationUnits looks for the files an `#include` names.
struct IncludeSearch {
  /// The include directories (absolute) of the command that compiles a file,
  /// searched after the including file's own directory.
  std::function<std::vector<std::string>(llvm::StringRef File)> IncludeDirs;
  /// When set (the directory walked), a name not found beside the includer
  /// nor in its include directories matches the files of the set whose path
  /// ends with it, the nearest ones to the includer, if they share with it a
  /// directory below this one (a sibling project's file of the same name is
  /// not a match).
  std::string SuffixRoot;
};

/// The translation units of \p Files: every file that no other file of the
/// set includes, directly or through other files. An included file (a `.cuh`
/// header, or a `.cu` file that another `.cu` file `#include`s, as many
/// CUDA codebases do) is analysed through the translation unit that includes
/// it (clang-tidy reports and fixes findings in included files too), not
/// alone: alone it often does not compile, and its findings would lack the
/// context of its includer (the launch, the block shape). Files that
/// include each other but that nothing else includes stay translation units.
/// Includes are read from the text (`#include "..."` and `<...>`, without
/// preprocessing) and resolved as \p Search says.
std::vector<std::string> translationUnits(llvm::ArrayRef<std::string> Files,
                                          const IncludeSearch &Search = {});

/// One `#include` directive read from a file's text.
struct IncludeDirective {
  llvm::StringRef Name; ///< The spelled name, without quotes or brackets.
  bool Quoted;          ///< `"..."` rather than `<...>`.
};

/// The `#include "..."` and `#include <...>` directives of \p Text, in order,
/// read line by line without preprocessing (names point into \p Text).
std::vector<IncludeDirective> includeDirectives(llvm::StringRef Text);

/// \p Path made absolute (against \p Base when it is relative and \p Base is
/// given, else the working directory), without `.` and `..` components.
std::string makeAbsolute(llvm::StringRef Path, llvm::StringRef Base = "");

/// \p File relative to the directory \p Root when it lies under it, else
/// \p File as it is (also when \p Root is empty).
std::string relativeTo(llvm::StringRef File, llvm::StringRef Root);

/// Whether \p File is a CUDA header by name (`.cuh`).
bool isCudaHeaderName(llvm::StringRef File);

/// The first line of a sanitizer's report (AddressSanitizer, LeakSanitizer,
/// MemorySanitizer, ThreadSanitizer, UndefinedBehaviorSanitizer's `runtime
/// error:`) in \p Err, a child's standard error, or "" when there is none.
std::string firstSanitizerReport(llvm::StringRef Err);

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

/// Whether \p D is a compile error (clang's `clang-diagnostic-error`, or
/// any diagnostic at the error level), not a check's finding.
bool isCompileError(const clang::tooling::Diagnostic &D);

/// No fix for code that does not compile: when \p Diags has a compile error
/// (or \p Anyway, a translation unit whose analysis failed), removes the
/// fixes, the notes' included, of every diagnostic that is not a compile
/// error (the compiler's own fix-its stay). Returns whether it did.
bool dropFixesOnCompileErrors(std::vector<clang::tooling::Diagnostic> &Diags,
                              bool Anyway = false);

/// One diagnostic with its position resolved to a line and column.
struct Finding {
  clang::tooling::Diagnostic Diag;
  std::string File;
  unsigned Line = 0, Column = 0;
};

/// Findings merged from many translation units. The same finding reported
/// through two translation units (a warning in a shared header) is kept once.
/// A location (check, file, offset) reported through two translation units
/// with two messages is one finding too: the better report is kept (the one
/// with a fix, then the one with more notes, then the one of the first
/// translation unit by name).
class FindingSet {
public:
  /// Adds the diagnostics of a clang-tidy --export-fixes YAML file (one
  /// translation unit, or a shard's merged findings). An empty file adds
  /// nothing. Returns false with \p Error set when it cannot be read.
  bool addYaml(llvm::StringRef Path, std::string &Error);
  /// Adds one diagnostic found through translation unit \p Unit; returns
  /// false when its location was already there (the better report is kept).
  bool add(const clang::tooling::Diagnostic &D, llvm::StringRef Unit = "");

  /// All findings sorted by file and position (compiler errors included).
  std::vector<Finding> findings() const;
  /// Writes the merged diagnostics as one --export-fixes YAML file.
  void writeYaml(llvm::raw_ostream &OS, llvm::StringRef MainFile = "") const;

  /// Line and column (1-based, in bytes) of \p Offset in \p File.
  std::pair<unsigned, unsigned> position(llvm::StringRef File,
                                         unsigned Offset) const;

private:
  std::vector<clang::tooling::Diagnostic> Diags;
  /// The translation unit each of Diags was reported through.
  std::vector<std::string> Units;
  std::map<std::string, std::vector<size_t>> Seen;
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
/// as SARIF fixes. Paths under \p Root are relative to `%SRCROOT%`. Files
/// that could not be analysed are error notifications; files analysed with
/// compile errors (\p WithErrors, their first error) warning notifications.
std::string toSarif(llvm::ArrayRef<Finding> Findings,
                    llvm::ArrayRef<Failure> Failures, llvm::StringRef Root,
                    llvm::StringRef DocsDir,
                    llvm::ArrayRef<Failure> WithErrors = {});

/// Merges SARIF logs written by toSarif (the runs of several shards) into one
/// log with one run. Returns std::nullopt with \p Error set on bad input.
std::optional<std::string> mergeSarif(llvm::ArrayRef<std::string> Logs,
                                      std::string &Error);

/// The JSON report for scripts: findings, fixes, failures (files not
/// analysed), the files analysed with compile errors (their first error),
/// the files whose analysis printed a sanitizer report (its first line), and
/// a summary.
std::string toJson(llvm::ArrayRef<Finding> Findings,
                   llvm::ArrayRef<Failure> Failures,
                   llvm::ArrayRef<Failure> WithErrors = {},
                   llvm::ArrayRef<Failure> Sanitizer = {});

/// The documentation link of a check.
std::string checkDocsUrl(llvm::StringRef Check);

} // namespace cudalint

#endif // CUDA_LINT_BULK_H
