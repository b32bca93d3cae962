//===--- Options.cpp - cuda-lint
//--------------------------------------------===//
//
// The driver's command line: the option helpers shared by its parts, the help
// text, and the options of a run (parseLintOptions).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "cudalint/analysis/Impact.h"
#include "cudalint/driver/PtxProof.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>

using llvm::StringRef;

namespace cudalint {
namespace tool {

// clang-tidy options that take a value when it is given as a separate
// argument (`-p build`).
bool takesSeparateValue(StringRef Arg) {
  Arg = Arg.ltrim('-');
  return llvm::is_contained(
      {"p", "checks", "config", "config-file", "export-fixes", "extra-arg",
       "extra-arg-before", "header-filter", "exclude-header-filter",
       "line-filter", "format-style", "vfsoverlay", "store-check-profile",
       "warnings-as-errors", "load", "cuda-path", "cuda-gpu-arch"},
      Arg);
}

/// Splits `-name=value`, `--name=value` and `-name value` spellings.
bool matchOption(llvm::ArrayRef<std::string> Args, size_t &I, StringRef Name,
                 std::string &Value) {
  StringRef A = Args[I];
  if (!A.starts_with("-"))
    return false;
  StringRef Bare = A.ltrim('-');
  if (Bare.consume_front(Name)) {
    if (Bare.empty() && I + 1 < Args.size()) {
      Value = Args[++I];
      return true;
    }
    if (Bare.consume_front("=")) {
      Value = Bare.str();
      return true;
    }
  }
  return false;
}

bool isFlag(StringRef Arg, StringRef Name) {
  StringRef Bare = Arg.ltrim('-');
  return Arg.starts_with("-") &&
         (Bare == Name || Bare.starts_with(Name.str() + "="));
}

[[noreturn]] void fail(const llvm::Twine &File, const llvm::Twine &Cause) {
  llvm::errs() << "cuda-lint: error: " << File << ": " << Cause << "\n";
  std::exit(1);
}

std::string absolute(StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return std::string(Abs);
}

/// The nearest `Name` in \p Dir or its parents.
std::string findUpwards(StringRef Dir, StringRef Name) {
  llvm::SmallString<256> Cur(Dir);
  while (!Cur.empty()) {
    llvm::SmallString<256> Candidate(Cur);
    llvm::sys::path::append(Candidate, Name);
    if (llvm::sys::fs::exists(Candidate))
      return std::string(Candidate);
    StringRef Parent = llvm::sys::path::parent_path(Cur);
    if (Parent == Cur)
      break;
    Cur = Parent;
  }
  return "";
}

/// Whether the configuration text \p Yaml (a `.clang-tidy` file or
/// --config) says which checks to run; sets \p Inherit when it asks for its
/// parent directory's configuration too. Text that does not parse counts as
/// setting checks: clang-tidy reports it, and cuda-lint does not add to it.
static bool configSetsChecks(StringRef Yaml, StringRef Name, bool &Inherit) {
  llvm::ErrorOr<clang::tidy::ClangTidyOptions> Opts =
      clang::tidy::parseConfiguration(llvm::MemoryBufferRef(Yaml, Name));
  Inherit = false;
  if (!Opts)
    return true;
  Inherit = Opts->InheritParentConfig.value_or(false);
  return Opts->Checks.has_value();
}

/// Whether the `.clang-tidy` files clang-tidy would use for a file in \p Dir
/// (the nearest one, and its parents while they say InheritParentConfig) set
/// Checks. A file with only CheckOptions does not.
bool configFilesSetChecks(StringRef Dir) {
  std::string Cur = Dir.str();
  while (true) {
    std::string File = findUpwards(Cur, ".clang-tidy");
    if (File.empty())
      return false;
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return true;
    bool Inherit;
    if (configSetsChecks((*Buf)->getBuffer(), File, Inherit))
      return true;
    if (!Inherit)
      return false;
    StringRef Parent =
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(File));
    if (Parent.empty() || Parent == llvm::sys::path::parent_path(File))
      return false;
    Cur = Parent.str();
  }
}

/// Whether --config or --config-file in \p Tidy sets Checks.
bool configGivenSetsChecks(llvm::ArrayRef<std::string> Tidy) {
  for (size_t I = 0; I < Tidy.size(); ++I) {
    StringRef A = Tidy[I];
    std::string Value;
    bool Inherit;
    if (isFlag(A, "config")) {
      Value = A.contains('=') ? A.split('=').second.str()
                              : (I + 1 < Tidy.size() ? Tidy[I + 1] : "");
      if (configSetsChecks(Value, "--config", Inherit))
        return true;
    } else if (isFlag(A, "config-file")) {
      Value = A.contains('=') ? A.split('=').second.str()
                              : (I + 1 < Tidy.size() ? Tidy[I + 1] : "");
      auto Buf = llvm::MemoryBuffer::getFile(Value);
      if (!Buf || configSetsChecks((*Buf)->getBuffer(), Value, Inherit))
        return true;
    }
  }
  return false;
}

void report(const llvm::Twine &File, const llvm::Twine &Cause) {
  llvm::errs() << "cuda-lint: error: " << File << ": " << Cause << "\n";
}

/// Why \p Path cannot be linted (or fixed, with \p Fix), or nothing.
std::optional<std::string> sourceProblem(StringRef Path, bool Fix) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return "no such file";
  if (llvm::sys::fs::is_directory(Status))
    return "is a directory, not a source file";
  if (!llvm::sys::fs::is_regular_file(Status))
    return "is not a regular file";
  if (::access(Path.str().c_str(), R_OK) != 0)
    return "cannot be read (permission denied)";
  // Root may write anything; a file without write permission is still one
  // the user marked read-only.
  if (Fix && (::access(Path.str().c_str(), W_OK) != 0 ||
              (Status.permissions() & llvm::sys::fs::owner_write) == 0))
    return "is not writable, so fixes cannot be applied; it was left "
           "unchanged";
  // An empty file has nothing to check: a mistake (a truncated file, the
  // wrong name) more often than not, so it counts as a failure.
  if (Status.getSize() == 0)
    return "is empty, nothing to check";
  // A NUL byte in the first 64 KiB: an object file, an image, a binary
  // mistaken for source. Parsing it would print pages of errors.
  if (auto Head = llvm::MemoryBuffer::getFileSlice(
          Path, std::min<uint64_t>(Status.getSize(), 65536), 0))
    if ((*Head)->getBuffer().contains('\0'))
      return "is a binary file, not a CUDA source";
  return std::nullopt;
}

