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
#include "llvm/ADT/ArrayRef.h"
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
///
/// \p Includes are headers (absolute paths) that the command also
/// `-include`s, such as the legacy compatibility header: they are
/// precompiled into a variant of the prelude, after clang's CUDA wrapper as
/// `-include` puts them, and their paths, sizes, modification times and
/// contents are part of its key. The caller keeps its `-include`s: with the
/// variant they cost nothing (the include guard is known from the PCH),
/// and without it they are parsed as before. When the variant cannot be
/// built, the variant of all but the last include is returned (and so on,
/// down to the plain prelude): a broken legacy header does not cost the
/// precompiled nvcc compatibility header.
std::optional<std::string>
preludePch(const std::vector<std::string> &Args, llvm::StringRef File,
           llvm::StringRef Directory, const CudaEnvironment &Env,
           llvm::ArrayRef<std::string> Includes = {});

} // namespace cudalint

#endif // CUDA_LINT_PRECOMPILEDPRELUDE_H
