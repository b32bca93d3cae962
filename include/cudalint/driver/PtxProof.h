//===--- PtxProof.h - cuda-lint ---------------------------------*- C++ -*-===//
//
// --prove=ptx: whether a performance finding's fix changes the machine code,
// proven by compiling, not guessed. The device side of each translation unit
// is compiled to PTX once as it is and once per finding with only that
// finding's fix applied, and nothing on disk changes:
// - with the unit's own nvcc command where its nvcc can be run
//   (NvccCommand.h: the project files copied to a scratch mirror with the
//   fix applied), the compiler the user ships with;
// - else in process with Clang's NVPTX back end (-O3, the unit's own flags
//   and GPU architecture, the files as an in-memory overlay, the PTX kept in
//   memory).
// A fix after which the PTX is identical changes no instruction: the finding
// is ranked low (at most 5) with that reason. A fix that only makes loads
// `ld.global.nc` is ranked at most 30 (nothing measurable on sm_70 and
// later). Any other fix gets a note saying what changed (f64 instructions,
// non-coherent loads, integer divisions, local-memory accesses, the
// instruction count).
//
// Clang's back end is not nvcc's: it gives `ld.global.nc` only to
// `const __restrict__` kernel pointers and `__ldg`, where nvcc sometimes
// infers it on its own, and it drops a signed division's sign fix-up where
// the thread index's range allows, which nvcc keeps. Its "identical" is
// therefore capped at 30, not 5, for those two checks (docs/impact.md).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_PTXPROOF_H
#define CUDA_LINT_PTXPROOF_H

#include "cudalint/driver/Bulk.h"
#include "cudalint/driver/FixVerify.h"
#include "cudalint/driver/PtxText.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudalint {

/// Which compiler --prove compiles with: `ptx` (Auto) the unit's own nvcc
/// command where its nvcc can be run and compiles the unit, else Clang;
/// `ptx-clang`; `ptx-nvcc`.
enum class PtxBackend { Auto, Clang, Nvcc };

/// Parses a --prove= value other than `none`.
std::optional<PtxBackend> parseProveValue(llvm::StringRef Value);

/// Whether \p Check is a performance check whose fix is meant to change
/// device code (the findings --prove=ptx compiles).
bool isDeviceCodeFixCheck(llvm::StringRef Check);

struct PtxProofStats {
  unsigned Identical = 0; ///< Fixes that change no instruction: ranked low.
  /// Fixes whose only change is ld.global -> ld.global.nc: ranked at most
  /// 30, as cuda-missing-restrict ranks such pointers itself.
  unsigned NonCoherentOnly = 0;
  unsigned Changed = 0;     ///< Fixes that change the PTX: a note says how.
  unsigned NotCompiled = 0; ///< Units or fixes that did not compile.
  std::string FirstError;   ///< `file: error` of the first of those.
};

/// Proves the fix of every finding of \p Findings that has one, a device-
/// code performance check and an impact note, against the first unit of
/// \p Units that sees its file, on up to \p Jobs threads, with
/// \p Backend; rewrites the impact note and adds a `ptx:` note.
PtxProofStats provePtx(std::vector<Finding> &Findings,
                       llvm::ArrayRef<VerifyUnit> Units, unsigned Jobs,
                       PtxBackend Backend = PtxBackend::Auto);

} // namespace cudalint

#endif // CUDA_LINT_PTXPROOF_H
