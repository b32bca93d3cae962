//===--- NvccCommand.cpp - cuda-lint --------------------------------------===//

#include "cudalint/driver/NvccCommand.h"
#include "BulkSupport.h"
#include "cudalint/driver/Bulk.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace cudalint {

namespace {

/// The nvcc that \p U's command names, as a path; "" when there is none.
std::string nvccProgram(const VerifyUnit &U) {
  if (U.NvccArgs.empty())
    return "";
  StringRef Name = U.NvccArgs.front();
  if (path::has_parent_path(Name)) {
    // A path in the command is the unit directory's, not ours.
    std::string Abs = makeAbsolute(Name, U.Directory);
    return fs::can_execute(Abs) ? Abs : "";
  }
  llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Name);
  return Found ? *Found : "";
}

/// The toolkit directory of the nvcc at \p Nvcc (`/usr/local/cuda-13.0`
/// for `/usr/local/cuda/bin/nvcc`), links resolved.
std::string toolkitRoot(StringRef Nvcc) {
  llvm::SmallString<256> Real;
  if (fs::real_path(path::parent_path(path::parent_path(Nvcc)), Real))
    return "";
  return std::string(Real);
}

/// \p File with links resolved, or as it is.
std::string realPath(StringRef File) {
  llvm::SmallString<256> Real;
  return fs::real_path(File, Real) ? File.str() : std::string(Real);
}

bool isUnder(StringRef File, StringRef Dir) {
  return !Dir.empty() && File.starts_with(Dir) &&
         (File.size() == Dir.size() || path::is_separator(File[Dir.size()]));
}

/// Options that select GPU architectures: `-arch sm_90`, `-arch=sm_90`,
/// `-gencode ...`. Sets \p TakesValue where the value is the next argument.
bool isArchOption(StringRef A, bool &TakesValue) {
  for (StringRef O : {"-arch", "--gpu-architecture", "-gencode",
                      "--generate-code", "-code", "--gpu-code"}) {
    TakesValue = A == O;
    if (TakesValue ||
        (A.starts_with(O) && A.drop_front(O.size()).starts_with("=")))
      return true;
  }
  return false;
}

} // namespace

std::vector<std::string> nvccCommandWithoutOutputs(const VerifyUnit &U) {
  std::vector<std::string> Args;
  for (size_t I = 0; I < U.NvccArgs.size(); ++I) {
    StringRef A = U.NvccArgs[I];
    if (A == "-o" || A == "--output-file" || A == "-MF" || A == "-MT" ||
        A == "-MQ") {
      ++I;
      continue;
    }
    if (A == "-c" || A == "--compile" || A == "-M" || A == "-MM" ||
        A == "-MD" || A == "-MMD" || A == "-MP" || A.starts_with("-o=") ||
        A.starts_with("--output-file="))
      continue;
    Args.push_back(A.str());
  }
  return Args;
}

bool nvccAvailable(const VerifyUnit &U) { return !nvccProgram(U).empty(); }

int runInUnitDirectory(const VerifyUnit &U, llvm::ArrayRef<std::string> Args,
                       std::string &Output) {
  llvm::SmallString<128> Log;
  if (Args.empty() || fs::createTemporaryFile("cuda-lint-nvcc", "txt", Log))
    return -1;
  std::vector<StringRef> Argv{"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"",
                              U.Directory.empty() ? StringRef(".")
                                                  : StringRef(U.Directory)};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log),
                                          StringRef(Log)};
  int RC = llvm::sys::ExecuteAndWait("/bin/sh", Argv, std::nullopt, Redirects);
  bool Read;
  Output = bulk::readFile(Log, Read);
  fs::remove(Log);
  return RC;
}

std::vector<std::string> nvccErrorLines(StringRef Output) {
  std::vector<std::string> Errors;
  llvm::SmallVector<StringRef> Lines;
  Output.split(Lines, '\n');
  for (StringRef L : Lines)
    if ((L.contains("error:") || L.contains("error :") ||
         L.starts_with("nvcc fatal")) &&
        !L.contains("detected in the compilation"))
      Errors.push_back(L.trim().str());
  return Errors;
}

std::optional<std::vector<std::string>> nvccProjectFiles(const VerifyUnit &U,
                                                         std::string &Error) {
  std::string Nvcc = nvccProgram(U);
  std::vector<std::string> Args = nvccCommandWithoutOutputs(U);
  if (Nvcc.empty() || Args.empty()) {
    Error = "no nvcc to run";
    return std::nullopt;
  }
  Args.push_back("-MM");
  std::string Output;
  int RC = runInUnitDirectory(U, Args, Output);
  if (RC != 0) {
    std::vector<std::string> Errors = nvccErrorLines(Output);
    Error = Errors.empty()
                ? "nvcc -MM failed (exit code " + std::to_string(RC) + ")"
                : Errors.front();
    return std::nullopt;
  }
  // `main.o : main.cu \` and one file per line after it.
  std::string Toolkit = toolkitRoot(Nvcc);
  std::set<std::string> Files{U.File};
  for (char &C : Output)
    if (C == '\n' || C == '\t' || C == '\r')
      C = ' ';
  llvm::SmallVector<StringRef> Words;
  StringRef(Output).split(Words, ' ', -1, /*KeepEmpty=*/false);
  bool Target = true;
  for (StringRef W : Words) {
    W = W.trim();
    if (Target) {
      Target = !W.ends_with(":");
      continue;
    }
    if (W.empty() || W == "\\")
      continue;
    std::string Abs = makeAbsolute(W, U.Directory);
    if (!isUnder(realPath(Abs), Toolkit) && fs::is_regular_file(Abs))
      Files.insert(Abs);
  }
  return std::vector<std::string>(Files.begin(), Files.end());
}

