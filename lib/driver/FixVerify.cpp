//===--- FixVerify.cpp - cuda-lint ----------------------------------------===//

#include "cudalint/driver/FixVerify.h"
#include "BulkSupport.h"
#include "cudalint/driver/NvccCommand.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/PCHContainerOperations.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using llvm::StringRef;
namespace fs = llvm::sys::fs;

namespace cudalint {

using Contents = std::map<std::string, std::string>;

std::optional<VerifyKind> parseVerifyKind(StringRef Value) {
  if (Value == "none")
    return VerifyKind::None;
  if (Value == "clang")
    return VerifyKind::Clang;
  if (Value == "nvcc")
    return VerifyKind::Nvcc;
  return std::nullopt;
}

std::string unitToJson(const VerifyUnit &U) {
  llvm::json::Array Clang, Nvcc, Files;
  for (const std::string &A : U.ClangArgs)
    Clang.push_back(A);
  for (const std::string &A : U.NvccArgs)
    Nvcc.push_back(A);
  for (const std::string &F : U.Files)
    Files.push_back(F);
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::json::Value(llvm::json::Object{{"file", U.File},
                                             {"directory", U.Directory},
                                             {"clang", std::move(Clang)},
                                             {"nvcc", std::move(Nvcc)},
                                             {"files", std::move(Files)}});
  return S;
}

std::optional<VerifyUnit> unitFromJson(StringRef Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || !O->getString("file") || !O->getString("directory"))
    return std::nullopt;
  VerifyUnit U;
  U.File = O->getString("file")->str();
  U.Directory = O->getString("directory")->str();
  auto Strings = [&](StringRef Key, auto Add) {
    if (const llvm::json::Array *A = O->getArray(Key))
      for (const llvm::json::Value &E : *A)
        if (std::optional<StringRef> S = E.getAsString())
          Add(S->str());
  };
  Strings("clang", [&](std::string S) { U.ClangArgs.push_back(S); });
  Strings("nvcc", [&](std::string S) { U.NvccArgs.push_back(S); });
  Strings("files", [&](std::string S) { U.Files.insert(S); });
  if (U.ClangArgs.empty())
    return std::nullopt;
  return U;
}

namespace {

/// Collects the errors of one compilation as `file:line:col: message`.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  std::vector<std::string> Errors;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Where;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      clang::PresumedLoc P =
          SM.getPresumedLoc(SM.getFileLoc(Info.getLocation()));
      if (P.isValid())
        Where = std::string(P.getFilename()) + ":" +
                std::to_string(P.getLine()) + ":" +
                std::to_string(P.getColumn()) + ": ";
    }
    Errors.push_back(Where + std::string(Msg));
  }
};

} // namespace

std::vector<std::string> clangSideArgs(const VerifyUnit &U, bool Host) {
  std::vector<std::string> Out;
  bool HasSide = false;
  for (size_t I = 0; I < U.ClangArgs.size(); ++I) {
    StringRef A = U.ClangArgs[I];
    bool Device = A == "--cuda-device-only" || A == "--offload-device-only";
    bool HostOnly = A == "--cuda-host-only" || A == "--offload-host-only";
    HasSide |= Device || HostOnly;
    if (A == "-include-pch" && !Host && I + 1 < U.ClangArgs.size()) {
      // A fix to a header that the include prefix's PCH holds makes it out
      // of date: the prelude's instead, and the headers parsed again.
      Out.push_back(A.str());
      Out.push_back(basePch(U.ClangArgs[++I]));
      continue;
    }
    if (Host) {
      if (A == "-include-pch") {
        ++I;
        continue;
      }
      if (Device) {
        Out.push_back("--cuda-host-only");
        continue;
      }
    } else if (HostOnly) {
      Out.push_back("--cuda-device-only");
      continue;
    }
    Out.push_back(A.str());
  }
  if (Out.empty())
    return Out;
  if (!HasSide)
    Out.insert(Out.begin() + 1,
               Host ? "--cuda-host-only" : "--cuda-device-only");
  // Every error, and no "N errors generated" line on stderr.
  Out.insert(Out.begin() + 1, "-ferror-limit=0");
  Out.insert(Out.begin() + 1, "-fno-caret-diagnostics");
  const std::string &File = U.File;
  Out = clang::tooling::getClangStripOutputAdjuster()(Out, File);
  Out = clang::tooling::getClangStripDependencyFileAdjuster()(Out, File);
  Out = clang::tooling::getClangSyntaxOnlyAdjuster()(Out, File);
  return Out;
}

namespace {

/// The files as \p U sees them, with \p Contents (absolute path -> text) in
/// place of those on disk, from the unit's directory.
llvm::IntrusiveRefCntPtr<clang::FileManager>
overlayFiles(const VerifyUnit &U,
             const std::map<std::string, std::string> &Contents) {
  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[F, Text] : Contents)
    Mem->addFile(F, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, F));
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
          llvm::vfs::createPhysicalFileSystem().release()));
  Overlay->pushOverlay(Mem);
  if (!U.Directory.empty())
    (void)Overlay->setCurrentWorkingDirectory(U.Directory);
  return llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), Overlay);
}

} // namespace

