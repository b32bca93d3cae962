//===--- CompileFlags.cpp - cuda-lint -------------------------------------===//

#include "cudalint/driver/CompileFlags.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"

using llvm::isAlnum;
using llvm::StringRef;

namespace cudalint {

bool isCudaFileName(StringRef Path) {
  StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

bool isNvccCompiler(StringRef Argv0) {
  StringRef Name = llvm::sys::path::filename(Argv0);
  Name.consume_back(".exe");
  return Name == "nvcc";
}

bool isCudaCommand(llvm::ArrayRef<std::string> Args, StringRef File) {
  if (!Args.empty() && isNvccCompiler(Args.front()))
    return isCudaFileName(File) || llvm::is_contained(Args, "cu") ||
           llvm::is_contained(Args, "-xcu");
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-xcuda" || A == "--cuda-path" || A.starts_with("--cuda-path=") ||
        (A == "-x" && I + 1 < Args.size() && Args[I + 1] == "cuda"))
      return true;
  }
  return isCudaFileName(File);
}

static bool isToolkit(StringRef Dir) {
  llvm::SmallString<256> Header(Dir);
  llvm::sys::path::append(Header, "include", "cuda_runtime.h");
  return !Dir.empty() && llvm::sys::fs::exists(Header);
}

std::optional<std::string> findCudaPath(StringRef Explicit,
                                        std::string *Source) {
  auto Found = [&](StringRef Dir, StringRef From) {
    if (Source)
      *Source = From.str();
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Dir, Real))
      return Dir.str();
    return std::string(Real);
  };
  if (!Explicit.empty())
    return isToolkit(Explicit) ? std::optional(Found(Explicit, "--cuda-path"))
                               : std::nullopt;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> V = llvm::sys::Process::GetEnv(Var))
      if (isToolkit(*V))
        return Found(*V, Var);
  if (llvm::ErrorOr<std::string> Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real)) {
      StringRef Root =
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real));
      if (isToolkit(Root))
        return Found(Root, "nvcc on PATH");
    }
  }
  if (isToolkit("/usr/local/cuda"))
    return Found("/usr/local/cuda", "/usr/local/cuda");
  return std::nullopt;
}

static bool isResourceDir(StringRef Dir) {
  llvm::SmallString<256> Wrapper(Dir);
  llvm::sys::path::append(Wrapper, "include", "__clang_cuda_runtime_wrapper.h");
  return llvm::sys::fs::exists(Wrapper);
}

/// The directory above the one holding this executable: the prefix of an
/// install (<prefix>/bin/cuda-lint), or the build tree (build/bin).
static std::string installPrefix(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&installPrefix));
  return llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)).str();
}

std::string findResourceDir() {
  // A self-contained install carries the resource headers of the Clang it
  // links: <prefix>/lib/clang/<major>.
  llvm::SmallString<256> Bundled(installPrefix(nullptr));
  llvm::sys::path::append(Bundled, "lib", "clang",
                          llvm::Twine(LLVM_VERSION_MAJOR));
  if (isResourceDir(Bundled))
    return std::string(Bundled);
  if (isResourceDir(CUDA_LINT_CLANG_RESOURCE_DIR))
    return CUDA_LINT_CLANG_RESOURCE_DIR;
  // Ask the installed clang of the same major version.
  for (StringRef Name : {"clang-22", "clang"}) {
    llvm::ErrorOr<std::string> Clang =
        llvm::sys::findProgramByName(Name, {CUDA_LINT_LLVM_BINDIR});
    if (!Clang)
      Clang = llvm::sys::findProgramByName(Name);
    if (!Clang)
      continue;
    llvm::SmallString<128> Out;
    if (llvm::sys::fs::createTemporaryFile("cuda-lint-resdir", "txt", Out))
      continue;
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out),
                                            std::nullopt};
    StringRef Argv[] = {*Clang, "-print-resource-dir"};
    int RC = llvm::sys::ExecuteAndWait(*Clang, Argv, std::nullopt, Redirects);
    auto Buf = llvm::MemoryBuffer::getFile(Out);
    llvm::sys::fs::remove(Out);
    if (RC == 0 && Buf) {
      std::string Dir = (*Buf)->getBuffer().trim().str();
      if (isResourceDir(Dir))
        return Dir;
    }
  }
  return "";
}

std::string findShareDir(const char *Argv0) {
  llvm::SmallString<256> Dir(installPrefix(Argv0));
  llvm::sys::path::append(Dir, "share", "cuda-lint");
  if (llvm::sys::fs::is_directory(Dir))
    return std::string(Dir);
  return CUDA_LINT_SHARE_DIR;
}

