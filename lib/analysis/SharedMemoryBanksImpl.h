//===--- SharedMemoryBanksImpl.h - cuda-lint --------------------*- C++ -*-===//
//
// Helpers of the shared-memory bank model private to lib/analysis, shared
// by SharedMemoryBanks.cpp (where they are defined) and
// SharedMemoryAccesses.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_SHAREDMEMORYBANKSIMPL_H
#define CUDA_LINT_SHAREDMEMORYBANKSIMPL_H

#include <cstdint>

namespace clang::tidy::cuda::banks {

/// \p A modulo \p B (B > 0), in [0, B).
int64_t positiveMod(int64_t A, int64_t B);

} // namespace clang::tidy::cuda::banks

#endif // CUDA_LINT_SHAREDMEMORYBANKSIMPL_H
