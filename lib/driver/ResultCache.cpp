//===--- ResultCache.cpp - cuda-lint --------------------------------------===//

#include "cudalint/driver/ResultCache.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <sys/time.h>

#ifndef CUDA_LINT_VERSION
#define CUDA_LINT_VERSION "0.1.0"
#endif

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace cudalint {
namespace {

constexpr StringRef Magic = "cuda-lint-results 1\n";

std::string hexHash(StringRef Data) {
  auto H = llvm::BLAKE3::hash<16>(llvm::arrayRefFromStringRef(Data));
  return llvm::toHex(H, /*LowerCase=*/true);
}

std::string absoluteIn(StringRef P, StringRef Dir) {
  llvm::SmallString<256> Abs;
  if (path::is_absolute(P)) {
    Abs = P;
  } else {
    Abs = Dir;
    path::append(Abs, P);
  }
  // Not `..`: a directory before it may be a symbolic link.
  path::remove_dots(Abs, /*remove_dot_dot=*/false);
  return std::string(Abs);
}

/// Size and modification time of a file, or "missing".
std::string stamp(StringRef File) {
  fs::file_status S;
  if (fs::status(File, S))
    return "missing";
  return std::to_string(S.getSize()) + ":" +
         std::to_string(S.getLastModificationTime().time_since_epoch().count());
}

/// Splits `-name=value`, `--name=value` and `-name value`.
bool optionValue(llvm::ArrayRef<std::string> Args, size_t &I, StringRef Name,
                 std::string &Value) {
  StringRef A = Args[I];
  if (!A.starts_with("-"))
    return false;
  StringRef Bare = A.ltrim('-');
  if (!Bare.consume_front(Name))
    return false;
  if (Bare.empty()) {
    if (I + 1 >= Args.size())
      return false;
    Value = Args[++I];
    return true;
  }
  if (Bare.consume_front("=")) {
    Value = Bare.str();
    return true;
  }
  return false;
}

bool isOption(StringRef A, StringRef Name) {
  StringRef Bare = A.ltrim('-');
  return A.starts_with("-") &&
         (Bare == Name || Bare.starts_with((Name + "=").str()));
}

/// Runs with these options are not cached: they fix files, print something
/// other than the analysis, read plugins or overlays the key does not see,
/// or are bulk runs (whose children are cached one by one).
bool uncacheable(StringRef A) {
  for (StringRef Name : {"fix",
                         "fix-errors",
                         "fix-notes",
                         "format-style",
                         "dump-config",
                         "list-checks",
                         "explain-config",
                         "verify-config",
                         "help",
                         "version",
                         "vfsoverlay",
                         "load",
                         "store-check-profile",
                         "enable-check-profile",
                         "format",
                         "o",
                         "output",
                         "shard",
                         "diff",
                         "merge",
                         "changed-lines",
                         "timeout",
                         "progress",
                         "jobs",
                         "launcher"})
    if (isOption(A, Name))
      return true;
  return A == "-j" || (A.starts_with("-j") && A.size() > 2 &&
                       (llvm::isDigit(A[2]) || A[2] == '='));
}

/// The options whose value is a separate argument when not given with `=`.
bool takesValue(StringRef A) {
  StringRef Bare = A.ltrim('-');
  return !A.contains('=') &&
         llvm::is_contained({"p", "checks", "config", "config-file",
                             "export-fixes", "extra-arg", "extra-arg-before",
                             "header-filter", "exclude-header-filter",
                             "line-filter", "warnings-as-errors", "cuda-path",
                             "cuda-gpu-arch", "export-command", "verify"},
                            Bare);
}

/// Records of an entry: `<tag> <length>\n<bytes>\n`.
void addRecord(std::string &Out, StringRef Tag, StringRef Data) {
  Out += Tag;
  Out += " ";
  Out += std::to_string(Data.size());
  Out += "\n";
  Out += Data;
  Out += "\n";
}

bool nextRecord(StringRef &In, StringRef &Tag, StringRef &Data) {
  size_t NL = In.find('\n');
  if (NL == StringRef::npos)
    return false;
  StringRef Head = In.take_front(NL);
  auto [T, Len] = Head.split(' ');
  size_t N;
  if (Len.getAsInteger(10, N) || In.size() < NL + 1 + N + 1 ||
      In[NL + 1 + N] != '\n')
    return false;
  Tag = T;
  Data = In.substr(NL + 1, N);
  In = In.drop_front(NL + 1 + N + 1);
  return true;
}

} // namespace

std::string defaultResultCacheDir() {
  llvm::SmallString<256> Dir(cacheDirectory());
  path::append(Dir, "results");
  return std::string(Dir);
}

bool parseCacheSize(StringRef Text, uint64_t &Bytes) {
  Text = Text.trim();
  StringRef Num = Text.take_while([](char C) { return llvm::isDigit(C); });
  std::string U = Text.drop_front(Num.size()).lower();
  uint64_t N;
  if (Num.empty() || Num.getAsInteger(10, N))
    return false;
  StringRef S(U);
  if (!S.consume_back("ib"))
    S.consume_back("b");
  uint64_t Mult = 1;
  if (S == "k")
    Mult = uint64_t(1) << 10;
  else if (S == "m")
    Mult = uint64_t(1) << 20;
  else if (S == "g")
    Mult = uint64_t(1) << 30;
  else if (S == "t")
    Mult = uint64_t(1) << 40;
  else if (!S.empty())
    return false;
  Bytes = N * Mult;
  return true;
}

bool isCacheOption(StringRef A) {
  return isOption(A, "cache") || isOption(A, "no-cache") ||
         isOption(A, "cache-max-size") || isOption(A, "cache-child");
}

ResultCache::ResultCache(std::string Dir, uint64_t MaxSize)
    : Dir(std::move(Dir)), MaxSize(MaxSize) {}

std::optional<std::string> ResultCache::fileHash(StringRef File) {
  auto It = Hashes.find(File);
  if (It != Hashes.end())
    return It->second;
  std::optional<std::string> H;
  if (auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false))
    H = hexHash((*Buf)->getBuffer());
  Hashes[File] = H;
  return H;
}

