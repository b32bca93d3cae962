//===--- CudaLint.cpp - the cuda-lint driver ------------------------------===//
//
// cuda-lint is clang-tidy with the `cuda` module built in and `cuda-*` as its
// default checks. Before handing over to clangTidyMain it makes CUDA sources
// parse without help: it finds the toolkit and Clang's resource directory,
// adds the flags a bare `.cu` file needs, and rewrites compile databases
// written for nvcc into ones clang accepts. Bad input is caught here, with a
// one-line error naming the file, before any file is touched.
//
// This file is the main flow of a run; Driver.h lists the other parts.
//
//===----------------------------------------------------------------------===//

#include "ClangJob.h"
#include "Driver.h"
#include "Version.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>

using namespace cudalint;
using namespace cudalint::tool;
using llvm::StringRef;

namespace {

/// Reports each of \p Sources that cannot be linted (or fixed, with \p Fix)
/// and leaves it out, setting \p InputFailed; directories stay where
/// \p KeepDirectories. True where sources were named and none is left.
bool dropBadSources(std::vector<std::string> &Sources, bool Fix,
                    bool KeepDirectories, bool &InputFailed) {
  bool Named = !Sources.empty();
  llvm::erase_if(Sources, [&](const std::string &S) {
    if (KeepDirectories && llvm::sys::fs::is_directory(S))
      return false;
    std::optional<std::string> Problem = sourceProblem(S, Fix);
    if (Problem) {
      report(S, *Problem);
      InputFailed = true;
    }
    return Problem.has_value();
  });
  return Named && Sources.empty();
}

/// A bulk run: one child per translation unit (see BulkRunner.h).
int runBulkMode(const char *Argv0, LintOptions &O) {
  std::vector<std::string> &Sources = O.Sources;
  BulkOptions &Bulk = O.Bulk;
  bool InputFailed = false;
  llvm::SmallVector<StringRef> Bad;
  if (Bulk.Merge) {
    for (const std::string &S : Sources)
      if (!llvm::sys::fs::exists(S))
        fail(S, "no such file");
  } else {
    // A bad file named on the command line is reported; the others go on.
    if (dropBadSources(Sources, /*Fix=*/false, /*KeepDirectories=*/true,
                       InputFailed))
      return 1;
  }
  Bulk.Self = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&takesSeparateValue));
  Bulk.ChildArgs = O.BulkChildArgs;
  Bulk.Inputs = Sources;
  Bulk.BuildPath = O.BuildPathGiven ? O.BuildPath : "";
  Bulk.HasDoubleDash = O.HasDoubleDash;
  Bulk.CompileArgs = O.CompileArgs;
  Bulk.Fix = O.Fix;
  // Bulk runs (and pre-commit's --changed-lines) use the results cache
  // unless --no-cache.
  if (!Caching.Disabled && !Bulk.Merge) {
    Bulk.CacheDir = Caching.Dir.empty() ? defaultResultCacheDir() : Caching.Dir;
    Bulk.CacheMaxSize = Caching.MaxSize;
  }
  int BulkRC = runBulk(Bulk);
  return BulkRC ? BulkRC : InputFailed;
}

