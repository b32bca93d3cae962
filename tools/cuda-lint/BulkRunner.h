//===--- BulkRunner.h - cuda-lint bulk runs ---------------------*- C++ -*-===//
//
// Many translation units at once: one child cuda-lint per translation unit,
// run in parallel, with progress, a summary, merged fixes and reports.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_BULKRUNNER_H
#define CUDA_LINT_BULKRUNNER_H

#include "cudalint/driver/FixVerify.h"
#include "cudalint/driver/PtxProof.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudalint {

struct BulkOptions {
  /// This executable, run once per translation unit.
  std::string Self;
  /// Options every child gets (clang-tidy options and cuda-lint's own).
  std::vector<std::string> ChildArgs;
  /// Compile arguments after `--`, when given.
  bool HasDoubleDash = false;
  std::vector<std::string> CompileArgs;
  /// Files and directories as given on the command line.
  std::vector<std::string> Inputs;
  /// The -p value, when given.
  std::string BuildPath;
  unsigned Jobs = 0;
  std::string Format = "text"; // text | json | sarif
  std::string Output;          // report file; stdout when empty
  bool Fix = false, FixErrors = false, FixNotes = false, Diff = false,
       Quiet = false;
  std::string ExportFixes;
  unsigned ShardK = 0, ShardN = 0;
  /// --changed-lines: "" compares the index with HEAD (what a commit adds),
  /// otherwise a revision to compare the working tree with.
  std::optional<std::string> ChangedLines;
  /// --merge: the inputs are fixes YAML or SARIF files of earlier runs.
  bool Merge = false;
  std::string Progress = "auto"; // auto | bar | lines | none
  /// A file still being analysed after this many seconds is killed and
  /// reported as not analysed; 0 waits for ever.
  double TimeoutSeconds = 300;
  /// Several files named without any bulk option: each still runs in its own
  /// process (a crash costs one file), but the output is clang-tidy's: no
  /// progress and no summary; a file that could not be analysed for another
  /// reason than its compile errors gets a one-line error.
  bool Implicit = false;
  /// --prove=ptx: each device-code fix compiled to PTX (PtxProof.h); a
  /// finding whose fix changes no instruction is ranked low, and hidden
  /// below MinImpact.
  bool ProvePtx = false;
  /// --prove=ptx-nvcc, ptx-clang (Auto: nvcc where it can be run).
  PtxBackend ProveBackend = PtxBackend::Auto;
  /// --min-impact as given ("" for the default, medium).
  std::string MinImpact;
  /// How --fix checks that the translation units still compile (--verify=).
  VerifyKind Verify = VerifyKind::Clang;
  /// --baseline: findings recorded in this file are not reported; with
  /// --write-baseline the file is written first, with this run's findings.
  std::string Baseline;
  bool WriteBaseline = false;
  /// The results cache (see ResultCache.h); "" for none (--no-cache).
  std::string CacheDir;
  uint64_t CacheMaxSize = 0;
};

/// Runs a bulk lint; returns the exit code.
int runBulk(const BulkOptions &Opts);

} // namespace cudalint

#endif // CUDA_LINT_BULKRUNNER_H
