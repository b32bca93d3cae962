//===--- Cache.cpp - cuda-lint
//----------------------------------------------===//
//
// A run over one translation unit with the results cache: a hit is replayed
// (output, exit status, exported files); a miss runs with its output
// captured, records the files the unit reads, and stores the result.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using llvm::StringRef;

namespace cudalint {
namespace tool {

CacheSettings Caching;

namespace {
/// What a cached run over one translation unit records before it analyses
/// it: the files the unit reads, found by the preprocessor, and their
/// hashes (taken before the analysis, so that a file edited while it runs
/// makes the entry miss next time).
struct CacheRecording {
  ResultCache *Cache = nullptr;
  CacheDeps Deps;
  bool DepsOk = false;
};
CacheRecording Recording;
} // namespace

bool recordingForCache() { return Recording.Cache != nullptr; }

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

namespace {
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
} // namespace

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

} // namespace tool
} // namespace cudalint
