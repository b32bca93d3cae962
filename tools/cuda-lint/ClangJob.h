//===--- ClangJob.h - cuda-lint as the compiler of one job ------*- C++ -*-===//
//
// `cuda-lint --clang-job ARGS...` compiles as `clang++ ARGS...` would, with
// the Clang linked into cuda-lint, for one compile job (no link step). A
// self-contained cuda-lint (CUDA_LINT_STATIC_LLVM) builds its precompiled
// CUDA prelude and include prefixes this way: a PCH must come from the very
// Clang that reads it, and such an install has no clang++ beside it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_CLANGJOB_H
#define CUDA_LINT_CLANGJOB_H

#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace cudalint {

/// Runs the compile job of the clang++ command line \p Args (without
/// argv[0]); diagnostics go to standard error. Returns the exit status:
/// 0 when it succeeded.
int runClangJob(const char *Argv0, llvm::ArrayRef<std::string> Args);

} // namespace cudalint

#endif
