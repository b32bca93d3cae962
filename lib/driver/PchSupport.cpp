//===--- PchSupport.cpp - cuda-lint ---------------------------------------===//
//
// What the prelude and the prefix PCHs share: their key's ingredients, the
// clang that builds them, publishing a file once, and the cache's bound.
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

/// Whether \p Flags name a path relative to the working directory where the
/// headers are searched: only then does a PCH built from them depend on the
/// directory it is built in. Keying every PCH by its directory gave each
/// directory of a code base a prelude of its own (10 MB each).
bool flagsNeedDirectory(llvm::ArrayRef<std::string> Flags) {
  static const char *const PathFlags[] = {"-I",
                                          "-isystem",
                                          "-iquote",
                                          "-idirafter",
                                          "-include",
                                          "-imacros",
                                          "--include-directory=",
                                          "-cxx-isystem",
                                          "-isysroot",
                                          "--sysroot=",
                                          "-iprefix",
                                          "-iwithprefix",
                                          "-F",
                                          "-resource-dir=",
                                          "--cuda-path="};
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef A = Flags[I];
    for (StringRef F : PathFlags) {
      if (!A.starts_with(F))
        continue;
      StringRef V = A.drop_front(F.size());
      if (V.empty() && !F.ends_with("=") && I + 1 < Flags.size())
        V = Flags[I + 1];
      if (!V.empty() && !llvm::sys::path::is_absolute(V))
        return true;
      break;
    }
  }
  return false;
}

std::string stamp(StringRef Path) {
  llvm::sys::fs::file_status S;
  if (llvm::sys::fs::status(Path, S))
    return (Path + ":missing").str();
  return (Path + ":" + llvm::Twine(S.getSize()) + ":" +
          llvm::Twine(S.getLastModificationTime().time_since_epoch().count()))
      .str();
}

std::optional<std::vector<std::string>> clangCommand() {
#ifdef CUDA_LINT_SELF_CLANG
  // A self-contained cuda-lint: its own Clang, the one that reads the PCH.
  std::string Self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&clangCommand));
  if (!Self.empty())
    return std::vector<std::string>{Self, "--clang-job"};
  return std::nullopt;
#else
  for (StringRef Name : {"clang++-22", "clang-22"}) {
    if (auto P = llvm::sys::findProgramByName(Name, {CUDA_LINT_LLVM_BINDIR}))
      return std::vector<std::string>{*P};
    if (auto P = llvm::sys::findProgramByName(Name))
      return std::vector<std::string>{*P};
  }
  return std::nullopt;
#endif
}

/// Moves the finished file \p Tmp to \p Path unless \p Path exists: the
/// first file published under a name stays. Two runs that build the same
/// PCH (or write the same source of one) at once must not replace each
/// other's: clang records the size and time of a PCH's inputs, the PCH a
/// chained one extends included, and rejects a replaced one ("out of date")
/// in a run that has already built on it. A hard link fails where the name
/// exists, which a rename does not.
bool publishOnce(StringRef Tmp, StringRef Path) {
  std::error_code EC = llvm::sys::fs::create_hard_link(Tmp, Path);
  llvm::sys::fs::remove(Tmp);
  return !EC || llvm::sys::fs::exists(Path);
}

bool writeTemporary(StringRef Path, StringRef Text,
                    llvm::SmallVectorImpl<char> &Tmp) {
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + ".%%%%%%.tmp", FD, Tmp))
    return false;
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  if (OS.has_error()) {
    OS.clear_error();
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

/// Writes \p Text to \p Path unless the file exists, through a unique
/// temporary file published in place: concurrent runs never read a
/// half-written prelude, nor replace each other's.
bool writeOnce(StringRef Path, StringRef Text) {
  if (llvm::sys::fs::exists(Path))
    return true;
  llvm::SmallString<256> Tmp;
  if (!writeTemporary(Path, Text, Tmp))
    return false;
  return publishOnce(Tmp, Path);
}

/// Records a use of the PCH named \p Key for the cache's least-recently-used
/// bound. Not the PCH's own time: a PCH built on top of it records that, and
/// clang rejects the newer one when it changes; nor the `.cuh` it was built
/// from, which clang checks too.
void markUsed(StringRef Dir, StringRef Key) {
  llvm::SmallString<256> Used(Dir);
  llvm::sys::path::append(Used, Key + ".used");
  std::error_code EC;
  llvm::raw_fd_ostream OS(Used, EC);
}

uint64_t pchCacheMaxSize() {
  uint64_t Max = uint64_t(4) << 30;
  if (auto V = llvm::sys::Process::GetEnv("CUDA_LINT_PCH_MAX_SIZE")) {
    uint64_t N;
    if (parseCacheSize(*V, N))
      Max = N;
  }
  return Max;
}

void evictPchCache(StringRef Dir, uint64_t MaxSize) {
  using namespace std::chrono;
  struct Group {
    uint64_t Size = 0;
    system_clock::time_point Time;
    std::vector<std::string> Files;
  };
  std::map<std::string, Group> Groups;
  uint64_t Total = 0;
  auto Now = system_clock::now();
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::sys::fs::file_status S;
    if (llvm::sys::fs::status(It->path(), S) ||
        !llvm::sys::fs::is_regular_file(S))
      continue;
    StringRef Name = llvm::sys::path::filename(It->path());
    auto Time = S.getLastModificationTime();
    // A temporary file of a build that was killed before its rename.
    if (Name.ends_with(".tmp") || Name.contains(".tmp.")) {
      if (Now - Time > hours(1))
        llvm::sys::fs::remove(It->path());
      continue;
    }
    // `<key>.pch`, `<key>.cuh`, `<key>.used`, `<key>-<inputs>.pch`, ...
    std::string Key =
        Name.take_until([](char C) { return C == '.' || C == '-'; }).str();
    Group &G = Groups[Key];
    G.Size += S.getSize();
    G.Time = std::max(G.Time, Time);
    G.Files.push_back(It->path());
    Total += S.getSize();
  }
  if (Total <= MaxSize)
    return;
  std::vector<std::pair<system_clock::time_point, std::string>> Order;
  for (auto &[Key, G] : Groups)
    Order.push_back({G.Time, Key});
  llvm::sort(Order);
  uint64_t Target = MaxSize / 10 * 9;
  for (auto &[Time, Key] : Order) {
    if (Total <= Target)
      break;
    // In use by a run going on now (or one that just ended): removing it
    // would fail that run's parse.
    if (Now - Time < minutes(10))
      break;
    Group &G = Groups[Key];
    for (const std::string &F : G.Files)
      llvm::sys::fs::remove(F);
    Total -= G.Size;
  }
}

} // namespace cudalint