/// The toolkit (or the bundled declarations), Clang's resource directory,
/// and the headers force-included into every translation unit (added to
/// O.Tidy as --extra-arg, and to \p PreludeIncludes for the prelude PCH).
CudaEnvironment setUpEnvironment(const char *Argv0, LintOptions &O,
                                 std::vector<std::string> &PreludeIncludes) {
  const std::vector<std::string> &Sources = O.Sources;
  CudaEnvironment Env;
  Env.ResourceDir = findResourceDir();
  if (!O.GpuArch.empty())
    Env.DefaultGpuArch = O.GpuArch;
  if (!O.ExplicitCudaPath.empty() && !findCudaPath(O.ExplicitCudaPath))
    fail(O.ExplicitCudaPath, "not a CUDA toolkit (no include/cuda_runtime.h)");
  std::optional<std::string> Cuda;
  if (!O.NoToolkit)
    Cuda = findCudaPath(O.ExplicitCudaPath, &Env.CudaPathSource);
  if (Cuda) {
    Env.CudaPath = *Cuda;
  } else if (!Sources.empty() || O.PrintClangArgs) {
    llvm::SmallString<256> Fallback(findShareDir(Argv0));
    llvm::sys::path::append(Fallback, "include", "cuda_lint_fallback.h");
    Env.FallbackHeader = std::string(Fallback);
    if (O.NoToolkit)
      llvm::errs() << "cuda-lint: note: --cuda-fallback: using cuda-lint's "
                      "bundled CUDA declarations\n";
    else
      llvm::errs() << "cuda-lint: warning: no CUDA toolkit found (looked at "
                      "--cuda-path, CUDA_PATH, CUDA_HOME, nvcc on PATH, "
                      "/usr/local/cuda); using cuda-lint's bundled CUDA "
                      "declarations\n";
  }

  // Code for old toolkits: declare what CUDA 12 removed. The header needs
  // the real toolkit's types, so it is not used with the bundled fallback.
  // It is also precompiled into a variant of the prelude; the -include
  // stays, and costs nothing when that variant is used (the PCH knows the
  // header's include guard), or parses the header when there is none.
  SourceScan Scan;
  for (const std::string &S : Sources) {
    SourceScan One = scanSource(S);
    Scan.RemovedApi |= One.RemovedApi;
    Scan.OpenMP |= One.OpenMP;
  }
  Env.OpenMP = Scan.OpenMP;
  auto ForceInclude = [&](StringRef Name) {
    llvm::SmallString<256> Header(findShareDir(Argv0));
    llvm::sys::path::append(Header, "include", Name);
    llvm::sys::fs::make_absolute(Header);
    O.Tidy.push_back("--extra-arg=-include" + std::string(Header));
    PreludeIncludes.push_back(std::string(Header));
  };
  // What nvcc's headers declare and clang's do not (cache-hint loads and
  // stores, host min/max): always, with a toolkit, precompiled into the
  // prelude with the rest.
  if (!Env.CudaPath.empty())
    ForceInclude("cuda_lint_nvcc.h");
  if (!O.NoLegacyCompat && !Env.CudaPath.empty() &&
      (O.LegacyCompat || Scan.RemovedApi))
    ForceInclude("cuda_lint_legacy.h");
  return Env;
}

/// --print-clang-args: the clang arguments the driver adds to a compile
/// command (for the one file named, when one is: a header gets `-x cuda`, a
/// source that includes <omp.h> OpenMP, one that names a removed API the
/// legacy header), so that clang-tidy, clangd or CMake parse as cuda-lint
/// does. The precompiled prelude, a cache of cuda-lint's own, is left out.
int printClangArgs(const char *Argv0, LintOptions &O) {
  if (O.Sources.size() > 1)
    fail("--print-clang-args", "takes at most one file");
  std::vector<std::string> PreludeIncludes;
  CudaEnvironment Env = setUpEnvironment(Argv0, O, PreludeIncludes);
  bool IsHeader = !O.Sources.empty() && isHeaderName(O.Sources.front());
  std::vector<std::string> Cmd{"clang"};
  Cmd.insert(Cmd.end(), O.CompileArgs.begin(), O.CompileArgs.end());
  Cmd = addCudaDefaults(Cmd, Env, IsHeader);
  std::vector<std::string> Args(Cmd.begin() + 1, Cmd.end());
  for (const std::string &H : PreludeIncludes) {
    Args.push_back("-include");
    Args.push_back(H);
  }
  const std::string &Form = *O.PrintClangArgs;
  if (Form == "yaml")
    llvm::outs() << "ExtraArgs:\n";
  for (const std::string &A : Args) {
    if (Form == "lines") {
      llvm::outs() << A << "\n";
    } else if (Form == "extra-arg") {
      llvm::outs() << "--extra-arg=" << A << "\n";
    } else {
      std::string Quoted;
      for (char C : A)
        Quoted += C == '\'' ? std::string("''") : std::string(1, C);
      llvm::outs() << "  - '" << Quoted << "'\n";
    }
  }
  return 0;
}

