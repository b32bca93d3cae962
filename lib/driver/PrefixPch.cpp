//===--- PrefixPch.cpp - cuda-lint ----------------------------------------===//
//
// The include prefix: the leading #include lines of a source file, which
// files of one code base share, precompiled on top of the CUDA prelude.
//
//===----------------------------------------------------------------------===//

#include "PchSupport.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "cudalint/driver/ResultCache.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <map>

using llvm::StringRef;

namespace cudalint {

std::vector<PrefixLine> leadingDirectives(StringRef Text) {
  std::vector<PrefixLine> Out;
  size_t I = Text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  const size_t N = Text.size();
  auto At = [&](StringRef S) { return Text.substr(I).starts_with(S); };
  // Skips a comment at I; false (and the scan ends) where the comment does
  // not end or a line comment is continued with a backslash.
  auto SkipComment = [&]() {
    if (At("//")) {
      size_t E = Text.find('\n', I);
      StringRef Body = Text.slice(I, E).rtrim("\r");
      if (Body.ends_with("\\"))
        return false;
      I = E == StringRef::npos ? N : E;
      return true;
    }
    size_t E = Text.find("*/", I + 2);
    if (E == StringRef::npos)
      return false;
    I = E + 2;
    return true;
  };
  while (I < N) {
    char C = Text[I];
    if (C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == '\f' ||
        C == '\v') {
      ++I;
      continue;
    }
    if (At("//") || At("/*")) {
      if (!SkipComment())
        return Out;
      continue;
    }
    if (C != '#')
      return Out;
    // The directive's logical line (continued lines joined).
    size_t Begin = I, EOL = I;
    for (;;) {
      EOL = Text.find('\n', EOL);
      if (EOL == StringRef::npos) {
        EOL = N;
        break;
      }
      if (!Text.slice(Begin, EOL).rtrim("\r").ends_with("\\"))
        break;
      ++EOL;
    }
    StringRef Line = Text.slice(Begin, EOL).rtrim("\r");
    // A block comment that the line opens and does not close would be cut.
    size_t Open = Line.rfind("/*");
    if (Open != StringRef::npos && Line.find("*/", Open) == StringRef::npos)
      return Out;
    StringRef Rest = Line.drop_front().ltrim(" \t");
    StringRef Name = Rest.take_while(llvm::isAlnum);
    PrefixLine L;
    L.Text = Line.str();
    if (Name == "include") {
      StringRef Arg = Rest.drop_front(7).ltrim(" \t");
      if (Arg.empty() || (Arg.front() != '<' && Arg.front() != '"'))
        return Out; // A computed include.
      char Close = Arg.front() == '<' ? '>' : '"';
      size_t E = Arg.find(Close, 1);
      if (E == StringRef::npos)
        return Out;
      StringRef After = Arg.drop_front(E + 1).ltrim(" \t");
      if (!After.empty() && !After.starts_with("//") &&
          !(After.starts_with("/*") && After.ends_with("*/")))
        return Out;
      L.Quoted = Close == '"';
      L.Include = Arg.slice(1, E).str();
    } else if (!llvm::is_contained({"define", "undef", "if", "ifdef", "ifndef",
                                    "elif", "elifdef", "elifndef", "else",
                                    "endif"},
                                   Name)) {
      return Out; // #pragma, #error, #line, ...
    }
    Out.push_back(std::move(L));
    I = EOL;
  }
  return Out;
}

namespace {

/// The directories of \p Args that the build's own headers are found in
/// (`-I`, `-iquote`, `-idirafter`), absolute; `-iquote` ones only for quoted
/// includes.
std::vector<std::pair<std::string, bool>>
userIncludeDirs(llvm::ArrayRef<std::string> Args, StringRef Directory) {
  std::vector<std::pair<std::string, bool>> Dirs;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    for (StringRef F :
         {"--include-directory=", "-iquote", "-idirafter", "-I"}) {
      if (!A.starts_with(F))
        continue;
      StringRef V = A.drop_front(F.size());
      if (V.empty() && !F.ends_with("=") && I + 1 < Args.size())
        V = Args[++I];
      llvm::SmallString<256> D(V);
      if (!llvm::sys::path::is_absolute(D)) {
        D = Directory;
        llvm::sys::path::append(D, V);
      }
      llvm::sys::path::remove_dots(D, /*remove_dot_dot=*/true);
      Dirs.push_back({std::string(D), F == "-iquote"});
      break;
    }
  }
  return Dirs;
}

/// The flags of \p Args that a PCH of its include prefix is built with: the
/// input, outputs and dependency-file flags removed; the prelude PCH and the
/// `-include`s kept (the prefix comes after them).
std::vector<std::string> prefixFlags(llvm::ArrayRef<std::string> Args,
                                     StringRef File) {
  std::vector<std::string> Out;
  StringRef FileName = llvm::sys::path::filename(File);
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") {
      ++I;
      continue;
    }
    if (A == "-c" || A == "-MD" || A == "-MMD" || A == "-fsyntax-only" ||
        (A.starts_with("-o") && A != "-o") ||
        (!A.starts_with("-") && llvm::sys::path::filename(A) == FileName &&
         (I == 0 || Args[I - 1] != "-include-pch")))
      continue;
    Out.push_back(A.str());
  }
  return Out;
}

