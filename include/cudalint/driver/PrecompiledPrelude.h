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

#include "cudalint/driver/CompileFlags.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
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

/// A directive of a source's leading lines.
struct PrefixLine {
  std::string Text;    ///< As written (continued lines joined by their `\`).
  std::string Include; ///< The header named, for an `#include`.
  bool Quoted = false; ///< `#include "..."`.
};

/// The leading directives of a source: those before anything but comments
/// and blank lines that are `#include`s of a named header, `#define`,
/// `#undef` or conditionals. Any other directive (`#pragma`, a computed
/// include) or code ends them.
std::vector<PrefixLine> leadingDirectives(llvm::StringRef Text);

/// When a PCH of a source's include prefix is built: `Auto` the second time
/// the prefix is seen (a PCH costs more to build than the headers cost to
/// parse once), `Eager` the first time, `Off` never. From
/// $CUDA_LINT_PREFIX_PCH (`off`, `eager`; anything else is `Auto`).
enum class PrefixPolicy { Off, Auto, Eager };
PrefixPolicy prefixPchPolicy();

/// A PCH of the CUDA prelude and the leading directives of \p File (its
/// includes, with the definitions and conditionals around them), for compile
/// command \p Args (argv[0] first, with the prelude's `-include-pch`), run
/// in \p Directory; it extends the prelude PCH (a chained PCH), so it holds
/// only what the prefix adds: the headers every file of a code base begins
/// with (`<stdio.h>`, thrust, the project's helpers). \p UserHeaders tells
/// whether it holds a header of the build's own (found beside the file or
/// through `-I`, `-iquote` or `-idirafter`), whose declarations the checks
/// must then take from the PCH (setUserHeadersPrecompiled).
///
/// Cached by the flags, the prefix's text and the size and modification
/// time of every file the PCH was built from (checked on each use; a change
/// builds a new one). The file is parsed with the PCH in place of the
/// prelude's, and repeats the prefix: its includes cost nothing when they
/// are include-guarded, and a prefix with a header that is not (which the
/// build, holding the prefix twice, detects) is not used. None when there
/// is no such prefix, by \p Policy, or when the build fails.
std::optional<std::string> prefixPch(const std::vector<std::string> &Args,
                                     llvm::StringRef File,
                                     llvm::StringRef Directory,
                                     PrefixPolicy Policy,
                                     bool *UserHeaders = nullptr);

/// The prelude PCH that the prefix PCH \p Pch extends (\p Pch itself when it
/// is not a prefix PCH). A fix to a header that a prefix PCH holds makes
/// the PCH out of date: the fixed unit is compiled again with the prelude.
std::string basePch(llvm::StringRef Pch);

/// The bound of the PCH cache's size: $CUDA_LINT_PCH_MAX_SIZE, else 4 GiB.
uint64_t pchCacheMaxSize();

/// Removes the least recently used PCHs of \p Dir (with the files they were
/// built from) until it holds at most 90% of \p MaxSize, when it holds more
/// than \p MaxSize. PCHs used in the last 10 minutes are kept.
void evictPchCache(llvm::StringRef Dir, uint64_t MaxSize);

} // namespace cudalint

#endif // CUDA_LINT_PRECOMPILEDPRELUDE_H