std::string findDocsDir(const char *Argv0) {
  llvm::SmallString<256> Dir(installPrefix(Argv0));
  llvm::sys::path::append(Dir, "share", "cuda-lint", "docs", "checks");
  if (llvm::sys::fs::is_directory(Dir))
    return std::string(Dir);
  return CUDA_LINT_DOCS_DIR;
}

namespace {

/// nvcc options that take a value, by every spelling nvcc accepts.
enum class NvccOpt {
  None,
  Arch,
  GenCode,
  Drop,      // Takes a value that clang has no use for.
  DropFlag,  // No value; nothing for clang.
  Xcompiler, // Value: comma-separated host compiler flags.
  Rdc,
  DeviceC,
  Std,
  Lang,
  OptionsFile,
  DefaultStream,
  Include,
  SystemInclude,
  Define,
  Undefine,
  PreInclude,
  Output,
};

NvccOpt classify(StringRef Name) {
  return llvm::StringSwitch<NvccOpt>(Name)
      .Cases({"-arch", "--gpu-architecture"}, NvccOpt::Arch)
      .Cases({"-gencode", "--generate-code"}, NvccOpt::GenCode)
      .Cases({"-code", "--gpu-code", "-Xptxas", "--ptxas-options", "-Xnvlink",
              "--nvlink-options", "-Xcudafe", "-Xarchive", "--archive-options",
              "-Xfatbin", "--fatbin-options", "-ccbin", "--compiler-bindir",
              "-maxrregcount", "--maxrregcount", "-t", "--threads"},
             NvccOpt::Drop)
      .Cases({"-split-compile",
              "--split-compile",
              "-cudart",
              "--cudart",
              "-cudadevrt",
              "--cudadevrt",
              "-diag-suppress",
              "--diag-suppress",
              "-diag-warn",
              "--diag-warn",
              "-diag-error",
              "--diag-error",
              "-odir",
              "--output-directory",
              "-ftz",
              "--ftz",
              "-prec-div",
              "--prec-div",
              "-prec-sqrt",
              "--prec-sqrt",
              "-fmad",
              "--fmad",
              "-Xlinker",
              "--linker-options",
              "-ext-lambda",
              "--static-global-template-stub",
              "-static-global-template-stub",
              "-dopt",
              "--dopt",
              "-ptxas-options",
              "-Werror",
              "-err-no",
              "-MT",
              "-MF",
              "-MQ"},
             NvccOpt::Drop)
      .Cases({"--expt-relaxed-constexpr",
              "-expt-relaxed-constexpr",
              "--expt-extended-lambda",
              "-expt-extended-lambda",
              "--extended-lambda",
              "-extended-lambda",
              "-forward-unknown-to-host-compiler",
              "--forward-unknown-to-host-compiler",
              "-forward-unknown-to-host-linker",
              "--forward-unknown-to-host-linker",
              "--use-local-env",
              "-use_fast_math",
              "--use_fast_math",
              "-lineinfo",
              "--generate-line-info",
              "-G",
              "--device-debug",
              "-keep",
              "--keep",
              "-res-usage",
              "--resource-usage",
              "-src-in-ptx",
              "--source-in-ptx",
              "-restrict",
              "--restrict",
              "-allow-unsupported-compiler",
              "--allow-unsupported-compiler",
              "-Wno-deprecated-gpu-targets",
              "--Wno-deprecated-gpu-targets",
              "--display-error-number",
              "-dlink",
              "--device-link",
              "-MD",
              "-MMD",
              "-MP",
              "--generate-dependencies-with-compile",
              "--generate-nonsystem-dependencies-with-compile",
              "-dryrun",
              "--dryrun",
              "-v",
              "--verbose",
              "-Wreorder",
              "-Wext-lambda-captures-this",
              "-Wdefault-stream-launch",
              "-Wmissing-launch-bounds",
              "-Wno-deprecated-declarations"},
             NvccOpt::DropFlag)
      .Cases({"-Xcompiler", "--compiler-options"}, NvccOpt::Xcompiler)
      .Cases({"-rdc", "--relocatable-device-code"}, NvccOpt::Rdc)
      .Cases({"-dc", "--device-c"}, NvccOpt::DeviceC)
      .Cases({"-std", "--std"}, NvccOpt::Std)
      .Cases({"-x", "--x"}, NvccOpt::Lang)
      .Cases({"-optf", "--options-file"}, NvccOpt::OptionsFile)
      .Cases({"-default-stream", "--default-stream"}, NvccOpt::DefaultStream)
      .Cases({"-I", "--include-path"}, NvccOpt::Include)
      .Cases({"-isystem", "--system-include"}, NvccOpt::SystemInclude)
      .Cases({"-D", "--define-macro"}, NvccOpt::Define)
      .Cases({"-U", "--undefine-macro"}, NvccOpt::Undefine)
      .Cases({"-include", "--pre-include"}, NvccOpt::PreInclude)
      .Cases({"-o", "--output-file"}, NvccOpt::Output)
      .Default(NvccOpt::None);
}

bool takesValue(NvccOpt K) {
  return K != NvccOpt::None && K != NvccOpt::DropFlag && K != NvccOpt::DeviceC;
}

/// `compute_90` and `sm_90` both name the sm_90 GPU for clang; `native`,
/// `all` and `all-major` leave the choice to the default.
std::string gpuArch(StringRef Value) {
  Value = Value.trim("[]\"' ");
  if (Value.consume_front("compute_"))
    return ("sm_" + Value).str();
  if (Value.starts_with("sm_"))
    return Value.str();
  return "";
}

/// `arch=compute_90,code=[sm_90,compute_90]` -> sm_90 (the first real GPU).
std::string genCodeArch(StringRef Value) {
  std::string Arch;
  size_t CodePos = Value.find("code=");
  while (CodePos != StringRef::npos && CodePos > 0 && Value[CodePos - 1] != ',')
    CodePos = Value.find("code=", CodePos + 1);
  if (CodePos != StringRef::npos) {
    StringRef Codes = Value.substr(CodePos + 5).trim("[]\"' ");
    llvm::SmallVector<StringRef, 4> Parts;
    Codes.split(Parts, ',');
    for (StringRef P : Parts)
      if (P.trim("[]\"' ").starts_with("sm_"))
        return gpuArch(P);
  }
  size_t ArchPos = Value.find("arch=");
  if (ArchPos != StringRef::npos)
    return gpuArch(Value.substr(ArchPos + 5).split(',').first);
  return "";
}

void tokenizeFile(StringRef Path, StringRef Directory,
                  llvm::SmallVectorImpl<std::string> &Out) {
  llvm::SmallString<256> Full(Path);
  if (!llvm::sys::path::is_absolute(Full) && !Directory.empty()) {
    Full = Directory;
    llvm::sys::path::append(Full, Path);
  }
  auto Buf = llvm::MemoryBuffer::getFile(Full);
  if (!Buf)
    return;
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
  for (const char *T : Tokens)
    Out.push_back(T);
}

} // namespace