/// The files of a Make dependency file, absolute.
std::vector<std::string> depFiles(StringRef Text, StringRef Directory) {
  std::vector<std::string> Files;
  std::string Cur;
  bool Target = true;
  auto Flush = [&]() {
    if (Cur.empty())
      return;
    if (Target) {
      if (StringRef(Cur).ends_with(":"))
        Target = false;
    } else {
      llvm::SmallString<256> P(Cur);
      if (!llvm::sys::path::is_absolute(P)) {
        P = Directory;
        llvm::sys::path::append(P, Cur);
      }
      Files.push_back(std::string(P));
    }
    Cur.clear();
  };
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size()) {
      char D = Text[I + 1];
      if (D == '\n' || D == '\r') {
        Flush();
        ++I;
        continue;
      }
      if (D == ' ' || D == '#' || D == '\\') {
        Cur += D;
        ++I;
        continue;
      }
    }
    if (C == '$' && I + 1 < Text.size() && Text[I + 1] == '$') {
      Cur += '$';
      ++I;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      Flush();
      continue;
    }
    Cur += C;
  }
  Flush();
  return Files;
}

/// Writes \p Text to \p Path through a temporary file renamed into place.
bool writeAtomically(StringRef Path, StringRef Text) {
  llvm::SmallString<256> Tmp;
  if (!writeTemporary(Path, Text, Tmp))
    return false;
  if (llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

/// The PCH that the index \p Deps names, if every file it lists still has
/// the size and modification time it had when the PCH was built.
std::optional<std::string> currentPch(StringRef Dir, StringRef Index) {
  auto Buf = llvm::MemoryBuffer::getFile(Index);
  if (!Buf)
    return std::nullopt;
  llvm::SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return std::nullopt;
  llvm::SmallString<256> Pch(Dir);
  llvm::sys::path::append(Pch, Lines.front());
  for (StringRef L : llvm::ArrayRef(Lines).drop_front()) {
    StringRef Path = L.ends_with(":missing")
                         ? L.drop_back(8)
                         : L.rsplit(':').first.rsplit(':').first;
    if (stamp(Path) != L)
      return std::nullopt;
  }
  if (!llvm::sys::fs::exists(Pch))
    return std::nullopt;
  return std::string(Pch);
}

} // namespace

static std::optional<std::string>
prefixPchFor(const std::vector<std::string> &Args, StringRef File,
             StringRef Directory, PrefixPolicy Policy, StringRef Prelude,
             StringRef PrefixText,
             llvm::function_ref<bool(StringRef)> IsUserPath, bool &Failed);

std::string basePch(StringRef Pch) {
  StringRef Name = llvm::sys::path::filename(Pch);
  if (!Name.contains('-'))
    return Pch.str();
  llvm::SmallString<256> Index(llvm::sys::path::parent_path(Pch));
  llvm::sys::path::append(Index, Name.split('-').first + ".deps");
  auto Buf = llvm::MemoryBuffer::getFile(Index);
  if (!Buf)
    return Pch.str();
  // The index's last line is the stamp of the prelude PCH it extends.
  StringRef Last = (*Buf)->getBuffer().rtrim('\n').rsplit('\n').second;
  StringRef Path = Last.ends_with(":missing")
                       ? Last.drop_back(8)
                       : Last.rsplit(':').first.rsplit(':').first;
  return Path.empty() ? Pch.str() : Path.str();
}

PrefixPolicy prefixPchPolicy() {
  if (auto V = llvm::sys::Process::GetEnv("CUDA_LINT_PREFIX_PCH")) {
    StringRef S(*V);
    if (S == "off" || S == "0" || S == "no")
      return PrefixPolicy::Off;
    if (S == "eager")
      return PrefixPolicy::Eager;
  }
  return PrefixPolicy::Auto;
}

std::optional<std::string> prefixPch(const std::vector<std::string> &Args,
                                     StringRef File, StringRef Directory,
                                     PrefixPolicy Policy, bool *UserHeaders) {
  if (Policy == PrefixPolicy::Off)
    return std::nullopt;
  auto PchArg = llvm::find(Args, std::string("-include-pch"));
  if (PchArg == Args.end() || PchArg + 1 == Args.end())
    return std::nullopt;
  std::string Prelude = *(PchArg + 1);
  llvm::SmallString<256> Abs(File);
  if (!llvm::sys::path::is_absolute(Abs)) {
    Abs = Directory;
    llvm::sys::path::append(Abs, File);
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  auto Source = llvm::MemoryBuffer::getFile(Abs);
  if (!Source)
    return std::nullopt;
  // Whether the prefix holds a header of the build's own (found beside the
  // file or through -I, -iquote or -idirafter): the checks analyse its code,
  // and must then take its declarations from the PCH.
  std::vector<std::pair<std::string, bool>> UserDirs =
      userIncludeDirs(Args, Directory);
  // The leading directives up to anything that is not one of the prefix,
  // cut back to where no conditional is open; the file repeats them after
  // the PCH (its includes skipped by their guards, its definitions
  // identical).
  std::string PrefixText, SysText;
  unsigned Count = 0, SysCount = 0;
  bool UserAtCut = false;
  StringRef SourceDir = llvm::sys::path::parent_path(Abs);
  {
    std::string Text;
    unsigned Depth = 0, Includes = 0;
    bool User = false;
    for (const PrefixLine &L : leadingDirectives((*Source)->getBuffer())) {
      // What differs between the file and the PCH's source: its name, its
      // lines, and the directory that `__has_include("...")` searches.
      if (llvm::any_of(
              std::initializer_list<StringRef>{
                  "__has_include", "__FILE", "__LINE__", "__COUNTER__",
                  "__INCLUDE_LEVEL__", "__BASE_FILE__"},
              [&](StringRef T) { return StringRef(L.Text).contains(T); }))
        break;
      if (!L.Include.empty()) {
        StringRef Name = L.Include;
        if (llvm::sys::path::is_absolute(Name) || Name.contains(".."))
          break;
        auto Has = [&](StringRef D) {
          llvm::SmallString<256> P(D);
          llvm::sys::path::append(P, Name);
          return llvm::sys::fs::exists(P);
        };
        if (L.Quoted && Has(SourceDir)) {
          // Found beside the file: the PCH's source, elsewhere, names it by
          // its absolute path (the file's own include finds the same file,
          // already included).
          llvm::SmallString<256> P(SourceDir);
          llvm::sys::path::append(P, Name);
          Text += "#include \"" + std::string(P) + "\"\n";
          User = true;
          ++Includes;
          if (Depth == 0) {
            PrefixText = Text;
            Count = Includes;
            UserAtCut = User;
          }
          continue;
        }
        if (llvm::any_of(UserDirs, [&](const auto &D) {
              return (L.Quoted || !D.second) && Has(D.first);
            }))
          User = true;
        ++Includes;
      } else {
        StringRef D = StringRef(L.Text).drop_front().ltrim(" \t");
        if (D.starts_with("el") && !Depth)
          break;
        if (D.starts_with("if"))
          ++Depth;
        else if (D.starts_with("endif")) {
          if (!Depth)
            break;
          --Depth;
        }
      }
      Text += L.Text + "\n";
      if (Depth == 0) {
        PrefixText = Text;
        Count = Includes;
        UserAtCut = User;
        if (!User) {
          SysText = Text;
          SysCount = Includes;
        }
      }
    }
  }
  // A header of the build's own that is not include-guarded would be
  // declared twice (the PCH's, then the file's own include): its code seen
  // twice by the checks. The PCH of the prefix with it fails; the prefix up
  // to the first such header (system headers only) is used instead.
  auto IsUserPath = [&](StringRef P) {
    auto Under = [&](StringRef D) {
      return P.starts_with(D) && P.size() > D.size() &&
             llvm::sys::path::is_separator(P[D.size()]);
    };
    return Under(SourceDir) || llvm::any_of(UserDirs, [&](const auto &D) {
             return Under(D.first);
           });
  };
  bool Failed = false;
  if (Count)
    if (std::optional<std::string> Pch =
            prefixPchFor(Args, File, Directory, Policy, Prelude, PrefixText,
                         IsUserPath, Failed)) {
      if (UserHeaders)
        *UserHeaders = UserAtCut;
      return Pch;
    }
  if (UserAtCut && Failed && SysCount)
    if (std::optional<std::string> Pch =
            prefixPchFor(Args, File, Directory, Policy, Prelude, SysText,
                         IsUserPath, Failed)) {
      if (UserHeaders)
        *UserHeaders = false;
      return Pch;
    }
  return std::nullopt;
}

/// The PCH of \p PrefixText for prefixPch; \p Failed tells that it did not
/// build (now or before).
static std::optional<std::string>
prefixPchFor(const std::vector<std::string> &Args, StringRef File,
             StringRef Directory, PrefixPolicy Policy, StringRef Prelude,
             StringRef PrefixText,
             llvm::function_ref<bool(StringRef)> IsUserPath, bool &Failed) {
  Failed = false;
  std::optional<std::vector<std::string>> Clang = clangCommand();
  if (!Clang)
    return std::nullopt;
  std::vector<std::string> Flags = prefixFlags(Args, File);

  llvm::SHA256 Hash;
  auto Add = [&](StringRef S) {
    Hash.update(S);
    Hash.update(StringRef("\0", 1));
  };
  Add("prefix-2");
  Add(LLVM_VERSION_STRING);
  Add(stamp(Clang->front()));
  if (flagsNeedDirectory(Flags))
    Add(Directory);
  for (const std::string &F : Flags)
    Add(F);
  Add(PrefixText);
  std::string Key = llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 24);

  llvm::SmallString<256> Dir(cacheDirectory());
  llvm::sys::path::append(Dir, "pch");
  if (llvm::sys::fs::create_directories(Dir))
    return std::nullopt;
  auto InDir = [&](StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  };
  std::string Index = InDir(Key + ".deps");
  if (std::optional<std::string> Pch = currentPch(Dir, Index)) {
    markUsed(Dir, Key);
    return Pch;
  }
  // A prefix that did not build (a header of the build's own that is not
  // include-guarded, or one that does not parse with these flags) is not
  // tried again.
  if (llvm::sys::fs::exists(InDir(Key + ".failed"))) {
    Failed = true;
    return std::nullopt;
  }
  // A PCH costs more to build than the headers cost to parse once: it is
  // built the second time a prefix is seen (by this run or an earlier one).
  std::string Seen = InDir(Key + ".seen");
  if (Policy == PrefixPolicy::Auto && !llvm::sys::fs::exists(Seen)) {
    writeAtomically(Seen, "");
    return std::nullopt;
  }

  // The source: the prefix twice. The file being linted includes the
  // headers again after the PCH: a header that is not include-guarded
  // (and so would be parsed again) fails this build, and the prefix is
  // not used.
  std::string Cuh = InDir(Key + ".cuh");
  if (!writeOnce(Cuh, ("// The include prefix of a source; see cuda-lint.\n" +
                       PrefixText + PrefixText)
                          .str()))
    return std::nullopt;
  llvm::SmallString<256> Tmp, DepTmp;
  if (llvm::sys::fs::createUniqueFile(InDir(Key + ".%%%%%%.pch.tmp"), Tmp))
    return std::nullopt;
  DepTmp = Tmp;
  DepTmp += ".d";
  std::vector<StringRef> Argv(Clang->begin(), Clang->end());
  for (const std::string &F : Flags)
    Argv.push_back(F);
  std::vector<std::string> Tail{"-x",      "cuda",      "-fsyntax-only",
                                "-Xclang", "-emit-pch", "-Xclang",
                                "-o",      "-Xclang",   std::string(Tmp),
                                "-MD",     "-MF",       std::string(DepTmp),
                                "-MT",     "pch",       "-H",
                                Cuh};
  for (const std::string &T : Tail)
    Argv.push_back(T);
  // -H lists every header entered, with its depth, on standard error.
  std::string Entered = std::string(Tmp) + ".h";
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""),
                                          StringRef(Entered)};
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (!Directory.empty())
    llvm::sys::fs::set_current_path(Directory);
  int RC =
      llvm::sys::ExecuteAndWait(Clang->front(), Argv, std::nullopt, Redirects,
                                /*SecondsToWait=*/120);
  if (!Directory.empty())
    llvm::sys::fs::set_current_path(Cwd);
  auto Deps = llvm::MemoryBuffer::getFile(DepTmp);
  llvm::sys::fs::remove(DepTmp);
  // The source holds the prefix twice: a header of the build's own that the
  // prefix includes and that is entered twice is not include-guarded.
  bool Unguarded = false;
  if (auto Log = llvm::MemoryBuffer::getFile(Entered)) {
    llvm::StringMap<unsigned> Seen;
    llvm::SmallVector<StringRef, 64> Lines;
    (*Log)->getBuffer().split(Lines, '\n');
    for (StringRef L : Lines) {
      L = L.rtrim("\r");
      if (!L.consume_front(". "))
        continue;
      llvm::SmallString<256> P(L);
      if (!llvm::sys::path::is_absolute(P)) {
        P = Directory;
        llvm::sys::path::append(P, L);
      }
      llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      Unguarded |= ++Seen[P] == 2 && IsUserPath(P);
    }
  }
  llvm::sys::fs::remove(Entered);
  if (RC != 0 || !Deps || Unguarded) {
    llvm::sys::fs::remove(Tmp);
    if (RC != 0 || Unguarded) {
      writeAtomically(InDir(Key + ".failed"), "");
      Failed = true;
    }
    return std::nullopt;
  }
  // The index: the PCH's name, then the size and time of every file it was
  // built from (the prelude PCH it extends included). A PCH whose inputs
  // changed is replaced by one under another name, so a run that read the
  // old index never loads a PCH it does not describe.
  std::vector<std::string> Inputs = depFiles((*Deps)->getBuffer(), Directory);
  // Where a header created later would be found before one the prefix
  // includes (an -I directory that does not exist yet, a directory searched
  // earlier): recorded as missing, so that the PCH is built again when one
  // appears rather than used beside the new header.
  CacheDeps Shadows;
  std::vector<std::string> DepsArgs{Args.front()};
  DepsArgs.insert(DepsArgs.end(), Flags.begin(), Flags.end());
  DepsArgs.push_back(Cuh);
  preprocessorDeps(DepsArgs, Directory, Shadows);
  for (const std::string &A : Shadows.Absent)
    if (!StringRef(A).starts_with(Dir))
      Inputs.push_back(A);
  Inputs.push_back(Prelude.str());
  std::string Stamps;
  for (const std::string &In : Inputs)
    Stamps += stamp(In) + "\n";
  std::string Name =
      Key + "-" +
      llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Stamps)),
                  /*LowerCase=*/true)
          .substr(0, 12) +
      ".pch";
  std::string Pch = InDir(Name);
  if (!publishOnce(Tmp, Pch) || !writeAtomically(Index, Name + "\n" + Stamps)) {
    llvm::sys::fs::remove(Tmp);
    return std::nullopt;
  }
  markUsed(Dir, Key);
  evictPchCache(Dir, pchCacheMaxSize());
  return Pch;
}

} // namespace cudalint
