//===--- PrecompiledPrelude.cpp - cuda-lint -------------------------------===//
//
// The precompiled CUDA prelude: the runtime wrapper headers clang includes
// implicitly, and cuda-lint's own forced includes, built once per toolkit,
// clang and flag set. The include prefix is in PrefixPch.cpp, what both
// share (the cache, the clang that builds them) in PchSupport.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudalint/driver/PrecompiledPrelude.h"
#include "PchSupport.h"
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

std::optional<std::string> preludePch(const std::vector<std::string> &Args,
                                      StringRef File, StringRef Directory,
                                      const CudaEnvironment &Env,
                                      llvm::ArrayRef<std::string> Includes) {
  if (Env.CudaPath.empty() ||
      !llvm::is_contained(Args, std::string("--cuda-device-only")))
    return std::nullopt;
  std::optional<std::vector<std::string>> Clang = clangCommand();
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
  Add(stamp(Clang->front()));
  if (flagsNeedDirectory(Flags))
    Add(Directory);
  Add(stamp(Env.ResourceDir + "/include/__clang_cuda_runtime_wrapper.h"));
  Add(stamp(Env.CudaPath + "/include/cuda_runtime.h"));
  Add(stamp(Env.CudaPath + "/include/crt/host_defines.h"));
  Add(stamp(Env.CudaPath + "/version.json"));
  for (const std::string &F : Flags)
    Add(F);
  // The variant's own headers, by content as well as by the size and time
  // that clang checks when it loads the PCH: a header changed in place (or
  // replaced by an older copy) gets a new variant, never a stale one.
  std::string PreludeText =
      "// The CUDA prelude clang includes implicitly; see cuda-lint.\n";
  for (const std::string &Inc : Includes) {
    auto Buf = llvm::MemoryBuffer::getFile(Inc);
    if (!Buf)
      return preludePch(Args, File, Directory, Env, Includes.drop_back());
    Add("include");
    Add(stamp(Inc));
    Add(llvm::toHex(
        llvm::SHA256::hash(llvm::arrayRefFromStringRef((*Buf)->getBuffer())),
        /*LowerCase=*/true));
    PreludeText += "#include \"" + Inc + "\"\n";
  }
  std::string Key = llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 24);

  llvm::SmallString<256> Dir(cacheDirectory());
  llvm::sys::path::append(Dir, "pch");
  if (llvm::sys::fs::create_directories(Dir))
    return std::nullopt;
  llvm::SmallString<256> Pch(Dir), Prelude(Dir);
  llvm::sys::path::append(Pch, Key + ".pch");
  // The plain prelude is one shared file; a variant has its own, named by
  // its key (the includes are part of the key).
  llvm::sys::path::append(Prelude,
                          Includes.empty() ? "prelude.cuh" : Key + ".cuh");
  if (llvm::sys::fs::exists(Pch)) {
    markUsed(Dir, Key);
    return std::string(Pch);
  }
  // A variant that failed to build once is not tried again for this key.
  llvm::SmallString<256> Failed(Pch);
  llvm::sys::path::replace_extension(Failed, "failed");
  if (!Includes.empty() && llvm::sys::fs::exists(Failed))
    return preludePch(Args, File, Directory, Env, Includes.drop_back());

  if (!writeOnce(Prelude, PreludeText))
    return Includes.empty()
               ? std::nullopt
               : preludePch(Args, File, Directory, Env, Includes.drop_back());
  // Build to a unique temporary name, then rename: concurrent runs never see
  // a half-written file.
  llvm::SmallString<256> Tmp;
  if (llvm::sys::fs::createUniqueFile(Pch + ".%%%%%%.tmp", Tmp))
    return std::nullopt;
  std::vector<StringRef> Argv(Clang->begin(), Clang->end());
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
  int RC =
      llvm::sys::ExecuteAndWait(Clang->front(), Argv, std::nullopt, Redirects,
                                /*SecondsToWait=*/120);
  if (!Directory.empty())
    llvm::sys::fs::set_current_path(Cwd);
  if (RC != 0 || !publishOnce(Tmp, Pch)) {
    llvm::sys::fs::remove(Tmp);
    if (Includes.empty())
      return std::nullopt;
    // A variant that does not build (a header that does not parse with
    // these flags): the plain prelude, and the header parsed as before.
    if (RC != 0)
      writeOnce(Failed, "");
    return preludePch(Args, File, Directory, Env, Includes.drop_back());
  }
  markUsed(Dir, Key);
  evictPchCache(Dir, pchCacheMaxSize());
  return std::string(Pch);
}

} // namespace cudalint