std::vector<std::string>
translateNvccCommand(llvm::ArrayRef<std::string> In, StringRef Directory,
                     std::vector<std::string> *Dropped) {
  // Expand response files (`@file`, `--options-file file`) first.
  llvm::SmallVector<std::string, 64> Args;
  for (size_t I = 0; I < In.size(); ++I) {
    StringRef A = In[I];
    if (I > 0 && A.starts_with("@")) {
      tokenizeFile(A.drop_front(), Directory, Args);
      continue;
    }
    auto [Name, Value] = A.split('=');
    if (classify(Name) == NvccOpt::OptionsFile) {
      if (A.contains('='))
        tokenizeFile(Value, Directory, Args);
      else if (I + 1 < In.size())
        tokenizeFile(In[++I], Directory, Args);
      continue;
    }
    Args.push_back(In[I]);
  }

  std::vector<std::string> Out;
  Out.push_back("clang++");
  std::string Arch;
  bool Rdc = false;
  auto Note = [&](const llvm::Twine &T) {
    if (Dropped)
      Dropped->push_back(T.str());
  };
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    StringRef Name = A, Value;
    bool HasValue = false;
    NvccOpt Kind = classify(A);
    if (Kind == NvccOpt::None && A.contains('=')) {
      std::tie(Name, Value) = A.split('=');
      Kind = classify(Name);
      HasValue = Kind != NvccOpt::None;
    }
    // Attached forms clang also spells this way: -I/x, -DFOO, -isystem=/x.
    if (Kind == NvccOpt::None) {
      Out.push_back(A.str());
      continue;
    }
    if (!HasValue && takesValue(Kind)) {
      if (I + 1 >= Args.size()) {
        Note(A + " (missing value)");
        break;
      }
      Value = Args[++I];
    }
    switch (Kind) {
    case NvccOpt::Arch:
      if (Arch.empty())
        Arch = gpuArch(Value);
      break;
    case NvccOpt::GenCode:
      if (Arch.empty())
        Arch = genCodeArch(Value);
      break;
    case NvccOpt::Drop:
    case NvccOpt::DropFlag:
      break;
    case NvccOpt::Xcompiler: {
      llvm::SmallVector<StringRef, 8> Parts;
      Value.split(Parts, ',', -1, false);
      for (StringRef P : Parts)
        Out.push_back(P.trim("\"' ").str());
      break;
    }
    case NvccOpt::Rdc:
      Rdc |= Value == "true";
      break;
    case NvccOpt::DeviceC:
      Rdc = true;
      Out.push_back("-c");
      break;
    case NvccOpt::Std:
      Out.push_back(("-std=" + Value).str());
      break;
    case NvccOpt::Lang:
      Out.push_back("-x");
      Out.push_back(Value == "cu" ? "cuda" : Value.str());
      break;
    case NvccOpt::DefaultStream:
      if (Value == "per-thread")
        Out.push_back("-fgpu-default-stream=per-thread");
      break;
    case NvccOpt::Include:
      Out.push_back(("-I" + Value).str());
      break;
    case NvccOpt::SystemInclude:
      Out.push_back("-isystem");
      Out.push_back(Value.str());
      break;
    case NvccOpt::Define:
      Out.push_back(("-D" + Value).str());
      break;
    case NvccOpt::Undefine:
      Out.push_back(("-U" + Value).str());
      break;
    case NvccOpt::PreInclude:
      Out.push_back("-include");
      Out.push_back(Value.str());
      break;
    case NvccOpt::Output:
      Out.push_back("-o");
      Out.push_back(Value.str());
      break;
    case NvccOpt::OptionsFile:
    case NvccOpt::None:
      break;
    }
  }
  if (!Arch.empty())
    Out.push_back("--cuda-gpu-arch=" + Arch);
  if (Rdc)
    Out.push_back("-fgpu-rdc");
  return Out;
}

