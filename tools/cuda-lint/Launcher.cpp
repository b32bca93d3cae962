//===--- Launcher.cpp - cuda-lint
//-------------------------------------------===//
//
// `cuda-lint --launcher`: a compiler launcher (CMAKE_CUDA_COMPILER_LAUNCHER,
// a Makefile's NVCC) that lints the translation unit a compile command
// compiles, prints the findings as compiler warnings, then runs the compile.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using llvm::StringRef;

namespace cudalint {
namespace tool {

namespace {
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

} // namespace

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

} // namespace tool
} // namespace cudalint
