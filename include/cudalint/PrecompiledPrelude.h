//===--- PrecompiledPrelude.h - cuda-lint -----------------------*- C++ -*-===//
//
// Every .cu file pays for the CUDA runtime wrapper headers that clang
// includes implicitly (about 0.5 s of a 0.6 s parse here). A precompiled
// header of that prelude, built once per toolkit, clang and flag set and
// kept in a cache directory, cuts the cost to a fraction.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PRECOMPILEDPRELUDE_H
#define CUDA_LINT_PRECOMPILEDPRELUDE_H

#include "cudalint/CompileFlags.h"
#include <optional>
#include <string>
#include <vector>

namespace cudalint {

/// The cache directory: $CUDA_LINT_CACHE_DIR, else $XDG_CACHE_HOME/cuda-lint,
/// else ~/.cache/cuda-lint.
std::string cacheDirectory();

/// The flags of compile command \p Args (argv[0] first, input included) that
/// determine the prelude: the input, outputs, dependency-file flags and
/// `-include` files removed.
std::vector<std::string> preludeFlags(const std::vector<std::string> &Args,
                                      llvm::StringRef File);

/// A precompiled prelude for \p Args run in \p Directory, built with the
/// installed clang on first use and cached under a key of the flags, the
/// clang version, and the CUDA and wrapper headers it was built from. None
/// when the command is not a device-only CUDA parse with a toolkit, or the
/// build fails (linting then goes on without it).
std::optional<std::string> preludePch(const std::vector<std::string> &Args,
                                      llvm::StringRef File,
                                      llvm::StringRef Directory,
                                      const CudaEnvironment &Env);

} // namespace cudalint

#endif // CUDA_LINT_PRECOMPILEDPRELUDE_H