std::vector<std::string>
dropUnknownClangFlags(llvm::ArrayRef<std::string> Args,
                      std::vector<std::string> *Dropped) {
  if (Args.empty())
    return {};
  llvm::SmallVector<const char *, 64> Argv;
  for (const std::string &A : Args.drop_front())
    Argv.push_back(A.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed = clang::getDriverOptTable().ParseArgs(
      Argv, MissingIndex, MissingCount,
      llvm::opt::Visibility(clang::options::ClangOption));
  std::vector<bool> Keep(Argv.size(), true);
  for (const llvm::opt::Arg *A : Parsed)
    if (A->getOption().getKind() == llvm::opt::Option::UnknownClass) {
      Keep[A->getIndex()] = false;
      if (Dropped)
        Dropped->push_back(Argv[A->getIndex()]);
    }
  std::vector<std::string> Out;
  Out.push_back(Args.front());
  for (size_t I = 0; I < Argv.size(); ++I)
    if (Keep[I])
      Out.push_back(Argv[I]);
  return Out;
}

static bool hasFlag(llvm::ArrayRef<std::string> Args, StringRef Flag) {
  return llvm::any_of(Args, [&](const std::string &A) {
    return A == Flag || StringRef(A).starts_with((Flag + "=").str());
  });
}

std::vector<std::string> addCudaDefaults(llvm::ArrayRef<std::string> Args,
                                         const CudaEnvironment &Env,
                                         bool IsHeader) {
  std::vector<std::string> Extra;
  bool HasLang = false;
  for (size_t I = 0; I < Args.size(); ++I)
    HasLang |= Args[I] == "-xcuda" || (Args[I] == "-x" && I + 1 < Args.size() &&
                                       Args[I + 1] == "cuda");
  if (IsHeader && !HasLang) {
    Extra.push_back("-x");
    Extra.push_back("cuda");
  }
  if (!hasFlag(Args, "--cuda-path") && !hasFlag(Args, "-nocudainc")) {
    if (!Env.CudaPath.empty()) {
      Extra.push_back("--cuda-path=" + Env.CudaPath);
    } else {
      Extra.push_back("-nocudainc");
      Extra.push_back("-nocudalib");
      if (!Env.FallbackHeader.empty()) {
        // Stand-ins for <cuda_runtime.h> and friends, then the declarations.
        llvm::SmallString<256> Dir(
            llvm::sys::path::parent_path(Env.FallbackHeader));
        llvm::sys::path::append(Dir, "fallback");
        Extra.push_back("-isystem");
        Extra.push_back(std::string(Dir));
        Extra.push_back("-include");
        Extra.push_back(Env.FallbackHeader);
      }
    }
  }
  if (!Env.CudaPath.empty()) {
    llvm::SmallString<256> Cccl(Env.CudaPath);
    llvm::sys::path::append(Cccl, "include", "cccl");
    if (llvm::sys::fs::is_directory(Cccl) &&
        !llvm::is_contained(Args, std::string(Cccl))) {
      Extra.push_back("-isystem");
      Extra.push_back(std::string(Cccl));
    }
  }
  if (!hasFlag(Args, "--cuda-gpu-arch") && !hasFlag(Args, "--offload-arch"))
    Extra.push_back("--cuda-gpu-arch=" + Env.DefaultGpuArch);
  if (Env.DeviceOnly && !hasFlag(Args, "--cuda-host-only") &&
      !hasFlag(Args, "--cuda-device-only") &&
      !hasFlag(Args, "--offload-host-only") &&
      !hasFlag(Args, "--offload-device-only"))
    Extra.push_back("--cuda-device-only");
  Extra.push_back("-Wno-unknown-cuda-version");
  // nvcc's dialect. The device-side analysis does not diagnose errors in
  // host code unless it is emitted for the device (nvcc compiles host code
  // with the host compiler, where `max(a, b)` or `isfinite(x)` resolve to
  // host functions that clang's device-side headers do not declare).
  if (!hasFlag(Args, "-fgpu-defer-diag") &&
      !hasFlag(Args, "-fno-gpu-defer-diag"))
    Extra.push_back("-fgpu-defer-diag");
  // Relocatable device code, always: it only widens what parses (kernel
  // launches from device code, `extern __device__` variables), and a file
  // written for `-rdc=true` cannot be told from its compile command when the
  // build links it with others (CMake's CUDA_SEPARABLE_COMPILATION).
  if (!hasFlag(Args, "-fgpu-rdc") && !hasFlag(Args, "-fno-gpu-rdc"))
    Extra.push_back("-fgpu-rdc");
  // `register` in C++17 code: an error for clang, a warning for nvcc.
  if (!hasFlag(Args, "-Wregister") && !hasFlag(Args, "-Werror=register"))
    Extra.push_back("-Wno-register");
  // OpenMP host code: `-fopenmp` when the source includes <omp.h>. The clang
  // driver does not pass it to the device-side compile, where nvcc (whose
  // device pass is preprocessed by the host compiler with `-Xcompiler
  // -fopenmp`) sees `_OPENMP` defined: define it there too, with the value
  // GCC defines.
  bool OpenMP =
      (Env.OpenMP && !hasFlag(Args, "-fno-openmp")) ||
      llvm::any_of(Args, [](const std::string &A) {
        return A == "-fopenmp" || StringRef(A).starts_with("-fopenmp=");
      });
  if (OpenMP && !hasFlag(Args, "-fopenmp"))
    Extra.push_back("-fopenmp");
  bool DeviceOnly = llvm::is_contained(Extra, "--cuda-device-only") ||
                    hasFlag(Args, "--cuda-device-only") ||
                    hasFlag(Args, "--offload-device-only");
  if (OpenMP && DeviceOnly && !llvm::any_of(Args, [](const std::string &A) {
        return StringRef(A).starts_with("-D_OPENMP");
      }))
    Extra.push_back("-D_OPENMP=201511");
  if (!Env.ResourceDir.empty() && !hasFlag(Args, "-resource-dir"))
    Extra.push_back("-resource-dir=" + Env.ResourceDir);

  // `-nocudalib` with a toolkit's headers: it only skips linking libdevice,
  // which an analysis never does, but it also makes clang's device-side
  // compile forget the toolkit's version, so `<<<...>>>` is lowered to the
  // pre-9.2 `cudaConfigureCall` that the toolkit's headers no longer declare
  // and every launch is an error (a kernel then has no launches to analyse).
  // Dropped.
  bool DropNoCudaLib = hasFlag(Args, "--cuda-path") ||
                       (!Env.CudaPath.empty() && !hasFlag(Args, "-nocudainc"));
  std::vector<std::string> Out;
  if (!Args.empty()) {
    Out.push_back(Args.front());
    Out.insert(Out.end(), Extra.begin(), Extra.end());
    for (const std::string &A : Args.drop_front())
      if (!DropNoCudaLib || A != "-nocudalib")
        Out.push_back(A);
  }
  return Out;
}

/// \p Text without its comments (a name in a comment is not a use).
static std::string withoutComments(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0, N = Text.size(); I < N;) {
    if (Text[I] == '"' || Text[I] == '\'') {
      // Copy a string or character literal whole: "//" inside is not a
      // comment.
      char Q = Text[I];
      Out += Text[I++];
      while (I < N && Text[I] != Q && Text[I] != '\n') {
        if (Text[I] == '\\' && I + 1 < N)
          Out += Text[I++];
        Out += Text[I++];
      }
      if (I < N)
        Out += Text[I++];
    } else if (Text.substr(I).starts_with("//")) {
      while (I < N && Text[I] != '\n')
        ++I;
    } else if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == StringRef::npos ? N : End + 2;
      Out += ' ';
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

llvm::ArrayRef<StringRef> removedDevicePropFields() {
  static const StringRef Fields[] = {"clockRate",
                                     "deviceOverlap",
                                     "kernelExecTimeoutEnabled",
                                     "computeMode",
                                     "maxTexture1DLinear",
                                     "memoryClockRate",
                                     "singleToDoublePrecisionPerfRatio",
                                     "cooperativeMultiDeviceLaunch"};
  return Fields;
}

/// Names that only code written for a CUDA toolkit older than 12.0 (or
/// 13.0) uses: the runtime calls, texture- and surface-reference API and
/// launch API that CUDA removed. A source that mentions one outside a
/// comment gets the legacy compatibility header. Texture *object* functions
/// (`tex1Dfetch<float>(obj, i)`) still exist and are not listed; the
/// non-`_sync` warp intrinsics parse without help because clang's CUDA
/// headers still declare them.
bool mentionsRemovedApi(StringRef Source) {
  std::string Stripped = withoutComments(Source);
  StringRef Text = Stripped;
  for (StringRef Name :
       {"cudaThreadSynchronize", "cudaThreadExit", "cudaThreadSetLimit",
        "cudaThreadGetLimit", "cudaThreadSetCacheConfig",
        "cudaThreadGetCacheConfig", "cudaBindTexture", "cudaUnbindTexture",
        "cudaBindSurfaceToArray", "cudaGetTextureReference",
        "cudaGetSurfaceReference", "cudaGetTextureAlignmentOffset",
        "cudaConfigureCall", "cudaSetupArgument", "cudaSetDoubleForDevice",
        "cudaSetDoubleForHost"})
    if (Text.contains(Name))
      return true;
  // Fields CUDA 13.0 removed from cudaDeviceProp, read as `prop.clockRate`
  // or `p->clockRate`.
  for (StringRef Field : removedDevicePropFields()) {
    for (size_t Pos = Text.find(Field); Pos != StringRef::npos;
         Pos = Text.find(Field, Pos + 1)) {
      size_t End = Pos + Field.size();
      if (End < Text.size() && (isAlnum(Text[End]) || Text[End] == '_'))
        continue;
      StringRef Before = Text.substr(0, Pos).rtrim();
      if (Before.ends_with(".") || Before.ends_with("->"))
        return true;
    }
  }
  // `cudaLaunch(` but not `cudaLaunchKernel(` and the other launch calls
  // that still exist.
  if (Text.contains("cudaLaunch(") || Text.contains("cudaLaunch ("))
    return true;
  // Surface references: `surface<void, 2>` used with a surface read or write
  // (surface objects are `cudaSurfaceObject_t`, not a template).
  if ((Text.contains("surface<") || Text.contains("surface <")) &&
      !Text.contains("struct surface") && !Text.contains("class surface"))
    for (StringRef Use : {"surf1Dread", "surf1Dwrite", "surf2Dread",
                          "surf2Dwrite", "surf3Dread", "surf3Dwrite"})
      if (Text.contains(Use))
        return true;
  // `texture<...>` alone may be the program's own class template: only a
  // file that also reads a texture or names a read mode, and defines no
  // `texture` of its own, uses texture references.
  if (!Text.contains("texture<") && !Text.contains("texture <"))
    return false;
  if (Text.contains("struct texture") || Text.contains("class texture"))
    return false;
  for (StringRef Use :
       {"cudaReadMode", "tex1Dfetch(", "tex1D(", "tex2D(", "tex3D("})
    if (Text.contains(Use))
      return true;
  return false;
}

} // namespace cudalint