bool isHeaderName(StringRef Path) {
  StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cuh" || Ext == ".h" || Ext == ".hpp" || Ext == ".hh";
}

std::string absoluteIn(StringRef Path, StringRef Dir) {
  if (llvm::sys::path::is_absolute(Path))
    return absolute(Path);
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Path);
  return absolute(P);
}

/// Length of the common leading directories of two absolute paths.
size_t commonDirLength(StringRef A, StringRef B) {
  size_t N = 0, Common = 0;
  while (N < A.size() && N < B.size() && A[N] == B[N]) {
    if (A[N] == '/')
      Common = N;
    ++N;
  }
  return Common;
}

/// The value of option \p Name (`--name=v`, `-name=v`, `--name v`) in
/// \p Args before `--`, or "".
std::string optionIn(llvm::ArrayRef<std::string> Args, StringRef Name) {
  std::string Value;
  for (size_t I = 0; I < Args.size() && Args[I] != "--"; ++I)
    if (matchOption(Args, I, Name, Value))
      return Value;
  return "";
}

extern const char *const kBulkHelp;
const char *const kBulkHelp =
    R"(cuda-lint: clang-tidy with the cuda-* checks and CUDA set up. Besides
clang-tidy's options (below), it takes:

  --cuda-path=<dir>       CUDA toolkit (default: CUDA_PATH, CUDA_HOME, nvcc
                          on PATH, /usr/local/cuda)
  --cuda-gpu-arch=<sm_XX> GPU architecture to analyse for (default sm_90)
  --cuda-fallback         use the bundled CUDA declarations, not a toolkit
  --no-pch                do not use the cached precompiled CUDA prelude
  --legacy-compat         declare APIs that CUDA 12 and 13 removed (default:
                          when the source names one; --no-legacy-compat)
  --print-clang-args[=<form>] [<file>]
                          print the clang arguments cuda-lint adds (for
                          <file>, when given), for clang-tidy, clangd or
                          CMake: lines (one per line, compile_flags.txt),
                          extra-arg (--extra-arg=... per line) or yaml (a
                          .clang-tidy ExtraArgs list)
  --baseline=<file>       do not report the findings recorded in <file>;
                          exit status 1 when a finding is new
  --write-baseline        record this run's findings in the --baseline file
  --verify=<how>          how --fix checks that each fixed translation unit
                          still compiles: clang (default; host and device
                          side), nvcc (the compile command's nvcc) or none
  --min-impact=<level>    low, medium (default) or high: hide performance
                          findings ranked below it (and their fixes). Every
                          finding carries a note `impact: <level> (rank
                          N/100): <why>`: how often the host launches the
                          kernel (in a loop, once, never in this program),
                          whether the code is in the kernel's loops, and
                          whether one thread or one block runs it.
                          Correctness findings are never hidden;
                          --min-impact=low shows everything. Check option:
                          MinImpact. See docs/impact.md.
  --prove=ptx             compile the device code to PTX with and without
                          each performance fix: a fix that leaves the PTX
                          identical changes no instruction, and its finding
                          is ranked low; one that changes it gets a note
                          saying what changed (f64 instructions,
                          ld.global.nc loads, integer divisions). With the
                          unit's own nvcc command where its nvcc can be run
                          (files copied to a scratch mirror), else in process
                          with Clang's NVPTX back end; ptx-nvcc or ptx-clang
                          choose. A bulk run; about one device compile per
                          fix. See docs/impact.md.

Bulk runs (a directory, -p without files, or any option below): one process
per translation unit, progress on stderr, a summary at the end.
  -j <N>, --jobs=<N>      files analysed at once (default: all cores)
  --progress=<mode>       auto, bar, lines or none
  --timeout=<seconds>     kill and report a file that takes longer
  --diff                  print the merged fixes as a unified diff
  --format=<fmt>          text (default), json or sarif (SARIF 2.1.0)
  -o <file>               write the json or sarif report there
  --shard=<K>/<N>         analyse the K-th of N deterministic shares
  --merge                 combine fixes (.yaml) or SARIF files of earlier runs
  --changed-lines[=<rev>] only lines changed in the index (or since <rev>)
See docs/usage.md.

)";

