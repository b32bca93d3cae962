//===--- PtxClang.h - cuda-lint ---------------------------------*- C++ -*-===//
//
// A translation unit's device code compiled to PTX in process, with Clang's
// NVPTX back end: --prove=ptx's back end where no nvcc can be run
// (PtxProof.h). The files are given as an in-memory overlay and the PTX is
// kept in memory: nothing on disk is read changed or written.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PTXCLANG_H
#define CUDA_LINT_PTXCLANG_H

#include "cudalint/driver/FixVerify.h"
#include <map>
#include <optional>
#include <string>

namespace cudalint {

/// The device-side PTX of \p U with \p Contents (absolute path -> text) in
/// place of the files on disk, compiled in process with -O3 (as nvcc
/// optimises device code whatever the host's -O) and without debug
/// information; std::nullopt with \p Error set (the first compile error)
/// when it does not compile.
std::optional<std::string>
clangPtx(const VerifyUnit &U,
         const std::map<std::string, std::string> &Contents,
         std::string &Error);

} // namespace cudalint

#endif // CUDA_LINT_PTXCLANG_H