/// Where the compile commands come from: the compile database given with
/// -p or found above the first source (rewritten for clang into \p Temp,
/// named in \p DbFile), or the arguments after `--` (completed in
/// O.CompileArgs). Returns false when no source is left to lint.
bool chooseCompileCommands(LintOptions &O, const CudaEnvironment &Env,
                           llvm::ArrayRef<std::string> PreludeIncludes,
                           TempDatabase &Temp, std::string &DbFile,
                           bool &InputFailed) {
  std::vector<std::string> &Sources = O.Sources, &Tidy = O.Tidy,
                           &CompileArgs = O.CompileArgs;
  const std::string &BuildPath = O.BuildPath;
  const bool BuildPathGiven = O.BuildPathGiven, UsePch = O.UsePch;
  bool &HasDoubleDash = O.HasDoubleDash;
  if (BuildPathGiven) {
    llvm::SmallString<256> F(BuildPath);
    if (!llvm::sys::fs::is_directory(F) &&
        llvm::sys::path::filename(F) == "compile_commands.json")
      F = llvm::sys::path::parent_path(BuildPath);
    llvm::sys::path::append(F, "compile_commands.json");
    if (!llvm::sys::fs::exists(F))
      fail(F, "no compile database here (given with -p)");
    DbFile = std::string(F);
  } else if (!HasDoubleDash && !Sources.empty()) {
    DbFile =
        findUpwards(llvm::sys::path::parent_path(absolute(Sources.front())),
                    "compile_commands.json");
  }
  if (!DbFile.empty() && !Sources.empty() &&
      !rewriteDatabase(DbFile, Sources, Env, Temp, BuildPathGiven, UsePch,
                       PreludeIncludes))
    DbFile.clear(); // Found upwards but not about these files.
  if (!DbFile.empty() && !Sources.empty()) {
    Tidy.push_back("-p=" + std::string(Temp.Dir));
  } else if (!DbFile.empty()) {
    Tidy.push_back("-p=" + BuildPath);
  } else if (!Sources.empty()) {
    // No compile database: every input must be CUDA by name or by `-x cuda`.
    bool ForcedCuda = isCudaCommand(CompileArgs, "");
    bool AnyHeader = false;
    llvm::erase_if(Sources, [&](const std::string &S) {
      if (ForcedCuda || isCudaFileName(S))
        return false;
      report(S, "not a CUDA source (expected .cu or .cuh; pass '-- -x cuda' "
                "to lint it as CUDA)");
      InputFailed = true;
      return true;
    });
    if (Sources.empty())
      return false;
    for (const std::string &S : Sources)
      AnyHeader |= llvm::sys::path::extension(S) == ".cuh";
    std::vector<std::string> Cmd{"nvcc"};
    Cmd.insert(Cmd.end(), CompileArgs.begin(), CompileArgs.end());
    Cmd = translateNvccCommand(Cmd, "", nullptr);
    // A flag given after `--` that clang does not know fails every file:
    // say so once per file, naming it, instead of clang's bare error.
    std::vector<std::string> Unknown;
    dropUnknownClangFlags(Cmd, &Unknown);
    if (!Unknown.empty()) {
      std::string List;
      for (const std::string &U : Unknown)
        List += (List.empty() ? "'" : ", '") + U + "'";
      for (const std::string &S : Sources)
        report(S, "cannot be compiled: clang does not know the flag" +
                      std::string(Unknown.size() > 1 ? "s " : " ") + List +
                      " given after --");
      return false;
    }
    Cmd = addCudaDefaults(Cmd, Env, AnyHeader);
    if (UsePch)
      if (std::optional<std::string> Pch =
              preludePch(Cmd, "", "", Env, PreludeIncludes)) {
        Cmd.push_back("-include-pch");
        Cmd.push_back(*Pch);
        if (Sources.size() == 1) {
          bool UserHeaders = false;
          if (std::optional<std::string> Prefix =
                  prefixPch(Cmd, absolute(Sources.front()), absolute("."),
                            prefixPchPolicy(), &UserHeaders)) {
            Cmd.back() = *Prefix;
            clang::tidy::cuda::setUserHeadersPrecompiled(UserHeaders);
          }
        }
      }
    CompileArgs.assign(Cmd.begin() + 1, Cmd.end());
    HasDoubleDash = true;
  }
  return true;
}

