//===--- NvccCommand.h - cuda-lint ------------------------------*- C++ -*-===//
//
// A translation unit's own nvcc command, run again by the driver: by
// --fix --verify=nvcc (the fixed files compiled before they are written) and
// by --prove=ptx (the device code compiled to PTX with and without a fix).
// The command is the compile database's, without what names its outputs;
// it runs from the unit's directory.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_NVCCCOMMAND_H
#define CUDA_LINT_NVCCCOMMAND_H

#include "cudalint/driver/FixVerify.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudalint {

/// \p U's nvcc command without its outputs (`-o`, `-c`, the `-M` family),
/// argv[0] first; empty when \p U has no nvcc command.
std::vector<std::string> nvccCommandWithoutOutputs(const VerifyUnit &U);

/// Whether \p U's nvcc command names an nvcc that can be run (an absolute
/// path, or a name found on PATH).
bool nvccAvailable(const VerifyUnit &U);

/// Runs \p Args (argv[0] first) from \p U's directory; \p Output receives
/// what it printed on stdout and stderr. Returns its exit code (-1 when it
/// could not be run).
int runInUnitDirectory(const VerifyUnit &U, llvm::ArrayRef<std::string> Args,
                       std::string &Output);

/// The error lines of nvcc's \p Output (`file(12): error: ...`,
/// `nvcc fatal : ...`).
std::vector<std::string> nvccErrorLines(llvm::StringRef Output);

/// The project files \p U's nvcc reads (its main file and the headers
/// `nvcc -MM` lists, absolute, the toolkit's own headers left out); with
/// \p Error set when nvcc fails.
std::optional<std::vector<std::string>> nvccProjectFiles(const VerifyUnit &U,
                                                         std::string &Error);

/// The PTX nvcc makes of \p U's device code for \p Arch (`sm_90`; the
/// command's own architectures when empty) with \p Contents (absolute path
/// -> text) in place of the files on disk. The files are not touched:
/// \p ProjectFiles (nvccProjectFiles) are copied into a scratch mirror of
/// their absolute paths, with the new contents, and every include directory
/// of the command is searched in the mirror first. A changed file that is
/// not among \p ProjectFiles is an error, never silently left out.
std::optional<std::string>
nvccPtx(const VerifyUnit &U, llvm::ArrayRef<std::string> ProjectFiles,
        const std::map<std::string, std::string> &Contents,
        llvm::StringRef Arch, std::string &Error);

} // namespace cudalint

#endif // CUDA_LINT_NVCCCOMMAND_H
