//===--- Driver.h - the cuda-lint driver's parts ----------------*- C++ -*-===//
//
// What the files of tools/cuda-lint share: the option helpers and the parsed
// command line (Options.cpp), compile databases rewritten for clang
// (Database.cpp), fixes applied by the driver itself (Fixes.cpp), the results
// cache of a run over one file (Cache.cpp), the compiler launcher
// (Launcher.cpp) and the main flow (CudaLint.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_TOOL_DRIVER_H
#define CUDA_LINT_TOOL_DRIVER_H

#include "BulkRunner.h"
#include "cudalint/driver/CompileFlags.h"
#include "cudalint/driver/FixVerify.h"
#include "cudalint/driver/ResultCache.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudalint {
namespace tool {

//===--- Options.cpp ------------------------------------------------------===//

/// clang-tidy options that take a value when it is given as a separate
/// argument (`-p build`).
bool takesSeparateValue(llvm::StringRef Arg);
/// Splits `-name=value`, `--name=value` and `-name value` spellings.
bool matchOption(llvm::ArrayRef<std::string> Args, size_t &I,
                 llvm::StringRef Name, std::string &Value);
bool isFlag(llvm::StringRef Arg, llvm::StringRef Name);
/// The value of option \p Name in \p Args before `--`, or "".
std::string optionIn(llvm::ArrayRef<std::string> Args, llvm::StringRef Name);
[[noreturn]] void fail(const llvm::Twine &File, const llvm::Twine &Cause);
void report(const llvm::Twine &File, const llvm::Twine &Cause);
std::string absolute(llvm::StringRef Path);
std::string absoluteIn(llvm::StringRef Path, llvm::StringRef Dir);
/// The nearest `Name` in \p Dir or its parents.
std::string findUpwards(llvm::StringRef Dir, llvm::StringRef Name);
/// Whether the `.clang-tidy` files clang-tidy would use for a file in \p Dir
/// set Checks.
bool configFilesSetChecks(llvm::StringRef Dir);
/// Whether --config or --config-file in \p Tidy sets Checks.
bool configGivenSetsChecks(llvm::ArrayRef<std::string> Tidy);
/// Why \p Path cannot be linted (or fixed, with \p Fix), or nothing.
std::optional<std::string> sourceProblem(llvm::StringRef Path, bool Fix);
bool isHeaderName(llvm::StringRef Path);
/// Length of the common leading directories of two absolute paths.
size_t commonDirLength(llvm::StringRef A, llvm::StringRef B);

extern const char *const kBulkHelp;

/// The command line of a run, as lintMain reads it.
struct LintOptions {
  std::vector<std::string> Tidy; // Arguments for clang-tidy, before `--`.
  std::vector<std::string> Sources;
  std::vector<std::string> CompileArgs;
  bool HasDoubleDash = false, Fix = false, HasChecks = false, HasConfig = false;
  std::string BuildPath, ExplicitCudaPath, GpuArch;
  bool BuildPathGiven = false, NoToolkit = false, UsePch = true;
  // --legacy-compat forces the legacy compatibility header; without it the
  // header is added when a source names a removed API (--no-legacy-compat
  // turns that off).
  bool LegacyCompat = false, NoLegacyCompat = false;
  bool FixNotes = false, FormatStyle = false, ProgressGiven = false;
  // Bulk runs (one child per translation unit): see BulkRunner.h.
  BulkOptions Bulk;
  bool BulkMode = false;
  std::vector<std::string> BulkChildArgs;
  // How --fix verifies the files it writes; where a bulk run's child writes
  // its translation unit's compile commands for that (--export-command=).
  VerifyKind Verify = VerifyKind::Clang;
  std::string ExportCommand;
  // --print-clang-args[=lines|extra-arg|yaml]: print the clang arguments
  // the driver adds, and lint nothing.
  std::optional<std::string> PrintClangArgs;
};

/// Reads the command line \p In (without argv[0]) into \p O, and decides
/// whether this is a bulk run. Bad options are fatal errors.
void parseLintOptions(const std::vector<std::string> &In, LintOptions &O);

//===--- Database.cpp -----------------------------------------------------===//

/// A compile database rewritten for clang, removed with its directory.
struct TempDatabase {
  llvm::SmallString<128> Dir, File;
  ~TempDatabase();
};

/// Rewrite \p DbFile for clang into \p Temp. Every named source must be in
/// it and compiled as CUDA. A database found by searching upwards rather
/// than given with -p (\p Explicit false) that lacks a source is not used:
/// returns false.
bool rewriteDatabase(llvm::StringRef DbFile,
                     llvm::ArrayRef<std::string> Sources,
                     const CudaEnvironment &Env, TempDatabase &Temp,
                     bool Explicit, bool UsePch,
                     llvm::ArrayRef<std::string> PreludeIncludes);

/// What the pre-scan of a source found.
struct SourceScan {
  /// It names an API that CUDA 12.0 or 13.0 removed.
  bool RemovedApi = false;
  /// It includes <omp.h>.
  bool OpenMP = false;
};

/// Scans the source \p Path and the headers it includes with quotes.
SourceScan scanSource(llvm::StringRef Path);

//===--- Fixes.cpp --------------------------------------------------------===//

/// clang-tidy writes fixed files atomically (a temporary file renamed over
/// the original), which gives the file default permissions. Remember the
/// permissions of the files a --fix run may touch (the sources and the files
/// beside them) and put them back afterwards.
class PermissionKeeper {
public:
  void snapshot(llvm::ArrayRef<std::string> Sources);
  void restore() const;

private:
  std::vector<std::pair<std::string, llvm::sys::fs::perms>> Modes;
};

/// Rewrites the --export-fixes file \p From into \p To, without the checks'
/// fixes when the translation unit has compile errors.
bool exportFixes(llvm::StringRef From, llvm::StringRef To);

/// For each diagnostic whose fix was applied ("file:line:col:check", the
/// file absolute), where clang-tidy would print its "FIX-IT applied" notes.
using AppliedFixes = std::map<std::string, std::vector<std::string>>;

/// Applies the fixes clang-tidy exported to \p YamlFile (see Fixes.cpp).
bool applyExportedFixes(llvm::StringRef YamlFile, bool FixErrors, bool FixNotes,
                        bool Quiet, const std::vector<VerifyUnit> &Units,
                        VerifyKind Verify, AppliedFixes &Applied);

/// clang-tidy's output \p Text with "FIX-IT applied" notes added.
std::string addFixItNotes(llvm::StringRef Text, const AppliedFixes &Applied);

//===--- Cache.cpp --------------------------------------------------------===//

/// The results cache of this run, when it has one (see main).
struct CacheSettings {
  /// --cache=DIR (or the default directory of a bulk run or the launcher).
  std::string Dir;
  /// --cache given: a run over one file uses the cache too.
  bool Explicit = false;
  bool Disabled = false; ///< --no-cache.
  uint64_t MaxSize = DefaultCacheMaxSize;
  /// --cache-child: a bulk run's child, which stores but leaves eviction to
  /// its parent.
  bool Child = false;
};
extern CacheSettings Caching;

/// Whether this run records its dependencies for the results cache.
bool recordingForCache();
/// Runs the preprocessor over the unit as it is about to be analysed.
void recordDependencies(const VerifyUnit &U);
/// Takes the cache options out of \p In into Caching.
void parseCacheOptions(std::vector<std::string> &In);
/// A run over one translation unit with the results cache.
int runCached(const char *Argv0, std::vector<std::string> In);
/// lintMain over \p In.
int runLint(const char *Argv0, const std::vector<std::string> &In);

//===--- Launcher.cpp -----------------------------------------------------===//

/// `cuda-lint --launcher [cuda-lint options] <compiler> <args...>`.
int runLauncher(const char *Argv0, std::vector<std::string> In);

//===--- CudaLint.cpp -----------------------------------------------------===//

int lintMain(int argc, const char **argv);

} // namespace tool
} // namespace cudalint

#endif // CUDA_LINT_TOOL_DRIVER_H
