//===--- CudaLintFuzzer.cpp - libFuzzer target for every cuda-lint check --===//
//
// Runs all cuda-* checks, with their fixes, on mutated CUDA sources (seeded
// from the test inputs and examples). Beyond "no crash, no sanitizer
// report", it checks the property --fix promises: when the input compiles,
// the fixed input still compiles.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "cudalint/driver/CompileFlags.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace clang;

namespace {

const char *const InputPath = "/cuda-lint-fuzz/input.cu";

const std::vector<std::string> &compileArgs() {
  static std::vector<std::string> Args = [] {
    cudalint::CudaEnvironment Env;
    Env.ResourceDir = cudalint::findResourceDir();
    if (auto Cuda = cudalint::findCudaPath(""))
      Env.CudaPath = *Cuda;
    std::vector<std::string> Cmd = cudalint::addCudaDefaults(
        {"clang++", "-x", "cuda", InputPath}, Env, false);
    if (auto Pch = cudalint::preludePch(Cmd, InputPath, "", Env)) {
      Cmd.push_back("-include-pch");
      Cmd.push_back(*Pch);
    }
    std::vector<std::string> Flags;
    for (size_t I = 1; I < Cmd.size(); ++I)
      if (Cmd[I] != InputPath)
        Flags.push_back(Cmd[I]);
    return Flags;
  }();
  return Args;
}

/// The flags with the legacy compatibility header, as the driver adds it
/// for code that names an API CUDA 12 removed, so that the checks for such
/// code (cuda-legacy-*, texture references) are reachable.
const std::vector<std::string> &legacyCompileArgs() {
  static std::vector<std::string> Args = [] {
    std::vector<std::string> Flags = compileArgs();
    llvm::SmallString<256> Legacy(cudalint::findShareDir("cuda-lint-fuzzer"));
    llvm::sys::path::append(Legacy, "include", "cuda_lint_legacy.h");
    if (cudalint::findCudaPath("") && llvm::sys::fs::exists(Legacy))
      Flags.push_back("-include" + std::string(Legacy));
    return Flags;
  }();
  return Args;
}

/// Lints \p Code; returns the diagnostics.
std::vector<tidy::ClangTidyError> lint(llvm::StringRef Code) {
  tidy::ClangTidyOptions Opts = tidy::ClangTidyOptions::getDefaults();
  Opts.Checks = "-*,cuda-*";
  tidy::ClangTidyContext Context(std::make_unique<tidy::DefaultOptionsProvider>(
      tidy::ClangTidyGlobalOptions(), Opts));
  tooling::FixedCompilationDatabase Db(".", cudalint::mentionsRemovedApi(Code)
                                                ? legacyCompileArgs()
                                                : compileArgs());
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Mem->addFile(InputPath, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  Overlay->pushOverlay(Mem);
  return tidy::runClangTidy(Context, Db, {InputPath}, Overlay,
                            /*ApplyAnyFix=*/true, false, "", /*Quiet=*/true);
}

bool hasCompileError(const std::vector<tidy::ClangTidyError> &Errors) {
  for (const tidy::ClangTidyError &E : Errors)
    if (E.DiagnosticName == "clang-diagnostic-error" ||
        E.DiagLevel == tidy::ClangTidyError::Error)
      return true;
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 64 * 1024)
    return 0;
  std::string Code(reinterpret_cast<const char *>(Data), Size);
  std::vector<tidy::ClangTidyError> Errors = lint(Code);
  if (hasCompileError(Errors))
    return 0; // Fixes are not applied to code that does not compile.

  // Apply every fix that does not conflict with one already taken, as
  // clang-tidy --fix does.
  tooling::Replacements All;
  for (const tidy::ClangTidyError &E : Errors) {
    auto It = E.Message.Fix.find(InputPath);
    if (It == E.Message.Fix.end())
      continue;
    tooling::Replacements Merged = All;
    bool Conflict = false;
    for (const tooling::Replacement &R : It->second)
      if (llvm::Error Err = Merged.add(R)) {
        llvm::consumeError(std::move(Err));
        Conflict = true;
        break;
      }
    if (!Conflict)
      All = std::move(Merged);
  }
  if (All.empty())
    return 0;
  llvm::Expected<std::string> Fixed = tooling::applyAllReplacements(Code, All);
  if (!Fixed) {
    llvm::errs() << "fix could not be applied: "
                 << llvm::toString(Fixed.takeError()) << "\n";
    std::abort();
  }
  std::vector<tidy::ClangTidyError> After = lint(*Fixed);
  if (hasCompileError(After)) {
    llvm::errs() << "--fix broke a file that compiled. Fixed source:\n"
                 << *Fixed << "\n";
    for (const tidy::ClangTidyError &E : After)
      llvm::errs() << E.DiagnosticName << ": " << E.Message.Message << "\n";
    std::abort();
  }
  return 0;
}