std::optional<std::string> ResultCache::runKey(llvm::ArrayRef<std::string> Args,
                                               StringRef Cwd, StringRef Self) {
  std::string Text;
  auto Add = [&](StringRef S) {
    Text += S;
    Text.push_back('\0');
  };
  Add(CUDA_LINT_VERSION);
  Add(LLVM_VERSION_STRING);
  // The build of cuda-lint: a rebuilt or upgraded binary misses.
  Add(stamp(Self));
  Add(Cwd);
  for (const char *Var :
       {"PATH", "CUDA_PATH", "CUDA_HOME", "CPATH", "CPLUS_INCLUDE_PATH",
        "C_INCLUDE_PATH", "CUDA_LINT_PRINT_ARGS", "CUDA_LINT_IMPACT"}) {
    Add(Var);
    Add(llvm::sys::Process::GetEnv(Var).value_or("<unset>"));
  }
  std::vector<std::string> Sources;
  std::string BuildPath;
  bool DoubleDash = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--") {
      DoubleDash = true;
      Add("--");
      for (size_t J = I + 1; J < Args.size(); ++J)
        Add(Args[J]);
      break;
    }
    if (isCacheOption(A))
      continue;
    if (uncacheable(A))
      return std::nullopt;
    std::string Value;
    // The files a run writes: only whether it writes them counts.
    if (optionValue(Args, I, "export-fixes", Value)) {
      Add("--export-fixes");
      continue;
    }
    if (optionValue(Args, I, "export-command", Value)) {
      Add("--export-command");
      continue;
    }
    if (optionValue(Args, I, "config-file", Value)) {
      Add("--config-file");
      std::optional<std::string> H = fileHash(absoluteIn(Value, Cwd));
      if (!H)
        return std::nullopt;
      Add(*H);
      continue;
    }
    if (A == "-p" || A == "--p" || A.starts_with("-p=") ||
        A.starts_with("--p=")) {
      if (!optionValue(Args, I, "p", BuildPath))
        return std::nullopt;
      Add("-p");
      Add(BuildPath);
      continue;
    }
    if (!A.starts_with("-")) {
      Sources.push_back(A.str());
      Add(A);
      continue;
    }
    Add(A);
    if (takesValue(A) && I + 1 < Args.size())
      Add(Args[++I]);
  }
  if (Sources.size() != 1)
    return std::nullopt;
  std::string Source = absoluteIn(Sources.front(), Cwd);
  if (!fs::is_regular_file(Source))
    return std::nullopt;
  std::optional<std::string> H = fileHash(Source);
  if (!H)
    return std::nullopt;
  Add(*H);

  // The compile database: the one given with -p, else the nearest one above
  // the source (without `--`).
  std::string Db;
  if (!BuildPath.empty()) {
    llvm::SmallString<256> F(absoluteIn(BuildPath, Cwd));
    if (path::filename(F) != "compile_commands.json" || fs::is_directory(F))
      path::append(F, "compile_commands.json");
    Db = std::string(F);
  }
  // The configuration: every `.clang-tidy` file from the source's directory
  // up (clang-tidy reads the nearest, and its parents with
  // InheritParentConfig), and the nearest compile database.
  StringRef D = path::parent_path(Source);
  while (!D.empty()) {
    llvm::SmallString<256> F(D);
    path::append(F, ".clang-tidy");
    auto E = Exists.try_emplace(F, false);
    if (E.second)
      E.first->second = fs::exists(F);
    if (E.first->second) {
      Add(F);
      Add(fileHash(F).value_or("<unreadable>"));
    }
    if (Db.empty() && BuildPath.empty() && !DoubleDash) {
      llvm::SmallString<256> C(D);
      path::append(C, "compile_commands.json");
      auto CE = Exists.try_emplace(C, false);
      if (CE.second)
        CE.first->second = fs::exists(C);
      if (CE.first->second)
        Db = std::string(C);
    }
    StringRef Parent = path::parent_path(D);
    if (Parent == D)
      break;
    D = Parent;
  }
  if (!Db.empty()) {
    Add("db");
    Add(Db);
    Add(fileHash(Db).value_or("<missing>"));
  }
  return hexHash(Text);
}

