//===--- FixVerify.h - cuda-lint --------------------------------*- C++ -*-===//
//
// --fix never breaks a build: before fixed files are written, every
// translation unit that sees a changed file is compiled again with the new
// contents, host and device side, with its own flags (in process with Clang,
// the files given as an in-memory overlay; or with the compile command's
// nvcc). A fix after which a translation unit has an error that it did not
// have before is withdrawn: the culprit is found by bisection over the fixes
// that touch the unit's files, the others are kept, and the file is written
// without it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_FIXVERIFY_H
#define CUDA_LINT_FIXVERIFY_H

#include "cudalint/driver/Bulk.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudalint {

/// How --fix checks the files it is about to write (--verify=).
enum class VerifyKind {
  None,  ///< --verify=none: written as planned.
  Clang, ///< --verify=clang (default): clang -fsyntax-only, host and device.
  Nvcc,  ///< --verify=nvcc: the compile command's nvcc, `-c -o /dev/null`.
};

/// Parses a --verify= value.
std::optional<VerifyKind> parseVerifyKind(llvm::StringRef Value);

/// A translation unit as it was analysed, to be compiled again.
struct VerifyUnit {
  std::string File;      ///< The main file, absolute.
  std::string Directory; ///< Where its command runs.
  /// The clang command line it was analysed with (argv[0] first; the
  /// device-side flags cuda-lint adds included).
  std::vector<std::string> ClangArgs;
  /// Its original compile command when that is an nvcc command, else empty.
  std::vector<std::string> NvccArgs;
  /// The files it is known to see besides File (absolute): headers where it
  /// reported findings or that its fixes edit.
  std::set<std::string> Files;
};

/// Reads and writes a unit as one JSON object (the `--export-command=` file
/// a bulk run's child writes for its translation unit).
std::string unitToJson(const VerifyUnit &U);
std::optional<VerifyUnit> unitFromJson(llvm::StringRef Text);

/// One fix that was withdrawn.
struct Withdrawal {
  std::string Where; ///< file:line:col of the finding.
  std::string Check;
  std::string Error; ///< The first new error, file:line:col: message.
};

/// The unit's clang command for one side, with -fsyntax-only: the device
/// side as analysed; the host side with --cuda-host-only and without the
/// device-side prelude PCH.
std::vector<std::string> clangSideArgs(const VerifyUnit &U, bool Host);

/// Runs \p Action with the clang command \p Args over the files as \p U
/// sees them, with \p Contents (absolute path -> text) in place of those on
/// disk, from the unit's directory. Returns its errors, each
/// `file:line:col: message` ("the compiler could not be run" when it failed
/// without one).
std::vector<std::string>
runClang(const VerifyUnit &U,
         const std::map<std::string, std::string> &Contents,
         const std::vector<std::string> &Args,
         std::unique_ptr<clang::FrontendAction> Action);

/// The new contents of the files of \p U (its main file and the files it is
/// known to see) when only the findings of \p Subset are fixed.
std::map<std::string, std::string> unitContents(const VerifyUnit &U,
                                                llvm::ArrayRef<Finding> Subset);

/// The errors of \p Unit compiled with the files in \p Contents (absolute
/// path -> text) in place of those on disk; \p Host selects the host side
/// (clang only: --cuda-host-only instead of --cuda-device-only). Each error
/// is `file:line:col: message`. Exposed for tests.
std::vector<std::string>
compileErrors(const VerifyUnit &Unit, VerifyKind Kind, bool Host,
              const std::map<std::string, std::string> &Contents);

/// Verifies \p Plan (planned from \p Findings) against \p Units with
/// \p Kind, using up to \p Jobs threads. The fix of each finding whose
/// fix makes a unit fail to compile is removed from \p Findings, and \p Plan
/// is planned again without it. Returns the withdrawals, in the order of
/// the findings.
std::vector<Withdrawal> verifyFixPlan(FixPlan &Plan,
                                      std::vector<Finding> &Findings,
                                      llvm::ArrayRef<VerifyUnit> Units,
                                      VerifyKind Kind, unsigned Jobs);

/// Prints each withdrawal as `cuda-lint: error: file:line:col: fix
/// withdrawn: it makes the file fail to compile: <first error>`.
void reportWithdrawals(llvm::ArrayRef<Withdrawal> Withdrawn);

} // namespace cudalint

#endif // CUDA_LINT_FIXVERIFY_H
