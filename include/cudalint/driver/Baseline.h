//===--- Baseline.h - cuda-lint ---------------------------------*- C++ -*-===//
//
// A baseline: the findings of a codebase recorded once (`--write-baseline`),
// so that later runs (`--baseline FILE`) report only the new ones, and a
// strict check can be adopted without fixing everything first.
//
// A finding is recorded by its check, its file (relative to the baseline
// file's directory) and a fingerprint: a hash of the whitespace-collapsed
// text of its line and the lines before and after it, and of its message.
// The line number is not part of it, so that lines inserted or removed
// elsewhere in the file do not revive a recorded finding; identical findings
// are counted, so that N recorded ones suppress N.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_BASELINE_H
#define CUDA_LINT_BASELINE_H

#include "cudalint/driver/Bulk.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace cudalint {

class Baseline {
public:
  /// The baseline file \p File (its directory roots the relative paths).
  explicit Baseline(llvm::StringRef File);

  /// Reads the file. Returns false with \p Error set when it cannot be read
  /// or is not a baseline.
  bool load(std::string &Error);
  /// Records \p Findings (compile errors left out) and writes the file.
  bool write(llvm::ArrayRef<Finding> Findings, std::string &Error);
  /// Removes from \p Findings those the baseline records (each recorded
  /// finding suppresses as many as were counted). Returns how many were
  /// removed; \p Removed gets them.
  unsigned filter(std::vector<Finding> &Findings,
                  std::vector<Finding> *Removed = nullptr) const;

  /// The key of a finding: check, relative file, fingerprint.
  using Key = std::tuple<std::string, std::string, std::string>;
  Key keyOf(const Finding &F) const;
  size_t size() const;

private:
  std::string File, Dir;
  std::map<Key, unsigned> Counts;
  /// The text of each source file read, by absolute path.
  mutable std::map<std::string, std::vector<std::string>> Lines;
  const std::vector<std::string> &linesOf(const std::string &Path) const;
};

/// The fingerprint of a finding at line \p Line (1-based) of a file with
/// lines \p Lines: a hash of the whitespace-collapsed lines Line-1..Line+1
/// and of \p Message.
std::string baselineFingerprint(llvm::ArrayRef<std::string> Lines,
                                unsigned Line, llvm::StringRef Message);

} // namespace cudalint

#endif // CUDA_LINT_BASELINE_H
