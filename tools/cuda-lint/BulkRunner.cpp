//===--- BulkRunner.cpp - cuda-lint bulk runs -----------------------------===//
//
// One child cuda-lint per translation unit (a crash takes one file, not the
// run), at most -j at a time. Each child writes its findings with
// --export-fixes; they are merged here, de-duplicated (a header's finding
// reached from many translation units is one finding, its fix one edit), and
// then printed, applied (--fix), shown as a diff (--diff) or written as JSON
// or SARIF.
//
//===----------------------------------------------------------------------===//

#include "BulkRunner.h"
#include "BulkInputs.h"
#include "BulkReport.h"
#include "cudalint/driver/Bulk.h"
#include "cudalint/driver/CompileFlags.h"
#include "cudalint/driver/ResultCache.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace cudalint {
namespace {

using Clock = std::chrono::steady_clock;

std::string readAll(StringRef File) {
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true,
                                         /*RequiresNullTerminator=*/false);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

std::string formatSeconds(double S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (S < 60)
    OS << llvm::format("%.1fs", S);
  else
    OS << llvm::format("%u:%02u", unsigned(S) / 60, unsigned(S) % 60);
  return Out;
}

/// Runs \p Args (argv[0] first), returning its standard output, or nullopt
/// when it fails.
std::optional<std::string> capture(llvm::ArrayRef<std::string> Args) {
  auto Prog = llvm::sys::findProgramByName(Args.front());
  if (!Prog)
    return std::nullopt;
  llvm::SmallString<128> Out;
  if (fs::createTemporaryFile("cuda-lint-out", "", Out))
    return std::nullopt;
  llvm::SmallVector<StringRef> A(Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                          std::nullopt};
  int RC = llvm::sys::ExecuteAndWait(*Prog, A, std::nullopt, Redirects);
  std::string Text = readAll(Out);
  fs::remove(Out);
  if (RC != 0)
    return std::nullopt;
  return Text;
}

struct Job {
  std::string File;
  /// The file as the child gets it: as the user spelled it when several
  /// files were named (clang-tidy's output names files so), else absolute.
  std::string Arg;
  std::string OutFile, ErrFile, YamlFile, CommandFile;
  Clock::time_point Start;
  double Seconds = 0;
  int Status = 0;
  bool TimedOut = false;
  double Timeout = 0;
  // Results.
  std::vector<clang::tooling::Diagnostic> Diags;
  bool Failed = false;
  std::string Reason;
  /// Analysed with compile errors: the first error (the file gets no fix).
  std::string Errors;
  /// The first line of a sanitizer report on the child's stderr (a run of
  /// an ASan or UBSan build), or "".
  std::string Sanitizer;
  /// The child's text output, printed once every file is done.
  std::string Text;
  /// The child printed its one-line error about this file.
  bool ReasonShown = false;
  /// Replayed from the results cache.
  bool Cached = false;
  unsigned Findings = 0;
};

pid_t spawn(const std::vector<std::string> &Args, const Job &J) {
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addopen(&FA, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 1, J.OutFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&FA, 2, J.ErrFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  pid_t Pid = -1;
  if (posix_spawn(&Pid, Args.front().c_str(), &FA, nullptr, Argv.data(),
                  environ) != 0)
    Pid = -1;
  posix_spawn_file_actions_destroy(&FA);
  return Pid;
}

class Progress {
public:
  Progress(std::string Mode, size_t Total) : Total(Total), Begin(Clock::now()) {
    if (Mode == "auto")
      Mode = llvm::sys::Process::StandardErrIsDisplayed() ? "bar" : "lines";
    Bar = Mode == "bar";
    Lines = Mode == "lines";
    if (Bar && Total)
      llvm::errs() << "[" << std::string(30, '.') << "] 0/" << Total
                   << " files";
  }
  void done(const Job &J, StringRef Root) {
    ++Done;
    double Elapsed =
        std::chrono::duration<double>(Clock::now() - Begin).count();
    if (Lines) {
      llvm::errs() << "[" << Done << "/" << Total << "] "
                   << relativeTo(J.File, Root) << ": ";
      if (J.Failed)
        llvm::errs() << "FAILED (" << J.Reason << ")";
      else
        llvm::errs() << J.Findings
                     << (J.Findings == 1 ? " finding" : " findings")
                     << (J.Errors.empty() ? "" : ", analysed with errors");
      if (!J.Sanitizer.empty())
        llvm::errs() << ", SANITIZER REPORT";
      llvm::errs() << " (" << formatSeconds(J.Seconds) << ")\n";
    } else if (Bar) {
      double Eta = Done ? Elapsed / Done * (Total - Done) : 0;
      unsigned Width = 30, Filled = Total ? Width * Done / Total : Width;
      llvm::errs() << "\r\033[K[" << std::string(Filled, '#')
                   << std::string(Width - Filled, '.') << "] " << Done << "/"
                   << Total << " files, " << formatSeconds(Elapsed)
                   << " elapsed, ETA " << formatSeconds(Eta) << "  "
                   << path::filename(J.File);
      if (Done == Total)
        llvm::errs() << "\r\033[K";
    }
  }
  /// Clears the bar before other output is printed.
  void clear() {
    if (Bar && Done && Done < Total)
      llvm::errs() << "\r\033[K";
  }

private:
  size_t Total, Done = 0;
  Clock::time_point Begin;
  bool Bar = false, Lines = false;
};

[[noreturn]] void fatal(const llvm::Twine &Msg) {
  llvm::errs() << "cuda-lint: error: " << Msg << "\n";
  std::exit(1);
}

/// The first compile error of a translation unit, as `file:line:col:
/// message`, or "" when it has none. clang-tidy exports diagnostics sorted by
/// file, not in the order they were emitted, so the first is chosen: an
/// include that was not found (the usual root cause), then the first error
/// in the translation unit's own file, then any located error.
std::string firstCompileError(const Job &J, StringRef Root) {
  const clang::tooling::Diagnostic *Best = nullptr;
  auto Rank = [&](const clang::tooling::Diagnostic &D) {
    if (StringRef(D.Message.Message).ends_with("file not found"))
      return 0;
    if (path::filename(D.Message.FilePath) == path::filename(J.File))
      return 1;
    return D.Message.FilePath.empty() ? 3 : 2;
  };
  for (const clang::tooling::Diagnostic &D : J.Diags) {
    if (!isCompileError(D))
      continue;
    if (!Best || Rank(D) < Rank(*Best) ||
        (Rank(D) == Rank(*Best) &&
         D.Message.FilePath == Best->Message.FilePath &&
         D.Message.FileOffset < Best->Message.FileOffset))
      Best = &D;
  }
  if (!Best)
    return "";
  if (Best->Message.FilePath.empty())
    return Best->Message.Message;
  // Paths in the fixes file are relative to the command's directory.
  llvm::SmallString<256> File(Best->Message.FilePath);
  if (!path::is_absolute(File) && !Best->BuildDirectory.empty()) {
    File = Best->BuildDirectory;
    path::append(File, Best->Message.FilePath);
  }
  std::string Abs = makeAbsolute(File);
  FindingSet Tmp;
  auto [L, C] = Tmp.position(Abs, Best->Message.FileOffset);
  return relativeTo(Abs, Root) + ":" + std::to_string(L) + ":" +
         std::to_string(C) + ": " + Best->Message.Message;
}

/// Why a translation unit could not be analysed, or "" when it was (perhaps
/// with compile errors: J.Errors).
std::string failureReason(const Job &J, StringRef Root) {
  if (J.TimedOut) {
    std::string Msg;
    llvm::raw_string_ostream OS(Msg);
    OS << llvm::format("timed out after %gs (--timeout)", J.Timeout);
    return Msg;
  }
  if (!J.Sanitizer.empty() && (WIFSIGNALED(J.Status) || !J.Diags.size()))
    return "sanitizer report: " + J.Sanitizer;
  if (WIFSIGNALED(J.Status))
    return "cuda-lint crashed (signal " + std::to_string(WTERMSIG(J.Status)) +
           ")";
  // A file with compile errors is analysed: cuda-lint skips missing
  // includes and the functions the errors touch, and reports the rest.
  if (!J.Errors.empty())
    return "";
  int Code = WIFEXITED(J.Status) ? WEXITSTATUS(J.Status) : 1;
  if (Code == 0)
    return "";
  // A non-zero exit with findings is --warnings-as-errors at work.
  if (!J.Diags.empty())
    return "";
  if (!J.Sanitizer.empty())
    return "sanitizer report: " + J.Sanitizer;
  llvm::SmallVector<StringRef> Lines;
  std::string Err = readAll(J.ErrFile);
  StringRef(Err).split(Lines, '\n');
  for (StringRef L : Lines) {
    // The child's own one-line error about the file: its cause alone.
    StringRef Cause = L.trim();
    if (Cause.consume_front("cuda-lint: error: ") &&
        Cause.consume_front(J.Arg + ": "))
      return Cause.str();
  }
  for (StringRef L : Lines)
    if (L.contains("error:"))
      return L.trim().str();
  for (StringRef L : Lines)
    if (!L.trim().empty())
      return L.trim().str();
  return "exit code " + std::to_string(Code);
}

/// Writes what a cached child printed and wrote to the job's files.
bool replay(const CachedRun &Run, const Job &J) {
  auto Write = [](StringRef File, StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    if (EC)
      return false;
    OS << Text;
    OS.close();
    return !OS.has_error();
  };
  bool Ok = Write(J.OutFile, Run.Stdout) && Write(J.ErrFile, Run.Stderr);
  for (const auto &[Role, Text] : Run.Files) {
    if (Role == "export-fixes")
      Ok &= Write(J.YamlFile, Text);
    else if (Role == "export-command")
      Ok &= Write(J.CommandFile, Text);
  }
  return Ok;
}

void printSummary(const std::vector<Job> &Jobs,
                  const std::vector<Finding> &Findings, StringRef Root,
                  double Elapsed, unsigned Parallel, unsigned NonCuda,
                  unsigned IncludedEntries, bool CacheUsed) {
  auto &OS = llvm::errs();
  std::map<std::string, unsigned> PerCheck, PerFile;
  for (const Finding &F : Findings) {
    if (StringRef(F.Diag.DiagnosticName).starts_with("clang-diagnostic-error"))
      continue;
    ++PerCheck[F.Diag.DiagnosticName];
    ++PerFile[F.File];
  }
  unsigned Failed = 0, WithErrors = 0, Sanitized = 0, Total = 0;
  for (const Job &J : Jobs) {
    Failed += J.Failed;
    WithErrors += !J.Failed && !J.Errors.empty();
    Sanitized += !J.Sanitizer.empty();
  }
  for (const auto &[C, N] : PerCheck)
    Total += N;
  OS << "\n=== cuda-lint summary ===\n";
  OS << "files analysed: " << Jobs.size() - Failed << " of " << Jobs.size();
  if (WithErrors || Failed) {
    OS << " (";
    if (WithErrors)
      OS << WithErrors << " with compile errors" << (Failed ? "; " : "");
    if (Failed)
      OS << Failed << " could not be analysed";
    OS << ")";
  }
  if (NonCuda)
    OS << "; " << NonCuda << " non-CUDA compile commands skipped";
  if (IncludedEntries)
    OS << "; " << IncludedEntries
       << " compile commands of sources that another source includes, "
          "analysed through it";
  OS << "\nfindings: " << Total << "\n";
  if (Sanitized)
    OS << "sanitizer reports: " << Sanitized << "\n";
  OS << "elapsed: " << formatSeconds(Elapsed) << " with -j" << Parallel;
  if (CacheUsed) {
    unsigned Cached =
        llvm::count_if(Jobs, [](const Job &J) { return J.Cached; });
    OS << "; " << Cached << " of " << Jobs.size() << " file"
       << (Jobs.size() == 1 ? "" : "s") << " from the cache";
  }
  OS << "\n";
  if (!PerCheck.empty()) {
    OS << "\nfindings per check:\n";
    std::vector<std::pair<std::string, unsigned>> V(PerCheck.begin(),
                                                    PerCheck.end());
    llvm::stable_sort(V, [](auto &A, auto &B) { return A.second > B.second; });
    for (auto &[C, N] : V)
      OS << llvm::format("  %6u  ", N) << C << "\n";
    OS << "\nfiles with most findings:\n";
    std::vector<std::pair<std::string, unsigned>> W(PerFile.begin(),
                                                    PerFile.end());
    llvm::stable_sort(W, [](auto &A, auto &B) { return A.second > B.second; });
    for (size_t I = 0; I < W.size() && I < 10; ++I)
      OS << llvm::format("  %6u  ", W[I].second) << relativeTo(W[I].first, Root)
         << "\n";
  }
  if (Sanitized) {
    OS << "\nsanitizer reports:\n";
    for (const Job &J : Jobs)
      if (!J.Sanitizer.empty())
        OS << "  " << relativeTo(J.File, Root) << ": " << J.Sanitizer << "\n";
  }
  if (WithErrors) {
    OS << "\nfiles analysed with compile errors (the functions the errors "
          "touch are skipped; no fixes):\n";
    for (const Job &J : Jobs)
      if (!J.Failed && !J.Errors.empty())
        OS << "  " << relativeTo(J.File, Root)
           << ": analysed with errors: " << J.Errors << "\n";
  }
  if (Failed) {
    OS << "\nfiles that could not be analysed:\n";
    for (const Job &J : Jobs)
      if (J.Failed)
        OS << "  " << relativeTo(J.File, Root) << ": " << J.Reason << "\n";
  }
}

/// The files that could not be analysed, those analysed with compile
/// errors, and those with sanitizer reports.
void collectFailures(const std::vector<Job> &Jobs,
                     std::vector<Failure> &Failures,
                     std::vector<Failure> &WithErrors,
                     std::vector<Failure> &Sanitizer) {
  for (const Job &J : Jobs) {
    if (J.Failed)
      Failures.push_back({J.File, J.Reason});
    else if (!J.Errors.empty())
      WithErrors.push_back({J.File, J.Errors});
    if (!J.Sanitizer.empty())
      Sanitizer.push_back({J.File, J.Sanitizer});
  }
}

/// Whether \p Findings holds a finding (a compile error is not one).
bool anyFinding(const std::vector<Finding> &Findings) {
  return llvm::any_of(Findings, [](const Finding &F) {
    return !StringRef(F.Diag.DiagnosticName)
                .starts_with("clang-diagnostic-error");
  });
}

/// The translation units of a bulk run, sorted: the inputs (the CUDA
/// sources of a directory, reached through the files that include them),
/// or the compile database's files; with --changed-lines, only those with
/// changed lines (\p LineFilter, clang-tidy's filter, gets the lines); with
/// --shard, this shard's. \p Spelling: an input file as it was given.
std::vector<std::string>
unitsToAnalyse(const BulkOptions &Opts,
               std::map<std::string, std::string> &Spelling, unsigned &NonCuda,
               unsigned &IncludedEntries, std::string &LineFilter) {
  std::vector<std::string> Files;
  for (const std::string &In : Opts.Inputs) {
    if (fs::is_directory(In)) {
      std::vector<std::string> Found = findCudaSources(In);
      if (Found.empty())
        fatal(In + ": no CUDA sources (.cu, .cuh) in this directory");
      // A file that another one includes (a header, or a .cu file) is
      // analysed through it; the include directories are those given after
      // `--`.
      IncludeSearch Search;
      std::vector<std::string> Dirs =
          includeDirsOf(Opts.CompileArgs, makeAbsolute("."));
      Search.IncludeDirs = [&](StringRef) { return Dirs; };
      Search.SuffixRoot = makeAbsolute(In);
      Found = translationUnits(Found, Search);
      Files.insert(Files.end(), Found.begin(), Found.end());
    } else {
      Files.push_back(makeAbsolute(In));
      Spelling.emplace(Files.back(), In);
    }
  }
  if (Opts.Inputs.empty() && !Opts.BuildPath.empty())
    Files = databaseFiles(Opts.BuildPath, NonCuda, IncludedEntries);

  if (Opts.ChangedLines) {
    std::optional<std::string> Top =
        capture({"git", "rev-parse", "--show-toplevel"});
    if (!Top)
      fatal("--changed-lines: not inside a git work tree");
    std::string GitRoot = StringRef(*Top).trim().str();
    std::vector<std::string> Cmd{"git", "-C",         GitRoot,        "diff",
                                 "-U0", "--no-color", "--no-ext-diff"};
    if (Opts.ChangedLines->empty())
      Cmd.push_back("--cached");
    else
      Cmd.push_back(*Opts.ChangedLines);
    std::optional<std::string> Diff = capture(Cmd);
    if (!Diff)
      fatal("--changed-lines: 'git diff' failed");
    LineRanges Ranges = parseUnifiedDiff(*Diff, GitRoot);
    if (Opts.Inputs.empty() && Opts.BuildPath.empty())
      for (const auto &[F, R] : Ranges)
        if (isCudaFileName(F))
          Files.push_back(F);
    llvm::erase_if(Files,
                   [&](const std::string &F) { return !Ranges.count(F); });
    // Only findings on changed lines: clang-tidy's own line filter, which
    // also drops findings in unchanged headers.
    LineFilter = Ranges.empty() ? "" : lineFilterJson(Ranges);
  }
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  if (Opts.ShardN)
    Files = selectShard(Files, Opts.ShardK, Opts.ShardN);
  return Files;
}

/// The children of one bulk run: started at most Parallel at a time, each
/// finished (its findings read back, its output shown) as it ends.
struct BulkRun {
  BulkRun(const BulkOptions &Opts, const std::string &Root,
          const std::vector<std::string> &Files,
          const std::map<std::string, std::string> &Spelling,
          const llvm::SmallString<128> &TempDir, const std::string &LineFilter,
          unsigned Parallel)
      : Opts(Opts), Root(Root), Files(Files), Spelling(Spelling),
        TempDir(TempDir), LineFilter(LineFilter), Parallel(Parallel),
        Jobs(Files.size()),
        Prog(Opts.Quiet ? "none" : Opts.Progress, Files.size()),
        VerifyFixes((Opts.Fix && Opts.Verify != VerifyKind::None) ||
                    Opts.ProvePtx) {
    if (!Opts.CacheDir.empty())
      Cache.emplace(Opts.CacheDir, Opts.CacheMaxSize ? Opts.CacheMaxSize
                                                     : DefaultCacheMaxSize);
  }

  /// Runs every job to its end.
  void run();
  /// Starts job Next (or replays it from the results cache).
  void startNext();
  /// Waits for a child to end (killing those past --timeout) and finishes
  /// its job; false when there is none to wait for.
  bool waitOne();
  /// Reads back what job \p I found and shows what it printed.
  void finish(size_t I);

  const BulkOptions &Opts;
  const std::string &Root;
  const std::vector<std::string> &Files;
  const std::map<std::string, std::string> &Spelling;
  const llvm::SmallString<128> &TempDir;
  const std::string &LineFilter;
  unsigned Parallel;
  std::vector<Job> Jobs;
  Progress Prog;
  std::map<pid_t, size_t> Running;
  size_t Next = 0;
  FindingSet Set;
  llvm::StringSet<> StderrSeen, PrintedDiags;
  bool AnyNonZero = false;
  // The translation units whose fixes --fix compiles again (or --prove=ptx
  // compiles to PTX).
  bool VerifyFixes;
  std::vector<VerifyUnit> Units;
  std::optional<ResultCache> Cache;
};

void BulkRun::run() {
  while (Next < Jobs.size() || !Running.empty()) {
    while (Next < Jobs.size() && Running.size() < Parallel)
      startNext();
    if (Running.empty())
      continue;
    if (!waitOne())
      break;
  }
}

void BulkRun::startNext() {
  Job &J = Jobs[Next];
  J.File = Files[Next];
  auto Given = Spelling.find(J.File);
  J.Arg = Opts.Implicit && Given != Spelling.end() ? Given->second : J.File;
  std::string Base = (TempDir + "/" + std::to_string(Next)).str();
  J.OutFile = Base + ".out";
  J.ErrFile = Base + ".err";
  J.YamlFile = Base + ".yaml";
  J.CommandFile = Base + ".json";
  std::vector<std::string> Args{Opts.Self};
  Args.insert(Args.end(), Opts.ChildArgs.begin(), Opts.ChildArgs.end());
  Args.push_back("--quiet");
  Args.push_back("--export-fixes=" + J.YamlFile);
  if (VerifyFixes)
    Args.push_back("--export-command=" + J.CommandFile);
  if (!LineFilter.empty())
    Args.push_back("--line-filter=" + LineFilter);
  if (!Opts.BuildPath.empty())
    Args.push_back("-p=" + Opts.BuildPath);
  Args.push_back(J.Arg);
  if (Opts.HasDoubleDash) {
    Args.push_back("--");
    Args.insert(Args.end(), Opts.CompileArgs.begin(), Opts.CompileArgs.end());
  }
  J.Start = Clock::now();
  // A hit in the results cache: the child's output, as it wrote it.
  if (Cache) {
    std::vector<std::string> KeyArgs(Args.begin() + 1, Args.end());
    std::optional<std::string> Key = Cache->runKey(KeyArgs, Root, Opts.Self);
    std::optional<CachedRun> Hit;
    if (Key)
      Hit = Cache->lookup(*Key);
    if (Hit && replay(*Hit, J)) {
      J.Cached = true;
      J.Status = (Hit->ExitCode & 0xff) << 8;
      finish(Next);
      ++Next;
      return;
    }
    Args.insert(Args.begin() + 1,
                {"--cache=" + Opts.CacheDir, "--cache-child"});
    if (Opts.CacheMaxSize)
      Args.insert(Args.begin() + 1,
                  "--cache-max-size=" + std::to_string(Opts.CacheMaxSize));
  }
  pid_t Pid = spawn(Args, J);
  if (Pid < 0) {
    J.Status = 127 << 8;
    finish(Next);
  } else {
    Running[Pid] = Next;
  }
  ++Next;
}

bool BulkRun::waitOne() {
  int Status = 0;
  pid_t Pid;
  if (Opts.TimeoutSeconds <= 0) {
    Pid = ::waitpid(-1, &Status, 0);
  } else {
    // Poll, and kill the files that run past --timeout.
    while ((Pid = ::waitpid(-1, &Status, WNOHANG)) == 0) {
      for (auto &[P, I] : Running) {
        Job &J = Jobs[I];
        double S =
            std::chrono::duration<double>(Clock::now() - J.Start).count();
        if (!J.TimedOut && S > Opts.TimeoutSeconds) {
          J.TimedOut = true;
          J.Timeout = Opts.TimeoutSeconds;
          ::kill(P, SIGKILL);
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  if (Pid < 0)
    return false;
  auto It = Running.find(Pid);
  if (It == Running.end())
    return true;
  Jobs[It->second].Status = Status;
  size_t I = It->second;
  Running.erase(It);
  finish(I);
  return true;
}

void BulkRun::finish(size_t I) {
  Job &J = Jobs[I];
  J.Seconds = std::chrono::duration<double>(Clock::now() - J.Start).count();
  std::string Error;
  if (!readFixesYaml(J.YamlFile, J.Diags, Error))
    J.Diags.clear();
  std::string Err = readAll(J.ErrFile);
  J.Sanitizer = firstSanitizerReport(Err);
  if (!J.TimedOut && !WIFSIGNALED(J.Status)) {
    J.Errors = firstCompileError(J, Root);
    if (!J.Errors.empty() && isCudaHeaderName(J.File))
      J.Errors = "header is not self-contained (no .cu file here includes "
                 "it, and alone it does not compile): " +
                 J.Errors;
  }
  J.Reason = failureReason(J, Root);
  J.Failed = !J.Reason.empty();
  if (VerifyFixes && (!J.Failed || Opts.FixErrors)) {
    std::optional<VerifyUnit> U = unitFromJson(readAll(J.CommandFile));
    if (U) {
      // The files it is known to see: where it reported findings, and
      // what their fixes edit.
      for (const clang::tooling::Diagnostic &D : J.Diags) {
        auto Add = [&](StringRef F) {
          llvm::SmallString<256> P(F);
          if (!F.empty() && !path::is_absolute(P)) {
            P = D.BuildDirectory;
            path::append(P, F);
          }
          if (!P.empty())
            U->Files.insert(makeAbsolute(P));
        };
        Add(D.Message.FilePath);
        for (const auto &[File, Reps] : D.Message.Fix)
          Add(File);
        for (const clang::tooling::DiagnosticMessage &N : D.Notes)
          for (const auto &[File, Reps] : N.Fix)
            Add(File);
      }
      Units.push_back(std::move(*U));
    }
  }
  int Code = WIFEXITED(J.Status) ? WEXITSTATUS(J.Status) : 1;
  AnyNonZero |= Code != 0 || J.Failed;
  // No fix in a translation unit with compile errors, even with
  // --fix-errors: its findings rest on code that does not compile.
  dropFixesOnCompileErrors(J.Diags, /*Anyway=*/J.Failed || !J.Errors.empty());
  for (clang::tooling::Diagnostic &D : J.Diags) {
    if (StringRef(D.DiagnosticName).starts_with("clang-diagnostic-error"))
      continue;
    // --fix-notes: a note's fix when the warning has none and exactly one
    // note has one, as clang-tidy does.
    if (Opts.FixNotes && D.Message.Fix.empty()) {
      const clang::tooling::DiagnosticMessage *Only = nullptr;
      unsigned WithFix = 0;
      for (const clang::tooling::DiagnosticMessage &N : D.Notes)
        if (!N.Fix.empty()) {
          Only = &N;
          ++WithFix;
        }
      if (WithFix == 1)
        D.Message.Fix = Only->Fix;
    }
    ++J.Findings;
    Set.add(D, J.File);
  }
  Prog.clear();
  // With --diff, standard output is the patch alone. The text is printed
  // once every file is done, when the report to keep of each location is
  // known.
  if (Opts.Format == "text" && !Opts.Diff)
    J.Text = readAll(J.OutFile);
  llvm::SmallVector<StringRef> Lines;
  StringRef(Err).split(Lines, '\n');
  for (StringRef L : Lines) {
    if (!L.starts_with("cuda-lint: "))
      continue;
    // The child's error about its file is the reason it failed: the
    // summary lists it, so it is printed here only when there is none.
    if (L.starts_with("cuda-lint: error: " + J.Arg + ": ")) {
      J.ReasonShown = true;
      if (!Opts.Implicit && !Opts.Quiet)
        continue;
    }
    if (StderrSeen.insert(L).second)
      llvm::errs() << L << "\n";
  }
  // Without a summary, a file that failed for a reason the output does not
  // already show (a crash, a timeout) gets its one-line error here.
  if (Opts.Implicit && J.Failed && !J.ReasonShown)
    llvm::errs() << "cuda-lint: error: " << J.Arg << ": " << J.Reason << "\n";
  Prog.done(J, Root);
}

} // namespace

int runBulk(const BulkOptions &Opts) {
  Clock::time_point Begin = Clock::now();
  std::string Root = makeAbsolute(".");
  if (Opts.Merge)
    return runMerge(Opts, Root);

  // 1. The translation units.
  std::map<std::string, std::string> Spelling;
  unsigned NonCuda = 0, IncludedEntries = 0;
  std::string LineFilter;
  std::vector<std::string> Files =
      unitsToAnalyse(Opts, Spelling, NonCuda, IncludedEntries, LineFilter);

  llvm::SmallString<128> TempDir;
  if (fs::createUniqueDirectory("cuda-lint-bulk", TempDir))
    fatal("cannot create a temporary directory");

  unsigned Parallel =
      Opts.Jobs ? Opts.Jobs : std::thread::hardware_concurrency();
  if (Parallel == 0)
    Parallel = 1;
  BulkRun Run(Opts, Root, Files, Spelling, TempDir, LineFilter, Parallel);
  Run.run();
  fs::remove_directories(TempDir);
  if (Run.Cache)
    Run.Cache->evict();

  std::vector<Finding> Findings = Run.Set.findings();
  llvm::StringSet<> Suppressed;
  if (!Opts.Baseline.empty() && !applyBaseline(Opts, Findings, Suppressed))
    return 1;
  std::vector<Finding> Proven;
  if (Opts.ProvePtx)
    Proven = proveFixes(Opts, Findings, Run.Units, Parallel);
  if (Opts.Format == "text" && !Opts.Diff) {
    llvm::StringMap<std::string> Chosen;
    for (const Finding &F : Findings)
      Chosen[F.File + ":" + std::to_string(F.Line) + ":" +
             std::to_string(F.Column) + ":" + F.Diag.DiagnosticName] =
          F.Diag.Message.Message;
    for (const Job &J : Run.Jobs) {
      // The command's directory: a driver error (a missing input of the
      // command) comes first and has none.
      StringRef BaseDir;
      for (const clang::tooling::Diagnostic &D : J.Diags)
        if (!D.BuildDirectory.empty()) {
          BaseDir = D.BuildDirectory;
          break;
        }
      llvm::outs() << dedupeText(J.Text, Run.PrintedDiags, Chosen, &Suppressed,
                                 BaseDir);
    }
    printProofNotes(Proven);
    llvm::outs().flush();
  }
  std::vector<Failure> Failures, WithErrors, Sanitizer;
  collectFailures(Run.Jobs, Failures, WithErrors, Sanitizer);
  bool Ok = emit(Opts, Run.Set, Findings, Failures, WithErrors, Sanitizer, Root,
                 Run.Units);
  if (!Opts.Quiet && !Opts.Implicit)
    printSummary(Run.Jobs, Findings, Root,
                 std::chrono::duration<double>(Clock::now() - Begin).count(),
                 Parallel, NonCuda, IncludedEntries, Run.Cache.has_value());
  if (Files.empty() && !Opts.Quiet)
    llvm::errs() << "cuda-lint: note: no files to analyse\n";
  // With a baseline, the status says whether something new was found (or a
  // file could not be analysed), whatever the recorded findings' checks.
  if (!Opts.Baseline.empty())
    return (Ok && Failures.empty() && !anyFinding(Findings)) ? 0 : 1;
  return (Ok && !Run.AnyNonZero) ? 0 : 1;
}

} // namespace cudalint
