//===--- BulkSupport.h - cuda-lint ------------------------------*- C++ -*-===//
//
// What the parts of bulk runs (Bulk.cpp, BulkFindings.cpp, BulkFixPlan.cpp,
// BulkReports.cpp) share: reading a file whole, and the line and column of
// an offset. Private to the driver library.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_BULKSUPPORT_H
#define CUDA_LINT_BULKSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <utility>

namespace cudalint::bulk {

/// The contents of \p File; \p Ok says whether it could be read.
std::string readFile(llvm::StringRef File, bool &Ok);

/// The 1-based line and column (in bytes) of \p Offset in \p Text.
std::pair<unsigned, unsigned> offsetToPosition(llvm::StringRef Text,
                                               unsigned Offset);

} // namespace cudalint::bulk

#endif // CUDA_LINT_BULKSUPPORT_H