/// The translation unit as it is analysed, for --fix to compile it again
/// (or, in a bulk run's child, for the parent to); with --export-command,
/// written there.
std::vector<VerifyUnit>
unitsToVerify(const LintOptions &O, const CudaEnvironment &Env,
              StringRef DbFile, const TempDatabase &Temp,
              llvm::ArrayRef<std::string> UserCompileArgs,
              bool UserDoubleDash) {
  const std::vector<std::string> &Sources = O.Sources, &Tidy = O.Tidy,
                                 &CompileArgs = O.CompileArgs;
  const std::string &ExportCommand = O.ExportCommand;
  std::vector<VerifyUnit> Units;
  if (Sources.size() == 1 && ((O.Fix && O.Verify != VerifyKind::None) ||
                              !ExportCommand.empty() || recordingForCache())) {
    VerifyUnit U;
    U.File = absolute(Sources.front());
    if (UserDoubleDash || DbFile.empty()) {
      U.Directory = absolute(".");
      U.ClangArgs.push_back("clang-tool");
      U.ClangArgs.insert(U.ClangArgs.end(), CompileArgs.begin(),
                         CompileArgs.end());
      U.ClangArgs.push_back(U.File);
      llvm::SmallString<256> Nvcc(Env.CudaPath);
      llvm::sys::path::append(Nvcc, "bin", "nvcc");
      U.NvccArgs.push_back(llvm::sys::fs::can_execute(Nvcc) ? std::string(Nvcc)
                                                            : "nvcc");
      U.NvccArgs.insert(U.NvccArgs.end(), UserCompileArgs.begin(),
                        UserCompileArgs.end());
      U.NvccArgs.push_back(U.File);
    } else {
      std::string Err;
      auto Load = [&](StringRef File) {
        return clang::tooling::JSONCompilationDatabase::loadFromFile(
            File, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
      };
      if (auto Db = Load(Temp.File)) {
        std::vector<clang::tooling::CompileCommand> Cmds =
            Db->getCompileCommands(U.File);
        if (!Cmds.empty()) {
          U.Directory = Cmds.front().Directory;
          U.ClangArgs = Cmds.front().CommandLine;
        }
      }
      if (auto Db = Load(DbFile)) {
        std::vector<clang::tooling::CompileCommand> Cmds =
            Db->getCompileCommands(U.File);
        if (!Cmds.empty() && !Cmds.front().CommandLine.empty() &&
            isNvccCompiler(Cmds.front().CommandLine.front()))
          U.NvccArgs = Cmds.front().CommandLine;
      }
    }
    // clang-tidy's --extra-arg and --extra-arg-before.
    for (size_t I = 0; I < Tidy.size() && !U.ClangArgs.empty(); ++I) {
      std::string Value;
      if (matchOption(Tidy, I, "extra-arg-before", Value))
        U.ClangArgs.insert(U.ClangArgs.begin() + 1, Value);
      else if (matchOption(Tidy, I, "extra-arg", Value))
        U.ClangArgs.push_back(Value);
    }
    if (!U.ClangArgs.empty())
      Units.push_back(std::move(U));
    if (!ExportCommand.empty()) {
      std::error_code EC;
      llvm::raw_fd_ostream OS(ExportCommand, EC);
      if (EC)
        fail(ExportCommand, EC.message());
      if (!Units.empty())
        OS << unitToJson(Units.front());
    }
  }
  return Units;
}

/// The fixes of a run over one file, applied by the driver (see Fixes.cpp):
/// clang-tidy exports them to a temporary file instead of writing them, and
/// its output is held back to add the "FIX-IT applied" notes.
struct FixCapture {
  bool OwnFixes = false;
  std::string UserExport;
  llvm::SmallString<128> FixesYaml, CapturedOut, ExportYaml;
  int SavedStdout = -1;

  /// Rewrites O.Tidy's fixing options before clang-tidy runs.
  void prepare(LintOptions &O) {
    std::vector<std::string> &Tidy = O.Tidy;
    // clang-tidy's own --fix replaces read-only files without a word and exits
    // 0 when a file cannot be written. Unless fixes are to be formatted
    // (--format-style, which only clang-tidy does), cuda-lint takes the fixes
    // clang-tidy exports and applies them itself, as a bulk run does: files
    // that are not writable are refused, each file is written atomically, and
    // any failure is an error naming the file.
    OwnFixes = O.Fix && !O.FormatStyle;
    if (OwnFixes) {
      std::vector<std::string> Kept;
      for (size_t I = 0; I < Tidy.size(); ++I) {
        StringRef A = Tidy[I];
        if (isFlag(A, "fix") || isFlag(A, "fix-errors") ||
            isFlag(A, "fix-notes"))
          continue;
        if (isFlag(A, "export-fixes")) {
          if (A.contains('='))
            UserExport = A.split('=').second.str();
          else if (I + 1 < Tidy.size())
            UserExport = Tidy[++I];
          continue;
        }
        Kept.push_back(Tidy[I]);
      }
      Tidy = std::move(Kept);
      if (llvm::sys::fs::createTemporaryFile("cuda-lint-fixes", "yaml",
                                             FixesYaml))
        fail("cuda-lint", "cannot create a temporary file for the fixes");
      llvm::sys::fs::remove(FixesYaml);
      llvm::sys::RemoveFileOnSignal(FixesYaml);
      Tidy.push_back("--export-fixes=" + std::string(FixesYaml));
      // clang-tidy's output is held back until the fixes are applied, to add
      // the "FIX-IT applied" notes; colours stay as on a terminal.
      if (llvm::sys::Process::StandardOutIsDisplayed() &&
          llvm::none_of(Tidy, [](const std::string &A) {
            return isFlag(A, "use-color");
          }))
        Tidy.push_back("--use-color");
      int FD;
      if (!llvm::sys::fs::createTemporaryFile("cuda-lint-out", "txt", FD,
                                              CapturedOut)) {
        llvm::sys::RemoveFileOnSignal(CapturedOut);
        llvm::outs().flush();
        SavedStdout = ::dup(1);
        ::dup2(FD, 1);
        ::close(FD);
      }
    }

    // --export-fixes without --fix: clang-tidy's file is rewritten without
    // the checks' fixes when the translation unit has compile errors.
    if (!OwnFixes)
      for (size_t I = 0; I < Tidy.size(); ++I) {
        if (!isFlag(Tidy[I], "export-fixes"))
          continue;
        if (llvm::sys::fs::createTemporaryFile("cuda-lint-export", "yaml",
                                               ExportYaml))
          fail("cuda-lint", "cannot create a temporary file for the fixes");
        llvm::sys::fs::remove(ExportYaml);
        llvm::sys::RemoveFileOnSignal(ExportYaml);
        if (StringRef(Tidy[I]).contains('=')) {
          UserExport = StringRef(Tidy[I]).split('=').second.str();
        } else if (I + 1 < Tidy.size()) {
          UserExport = Tidy[I + 1];
          Tidy.erase(Tidy.begin() + I + 1);
        }
        Tidy[I] = "--export-fixes=" + std::string(ExportYaml);
        break;
      }
  }

  /// Applies the fixes after clang-tidy ran; false when one failed.
  bool finish(const LintOptions &O, const std::vector<VerifyUnit> &Units) {
    bool FixFailed = false;
    if (SavedStdout >= 0) {
      llvm::outs().flush();
      ::dup2(SavedStdout, 1);
      ::close(SavedStdout);
    }
    if (OwnFixes) {
      if (!UserExport.empty() && llvm::sys::fs::exists(FixesYaml))
        FixFailed |= !exportFixes(FixesYaml, UserExport);
      AppliedFixes Applied;
      FixFailed |= !applyExportedFixes(FixesYaml, O.Bulk.FixErrors, O.FixNotes,
                                       O.Bulk.Quiet, Units, O.Verify, Applied);
      llvm::sys::fs::remove(FixesYaml);
      if (!CapturedOut.empty()) {
        if (auto Buf = llvm::MemoryBuffer::getFile(CapturedOut))
          llvm::outs() << addFixItNotes((*Buf)->getBuffer(), Applied);
        llvm::outs().flush();
        llvm::sys::fs::remove(CapturedOut);
      }
    }
    if (!ExportYaml.empty()) {
      if (llvm::sys::fs::exists(ExportYaml))
        FixFailed |= !exportFixes(ExportYaml, UserExport);
      llvm::sys::fs::remove(ExportYaml);
    }
    return !FixFailed;
  }
};

/// Runs clang-tidy over the sources with the arguments prepared in \p O.
int runClangTidy(const char *Argv0, const LintOptions &O,
                 const std::vector<VerifyUnit> &Units) {
  std::vector<std::string> Final{Argv0};
  Final.insert(Final.end(), O.Tidy.begin(), O.Tidy.end());
  Final.insert(Final.end(), O.Sources.begin(), O.Sources.end());
  if (O.HasDoubleDash) {
    Final.push_back("--");
    Final.insert(Final.end(), O.CompileArgs.begin(), O.CompileArgs.end());
  }
  if (llvm::sys::Process::GetEnv("CUDA_LINT_PRINT_ARGS")) {
    for (const std::string &A : Final)
      llvm::errs() << A << " ";
    llvm::errs() << "\n";
  }
  std::vector<const char *> CArgs;
  for (const std::string &A : Final)
    CArgs.push_back(A.c_str());
  if (Units.size() == 1)
    recordDependencies(Units.front());
  return clang::tidy::clangTidyMain(static_cast<int>(CArgs.size()),
                                    CArgs.data());
}

} // namespace

