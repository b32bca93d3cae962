//===--- CudaLint.cpp - the cuda-lint driver ------------------------------===//
//
// cuda-lint is clang-tidy with the `cuda` module built in and `cuda-*` as its
// default checks. Before handing over to clangTidyMain it makes CUDA sources
// parse without help: it finds the toolkit and Clang's resource directory,
// adds the flags a bare `.cu` file needs, and rewrites compile databases
// written for nvcc into ones clang accepts. Bad input is caught here, with a
// one-line error naming the file, before any file is touched.
//
//===----------------------------------------------------------------------===//

#include "BulkRunner.h"
#include "ClangJob.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/driver/Bulk.h"
#include "cudalint/driver/CompileFlags.h"
#include "cudalint/driver/FixVerify.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "cudalint/driver/ResultCache.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace cudalint;
using llvm::StringRef;

namespace {

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
bool configSetsChecks(StringRef Yaml, StringRef Name, bool &Inherit) {
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

struct TempDatabase {
  llvm::SmallString<128> Dir, File;
  ~TempDatabase() {
    if (!File.empty())
      llvm::sys::fs::remove(File);
    if (!Dir.empty())
      llvm::sys::fs::remove(Dir);
  }
};

/// Rewrite \p DbFile for clang into \p Temp. Every named source must be in
/// it and compiled as CUDA. A database found by searching upwards rather
/// than given with -p (\p Explicit false) that lacks a source is not used:
/// returns false.
bool rewriteDatabase(StringRef DbFile, llvm::ArrayRef<std::string> Sources,
                     const CudaEnvironment &Env, TempDatabase &Temp,
                     bool Explicit, bool UsePch,
                     llvm::ArrayRef<std::string> PreludeIncludes) {
  std::string Error;
  if (auto Buf = llvm::MemoryBuffer::getFile(DbFile)) {
    if (llvm::Expected<llvm::json::Value> V =
            llvm::json::parse((*Buf)->getBuffer());
        !V)
      fail(DbFile, "invalid JSON: " + llvm::toString(V.takeError()));
  } else {
    fail(DbFile, "cannot be read: " + Buf.getError().message());
  }
  std::vector<clang::tooling::CompileCommand> Inferred;
  std::unique_ptr<clang::tooling::JSONCompilationDatabase> Db =
      clang::tooling::JSONCompilationDatabase::loadFromFile(
          DbFile, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Db)
    fail(DbFile, "invalid compile database: " +
                     StringRef(Error).split('\n').first.trim());
  std::vector<clang::tooling::CompileCommand> All = Db->getAllCompileCommands();
  // The commands that compile the named sources: only they get a
  // precompiled prelude. Building one for every command of the database
  // (one per directory) made each file of a bulk run pay for all of them;
  // with a cold cache the first files ran past the timeout.
  std::set<std::pair<std::string, std::string>> Used;
  for (const std::string &Source : Sources) {
    std::vector<clang::tooling::CompileCommand> Cmds =
        Db->getCompileCommands(absolute(Source));
    for (const clang::tooling::CompileCommand &C : Cmds)
      Used.insert({C.Directory, C.Filename});
    // A header has no command of its own: it is analysed with the command
    // of the CUDA source nearest to it (the longest common directory), as
    // clangd does, with -x cuda.
    if (Cmds.empty() && isHeaderName(Source)) {
      std::string Abs = absolute(Source);
      const clang::tooling::CompileCommand *Best = nullptr;
      size_t BestLen = 0;
      for (const clang::tooling::CompileCommand &C : All) {
        std::string F = absoluteIn(C.Filename, C.Directory);
        if (!isCudaCommand(C.CommandLine, F))
          continue;
        size_t Len = commonDirLength(Abs, F);
        if (!Best || Len > BestLen) {
          Best = &C;
          BestLen = Len;
        }
      }
      if (Best) {
        clang::tooling::CompileCommand C = *Best;
        std::string F = absoluteIn(C.Filename, C.Directory);
        for (std::string &A : C.CommandLine)
          if (A == C.Filename || A == F)
            A = Abs;
        C.Filename = Abs;
        Used.insert({C.Directory, C.Filename});
        Cmds.push_back(C);
        Inferred.push_back(std::move(C));
      }
    }
    if (Cmds.empty() && !Explicit)
      return false;
    if (Cmds.empty())
      fail(Source, "has no compile command in " + DbFile);
    if (!isCudaCommand(Cmds.front().CommandLine, Source))
      fail(Source, "is not compiled as CUDA in " + DbFile +
                       " (expected nvcc, -x cuda or a .cu file)");
  }

  llvm::json::Array Out;
  llvm::StringSet<> Dropped;
  All.insert(All.end(), Inferred.begin(), Inferred.end());
  for (const clang::tooling::CompileCommand &Cmd : All) {
    std::vector<std::string> Args = Cmd.CommandLine;
    if (!Args.empty() && isNvccCompiler(Args.front()))
      Args = translateNvccCommand(Args, Cmd.Directory, nullptr);
    std::vector<std::string> Unknown;
    Args = dropUnknownClangFlags(Args, &Unknown);
    for (const std::string &U : Unknown)
      Dropped.insert(U);
    if (isCudaCommand(Args, Cmd.Filename)) {
      StringRef Ext = llvm::sys::path::extension(Cmd.Filename);
      Args = addCudaDefaults(Args, Env, Ext == ".cuh" || Ext == ".h");
      if (UsePch &&
          (Sources.empty() || Used.count({Cmd.Directory, Cmd.Filename})))
        if (std::optional<std::string> Pch = preludePch(
                Args, Cmd.Filename, Cmd.Directory, Env, PreludeIncludes)) {
          Args.insert(Args.begin() + 1, *Pch);
          Args.insert(Args.begin() + 1, "-include-pch");
          // One source: its own include prefix (a bulk run's child, a
          // pre-commit hook, the launcher). Several sources share one
          // clang-tidy call, and each would build a PCH for one file.
          if (Sources.size() == 1) {
            bool UserHeaders = false;
            if (std::optional<std::string> Prefix =
                    prefixPch(Args, Cmd.Filename, Cmd.Directory,
                              prefixPchPolicy(), &UserHeaders)) {
              Args[2] = *Prefix;
              clang::tidy::cuda::setUserHeadersPrecompiled(UserHeaders);
            }
          }
        }
    }
    llvm::json::Array JArgs;
    for (std::string &A : Args)
      JArgs.push_back(std::move(A));
    Out.push_back(llvm::json::Object{{"directory", Cmd.Directory},
                                     {"file", Cmd.Filename},
                                     {"arguments", std::move(JArgs)},
                                     {"output", Cmd.Output}});
  }
  if (!Dropped.empty()) {
    llvm::errs() << "cuda-lint: warning: " << DbFile
                 << ": ignoring flags clang does not know:";
    for (const auto &D : Dropped)
      llvm::errs() << " " << D.getKey();
    llvm::errs() << "\n";
  }

  if (llvm::sys::fs::createUniqueDirectory("cuda-lint-db", Temp.Dir))
    fail(DbFile, "cannot create a temporary directory for the rewritten "
                 "compile database");
  Temp.File = Temp.Dir;
  llvm::sys::path::append(Temp.File, "compile_commands.json");
  llvm::sys::RemoveFileOnSignal(Temp.File);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Temp.File, EC);
  if (EC)
    fail(Temp.File, EC.message());
  OS << llvm::json::Value(std::move(Out));
  return true;
}

/// clang-tidy writes fixed files atomically (a temporary file renamed over
/// the original), which gives the file default permissions. Remember the
/// permissions of the files a --fix run may touch (the sources and the files
/// beside them) and put them back afterwards.
class PermissionKeeper {
public:
  void snapshot(llvm::ArrayRef<std::string> Sources) {
    llvm::StringSet<> Dirs;
    for (const std::string &S : Sources)
      Dirs.insert(llvm::sys::path::parent_path(absolute(S)));
    for (const auto &D : Dirs) {
      std::error_code EC;
      for (llvm::sys::fs::directory_iterator It(D.getKey(), EC), End;
           It != End && !EC; It.increment(EC)) {
        llvm::ErrorOr<llvm::sys::fs::basic_file_status> St = It->status();
        if (St && St->type() == llvm::sys::fs::file_type::regular_file)
          Modes.emplace_back(It->path(), St->permissions());
      }
    }
  }
  void restore() const {
    for (const auto &[Path, Perms] : Modes) {
      llvm::ErrorOr<llvm::sys::fs::perms> Now =
          llvm::sys::fs::getPermissions(Path);
      if (Now && *Now != Perms)
        llvm::sys::fs::setPermissions(Path, Perms);
    }
  }

private:
  std::vector<std::pair<std::string, llvm::sys::fs::perms>> Modes;
};

/// What the pre-scan of a source found.
struct SourceScan {
  /// It names an API that CUDA 12.0 or 13.0 removed.
  bool RemovedApi = false;
  /// It includes <omp.h>.
  bool OpenMP = false;
};

/// Scans the source \p Path and the headers it includes with quotes (found
/// beside the including file, followed transitively up to 64 files): legacy
/// code often keeps its `cudaThreadSynchronize()` or texture references in a
/// project header, and OpenMP code its `#include <omp.h>`.
SourceScan scanSource(StringRef Path) {
  SourceScan Scan;
  llvm::SmallVector<std::string, 8> Work{Path.str()};
  llvm::StringSet<> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    std::string File = Work.pop_back_val();
    if (!Seen.insert(File).second)
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    StringRef Text = (*Buf)->getBuffer();
    Scan.RemovedApi |= cudalint::mentionsRemovedApi(Text);
    StringRef Dir = llvm::sys::path::parent_path(File);
    for (const cudalint::IncludeDirective &D :
         cudalint::includeDirectives(Text)) {
      Scan.OpenMP |= D.Name == "omp.h";
      if (!D.Quoted || D.Name.empty())
        continue;
      llvm::SmallString<256> Inc(Dir);
      llvm::sys::path::append(Inc, D.Name);
      if (llvm::sys::fs::is_regular_file(Inc))
        Work.push_back(std::string(Inc));
    }
  }
  return Scan;
}

