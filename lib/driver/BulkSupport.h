//===--- BulkSupport.h - cuda-lint ------------------------------*- C++ -*-===//
//
// What the parts of bulk runs (Bulk.cpp, BulkFindings.cpp, BulkFixPlan.cpp,
// BulkReports.cpp) share: reading a file whole, the line and column of an
// offset, and the names they all use unqualified. Private to the driver
// library.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_BULKSUPPORT_H
#define CUDA_LINT_BULKSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <string>
#include <utility>

namespace cudalint::bulk {

/// The contents of \p File; \p Ok says whether it could be read.
std::string readFile(llvm::StringRef File, bool &Ok);

/// The 1-based line and column (in bytes) of \p Offset in \p Text.
std::pair<unsigned, unsigned> offsetToPosition(llvm::StringRef Text,
                                               unsigned Offset);

} // namespace cudalint::bulk

namespace cudalint {

// The names every part of bulk runs uses unqualified.
using bulk::offsetToPosition;
using bulk::readFile;
using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

} // namespace cudalint

#endif // CUDA_LINT_BULKSUPPORT_H
