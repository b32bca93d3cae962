//===--- ClangJob.cpp - cuda-lint as the compiler of one job --------------===//
//
// The clang++ driver turns the command line into its one cc1 job (the CUDA
// device side only: the callers pass --cuda-device-only), which runs here, in
// this process, as the cc1 of the clang executable would run it, with its
// dependency file (-MD -MF) and its list of entered headers (-H) on standard
// error. Only the actions cuda-lint needs are known (-emit-pch,
// -fsyntax-only): the code generators of clang's other actions stay out of
// the executable.
//
//===----------------------------------------------------------------------===//

#include "ClangJob.h"
#include "cudalint/driver/CompileFlags.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace cudalint {
namespace {

/// The frontend action the job's options name, of those cuda-lint needs.
std::unique_ptr<clang::FrontendAction>
createAction(const clang::FrontendOptions &Opts) {
  switch (Opts.ProgramAction) {
  case clang::frontend::GeneratePCH:
    return std::make_unique<clang::GeneratePCHAction>();
  case clang::frontend::ParseSyntaxOnly:
    return std::make_unique<clang::SyntaxOnlyAction>();
  default:
    return nullptr;
  }
}

/// Runs the job's invocation as cc1 does: the frontend action its options
/// name, rather than one the tool picks.
class ExecuteInvocation : public clang::tooling::ToolAction {
public:
  bool
  runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                clang::FileManager *Files,
                std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                clang::DiagnosticConsumer *DiagConsumer) override {
    clang::CompilerInstance Compiler(std::move(Invocation),
                                     std::move(PCHContainerOps));
    Compiler.setVirtualFileSystem(Files->getVirtualFileSystemPtr());
    Compiler.setFileManager(Files);
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager();
    std::unique_ptr<clang::FrontendAction> Action =
        createAction(Compiler.getFrontendOpts());
    if (!Action) {
      llvm::errs() << "cuda-lint: error: --clang-job: only -emit-pch and "
                      "-fsyntax-only jobs are supported\n";
      return false;
    }
    bool Ok = Compiler.ExecuteAction(*Action);
    Files->clearStatCache();
    return Ok && !Compiler.getDiagnostics().hasErrorOccurred();
  }
};

bool hasResourceDir(llvm::ArrayRef<std::string> Args) {
  return llvm::any_of(Args, [](const std::string &A) {
    return llvm::StringRef(A).starts_with("-resource-dir");
  });
}

} // namespace

int runClangJob(const char *Argv0, llvm::ArrayRef<std::string> Args) {
  // Named clang++ (the driver mode of clang++-22), in this executable's
  // directory (where the driver looks for its installation).
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&runClangJob));
  llvm::SmallString<256> Driver(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Driver, "clang++");
  std::vector<std::string> CommandLine{std::string(Driver)};
  if (!hasResourceDir(Args)) {
    std::string ResourceDir = findResourceDir();
    if (!ResourceDir.empty())
      CommandLine.push_back("-resource-dir=" + ResourceDir);
  }
  CommandLine.insert(CommandLine.end(), Args.begin(), Args.end());

  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(new clang::FileManager(
      clang::FileSystemOptions(), llvm::vfs::getRealFileSystem()));
  ExecuteInvocation Action;
  clang::tooling::ToolInvocation Invocation(
      std::move(CommandLine), &Action, Files.get(),
      std::make_shared<clang::PCHContainerOperations>());
  return Invocation.run() ? 0 : 1;
}

} // namespace cudalint
