//===--- Version.h - cuda-lint's version ------------------------*- C++ -*-===//
//
// cuda-lint's version and the git commit it was built from ("unknown"
// outside a git checkout; "-dirty" when tracked files had changed), stamped
// at build time by cmake/GitVersion.cmake into a generated Version.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_TOOL_VERSION_H
#define CUDA_LINT_TOOL_VERSION_H

namespace cudalint {
extern const char *const CudaLintVersion;
extern const char *const CudaLintCommit;
} // namespace cudalint

#endif // CUDA_LINT_TOOL_VERSION_H
