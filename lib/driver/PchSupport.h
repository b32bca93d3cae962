//===--- PchSupport.h - cuda-lint -------------------------------*- C++ -*-===//
//
// What PrecompiledPrelude.cpp and PrefixPch.cpp share; private to the
// driver library.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PCHSUPPORT_H
#define CUDA_LINT_PCHSUPPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cudalint {

/// Whether \p Flags name a path relative to the working directory where the
/// headers are searched (then a PCH depends on the directory it is built in).
bool flagsNeedDirectory(llvm::ArrayRef<std::string> Flags);

/// \p Path with its size and modification time, for a PCH's key.
std::string stamp(llvm::StringRef Path);

/// The command that builds a PCH, program first: clang++-22 (or clang-22),
/// or, in a self-contained cuda-lint (CUDA_LINT_SELF_CLANG), this executable
/// with --clang-job, whose Clang is the one that reads the PCH.
std::optional<std::vector<std::string>> clangCommand();

/// Moves \p Tmp to \p Path unless \p Path exists; true when \p Path exists
/// afterwards.
bool publishOnce(llvm::StringRef Tmp, llvm::StringRef Path);

/// Writes \p Text to a new temporary file beside \p Path (`Path.XXXXXX.tmp`),
/// whose name \p Tmp receives; false, with no file left, where it cannot.
bool writeTemporary(llvm::StringRef Path, llvm::StringRef Text,
                    llvm::SmallVectorImpl<char> &Tmp);

/// Writes \p Text to \p Path unless the file exists, atomically.
bool writeOnce(llvm::StringRef Path, llvm::StringRef Text);

/// Records a use of the PCH named \p Key in \p Dir, for the cache's
/// least-recently-used bound.
void markUsed(llvm::StringRef Dir, llvm::StringRef Key);

} // namespace cudalint

#endif // CUDA_LINT_PCHSUPPORT_H