std::string ResultCache::entryPath(StringRef Key) const {
  llvm::SmallString<256> P(Dir);
  path::append(P, Key.take_front(2), Key.drop_front(2));
  return std::string(P);
}

std::optional<CachedRun> ResultCache::lookup(StringRef Key) {
  std::string File = entryPath(Key);
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  StringRef In = (*Buf)->getBuffer();
  // A damaged entry (truncated, corrupted, of another format) is a miss;
  // the run that follows writes it again.
  if (!In.consume_front(Magic))
    return std::nullopt;
  size_t NL = In.find('\n');
  if (NL == StringRef::npos ||
      hexHash(In.drop_front(NL + 1)) != In.take_front(NL))
    return std::nullopt;
  In = In.drop_front(NL + 1);
  CachedRun Run;
  StringRef Tag, Data;
  while (!In.empty()) {
    if (!nextRecord(In, Tag, Data))
      return std::nullopt;
    if (Tag == "exit") {
      if (Data.getAsInteger(10, Run.ExitCode))
        return std::nullopt;
    } else if (Tag == "stdout") {
      Run.Stdout = Data.str();
    } else if (Tag == "stderr") {
      Run.Stderr = Data.str();
    } else if (Tag.consume_front("file.")) {
      Run.Files[Tag.str()] = Data.str();
    } else if (Tag == "dep") {
      auto [Hash, Path] = Data.split(' ');
      std::optional<std::string> Now = fileHash(Path);
      if (!Now || *Now != Hash)
        return std::nullopt;
    } else if (Tag == "exists" || Tag == "absent") {
      auto E = Exists.try_emplace(Data, false);
      if (E.second)
        E.first->second = fs::exists(Data);
      if (E.first->second != (Tag == "exists"))
        return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  // Most recently used: the entry's time is now.
  ::utimes(File.c_str(), nullptr);
  return Run;
}

bool ResultCache::store(StringRef Key, const CachedRun &Run,
                        const CacheDeps &Deps) {
  std::string Body;
  addRecord(Body, "exit", std::to_string(Run.ExitCode));
  addRecord(Body, "stdout", Run.Stdout);
  addRecord(Body, "stderr", Run.Stderr);
  for (const auto &[Role, Content] : Run.Files)
    addRecord(Body, "file." + Role, Content);
  llvm::StringSet<> Seen;
  for (const std::string &F : Deps.Files) {
    if (!Seen.insert(F).second)
      continue;
    // Hashed once per process: the bulk parent hashed it before the run.
    std::optional<std::string> H = fileHash(F);
    if (!H)
      return false;
    addRecord(Body, "dep", *H + " " + F);
  }
  for (const std::string &F : Deps.Existing)
    addRecord(Body, "exists", F);
  for (const std::string &F : Deps.Absent)
    if (Seen.insert(F).second)
      addRecord(Body, "absent", F);

  std::string File = entryPath(Key);
  StringRef Parent = path::parent_path(File);
  if (fs::create_directories(Parent))
    return false;
  llvm::SmallString<256> Tmp;
  int FD;
  if (fs::createUniqueFile(Parent + "/.tmp-%%%%%%%%", FD, Tmp))
    return false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Magic << hexHash(Body) << "\n" << Body;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      fs::remove(Tmp);
      return false;
    }
  }
  if (fs::rename(Tmp, File)) {
    fs::remove(Tmp);
    return false;
  }
  return true;
}