int cudalint::tool::lintMain(int argc, const char **argv) {
  std::vector<std::string> In(argv + 1, argv + argc);
  LintOptions O;
  parseLintOptions(In, O);
  if (O.PrintClangArgs)
    return printClangArgs(argv[0], O);
  if (O.BulkMode)
    return runBulkMode(argv[0], O);

  std::vector<std::string> &Sources = O.Sources;
  const bool Fix = O.Fix;
  // A named input could not be linted (reported, left out).
  bool InputFailed = false;
  // Each bad input is reported in one line and left out; the rest are
  // linted, and the exit code says that something failed.
  if (dropBadSources(Sources, Fix, /*KeepDirectories=*/false, InputFailed))
    return 1;
  for (std::string &S : Sources) {
    // Fixing through a symbolic link must change the file it points to,
    // not replace the link with a copy.
    llvm::SmallString<256> Real;
    if (Fix && llvm::sys::fs::is_symlink_file(S) &&
        !llvm::sys::fs::real_path(S, Real))
      S = std::string(Real);
  }
  PermissionKeeper Permissions;
  if (Fix)
    Permissions.snapshot(Sources);

  std::vector<std::string> PreludeIncludes;
  CudaEnvironment Env = setUpEnvironment(argv[0], O, PreludeIncludes);

  // Where do compile commands come from?
  TempDatabase Temp;
  std::string DbFile;
  const std::vector<std::string> UserCompileArgs = O.CompileArgs;
  const bool UserDoubleDash = O.HasDoubleDash;
  if (!chooseCompileCommands(O, Env, PreludeIncludes, Temp, DbFile,
                             InputFailed))
    return 1;

  // cuda-* is the default check set unless some configuration sets Checks
  // (--checks, a --config or --config-file with Checks, or a .clang-tidy file
  // clang-tidy would read). A configuration with only CheckOptions keeps it.
  if (!O.HasChecks && !configGivenSetsChecks(O.Tidy)) {
    std::string Start = Sources.empty()
                            ? absolute(".")
                            : std::string(llvm::sys::path::parent_path(
                                  absolute(Sources.front())));
    if (O.HasConfig || !configFilesSetChecks(Start))
      O.Tidy.insert(O.Tidy.begin(), "--checks=-*,cuda-*");
  }

  std::vector<VerifyUnit> Units =
      unitsToVerify(O, Env, DbFile, Temp, UserCompileArgs, UserDoubleDash);
  FixCapture Fixes;
  Fixes.prepare(O);
  int RC = runClangTidy(argv[0], O, Units);
  bool FixFailed = !Fixes.finish(O, Units);
  if (Fix)
    Permissions.restore();
  return RC ? RC : (InputFailed || FixFailed);
}

int main(int argc, const char **argv) {
  std::vector<std::string> In(argv + 1, argv + argc);
  if (!In.empty() && In.front() == "--launcher")
    return runLauncher(argv[0],
                       std::vector<std::string>(In.begin() + 1, In.end()));
  if (!In.empty() && In.front() == "--clang-job")
    return runClangJob(argv[0], llvm::ArrayRef(In).drop_front());
  // --version: cuda-lint's own version and commit, then LLVM's (which
  // clang-tidy's option parser prints before it exits).
  for (const std::string &A : In) {
    if (A == "--")
      break;
    if (A == "--version" || A == "-version") {
      llvm::outs() << "cuda-lint version " << CudaLintVersion << " (commit "
                   << CudaLintCommit << ")\n";
      llvm::outs().flush();
      break;
    }
  }
  parseCacheOptions(In);
  if (Caching.Explicit && !Caching.Disabled)
    return runCached(argv[0], std::move(In));
  return runLint(argv[0], In);
}
