//===--- CompileFlags.h - cuda-lint -----------------------------*- C++ -*-===//
//
// Turning the compile commands that CUDA builds use into ones that Clang's
// CUDA front end accepts: nvcc flags translated or dropped, the CUDA toolkit
// and Clang's resource directory found, the defaults a bare `.cu` file needs.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_COMPILEFLAGS_H
#define CUDA_LINT_COMPILEFLAGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cudalint {

/// What the driver adds to every CUDA compile command.
struct CudaEnvironment {
  /// The CUDA toolkit's root, or empty when none was found.
  std::string CudaPath;
  /// Where the toolkit was found ("--cuda-path", "CUDA_PATH", ...).
  std::string CudaPathSource;
  /// Clang's resource directory (builtin and CUDA wrapper headers).
  std::string ResourceDir;
  /// The bundled declarations used when no toolkit is found.
  std::string FallbackHeader;
  /// GPU architecture used when a command names none.
  std::string DefaultGpuArch = "sm_90";
  /// Analyse the device side only (one parse, __CUDA_ARCH__ defined).
  bool DeviceOnly = true;
  /// The source includes <omp.h>: compile with OpenMP, as its build does.
  bool OpenMP = false;
};

/// True for file names that are CUDA sources or headers (.cu, .cuh).
bool isCudaFileName(llvm::StringRef Path);

/// True when \p Args (a whole compile command, argv[0] first) compiles its
/// input as CUDA: nvcc, or clang with `-x cuda`, or a `.cu` input.
bool isCudaCommand(llvm::ArrayRef<std::string> Args, llvm::StringRef File);

/// True when argv[0] is nvcc.
bool isNvccCompiler(llvm::StringRef Argv0);

/// Find the CUDA toolkit: \p Explicit (from --cuda-path), then CUDA_PATH,
/// CUDA_HOME, nvcc on PATH, /usr/local/cuda. A candidate counts when it has
/// include/cuda_runtime.h.
std::optional<std::string> findCudaPath(llvm::StringRef Explicit,
                                        std::string *Source = nullptr);

/// Clang's resource directory for the LLVM this tool was built against: the
/// one a self-contained install carries (<prefix>/lib/clang/<major>, beside
/// <prefix>/bin/cuda-lint), else the one of the LLVM it was built against,
/// else the one the installed clang reports.
std::string findResourceDir();

/// The directory holding cuda-lint's bundled data (share/cuda-lint), found
/// next to the executable \p Argv0 or in the source tree it was built from.
std::string findShareDir(const char *Argv0);

/// The check pages (docs/checks) that SARIF reports describe the checks
/// from: <prefix>/share/cuda-lint/docs/checks in an install, else the source
/// tree's.
std::string findDocsDir(const char *Argv0);

/// Rewrite an nvcc command line (argv[0] first) for clang: -arch, -gencode,
/// -Xcompiler, -rdc, --expt-*, -ccbin, response and options files, ... Flags
/// clang has no use for are dropped and, when not known to be harmless,
/// described in \p Dropped. \p Directory resolves relative response files.
std::vector<std::string>
translateNvccCommand(llvm::ArrayRef<std::string> Args,
                     llvm::StringRef Directory,
                     std::vector<std::string> *Dropped);

/// Remove flags the clang driver does not know (reported in \p Dropped), so
/// that a stray flag is not fatal.
std::vector<std::string>
dropUnknownClangFlags(llvm::ArrayRef<std::string> Args,
                      std::vector<std::string> *Dropped);

/// Whether the source text \p Text names an API that CUDA 12.0 removed (the
/// thread-management runtime calls, texture references): such code gets the
/// legacy compatibility header (share/cuda-lint/include/cuda_lint_legacy.h).
bool mentionsRemovedApi(llvm::StringRef Text);

/// The fields of cudaDeviceProp that CUDA 13.0 removed (the legacy
/// compatibility header declares them again).
llvm::ArrayRef<llvm::StringRef> removedDevicePropFields();

/// Add what a CUDA compile needs and the command lacks: -x cuda (for
/// headers), --cuda-path or the bundled fallback, -isystem <cuda>/include/cccl,
/// --cuda-gpu-arch, --cuda-device-only, -Wno-unknown-cuda-version, nvcc's
/// dialect (-fgpu-defer-diag, -fgpu-rdc, -fopenmp and `_OPENMP` for sources
/// that include <omp.h>), -resource-dir. \p Args excludes argv[0] and the input
/// file.
std::vector<std::string> addCudaDefaults(llvm::ArrayRef<std::string> Args,
                                         const CudaEnvironment &Env,
                                         bool IsHeader);

} // namespace cudalint

#endif // CUDA_LINT_COMPILEFLAGS_H
