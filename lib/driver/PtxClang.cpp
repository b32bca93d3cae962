//===--- PtxClang.cpp - cuda-lint -----------------------------------------===//

#include "cudalint/driver/PtxClang.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualOutputBackend.h"
#include "llvm/Support/VirtualOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

using llvm::StringRef;

namespace cudalint {

namespace {

void initialiseNvptx() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

/// An output of the compiler kept in a string, not written to disk.
class StringOutputFile final
    : public llvm::RTTIExtends<StringOutputFile, llvm::vfs::OutputFileImpl> {
public:
  static char ID;
  explicit StringOutputFile(std::string &Out) : Out(Out), OS(Buffer) {}
  llvm::Error keep() override {
    Out.assign(Buffer.begin(), Buffer.end());
    return llvm::Error::success();
  }
  llvm::Error discard() override { return llvm::Error::success(); }
  llvm::raw_pwrite_stream &getOS() override { return OS; }

private:
  std::string &Out;
  llvm::SmallString<0> Buffer;
  llvm::raw_svector_ostream OS;
};
char StringOutputFile::ID = 0;

/// Every output file of a compilation kept in one string. On disk, Clang
/// would also register the file for removal on a signal, which installs an
/// alternate signal stack in the worker thread (AddressSanitizer then fails
/// to unmap it when the thread ends).
class StringOutputBackend : public llvm::vfs::OutputBackend {
public:
  explicit StringOutputBackend(std::string &Out) : Out(Out) {}

protected:
  llvm::IntrusiveRefCntPtr<llvm::vfs::OutputBackend>
  cloneImpl() const override {
    return llvm::makeIntrusiveRefCnt<StringOutputBackend>(Out);
  }
  llvm::Expected<std::unique_ptr<llvm::vfs::OutputFileImpl>>
  createFileImpl(StringRef, std::optional<llvm::vfs::OutputConfig>) override {
    return std::make_unique<StringOutputFile>(Out);
  }

private:
  std::string &Out;
};

/// Clang's EmitAssemblyAction with its output (the PTX) in \p Out.
class EmitPtxToString : public clang::WrapperFrontendAction {
public:
  explicit EmitPtxToString(std::string &Out)
      : WrapperFrontendAction(std::make_unique<clang::EmitAssemblyAction>()),
        Out(Out) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.setOutputManager(llvm::makeIntrusiveRefCnt<StringOutputBackend>(Out));
    return WrapperFrontendAction::BeginInvocation(CI);
  }

private:
  std::string &Out;
};

} // namespace

std::optional<std::string>
clangPtx(const VerifyUnit &U,
         const std::map<std::string, std::string> &Contents,
         std::string &Error) {
  initialiseNvptx();
  std::vector<std::string> Args = clangSideArgs(U, /*Host=*/false);
  if (Args.empty()) {
    Error = "no compile command";
    return std::nullopt;
  }
  llvm::erase(Args, "-fsyntax-only");
  // The analysis' precompiled prelude was built without -O3: the headers
  // are parsed again.
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-include-pch")
      Args.erase(Args.begin() + I, Args.begin() + I + 2);
  // The device code as nvcc compiles it: optimised whatever the host's -O,
  // without debug information (which changes with every line moved). The
  // output never reaches the disk (EmitPtxToString).
  for (const char *A :
       {"-S", "-O3", "-g0", "-Wno-everything", "-o", "cuda-lint-proof.ptx"})
    Args.push_back(A);
  std::string Out;
  std::vector<std::string> Errors =
      runClang(U, Contents, Args, std::make_unique<EmitPtxToString>(Out));
  if (!Errors.empty()) {
    Error = Errors.front();
    return std::nullopt;
  }
  if (Out.empty()) {
    Error = "the compiler wrote no PTX";
    return std::nullopt;
  }
  return Out;
}

} // namespace cudalint
