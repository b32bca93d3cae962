//===--- BulkInputs.h - cuda-lint bulk runs ---------------------*- C++ -*-===//
//
// The translation units of a bulk run from a compile database.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_BULKINPUTS_H
#define CUDA_LINT_BULKINPUTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cudalint {

/// The include directories a compile command names (`-I`, `-isystem`,
/// `-iquote`, `-idirafter`, nvcc's `--include-path`), absolute against
/// \p Directory.
std::vector<std::string> includeDirsOf(llvm::ArrayRef<std::string> Args,
                                       llvm::StringRef Directory);

/// The translation units of the compile database in \p BuildPath.
std::vector<std::string> databaseFiles(llvm::StringRef BuildPath,
                                       unsigned &NonCuda, unsigned &Included);

} // namespace cudalint

#endif // CUDA_LINT_BULKINPUTS_H
