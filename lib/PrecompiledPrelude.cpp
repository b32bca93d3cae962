//===--- PrecompiledPrelude.cpp - cuda-lint -------------------------------===//

#include "cudalint/PrecompiledPrelude.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using llvm::StringRef;

namespace cudalint {

std::string cacheDirectory() {
  if (auto Dir = llvm::sys::Process::GetEnv("CUDA_LINT_CACHE_DIR"))
    return *Dir;
  llvm::SmallString<256> Dir;
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME")) {
    Dir = *Xdg;
  } else if (auto Home = llvm::sys::Process::GetEnv("HOME")) {
    Dir = *Home;
    llvm::sys::path::append(Dir, ".cache");
  } else {
    llvm::sys::path::system_temp_directory(true, Dir);
  }
  llvm::sys::path::append(Dir, "cuda-lint");
  return std::string(Dir);
}

std::vector<std::string> preludeFlags(const std::vector<std::string> &Args,
                                      StringRef File) {
  std::vector<std::string> Out;
  StringRef FileName = llvm::sys::path::filename(File);
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-o" || A == "-include" || A == "-MF" || A == "-MT" ||
        A == "-MQ" || A == "-include-pch") {
      ++I;
      continue;
    }
    if (A == "-c" || A == "-MD" || A == "-MMD" || A == "-fsyntax-only" ||
        A.starts_with("-o") ||
        (!A.starts_with("-") && llvm::sys::path::filename(A) == FileName))
      continue;
    Out.push_back(A.str());
  }
  return Out;
}

static std::string stamp(StringRef Path) {
  llvm::sys::fs::file_status S;
  if (llvm::sys::fs::status(Path, S))
    return (Path + ":missing").str();
  return (Path + ":" + llvm::Twine(S.getSize()) + ":" +
          llvm::Twine(S.getLastModificationTime().time_since_epoch().count()))
      .str();
}

static std::optional<std::string> findClang() {
  for (StringRef Name : {"clang++-22", "clang-22"}) {
    if (auto P = llvm::sys::findProgramByName(Name, {CUDA_LINT_LLVM_BINDIR}))
      return *P;
    if (auto P = llvm::sys::findProgramByName(Name))
      return *P;
  }
  return std::nullopt;
}

std::optional<std::string> preludePch(const std::vector<std::string> &Args,
                                      StringRef File, StringRef Directory,
                                      const CudaEnvironment &Env) {
  if (Env.CudaPath.empty() ||
      !llvm::is_contained(Args, std::string("--cuda-device-only")))
    return std::nullopt;
  std::optional<std::string> Clang = findClang();
  if (!Clang)
    return std::nullopt;
  std::vector<std::string> Flags = preludeFlags(Args, File);

  // The key: everything the prelude's content depends on.
  llvm::SHA256 Hash;
  auto Add = [&](StringRef S) {
    Hash.update(S);
    Hash.update(StringRef("\0", 1));
  };
  Add(LLVM_VERSION_STRING);
  Add(stamp(*Clang));
  Add(Directory);
  Add(stamp(Env.ResourceDir + "/include/__clang_cuda_runtime_wrapper.h"));
  Add(stamp(Env.CudaPath + "/include/cuda_runtime.h"));
  Add(stamp(Env.CudaPath + "/include/crt/host_defines.h"));
  Add(stamp(Env.CudaPath + "/version.json"));
  for (const std::string &F : Flags)
    Add(F);
  std::string Key = llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 24);

  llvm::SmallString<256> Dir(cacheDirectory());
  llvm::sys::path::append(Dir, "pch");
  if (llvm::sys::fs::create_directories(Dir))
    return std::nullopt;
  llvm::SmallString<256> Pch(Dir), Prelude(Dir);
  llvm::sys::path::append(Pch, Key + ".pch");
  llvm::sys::path::append(Prelude, "prelude.cuh");
  if (llvm::sys::fs::exists(Pch))
    return std::string(Pch);

  if (!llvm::sys::fs::exists(Prelude)) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Prelude, EC);
    if (EC)
      return std::nullopt;
    OS << "// The CUDA prelude clang includes implicitly; see cuda-lint.\n";
  }
  // Build to a unique temporary name, then rename: concurrent runs never see
  // a half-written file.
  llvm::SmallString<256> Tmp;
  if (llvm::sys::fs::createUniqueFile(Pch + ".%%%%%%.tmp", Tmp))
    return std::nullopt;
  std::vector<StringRef> Argv{*Clang};
  for (const std::string &F : Flags)
    Argv.push_back(F);
  std::vector<std::string> Tail{"-x",
                                "cuda",
                                "-fsyntax-only",
                                "-Xclang",
                                "-emit-pch",
                                "-Xclang",
                                "-o",
                                "-Xclang",
                                std::string(Tmp),
                                std::string(Prelude)};
  for (const std::string &T : Tail)
    Argv.push_back(T);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (!Directory.empty())
    llvm::sys::fs::set_current_path(Directory);
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""),
                                          StringRef("")};
  int RC = llvm::sys::ExecuteAndWait(*Clang, Argv, std::nullopt, Redirects,
                                     /*SecondsToWait=*/120);
  if (!Directory.empty())
    llvm::sys::fs::set_current_path(Cwd);
  if (RC != 0 || llvm::sys::fs::rename(Tmp, Pch)) {
    llvm::sys::fs::remove(Tmp);
    return std::nullopt;
  }
  return std::string(Pch);
}

} // namespace cudalint