std::vector<std::string>
runClang(const VerifyUnit &U,
         const std::map<std::string, std::string> &Contents,
         const std::vector<std::string> &Args,
         std::unique_ptr<clang::FrontendAction> Action) {
  auto Files = overlayFiles(U, Contents);
  ErrorCollector Collector;
  clang::tooling::ToolInvocation Inv(
      Args, std::move(Action), Files.get(),
      std::make_shared<clang::PCHContainerOperations>());
  Inv.setDiagnosticConsumer(&Collector);
  if (!Inv.run() && Collector.Errors.empty())
    Collector.Errors.push_back("the compiler could not be run");
  return std::move(Collector.Errors);
}

namespace {

std::vector<std::string>
clangErrors(const VerifyUnit &U, bool Host,
            const std::map<std::string, std::string> &Contents) {
  return runClang(U, Contents, clangSideArgs(U, Host),
                  std::make_unique<clang::SyntaxOnlyAction>());
}

/// nvcc, with the files of \p Contents written in place for the compile
/// (atomically) and put back right after.
std::vector<std::string>
nvccErrors(const VerifyUnit &U,
           const std::map<std::string, std::string> &Contents) {
  std::vector<std::string> Args = nvccCommandWithoutOutputs(U);
  if (Args.empty())
    return {"no nvcc command"};
  Args.push_back("-c");
  Args.push_back("-o");
  Args.push_back("/dev/null");
  std::map<std::string, std::string> Originals;
  std::vector<std::string> Errors;
  for (const auto &[F, Text] : Contents) {
    bool Read;
    Originals[F] = bulk::readFile(F, Read);
    if (std::optional<std::string> E = writeFileAtomically(F, Text))
      Errors.push_back(F + ": cannot be written for nvcc: " + *E);
  }
  if (Errors.empty()) {
    std::string Output;
    int RC = runInUnitDirectory(U, Args, Output);
    if (RC != -1) {
      Errors = nvccErrorLines(Output);
      if (RC != 0 && Errors.empty())
        Errors.push_back("nvcc failed (exit code " + std::to_string(RC) + ")");
    }
  }
  for (const auto &[F, Text] : Originals)
    (void)writeFileAtomically(F, Text);
  return Errors;
}

/// An error without its position, to compare errors before and after.
std::string errorKey(StringRef Error) {
  static const llvm::Regex Pos(":[0-9]+:[0-9]+:|\\([0-9]+\\)|:[0-9]+:");
  std::string S = Error.str();
  while (Pos.match(S))
    S = Pos.sub(":", S);
  return S;
}

/// The first error of \p After that \p Before does not have (as many
/// times), or "".
std::string firstNewError(const std::vector<std::string> &Before,
                          const std::vector<std::string> &After) {
  std::map<std::string, int> Count;
  for (const std::string &E : Before)
    ++Count[errorKey(E)];
  for (const std::string &E : After)
    if (--Count[errorKey(E)] < 0)
      return E;
  return "";
}

} // namespace

Contents unitContents(const VerifyUnit &U, llvm::ArrayRef<Finding> Subset) {
  FixPlan P = planFixes(Subset);
  Contents Out;
  for (auto &[F, Text] : P.NewContents)
    if (F == U.File || U.Files.count(F))
      Out[F] = std::move(Text);
  return Out;
}

namespace {

uint64_t signature(const Contents &C) {
  std::string S;
  for (const auto &[F, Text] : C)
    S += F + '\0' + Text + '\0';
  return llvm::xxh3_64bits(S);
}

struct UnitResult {
  bool Ran = false;
  bool Ok = true;
  uint64_t Signature = 0;
  /// Finding index -> the first new error its fix causes.
  std::vector<std::pair<size_t, std::string>> Culprits;
};

/// Compiles \p U with the active fixes; when it has new errors, finds the
/// culprits by bisection over the fixes that touch its files.
UnitResult verifyUnit(const VerifyUnit &U, llvm::ArrayRef<Finding> Findings,
                      const std::vector<bool> &Active, VerifyKind Kind,
                      std::optional<uint64_t> VerifiedOk) {
  UnitResult R;
  // A unit whose compile command is not nvcc's is compiled with clang.
  if (Kind == VerifyKind::Nvcc && U.NvccArgs.empty())
    Kind = VerifyKind::Clang;
  std::vector<size_t> Cands;
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (!Active[I])
      continue;
    for (const auto &[File, Reps] : Findings[I].Diag.Message.Fix)
      if (!Reps.empty() && (File == U.File || U.Files.count(File.str()))) {
        Cands.push_back(I);
        break;
      }
  }
  auto Pick = [&](size_t N) {
    std::vector<Finding> Sub;
    for (size_t I = 0; I < N; ++I)
      Sub.push_back(Findings[Cands[I]]);
    return unitContents(U, Sub);
  };
  Contents All = Pick(Cands.size());
  R.Signature = signature(All);
  // Nothing changes here, or already verified with these very contents.
  if (All.empty() || R.Signature == VerifiedOk)
    return R;
  R.Ran = true;
  for (bool Host : {false, true}) {
    if (Host && Kind == VerifyKind::Nvcc)
      break;
    auto Compile = [&](const Contents &C) {
      return Kind == VerifyKind::Nvcc ? nvccErrors(U, C)
                                      : clangErrors(U, Host, C);
    };
    std::vector<std::string> After = Compile(All);
    if (After.empty())
      continue;
    std::vector<std::string> Before = Compile({});
    std::string First = firstNewError(Before, After);
    while (!First.empty()) {
      R.Ok = false;
      // The shortest prefix of the candidates that fails: its last fix is a
      // culprit. The empty prefix (the original files) never does.
      size_t Lo = 0, Hi = Cands.size();
      std::string HiError = First;
      while (Hi - Lo > 1) {
        size_t Mid = Lo + (Hi - Lo) / 2;
        std::string E = firstNewError(Before, Compile(Pick(Mid)));
        if (E.empty()) {
          Lo = Mid;
        } else {
          Hi = Mid;
          HiError = E;
        }
      }
      R.Culprits.emplace_back(Cands[Hi - 1], HiError);
      Cands.erase(Cands.begin() + (Hi - 1));
      All = Pick(Cands.size());
      First = All.empty() ? "" : firstNewError(Before, Compile(All));
    }
  }
  return R;
}

} // namespace