/// Rewrites the --export-fixes file \p From into \p To; when the translation
/// unit has compile errors, without the fixes of the checks' findings (only
/// the compiler's own fix-its stay): no fix is offered for code that does
/// not compile. Returns false when \p To cannot be written.
bool exportFixes(StringRef From, StringRef To) {
  auto Buf = llvm::MemoryBuffer::getFile(From);
  if (!Buf)
    return !llvm::sys::fs::exists(From);
  clang::tooling::TranslationUnitDiagnostics TUD;
  {
    llvm::yaml::Input YIn((*Buf)->getBuffer());
    YIn >> TUD;
    if (YIn.error())
      return !llvm::sys::fs::copy_file(From, To);
  }
  cudalint::dropFixesOnCompileErrors(TUD.Diagnostics);
  std::error_code EC;
  llvm::raw_fd_ostream OS(To, EC);
  if (EC) {
    report(To, EC.message());
    return false;
  }
  llvm::yaml::Output YOut(OS);
  YOut << TUD;
  return true;
}

/// For each diagnostic whose fix was applied ("file:line:col:check", the
/// file absolute), where clang-tidy would print its "FIX-IT applied" notes.
using AppliedFixes = std::map<std::string, std::vector<std::string>>;

/// Applies the fixes clang-tidy exported to \p YamlFile, as clang-tidy's own
/// --fix would (fixes of compiler errors only with --fix-errors; a note's fix
/// with --fix-notes when the warning has none and exactly one note has one),
/// but refusing files that are not writable and writing each file atomically.
/// Records in \p Applied the diagnostics whose fixes were written. Returns
/// false when a fix could not be applied (reported, naming the file).
bool applyExportedFixes(StringRef YamlFile, bool FixErrors, bool FixNotes,
                        bool Quiet, const std::vector<VerifyUnit> &Units,
                        VerifyKind Verify, AppliedFixes &Applied) {
  std::vector<clang::tooling::Diagnostic> Diags;
  std::string Error;
  if (!llvm::sys::fs::exists(YamlFile))
    return true; // Nothing was found.
  if (!readFixesYaml(YamlFile, Diags, Error)) {
    report(YamlFile, Error);
    return false;
  }
  bool CompileErrors = llvm::any_of(Diags, cudalint::isCompileError);
  if (CompileErrors && !FixErrors) {
    llvm::errs() << "Found compiler errors, but -fix-errors was not "
                    "specified.\nFixes will not be applied.\n";
    return true;
  }
  FindingSet Set;
  for (clang::tooling::Diagnostic D : Diags) {
    // With --fix-errors, the compiler's own fix-its are applied, never a
    // check's: its finding rests on code that does not compile.
    if (CompileErrors && !cudalint::isCompileError(D))
      continue;
    if (D.Message.Fix.empty() && FixNotes) {
      const llvm::StringMap<clang::tooling::Replacements> *Only = nullptr;
      unsigned WithFix = 0;
      for (const clang::tooling::DiagnosticMessage &N : D.Notes)
        if (!N.Fix.empty()) {
          Only = &N.Fix;
          ++WithFix;
        }
      if (WithFix == 1)
        D.Message.Fix = *Only;
    }
    if (!D.Message.Fix.empty())
      Set.add(D);
  }
  std::vector<Finding> Findings = Set.findings();
  FixPlan Plan = planFixes(Findings);
  // Fixes that make the translation unit fail to compile are withdrawn
  // (and lose their "FIX-IT applied" notes: their fixes are cleared).
  std::vector<Withdrawal> Withdrawn =
      verifyFixPlan(Plan, Findings, Units, Verify, 1);
  reportWithdrawals(Withdrawn);
  // Where each applied fix is, computed before any file changes.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> Notes;
  for (const Finding &F : Findings) {
    std::string Key = F.File + ":" + std::to_string(F.Line) + ":" +
                      std::to_string(F.Column) + ":" + F.Diag.DiagnosticName;
    for (const auto &[File, Reps] : F.Diag.Message.Fix)
      for (const clang::tooling::Replacement &R : Reps) {
        auto [L, C] = Set.position(R.getFilePath(), R.getOffset());
        Notes[Key].emplace_back(R.getFilePath().str(),
                                R.getFilePath().str() + ":" +
                                    std::to_string(L) + ":" +
                                    std::to_string(C));
      }
  }
  bool Ok = reportPlanProblems(Plan) && Withdrawn.empty();
  PlanWrite W = writeFixPlan(Plan);
  Ok &= W.Ok;
  const llvm::StringSet<> &Written = W.Written;
  unsigned Edits = W.Edits, Files = W.Written.size();
  // A diagnostic's fix counts as applied when every file it edits was
  // written (an edit that changed nothing, already there, counts too).
  for (auto &[Key, Locs] : Notes) {
    bool All = llvm::all_of(Locs, [&](const auto &L) {
      return Written.contains(L.first) || !Plan.NewContents.count(L.first);
    });
    bool Refused = llvm::any_of(Locs, [&](const auto &L) {
      return llvm::any_of(Plan.Conflicts,
                          [&](const std::string &C) {
                            return StringRef(C).starts_with(L.first + ":");
                          }) ||
             llvm::any_of(Plan.Errors, [&](const std::string &E) {
               return StringRef(E).starts_with(L.first + ":");
             });
    });
    if (All && !Refused)
      for (const auto &L : Locs)
        Applied[Key].push_back(L.second);
  }
  if (!Quiet && Edits)
    llvm::errs() << "cuda-lint: applied " << Edits << " fix"
                 << (Edits == 1 ? "" : "es") << " to " << Files << " file"
                 << (Files == 1 ? "" : "s") << "\n";
  return Ok;
}