void parseLintOptions(const std::vector<std::string> &In, LintOptions &O) {
  std::vector<std::string> &Tidy = O.Tidy, &Sources = O.Sources,
                           &CompileArgs = O.CompileArgs,
                           &BulkChildArgs = O.BulkChildArgs;
  bool &HasDoubleDash = O.HasDoubleDash, &Fix = O.Fix, &HasChecks = O.HasChecks,
       &HasConfig = O.HasConfig;
  std::string &BuildPath = O.BuildPath, &ExplicitCudaPath = O.ExplicitCudaPath,
              &GpuArch = O.GpuArch;
  bool &BuildPathGiven = O.BuildPathGiven, &NoToolkit = O.NoToolkit,
       &UsePch = O.UsePch, &LegacyCompat = O.LegacyCompat,
       &NoLegacyCompat = O.NoLegacyCompat, &FixNotes = O.FixNotes,
       &FormatStyle = O.FormatStyle, &ProgressGiven = O.ProgressGiven,
       &BulkMode = O.BulkMode;
  BulkOptions &Bulk = O.Bulk;
  VerifyKind &Verify = O.Verify;
  std::string &ExportCommand = O.ExportCommand;

  // The flags that set one option and that a bulk run's children get too.
  struct ChildFlag {
    StringRef Long, Short;
    bool &Option;
    bool Value;
  };
  const ChildFlag ChildFlags[] = {
      {"--no-pch", "-no-pch", UsePch, false},
      {"--cuda-fallback", "-cuda-fallback", NoToolkit, true},
      {"--legacy-compat", "-legacy-compat", LegacyCompat, true},
      {"--no-legacy-compat", "-no-legacy-compat", NoLegacyCompat, true}};

  if (llvm::is_contained(In, "--help") || llvm::is_contained(In, "-help"))
    llvm::outs() << kBulkHelp;
  for (size_t I = 0; I < In.size(); ++I) {
    StringRef A = In[I];
    if (A == "--") {
      HasDoubleDash = true;
      CompileArgs.assign(In.begin() + I + 1, In.end());
      break;
    }
    std::string Value;
    if (A == "-j" || A == "--jobs" ||
        (A.starts_with("-j") && !A.starts_with("-j=") && A.size() > 2 &&
         llvm::isDigit(A[2])) ||
        A.starts_with("-j=") || A.starts_with("--jobs=")) {
      StringRef V = A;
      if (A == "-j" || A == "--jobs")
        V = I + 1 < In.size() ? StringRef(In[++I]) : StringRef();
      else
        V = A.starts_with("--jobs=") ? A.drop_front(7)
                                     : A.drop_front(2).ltrim('=');
      if (V.getAsInteger(10, Bulk.Jobs))
        fail(A, "-j takes a number of parallel jobs");
      BulkMode = true;
      continue;
    }
    if (matchOption(In, I, "format", Value)) {
      if (Value != "text" && Value != "json" && Value != "sarif")
        fail("--format=" + Value, "expected text, json or sarif");
      Bulk.Format = Value;
      BulkMode |= Value != "text";
      continue;
    }
    if (A == "-o" || matchOption(In, I, "output", Value)) {
      if (A == "-o") {
        if (I + 1 >= In.size())
          fail("-o", "needs a file name");
        Value = In[++I];
      }
      Bulk.Output = Value;
      continue;
    }
    if (matchOption(In, I, "shard", Value)) {
      if (!parseShard(Value, Bulk.ShardK, Bulk.ShardN))
        fail("--shard=" + Value, "expected K/N with 1 <= K <= N");
      BulkMode = true;
      continue;
    }
    if (A == "--diff" || A == "-diff") {
      Bulk.Diff = BulkMode = true;
      continue;
    }
    if (A == "--merge" || A == "-merge") {
      Bulk.Merge = BulkMode = true;
      continue;
    }
    if (A == "--changed-lines" || A == "-changed-lines") {
      Bulk.ChangedLines = "";
      BulkMode = true;
      continue;
    }
    if (A.consume_front("--changed-lines=") ||
        A.consume_front("-changed-lines=")) {
      Bulk.ChangedLines = A.str();
      BulkMode = true;
      continue;
    }
    if (matchOption(In, I, "timeout", Value)) {
      if (StringRef(Value).getAsDouble(Bulk.TimeoutSeconds) ||
          Bulk.TimeoutSeconds < 0)
        fail("--timeout=" + Value,
             "expected a number of seconds (0: no limit)");
      BulkMode = true;
      continue;
    }
    if (matchOption(In, I, "prove", Value)) {
      std::optional<PtxBackend> Backend = parseProveValue(Value);
      if (!Backend && Value != "none")
        fail("--prove=" + Value, "expected ptx, ptx-nvcc, ptx-clang or none");
      Bulk.ProvePtx = Backend.has_value();
      Bulk.ProveBackend = Backend.value_or(PtxBackend::Auto);
      BulkMode |= Bulk.ProvePtx;
      continue;
    }
    if (matchOption(In, I, "verify", Value)) {
      std::optional<VerifyKind> K = parseVerifyKind(Value);
      if (!K)
        fail("--verify=" + Value, "expected clang, nvcc or none");
      Verify = Bulk.Verify = *K;
      continue;
    }
    if (A == "--print-clang-args" || A == "-print-clang-args" ||
        A.starts_with("--print-clang-args=") ||
        A.starts_with("-print-clang-args=")) {
      StringRef F = A.contains('=') ? A.split('=').second : "lines";
      if (F != "lines" && F != "extra-arg" && F != "yaml")
        fail(A, "expected lines, extra-arg or yaml");
      O.PrintClangArgs = F.str();
      continue;
    }
    if (matchOption(In, I, "baseline", Value)) {
      if (Value.empty())
        fail("--baseline", "needs a file (--baseline=FILE)");
      Bulk.Baseline = absolute(Value);
      continue;
    }
    if (A == "--write-baseline" || A == "-write-baseline") {
      Bulk.WriteBaseline = true;
      continue;
    }
    if (matchOption(In, I, "min-impact", Value)) {
      std::optional<clang::tidy::cuda::Impact::Level> L =
          clang::tidy::cuda::Impact::parseLevel(Value);
      if (!L)
        fail("--min-impact=" + Value, "expected low, medium or high");
      clang::tidy::cuda::setMinImpactOverride(L);
      BulkChildArgs.push_back("--min-impact=" + Value);
      Bulk.MinImpact = Value;
      continue;
    }
    if (matchOption(In, I, "export-command", Value)) {
      ExportCommand = Value;
      continue;
    }
    if (matchOption(In, I, "progress", Value)) {
      Bulk.Progress = Value;
      ProgressGiven = true;
      continue;
    }
    if (matchOption(In, I, "cuda-path", Value)) {
      ExplicitCudaPath = Value;
      BulkChildArgs.push_back("--cuda-path=" + Value);
      continue;
    }
    if (matchOption(In, I, "cuda-gpu-arch", Value)) {
      GpuArch = Value;
      BulkChildArgs.push_back("--cuda-gpu-arch=" + Value);
      continue;
    }
    const ChildFlag *F = llvm::find_if(ChildFlags, [&](const ChildFlag &Flag) {
      return A == Flag.Long || A == Flag.Short;
    });
    if (F != std::end(ChildFlags)) {
      F->Option = F->Value;
      BulkChildArgs.push_back(A.str());
      continue;
    }
    if (A == "-p" || A == "--p" || A.starts_with("-p=") ||
        A.starts_with("--p=")) {
      if (matchOption(In, I, "p", Value)) {
        BuildPath = Value;
        BuildPathGiven = true;
      }
      continue;
    }
    if (isFlag(A, "fix") || isFlag(A, "fix-errors") || isFlag(A, "fix-notes"))
      Fix = true;
    if (isFlag(A, "fix-errors"))
      Bulk.FixErrors = true;
    if (isFlag(A, "fix-notes"))
      FixNotes = Bulk.FixNotes = true;
    if (isFlag(A, "format-style"))
      FormatStyle = true;
    if (isFlag(A, "quiet"))
      Bulk.Quiet = true;
    if (isFlag(A, "checks"))
      HasChecks = true;
    if (isFlag(A, "config") || isFlag(A, "config-file"))
      HasConfig = true;
    if (!A.starts_with("-")) {
      Sources.push_back(A.str());
      BulkMode |= llvm::sys::fs::is_directory(A);
      continue;
    }
    size_t Before = Tidy.size();
    Tidy.push_back(A.str());
    if (takesSeparateValue(A) && !A.contains('=') && I + 1 < In.size())
      Tidy.push_back(In[++I]);
    // What the children of a bulk run get: everything but the fixing and
    // the fixes file, which the parent does once for all of them.
    if (isFlag(A, "fix") || isFlag(A, "fix-errors") || isFlag(A, "fix-notes") ||
        isFlag(A, "quiet"))
      continue;
    if (isFlag(A, "export-fixes")) {
      Bulk.ExportFixes =
          A.contains('=') ? A.split('=').second.str() : Tidy.back();
      continue;
    }
    BulkChildArgs.insert(BulkChildArgs.end(), Tidy.begin() + Before,
                         Tidy.end());
  }
  if (O.PrintClangArgs)
    return;
  if (Bulk.WriteBaseline && Bulk.Baseline.empty())
    fail("--write-baseline", "needs --baseline=FILE, the file to write");
  // A baseline filters the findings of a bulk run; one file runs as one,
  // with clang-tidy's output (no progress, no summary).
  if (!Bulk.Baseline.empty() && !BulkMode && !Sources.empty() && !FormatStyle) {
    BulkMode = Bulk.Implicit = true;
    if (!ProgressGiven)
      Bulk.Progress = "none";
  }
  // A whole compile database: -p with no files.
  BulkMode |= BuildPathGiven && Sources.empty() &&
              !llvm::is_contained(Tidy, "--dump-config") &&
              !llvm::is_contained(Tidy, "-dump-config") &&
              !llvm::is_contained(Tidy, "--list-checks") &&
              !llvm::is_contained(Tidy, "-list-checks");

  // Several files: each in a child process too, so that a crash in one does
  // not take the others with it, with clang-tidy's output (no progress, no
  // summary).
  if (!BulkMode && Sources.size() > 1 &&
      !llvm::is_contained(Tidy, "--dump-config") &&
      !llvm::is_contained(Tidy, "-dump-config") &&
      !llvm::is_contained(Tidy, "--list-checks") &&
      !llvm::is_contained(Tidy, "-list-checks") && !FormatStyle) {
    BulkMode = Bulk.Implicit = true;
    if (!ProgressGiven)
      Bulk.Progress = "none";
  }
}

} // namespace tool
} // namespace cudalint