void ResultCache::evict() {
  struct Entry {
    std::string Path;
    uint64_t Size;
    std::chrono::system_clock::time_point Time;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (fs::directory_iterator Sub(Dir, EC), End; Sub != End && !EC;
       Sub.increment(EC)) {
    if (Sub->type() != fs::file_type::directory_file)
      continue;
    std::error_code EC2;
    for (fs::directory_iterator It(Sub->path(), EC2); It != End && !EC2;
         It.increment(EC2)) {
      fs::file_status S;
      if (fs::status(It->path(), S) || !fs::is_regular_file(S))
        continue;
      auto Time = S.getLastModificationTime();
      // A temporary file of a run that was killed before it renamed it.
      if (path::filename(It->path()).starts_with(".tmp-")) {
        if (Now - Time > std::chrono::hours(1))
          fs::remove(It->path());
        continue;
      }
      Entries.push_back({It->path(), S.getSize(), Time});
      Total += S.getSize();
    }
  }
  if (Total <= MaxSize)
    return;
  llvm::sort(Entries, [](const Entry &A, const Entry &B) {
    return A.Time < B.Time || (A.Time == B.Time && A.Path < B.Path);
  });
  uint64_t Target = MaxSize / 10 * 9;
  for (const Entry &E : Entries) {
    if (Total <= Target)
      break;
    if (!fs::remove(E.Path))
      Total -= E.Size;
  }
}

namespace {

/// Records, for the includes of the main file and of the project's own
/// headers (not system headers), where a header created later would be
/// found first, and for includes that were not found, every place one would
/// be.
class IncludeRecorder : public clang::PPCallbacks {
public:
  IncludeRecorder(clang::Preprocessor &PP, StringRef Directory,
                  std::vector<std::string> &Absent)
      : PP(PP), Directory(Directory), Absent(Absent) {}

  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &,
                          StringRef FileName, bool IsAngled,
                          clang::CharSourceRange,
                          clang::OptionalFileEntryRef File, StringRef,
                          StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    const clang::SourceManager &SM = PP.getSourceManager();
    if (path::is_absolute(FileName))
      return;
    if (File && SM.isInSystemHeader(HashLoc))
      return;
    // The implicit includes (the CUDA runtime wrapper, -include): their
    // headers are dependencies like any other, found by their full path.
    clang::OptionalFileEntryRef Includer =
        SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(HashLoc)));
    if (!Includer)
      return;
    std::vector<std::string> Dirs;
    if (!IsAngled)
      Dirs.push_back(
          absoluteIn(path::parent_path(Includer->getName()), Directory));
    clang::HeaderSearch &HS = PP.getHeaderSearchInfo();
    for (const clang::DirectoryLookup &DL : HS.search_dir_range())
      if (DL.isNormalDir())
        if (clang::OptionalDirectoryEntryRef D = DL.getDirRef())
          Dirs.push_back(absoluteIn(D->getName(), Directory));
    std::string Found = File ? absoluteIn(File->getName(), Directory) : "";
    for (const std::string &D : Dirs) {
      std::string Candidate = absoluteIn(FileName, D);
      if (!Found.empty() &&
          (Candidate == Found || fs::equivalent(Candidate, Found)))
        return;
      // A file there now that was not included (#include_next, a name that
      // is a directory) is passed over; only new files matter.
      if (!fs::exists(Candidate))
        Absent.push_back(Candidate);
    }
  }

