//===--- PtxText.h - cuda-lint ----------------------------------*- C++ -*-===//
//
// Reading PTX as text, for --prove=ptx (PtxProof.h): its instructions
// counted by kind, and compared as a multiset with register numbers, labels
// and mangled names left out. The same for nvcc's PTX and Clang's.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PTXTEXT_H
#define CUDA_LINT_PTXTEXT_H

#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>

namespace cudalint {

/// What a PTX text holds, counted per instruction line.
struct PtxCounts {
  unsigned Instructions = 0;
  unsigned F64 = 0;           ///< Instructions with an .f64 type.
  unsigned NonCoherent = 0;   ///< ld.global.nc loads.
  unsigned IntDivisions = 0;  ///< div/rem on integer types.
  unsigned LocalAccesses = 0; ///< ld.local / st.local.
};

/// Counts the instructions of \p Ptx.
PtxCounts countPtx(llvm::StringRef Ptx);

/// \p Ptx without comments, blank lines and the header (`.version`,
/// `.target`), for comparing two compilations.
std::string normalisePtx(llvm::StringRef Ptx);

/// "f64 instructions 4 -> 0, instructions 31 -> 27": the counts that differ,
/// or "" when none does.
std::string describeChange(const PtxCounts &Before, const PtxCounts &After);

/// How many times each instruction occurs in \p Ptx, register numbers,
/// branch labels and mangled names left out (`%rd12` is `%rd`, `$L__BB0_3`
/// is `$L`, `_Z4stepPfPKf` is `_Z`: a fix renumbers the registers after it,
/// and adding `const` to a pointer parameter renames the kernel); with
/// \p PlainLoads, ld.global.nc loads counted as plain global loads. Two
/// compilations with the same instructions in another order or other
/// registers have the same.
std::map<std::string, unsigned> instructionMultiset(llvm::StringRef Ptx,
                                                    bool PlainLoads);

} // namespace cudalint

#endif // CUDA_LINT_PTXTEXT_H