namespace {

/// The command compiling \p U's device code to PTX in \p Out, reading the
/// files of \p Mirrored (absolute) from below \p Root.
std::vector<std::string> ptxCommand(const VerifyUnit &U, StringRef Arch,
                                    StringRef Root,
                                    const std::set<std::string> &Mirrored,
                                    StringRef Out) {
  auto InMirror = [&](StringRef P) {
    return Root.str() + makeAbsolute(P, U.Directory);
  };
  std::vector<std::string> Base = nvccCommandWithoutOutputs(U);
  std::vector<std::string> Cmd{nvccProgram(U)};
  for (size_t I = 1; I < Base.size(); ++I) {
    StringRef A = Base[I];
    bool TakesValue = false;
    if (!Arch.empty() && isArchOption(A, TakesValue)) {
      I += TakesValue;
      continue;
    }
    if (A == "-dc" || A == "--device-c") {
      Cmd.push_back("-rdc=true");
      continue;
    }
    if (A == "-ptx" || A == "--ptx" || A == "-cubin" || A == "--cubin" ||
        A == "-fatbin" || A == "--fatbin" || A == "-E" || A == "--preprocess")
      continue;
    // Include directories: the mirror's copy first, then the original.
    bool Handled = false;
    for (StringRef O :
         {"-I", "--include-path", "-isystem", "--system-include"}) {
      if (A == O && I + 1 < Base.size()) {
        std::string Dir = Base[++I];
        for (const std::string &D : {InMirror(Dir), Dir}) {
          Cmd.push_back(O.str());
          Cmd.push_back(D);
        }
        Handled = true;
      } else if (O == "-I" && A.starts_with("-I") && A.size() > 2) {
        Cmd.push_back("-I" + InMirror(A.drop_front(2)));
        Cmd.push_back(A.str());
        Handled = true;
      } else if (A.starts_with(O.str() + "=")) {
        StringRef Dir = A.drop_front(O.size() + 1);
        Cmd.push_back(O.str() + "=" + InMirror(Dir));
        Cmd.push_back(A.str());
        Handled = true;
      }
      if (Handled)
        break;
    }
    if (Handled)
      continue;
    if ((A == "-include" || A == "--pre-include") && I + 1 < Base.size()) {
      std::string File = Base[++I];
      Cmd.push_back(A.str());
      Cmd.push_back(Mirrored.count(makeAbsolute(File, U.Directory))
                        ? InMirror(File)
                        : File);
      continue;
    }
    if (!A.starts_with("-") && makeAbsolute(A, U.Directory) == U.File) {
      Cmd.push_back(InMirror(A));
      continue;
    }
    Cmd.push_back(A.str());
  }
  if (!Arch.empty())
    Cmd.push_back("-arch=" + Arch.str());
  for (StringRef A : {"-ptx", "-o"})
    Cmd.push_back(A.str());
  Cmd.push_back(Out.str());
  return Cmd;
}

} // namespace

std::optional<std::string>
nvccPtx(const VerifyUnit &U, llvm::ArrayRef<std::string> ProjectFiles,
        const std::map<std::string, std::string> &Contents, StringRef Arch,
        std::string &Error) {
  std::set<std::string> Mirrored(ProjectFiles.begin(), ProjectFiles.end());
  for (const auto &[File, Text] : Contents)
    if (!Mirrored.count(File)) {
      Error = File + ": the fix edits a file that nvcc does not read as a "
                     "project file of this translation unit";
      return std::nullopt;
    }
  llvm::SmallString<128> Root;
  if (fs::createUniqueDirectory("cuda-lint-ptx", Root)) {
    Error = "no scratch directory for nvcc";
    return std::nullopt;
  }
  for (const std::string &File : Mirrored) {
    std::string Copy = Root.str().str() + File;
    auto It = Contents.find(File);
    std::error_code EC = fs::create_directories(path::parent_path(Copy));
    if (!EC && It == Contents.end()) {
      EC = fs::copy_file(File, Copy);
    } else if (!EC) {
      llvm::raw_fd_ostream OS(Copy, EC);
      OS << It->second;
    }
    if (EC) {
      Error = File + ": cannot be copied for nvcc: " + EC.message();
      (void)fs::remove_directories(Root);
      return std::nullopt;
    }
  }
  std::string Out = Root.str().str() + "/out.ptx";
  std::string Output;
  int RC =
      runInUnitDirectory(U, ptxCommand(U, Arch, Root, Mirrored, Out), Output);
  std::optional<std::string> Ptx;
  bool Read = false;
  std::string Text = RC == 0 ? bulk::readFile(Out, Read) : std::string();
  if (Read) {
    Ptx = std::move(Text);
  } else {
    std::vector<std::string> Errors = nvccErrorLines(Output);
    Error = Errors.empty()
                ? "nvcc failed (exit code " + std::to_string(RC) + ")"
                : Errors.front();
    // The mirror's paths are the user's files.
    for (size_t P; (P = Error.find(Root.str())) != std::string::npos;)
      Error.erase(P, Root.size());
  }
  (void)fs::remove_directories(Root);
  return Ptx;
}

} // namespace cudalint