/// clang-tidy's output \p Text with a "FIX-IT applied suggested code
/// changes" note after each diagnostic whose fix was applied, where
/// clang-tidy's own --fix prints them (after the diagnostic's source excerpt,
/// before its other notes), so that tools that read them keep working.
std::string addFixItNotes(StringRef Text, const AppliedFixes &Applied) {
  static const llvm::Regex Ansi("\x1b\\[[0-9;]*m");
  static const llvm::Regex Head(
      "^(.+):([0-9]+):([0-9]+): (warning|error|note): .*\\[([^],]+)[],]");
  static const llvm::Regex AnyHead("^.+:[0-9]+:[0-9]+: (warning|error|note): ");
  std::string Out;
  const std::vector<std::string> *Pending = nullptr;
  auto Flush = [&] {
    if (Pending)
      for (const std::string &Loc : *Pending)
        Out += Loc + ": note: FIX-IT applied suggested code changes\n";
    Pending = nullptr;
  };
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  if (!Lines.empty() && Lines.back().empty())
    Lines.pop_back();
  for (StringRef L : Lines) {
    std::string Plain = L.str();
    while (Ansi.match(Plain))
      Plain = Ansi.sub("", Plain);
    llvm::SmallVector<StringRef> M;
    if (AnyHead.match(Plain)) {
      Flush();
      if (Head.match(Plain, &M) && M[4] != "note") {
        auto It = Applied.find(absolute(M[1]) + ":" + M[2].str() + ":" +
                               M[3].str() + ":" + M[5].str());
        if (It != Applied.end())
          Pending = &It->second;
      }
    } else if (Pending && !StringRef(Plain).starts_with(" ")) {
      Flush(); // The end of the excerpt ("N warnings generated.", ...).
    }
    Out += L.str();
    Out += "\n";
  }
  Flush();
  return Out;
}

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
  --verify=<how>          how --fix checks that each fixed translation unit
                          still compiles: clang (default; host and device
                          side), nvcc (the compile command's nvcc) or none

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
CacheSettings Caching;

/// What a cached run over one translation unit records before it analyses
/// it: the files the unit reads, found by the preprocessor, and their
/// hashes (taken before the analysis, so that a file edited while it runs
/// makes the entry miss next time).
struct CacheRecording {
  ResultCache *Cache = nullptr;
  CacheDeps Deps;
  bool DepsOk = false;
} Recording;

/// Runs the preprocessor over the unit as it is about to be analysed.
void recordDependencies(const VerifyUnit &U) {
  if (!Recording.Cache)
    return;
  Recording.DepsOk = preprocessorDeps(U.ClangArgs, U.Directory, Recording.Deps);
  if (Recording.DepsOk)
    for (const std::string &F : Recording.Deps.Files)
      if (!Recording.Cache->fileHash(F))
        Recording.DepsOk = false;
}

int lintMain(int argc, const char **argv) {
  std::vector<std::string> In(argv + 1, argv + argc);
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
  // A named input could not be linted (reported, left out).
  bool InputFailed = false;
  // How --fix verifies the files it writes; where a bulk run's child writes
  // its translation unit's compile commands for that (--export-command=).
  VerifyKind Verify = VerifyKind::Clang;
  std::string ExportCommand;

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
    if (matchOption(In, I, "verify", Value)) {
      std::optional<VerifyKind> K = parseVerifyKind(Value);
      if (!K)
        fail("--verify=" + Value, "expected clang, nvcc or none");
      Verify = Bulk.Verify = *K;
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
    if (A == "--no-pch" || A == "-no-pch") {
      UsePch = false;
      BulkChildArgs.push_back(A.str());
      continue;
    }
    if (A == "--cuda-fallback" || A == "-cuda-fallback") {
      NoToolkit = true;
      BulkChildArgs.push_back(A.str());
      continue;
    }
    if (A == "--legacy-compat" || A == "-legacy-compat") {
      LegacyCompat = true;
      BulkChildArgs.push_back(A.str());
      continue;
    }
    if (A == "--no-legacy-compat" || A == "-no-legacy-compat") {
      NoLegacyCompat = true;
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

  if (BulkMode) {
    llvm::SmallVector<StringRef> Bad;
    if (Bulk.Merge) {
      for (const std::string &S : Sources)
        if (!llvm::sys::fs::exists(S))
          fail(S, "no such file");
    } else {
      // A bad file named on the command line is reported; the others go on.
      bool Named = !Sources.empty();
      llvm::erase_if(Sources, [&](const std::string &S) {
        if (llvm::sys::fs::is_directory(S))
          return false;
        std::optional<std::string> Problem = sourceProblem(S, false);
        if (Problem) {
          report(S, *Problem);
          InputFailed = true;
        }
        return Problem.has_value();
      });
      if (Named && Sources.empty())
        return 1;
    }
    Bulk.Self = llvm::sys::fs::getMainExecutable(
        argv[0], reinterpret_cast<void *>(&takesSeparateValue));
    Bulk.ChildArgs = BulkChildArgs;
    Bulk.Inputs = Sources;
    Bulk.BuildPath = BuildPathGiven ? BuildPath : "";
    Bulk.HasDoubleDash = HasDoubleDash;
    Bulk.CompileArgs = CompileArgs;
    Bulk.Fix = Fix;
    // Bulk runs (and pre-commit's --changed-lines) use the results cache
    // unless --no-cache.
    if (!Caching.Disabled && !Bulk.Merge) {
      Bulk.CacheDir =
          Caching.Dir.empty() ? defaultResultCacheDir() : Caching.Dir;
      Bulk.CacheMaxSize = Caching.MaxSize;
    }
    int BulkRC = runBulk(Bulk);
    return BulkRC ? BulkRC : InputFailed;
  }

  // Each bad input is reported in one line and left out; the rest are
  // linted, and the exit code says that something failed.
  bool HadSources = !Sources.empty();
  llvm::erase_if(Sources, [&](const std::string &S) {
    std::optional<std::string> Problem = sourceProblem(S, Fix);
    if (Problem) {
      report(S, *Problem);
      InputFailed = true;
    }
    return Problem.has_value();
  });
  if (HadSources && Sources.empty())
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

  CudaEnvironment Env;
  Env.ResourceDir = findResourceDir();
  if (!GpuArch.empty())
    Env.DefaultGpuArch = GpuArch;
  if (!ExplicitCudaPath.empty() && !findCudaPath(ExplicitCudaPath))
    fail(ExplicitCudaPath, "not a CUDA toolkit (no include/cuda_runtime.h)");
  std::optional<std::string> Cuda;
  if (!NoToolkit)
    Cuda = findCudaPath(ExplicitCudaPath, &Env.CudaPathSource);
  if (Cuda) {
    Env.CudaPath = *Cuda;
  } else if (!Sources.empty()) {
    llvm::SmallString<256> Fallback(findShareDir(argv[0]));
    llvm::sys::path::append(Fallback, "include", "cuda_lint_fallback.h");
    Env.FallbackHeader = std::string(Fallback);
    if (NoToolkit)
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
  std::vector<std::string> PreludeIncludes;
  auto ForceInclude = [&](StringRef Name) {
    llvm::SmallString<256> Header(findShareDir(argv[0]));
    llvm::sys::path::append(Header, "include", Name);
    llvm::sys::fs::make_absolute(Header);
    Tidy.push_back("--extra-arg=-include" + std::string(Header));
    PreludeIncludes.push_back(std::string(Header));
  };
  // What nvcc's headers declare and clang's do not (cache-hint loads and
  // stores, host min/max): always, with a toolkit, precompiled into the
  // prelude with the rest.
  if (!Env.CudaPath.empty())
    ForceInclude("cuda_lint_nvcc.h");
  if (!NoLegacyCompat && !Env.CudaPath.empty() &&
      (LegacyCompat || Scan.RemovedApi))
    ForceInclude("cuda_lint_legacy.h");

  // Where do compile commands come from?
  TempDatabase Temp;
  std::string DbFile;
  const std::vector<std::string> UserCompileArgs = CompileArgs;
  const bool UserDoubleDash = HasDoubleDash;
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
      return 1;
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
      return 1;
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

  // cuda-* is the default check set unless some configuration sets Checks
  // (--checks, a --config or --config-file with Checks, or a .clang-tidy file
  // clang-tidy would read). A configuration with only CheckOptions keeps it.
  if (!HasChecks && !configGivenSetsChecks(Tidy)) {
    std::string Start = Sources.empty()
                            ? absolute(".")
                            : std::string(llvm::sys::path::parent_path(
                                  absolute(Sources.front())));
    if (HasConfig || !configFilesSetChecks(Start))
      Tidy.insert(Tidy.begin(), "--checks=-*,cuda-*");
  }

  // The translation unit as it is analysed, for --fix to compile it again
  // (or, in a bulk run's child, for the parent to).
  std::vector<VerifyUnit> Units;
  if (Sources.size() == 1 && ((Fix && Verify != VerifyKind::None) ||
                              !ExportCommand.empty() || Recording.Cache)) {
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

  // clang-tidy's own --fix replaces read-only files without a word and exits
  // 0 when a file cannot be written. Unless fixes are to be formatted
  // (--format-style, which only clang-tidy does), cuda-lint takes the fixes
  // clang-tidy exports and applies them itself, as a bulk run does: files
  // that are not writable are refused, each file is written atomically, and
  // any failure is an error naming the file.
  bool OwnFixes = Fix && !FormatStyle;
  std::string UserExport;
  llvm::SmallString<128> FixesYaml, CapturedOut;
  int SavedStdout = -1;
  if (OwnFixes) {
    std::vector<std::string> Kept;
    for (size_t I = 0; I < Tidy.size(); ++I) {
      StringRef A = Tidy[I];
      if (isFlag(A, "fix") || isFlag(A, "fix-errors") || isFlag(A, "fix-notes"))
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
        llvm::none_of(
            Tidy, [](const std::string &A) { return isFlag(A, "use-color"); }))
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
  llvm::SmallString<128> ExportYaml;
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

  std::vector<std::string> Final{argv[0]};
  Final.insert(Final.end(), Tidy.begin(), Tidy.end());
  Final.insert(Final.end(), Sources.begin(), Sources.end());
  if (HasDoubleDash) {
    Final.push_back("--");
    Final.insert(Final.end(), CompileArgs.begin(), CompileArgs.end());
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
  int RC =
      clang::tidy::clangTidyMain(static_cast<int>(CArgs.size()), CArgs.data());
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
    FixFailed |= !applyExportedFixes(FixesYaml, Bulk.FixErrors, FixNotes,
                                     Bulk.Quiet, Units, Verify, Applied);
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
  if (Fix)
    Permissions.restore();
  return RC ? RC : (InputFailed || FixFailed);
}

/// Standard output and error of a run that is to be cached, kept for the
/// cache. A stream that goes to a regular file (a bulk run's child, the
/// launcher's) is read back from that file afterwards, so that nothing is
/// lost if the run crashes; another one (a terminal, a pipe) goes to a
/// temporary file, printed when the run ends (also through exit() or a
/// crash).
struct Capture {
  struct Stream {
    int FD;
    bool Direct = false;
    off_t Start = 0;
    int Saved = -1;
    char File[256] = {0};
    std::string Text;
  };
  Stream S[2] = {{1}, {2}};
  bool Active = false;

  bool start() {
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(stdout);
    std::fflush(stderr);
    struct stat A, B;
    bool Same = ::fstat(1, &A) == 0 && ::fstat(2, &B) == 0 &&
                A.st_dev == B.st_dev && A.st_ino == B.st_ino;
    Active = true;
    for (Stream &St : S) {
      struct stat Info;
      if (!Same && ::fstat(St.FD, &Info) == 0 && S_ISREG(Info.st_mode)) {
        St.Start = ::lseek(St.FD, 0, SEEK_CUR);
        St.Direct = St.Start >= 0;
      }
      if (St.Direct)
        continue;
      int TmpFD;
      llvm::SmallString<128> Tmp;
      if (llvm::sys::fs::createTemporaryFile("cuda-lint-output", "txt", TmpFD,
                                             Tmp)) {
        restore(false); // The streams already redirected go back.
        return false;
      }
      std::snprintf(St.File, sizeof(St.File), "%s", Tmp.c_str());
      St.Saved = ::dup(St.FD);
      ::dup2(TmpFD, St.FD);
      ::close(TmpFD);
    }
    llvm::sys::AddSignalHandler(
        [](void *Self) { static_cast<Capture *>(Self)->restore(false); }, this);
    return true;
  }

  static void writeAll(int FD, StringRef Text) {
    while (!Text.empty()) {
      ssize_t N = ::write(FD, Text.data(), Text.size());
      if (N <= 0)
        return;
      Text = Text.drop_front(N);
    }
  }

  /// Puts the streams back and prints what went to the temporary files
  /// (with system calls only, as on a crash); with \p Keep, keeps what each
  /// stream got in its Text.
  void restore(bool Keep) {
    if (!Active)
      return;
    Active = false;
    for (Stream &St : S) {
      int In = -1;
      off_t Off = 0;
      if (St.Direct) {
        if (!Keep)
          continue;
        char Proc[64];
        std::snprintf(Proc, sizeof(Proc), "/proc/self/fd/%d", St.FD);
        In = ::open(Proc, O_RDONLY);
        Off = St.Start;
      } else {
        if (St.Saved < 0)
          continue; // Never redirected.
        ::dup2(St.Saved, St.FD);
        ::close(St.Saved);
        In = ::open(St.File, O_RDONLY);
      }
      if (In < 0)
        continue;
      char Buf[65536];
      ssize_t N;
      while ((N = ::pread(In, Buf, sizeof(Buf), Off)) > 0) {
        Off += N;
        if (!St.Direct)
          writeAll(St.FD, StringRef(Buf, N));
        if (Keep)
          St.Text.append(Buf, N);
      }
      ::close(In);
      if (!St.Direct)
        ::unlink(St.File);
    }
  }

  void stop() {
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(stdout);
    std::fflush(stderr);
    restore(true);
  }
};
Capture TheCapture;

void stopCaptureAtExit() { TheCapture.stop(); }

/// The value of option \p Name (`--name=v`, `-name=v`, `--name v`) in
/// \p Args before `--`, or "".
std::string optionIn(llvm::ArrayRef<std::string> Args, StringRef Name) {
  std::string Value;
  for (size_t I = 0; I < Args.size() && Args[I] != "--"; ++I)
    if (matchOption(Args, I, Name, Value))
      return Value;
  return "";
}

/// Takes the cache options out of \p In into Caching.
void parseCacheOptions(std::vector<std::string> &In) {
  std::vector<std::string> Kept;
  for (size_t I = 0; I < In.size(); ++I) {
    StringRef A = In[I];
    if (A == "--") {
      Kept.insert(Kept.end(), In.begin() + I, In.end());
      break;
    }
    std::string Value;
    if (isFlag(A, "no-cache")) {
      Caching.Disabled = true;
      continue;
    }
    if (isFlag(A, "cache-child")) {
      Caching.Child = true;
      continue;
    }
    if (isFlag(A, "cache-max-size") &&
        matchOption(In, I, "cache-max-size", Value)) {
      if (!parseCacheSize(Value, Caching.MaxSize))
        fail("--cache-max-size=" + Value,
             "expected a size (bytes, or a number with K, M or G)");
      continue;
    }
    if (isFlag(A, "cache") && matchOption(In, I, "cache", Value)) {
      if (Value.empty())
        fail("--cache", "needs a directory (--cache=DIR)");
      Caching.Dir = absolute(Value);
      Caching.Explicit = true;
      continue;
    }
    Kept.push_back(In[I]);
  }
  In = std::move(Kept);
}

int runLint(const char *Argv0, const std::vector<std::string> &In) {
  std::vector<const char *> Argv{Argv0};
  for (const std::string &A : In)
    Argv.push_back(A.c_str());
  return lintMain(static_cast<int>(Argv.size()), Argv.data());
}

/// A run over one translation unit with the results cache: replays a hit,
/// or runs, records and stores.
int runCached(const char *Argv0, std::vector<std::string> In) {
  std::string Self = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&takesSeparateValue));
  // clang-tidy colours its output on a terminal; a captured run would not.
  if (llvm::sys::Process::StandardOutIsDisplayed() &&
      llvm::none_of(
          In, [](const std::string &A) { return isFlag(A, "use-color"); })) {
    auto Dash = llvm::find(In, "--");
    In.insert(Dash, "--use-color");
  }
  ResultCache Cache(Caching.Dir, Caching.MaxSize);
  std::optional<std::string> Key = Cache.runKey(In, absolute("."), Self);
  if (!Key)
    return runLint(Argv0, In);
  const std::pair<const char *, const char *> Roles[] = {
      {"export-fixes", "export-fixes"}, {"export-command", "export-command"}};
  if (std::optional<CachedRun> Hit = Cache.lookup(*Key)) {
    for (const auto &[Role, Option] : Roles) {
      std::string Path = optionIn(In, Option);
      auto It = Hit->Files.find(Role);
      if (Path.empty() || It == Hit->Files.end())
        continue;
      std::error_code EC;
      llvm::raw_fd_ostream OS(Path, EC);
      if (EC)
        fail(Path, EC.message());
      OS << It->second;
    }
    Capture::writeAll(1, Hit->Stdout);
    Capture::writeAll(2, Hit->Stderr);
    return Hit->ExitCode;
  }
  Recording.Cache = &Cache;
  bool Captured = TheCapture.start();
  if (Captured)
    std::atexit(stopCaptureAtExit);
  int RC = runLint(Argv0, In);
  TheCapture.stop();
  if (!Captured || !Recording.DepsOk)
    return RC;
  CachedRun Run;
  Run.ExitCode = RC;
  Run.Stdout = TheCapture.S[0].Text;
  Run.Stderr = TheCapture.S[1].Text;
  for (const auto &[Role, Option] : Roles) {
    std::string Path = optionIn(In, Option);
    if (Path.empty() || !llvm::sys::fs::exists(Path))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf)
      return RC;
    Run.Files[Role] = (*Buf)->getBuffer().str();
  }
  Cache.store(*Key, Run, Recording.Deps);
  // A bulk run's parent evicts once at its end; other runs now and then.
  if (!Caching.Child && (::getpid() % 16) == 0)
    Cache.evict();
  return RC;
}

/// Names of compiler launchers that may stand before the compiler.
bool isLauncherName(StringRef Prog) {
  StringRef Name = llvm::sys::path::filename(Prog);
  return llvm::is_contained(
      {"ccache", "sccache", "buildcache", "distcc", "icecc", "cuda-lint"},
      Name);
}

/// The CUDA source that compiler command \p Cmd (the compiler first)
/// compiles, or "" when it does not compile one (a link, a host file).
std::string launcherSource(llvm::ArrayRef<std::string> Cmd) {
  size_t C = 0;
  while (C + 1 < Cmd.size() && isLauncherName(Cmd[C]))
    ++C;
  StringRef Compiler = llvm::sys::path::filename(Cmd[C]);
  bool Nvcc = isNvccCompiler(Cmd[C]);
  if (!Nvcc && !Compiler.contains("clang"))
    return "";
  bool Compile = false, ForcedCuda = false;
  std::string Source;
  for (size_t I = C + 1; I < Cmd.size(); ++I) {
    StringRef A = Cmd[I];
    if (A == "-c" || A == "--compile" || A == "-dc" || A == "--device-c" ||
        A == "-rdc=true")
      Compile |=
          A == "-c" || A == "--compile" || A == "-dc" || A == "--device-c";
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ" ||
        A == "--output-file" || A == "-ccbin" || A == "--compiler-bindir" ||
        A == "-Xcompiler" || A == "-Xlinker" || A == "-include" || A == "-I" ||
        A == "-isystem" || A == "-D" || A == "-arch" || A == "-gencode" ||
        A == "--options-file") {
      ++I;
      continue;
    }
    if (A == "-x" && I + 1 < Cmd.size()) {
      ForcedCuda = Cmd[I + 1] == "cu" || Cmd[I + 1] == "cuda";
      ++I;
      continue;
    }
    if (A.starts_with("-"))
      continue;
    if ((ForcedCuda || llvm::sys::path::extension(A) == ".cu") &&
        llvm::sys::fs::is_regular_file(A))
      Source = A.str();
  }
  return Compile ? Source : "";
}

/// clang-tidy's output \p Text without the diagnostics of compile errors
/// (their headers and excerpts): the build's own compiler reports real
/// errors; returns how many were left out.
std::string withoutCompileErrors(StringRef Text, unsigned &Dropped) {
  std::string Out;
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  bool Skipping = false;
  static const llvm::Regex Head("^.+:[0-9]+:[0-9]+: (warning|error|note): ");
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    if (I + 1 == Lines.size() && L.empty())
      break;
    if (Head.match(L) || L.starts_with("error: ")) {
      Skipping = L.ends_with("[clang-diagnostic-error]") ||
                 (Skipping && L.contains(": note: "));
      if (Skipping && L.ends_with("[clang-diagnostic-error]"))
        ++Dropped;
    } else if (!L.starts_with(" ") && !llvm::isDigit(L.empty() ? 'x' : L[0])) {
      Skipping = false;
    }
    if (!Skipping)
      Out += L.str() + "\n";
  }
  return Out;
}

/// `cuda-lint --launcher [cuda-lint options] <compiler> <args...>`: lints
/// the CUDA translation unit that the command compiles, with that command,
/// prints the findings as compiler warnings, then runs the command
/// unchanged (after $CUDA_LINT_LAUNCHER, e.g. ccache) and returns its
/// status. A failure of cuda-lint never fails the build; findings do with
/// --warnings-as-errors.
int runLauncher(const char *Argv0, std::vector<std::string> In) {
  std::vector<std::string> LintOpts;
  size_t I = 0;
  for (; I < In.size(); ++I) {
    if (In[I] == "--") {
      ++I;
      break;
    }
    if (!StringRef(In[I]).starts_with("-"))
      break;
    LintOpts.push_back(In[I]);
  }
  if (I >= In.size())
    fail("--launcher", "needs the compile command to run (cuda-lint "
                       "--launcher nvcc -c file.cu ...)");
  std::vector<std::string> Cmd(In.begin() + I, In.end());
  parseCacheOptions(LintOpts);
  bool WarningsAsErrors = llvm::any_of(LintOpts, [](const std::string &A) {
    return isFlag(A, "warnings-as-errors");
  });

  bool LintFailed = false;
  std::string Source = launcherSource(Cmd);
  if (!Source.empty()) {
    std::string Self = llvm::sys::fs::getMainExecutable(
        Argv0, reinterpret_cast<void *>(&takesSeparateValue));
    std::string Cwd = absolute(".");
    // The command as a one-entry compile database, so that it is translated
    // for clang exactly as a build's compile_commands.json is. Its place
    // depends only on the command, so the results cache sees the same
    // arguments for the same compile.
    std::string Text = Cwd;
    for (const std::string &A : Cmd)
      Text += '\0' + A;
    auto H = llvm::BLAKE3::hash<12>(llvm::arrayRefFromStringRef(Text));
    llvm::SmallString<256> DbDir(cacheDirectory());
    llvm::sys::path::append(DbDir, "launcher",
                            llvm::toHex(H, /*LowerCase=*/true));
    llvm::SmallString<256> DbFile(DbDir);
    llvm::sys::path::append(DbFile, "compile_commands.json");
    size_t C = 0;
    while (C + 1 < Cmd.size() && isLauncherName(Cmd[C]))
      ++C;
    llvm::json::Array Args;
    for (size_t J = C; J < Cmd.size(); ++J)
      Args.push_back(Cmd[J]);
    std::string Db;
    llvm::raw_string_ostream(Db) << llvm::json::Value(
        llvm::json::Array{llvm::json::Object{{"directory", Cwd},
                                             {"file", absolute(Source)},
                                             {"arguments", std::move(Args)}}});
    bool HaveDb = false;
    if (auto Old = llvm::MemoryBuffer::getFile(DbFile))
      HaveDb = (*Old)->getBuffer() == Db;
    if (!HaveDb && !llvm::sys::fs::create_directories(DbDir)) {
      // Written to a unique name and renamed: concurrent compiles of the
      // same command never see half a file.
      llvm::SmallString<256> Tmp;
      int FD;
      if (!llvm::sys::fs::createUniqueFile(DbFile + ".%%%%%%.tmp", FD, Tmp)) {
        {
          llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
          OS << Db;
        }
        HaveDb = !llvm::sys::fs::rename(Tmp, DbFile);
        if (!HaveDb)
          llvm::sys::fs::remove(Tmp);
      }
    }
    llvm::SmallString<128> Out, Err;
    if (HaveDb &&
        !llvm::sys::fs::createTemporaryFile("cuda-lint-launch", "out", Out) &&
        !llvm::sys::fs::createTemporaryFile("cuda-lint-launch", "err", Err)) {
      std::vector<std::string> Child{Self, "--quiet"};
      if (Caching.Disabled)
        Child.push_back("--no-cache");
      else
        Child.push_back("--cache=" + (Caching.Dir.empty()
                                          ? defaultResultCacheDir()
                                          : Caching.Dir));
      if (Caching.MaxSize != DefaultCacheMaxSize)
        Child.push_back("--cache-max-size=" + std::to_string(Caching.MaxSize));
      Child.insert(Child.end(), LintOpts.begin(), LintOpts.end());
      Child.push_back("-p=" + std::string(DbDir));
      Child.push_back(absolute(Source));
      llvm::SmallVector<StringRef> Argv(Child.begin(), Child.end());
      std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                              StringRef(Err)};
      std::string ErrMsg;
      int RC = llvm::sys::ExecuteAndWait(Self, Argv, std::nullopt, Redirects, 0,
                                         0, &ErrMsg);
      auto Read = [](StringRef F) {
        auto Buf = llvm::MemoryBuffer::getFile(F);
        return Buf ? (*Buf)->getBuffer().str() : std::string();
      };
      std::string Findings = Read(Out), Errors = Read(Err);
      llvm::sys::fs::remove(Out);
      llvm::sys::fs::remove(Err);
      unsigned Dropped = 0;
      llvm::errs() << withoutCompileErrors(Findings, Dropped);
      if (Dropped)
        llvm::errs() << "cuda-lint: warning: " << Source
                     << ": analysed with compile errors (the functions they "
                        "touch were skipped)\n";
      if (RC < 0 || RC > 1) {
        llvm::errs() << "cuda-lint: warning: " << Source
                     << ": not linted (cuda-lint "
                     << (RC < 0 ? "could not run" : "failed") << ")\n";
      } else if (RC == 1 && WarningsAsErrors &&
                 StringRef(Findings).contains("-warnings-as-errors]")) {
        LintFailed = true;
      }
      // cuda-lint's own notes and warnings about the command.
      llvm::SmallVector<StringRef> Lines;
      StringRef(Errors).split(Lines, '\n');
      for (StringRef L : Lines)
        if (L.starts_with("cuda-lint: error: ") ||
            (L.starts_with("cuda-lint: warning: ") &&
             !L.contains("ignoring flags clang does not know")))
          llvm::errs() << L << "\n";
    }
  }

  // The compile, unchanged.
  std::vector<std::string> Run;
  if (auto Chain = llvm::sys::Process::GetEnv("CUDA_LINT_LAUNCHER")) {
    llvm::SmallVector<StringRef> Parts;
    StringRef(*Chain).split(Parts, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef P : Parts)
      Run.push_back(P.str());
  }
  Run.insert(Run.end(), Cmd.begin(), Cmd.end());
  llvm::ErrorOr<std::string> Prog =
      llvm::sys::path::is_absolute(Run.front()) ||
              StringRef(Run.front()).contains('/')
          ? llvm::ErrorOr<std::string>(Run.front())
          : llvm::sys::findProgramByName(Run.front());
  if (!Prog)
    fail(Run.front(), "cannot find the compiler to run");
  llvm::SmallVector<StringRef> Argv(Run.begin(), Run.end());
  std::string ErrMsg;
  llvm::errs().flush();
  int RC =
      llvm::sys::ExecuteAndWait(*Prog, Argv, std::nullopt, {}, 0, 0, &ErrMsg);
  if (RC < 0)
    fail(Run.front(), "cannot be run: " + ErrMsg);
  if (RC != 0)
    return RC;
  return LintFailed ? 1 : 0;
}
} // namespace

int main(int argc, const char **argv) {
  std::vector<std::string> In(argv + 1, argv + argc);
  if (!In.empty() && In.front() == "--launcher")
    return runLauncher(argv[0],
                       std::vector<std::string>(In.begin() + 1, In.end()));
  if (!In.empty() && In.front() == "--clang-job")
    return runClangJob(argv[0], llvm::ArrayRef(In).drop_front());
  parseCacheOptions(In);
  if (Caching.Explicit && !Caching.Disabled)
    return runCached(argv[0], std::move(In));
  return runLint(argv[0], In);
}