std::vector<std::string> compileErrors(const VerifyUnit &Unit, VerifyKind Kind,
                                       bool Host, const Contents &C) {
  return Kind == VerifyKind::Nvcc ? nvccErrors(Unit, C)
                                  : clangErrors(Unit, Host, C);
}

std::vector<Withdrawal> verifyFixPlan(FixPlan &Plan,
                                      std::vector<Finding> &Findings,
                                      llvm::ArrayRef<VerifyUnit> Units,
                                      VerifyKind Kind, unsigned Jobs) {
  std::vector<Withdrawal> Out;
  if (Kind == VerifyKind::None || Plan.NewContents.empty() || Units.empty())
    return Out;
  // One unit analysed on its own (`cuda-lint --fix main.cu`): every fix
  // comes from it, in the file or in what it includes (myocyte's kernels,
  // included through work.cu). Without this, fixes only in included files
  // touched no unit and were written unverified.
  std::vector<VerifyUnit> Own;
  if (Units.size() == 1 && Units.front().Files.empty()) {
    Own.push_back(Units.front());
    for (const auto &[F, Text] : Plan.NewContents)
      Own.front().Files.insert(F);
    Units = Own;
  }
  // nvcc reads the files from disk: one unit at a time.
  if (Kind == VerifyKind::Nvcc)
    Jobs = 1;
  std::vector<bool> Active(Findings.size(), true);
  std::vector<std::optional<uint64_t>> VerifiedOk(Units.size());
  std::map<size_t, std::string> Withdrawn;
  for (unsigned Round = 0; Round < 32; ++Round) {
    std::vector<UnitResult> Results(Units.size());
    {
      llvm::DefaultThreadPool Pool(
          llvm::hardware_concurrency(std::max(1u, Jobs)));
      for (size_t U = 0; U < Units.size(); ++U) {
        bool Touched = Plan.NewContents.count(Units[U].File);
        for (const std::string &F : Units[U].Files)
          Touched |= Plan.NewContents.count(F) != 0;
        if (!Touched)
          continue;
        Pool.async([&, U] {
          Results[U] =
              verifyUnit(Units[U], Findings, Active, Kind, VerifiedOk[U]);
        });
      }
      Pool.wait();
    }
    bool Changed = false;
    for (size_t U = 0; U < Units.size(); ++U) {
      UnitResult &R = Results[U];
      if (R.Ran && R.Ok)
        VerifiedOk[U] = R.Signature;
      for (const auto &[I, Error] : R.Culprits)
        if (Active[I]) {
          Active[I] = false;
          Withdrawn[I] = Error;
          Changed = true;
        }
    }
    if (!Changed)
      break;
    for (const auto &[I, Error] : Withdrawn)
      Findings[I].Diag.Message.Fix.clear();
    // Withdrawals change shared files: the next round verifies again the
    // units whose files changed since they were verified.
    Plan = planFixes(Findings);
  }
  for (const auto &[I, Error] : Withdrawn) {
    const Finding &F = Findings[I];
    Out.push_back(
        {F.File + ":" + std::to_string(F.Line) + ":" + std::to_string(F.Column),
         F.Diag.DiagnosticName, Error});
  }
  return Out;
}

void reportWithdrawals(llvm::ArrayRef<Withdrawal> Withdrawn) {
  for (const Withdrawal &W : Withdrawn)
    llvm::errs() << "cuda-lint: error: " << W.Where
                 << ": fix withdrawn: it makes the file fail to compile: "
                 << W.Error << " [" << W.Check << "]\n";
}

} // namespace cudalint