private:
  clang::Preprocessor &PP;
  std::string Directory;
  std::vector<std::string> &Absent;
};

class DepsAction : public clang::PreprocessOnlyAction {
public:
  DepsAction(StringRef Directory, CacheDeps &Deps)
      : Directory(Directory), Deps(Deps) {}

  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<IncludeRecorder>(
        CI.getPreprocessor(), Directory, Deps.Absent));
    return clang::PreprocessOnlyAction::BeginSourceFileAction(CI);
  }

  void EndSourceFileAction() override {
    const clang::SourceManager &SM = getCompilerInstance().getSourceManager();
    for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End;
         ++It)
      Deps.Files.push_back(absoluteIn(It->first.getName(), Directory));
    llvm::sort(Deps.Files);
    Deps.Files.erase(llvm::unique(Deps.Files), Deps.Files.end());
    clang::PreprocessOnlyAction::EndSourceFileAction();
  }

private:
  std::string Directory;
  CacheDeps &Deps;
};

} // namespace

bool preprocessorDeps(llvm::ArrayRef<std::string> ClangArgs,
                      StringRef Directory, CacheDeps &Deps) {
  if (ClangArgs.empty())
    return false;
  std::vector<std::string> Args;
  std::string MainFile;
  for (size_t I = 0; I < ClangArgs.size(); ++I) {
    StringRef A = ClangArgs[I];
    if (A == "-include-pch" && I + 1 < ClangArgs.size()) {
      // Its name is a hash of what it was built from; the headers it holds
      // are read again below.
      Deps.Existing.push_back(absoluteIn(ClangArgs[++I], Directory));
      continue;
    }
    // An include directory that does not exist is left out of the search:
    // creating it later must miss.
    for (StringRef Flag : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      if (!A.starts_with(Flag))
        continue;
      StringRef Dir = A.drop_front(Flag.size());
      if (Dir.empty() && I + 1 < ClangArgs.size())
        Dir = ClangArgs[I + 1];
      std::string Abs = absoluteIn(Dir, Directory);
      if (!Dir.empty() && !fs::exists(Abs))
        Deps.Absent.push_back(Abs);
      break;
    }
    Args.push_back(A.str());
  }
  Args = clang::tooling::getClangStripOutputAdjuster()(Args, "");
  Args = clang::tooling::getClangStripDependencyFileAdjuster()(Args, "");
  Args = clang::tooling::getClangSyntaxOnlyAdjuster()(Args, "");
  Args.insert(Args.begin() + 1, "-w");
  auto FS = llvm::vfs::createPhysicalFileSystem();
  if (!Directory.empty())
    (void)FS->setCurrentWorkingDirectory(Directory);
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(),
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(FS.release()));
  clang::IgnoringDiagConsumer Ignore;
  clang::tooling::ToolInvocation Inv(
      Args, std::make_unique<DepsAction>(Directory, Deps), Files.get(),
      std::make_shared<clang::PCHContainerOperations>());
  Inv.setDiagnosticConsumer(&Ignore);
  Inv.run();
  // A preprocessor that read nothing (it could not run) says nothing about
  // what the unit depends on.
  return !Deps.Files.empty();
}

} // namespace cudalint
