//===--- Database.cpp - cuda-lint
//-------------------------------------------===//
//
// Compile databases written for nvcc (or for clang without CUDA set up)
// rewritten into ones clang-tidy's CUDA front end accepts, and the pre-scan of
// the sources (removed APIs, OpenMP).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/driver/PrecompiledPrelude.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using llvm::StringRef;

namespace cudalint {
namespace tool {

TempDatabase::~TempDatabase() {
  if (!File.empty())
    llvm::sys::fs::remove(File);
  if (!Dir.empty())
    llvm::sys::fs::remove(Dir);
}

/// Rewrite \p DbFile for clang into \p Temp. Every named source must be in
/// it and compiled as CUDA. A database found by searching upwards rather
/// than given with -p (\p Explicit false) that lacks a source is not used:
/// returns false.
bool rewriteDatabase(StringRef DbFile, llvm::ArrayRef<std::string> Sources,
                     const CudaEnvironment &Env, TempDatabase &Temp,
                     bool Explicit, bool UsePch,
                     llvm::ArrayRef<std::string> PreludeIncludes) {
  std::string Error;
  if (auto Buf = llvm::MemoryBuffer::getFile(DbFile)) {
    if (llvm::Expected<llvm::json::Value> V =
            llvm::json::parse((*Buf)->getBuffer());
        !V)
      fail(DbFile, "invalid JSON: " + llvm::toString(V.takeError()));
  } else {
    fail(DbFile, "cannot be read: " + Buf.getError().message());
  }
  std::vector<clang::tooling::CompileCommand> Inferred;
  std::unique_ptr<clang::tooling::JSONCompilationDatabase> Db =
      clang::tooling::JSONCompilationDatabase::loadFromFile(
          DbFile, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Db)
    fail(DbFile, "invalid compile database: " +
                     StringRef(Error).split('\n').first.trim());
  std::vector<clang::tooling::CompileCommand> All = Db->getAllCompileCommands();
  // The commands that compile the named sources: only they get a
  // precompiled prelude. Building one for every command of the database
  // (one per directory) made each file of a bulk run pay for all of them;
  // with a cold cache the first files ran past the timeout.
  std::set<std::pair<std::string, std::string>> Used;
  for (const std::string &Source : Sources) {
    std::vector<clang::tooling::CompileCommand> Cmds =
        Db->getCompileCommands(absolute(Source));
    for (const clang::tooling::CompileCommand &C : Cmds)
      Used.insert({C.Directory, C.Filename});
    // A header has no command of its own: it is analysed with the command
    // of the CUDA source nearest to it (the longest common directory), as
    // clangd does, with -x cuda.
    if (Cmds.empty() && isHeaderName(Source)) {
      std::string Abs = absolute(Source);
      const clang::tooling::CompileCommand *Best = nullptr;
      size_t BestLen = 0;
      for (const clang::tooling::CompileCommand &C : All) {
        std::string F = absoluteIn(C.Filename, C.Directory);
        if (!isCudaCommand(C.CommandLine, F))
          continue;
        size_t Len = commonDirLength(Abs, F);
        if (!Best || Len > BestLen) {
          Best = &C;
          BestLen = Len;
        }
      }
      if (Best) {
        clang::tooling::CompileCommand C = *Best;
        std::string F = absoluteIn(C.Filename, C.Directory);
        for (std::string &A : C.CommandLine)
          if (A == C.Filename || A == F)
            A = Abs;
        C.Filename = Abs;
        Used.insert({C.Directory, C.Filename});
        Cmds.push_back(C);
        Inferred.push_back(std::move(C));
      }
    }
    if (Cmds.empty() && !Explicit)
      return false;
    if (Cmds.empty())
      fail(Source, "has no compile command in " + DbFile);
    if (!isCudaCommand(Cmds.front().CommandLine, Source))
      fail(Source, "is not compiled as CUDA in " + DbFile +
                       " (expected nvcc, -x cuda or a .cu file)");
  }

  llvm::json::Array Out;
  llvm::StringSet<> Dropped;
  All.insert(All.end(), Inferred.begin(), Inferred.end());
  for (const clang::tooling::CompileCommand &Cmd : All) {
    std::vector<std::string> Args = Cmd.CommandLine;
    if (!Args.empty() && isNvccCompiler(Args.front()))
      Args = translateNvccCommand(Args, Cmd.Directory, nullptr);
    std::vector<std::string> Unknown;
    Args = dropUnknownClangFlags(Args, &Unknown);
    for (const std::string &U : Unknown)
      Dropped.insert(U);
    if (isCudaCommand(Args, Cmd.Filename)) {
      StringRef Ext = llvm::sys::path::extension(Cmd.Filename);
      Args = addCudaDefaults(Args, Env, Ext == ".cuh" || Ext == ".h");
      if (UsePch &&
          (Sources.empty() || Used.count({Cmd.Directory, Cmd.Filename})))
        if (std::optional<std::string> Pch = preludePch(
                Args, Cmd.Filename, Cmd.Directory, Env, PreludeIncludes)) {
          Args.insert(Args.begin() + 1, *Pch);
          Args.insert(Args.begin() + 1, "-include-pch");
          // One source: its own include prefix (a bulk run's child, a
          // pre-commit hook, the launcher). Several sources share one
          // clang-tidy call, and each would build a PCH for one file.
          if (Sources.size() == 1) {
            bool UserHeaders = false;
            if (std::optional<std::string> Prefix =
                    prefixPch(Args, Cmd.Filename, Cmd.Directory,
                              prefixPchPolicy(), &UserHeaders)) {
              Args[2] = *Prefix;
              clang::tidy::cuda::setUserHeadersPrecompiled(UserHeaders);
            }
          }
        }
    }
    llvm::json::Array JArgs;
    for (std::string &A : Args)
      JArgs.push_back(std::move(A));
    Out.push_back(llvm::json::Object{{"directory", Cmd.Directory},
                                     {"file", Cmd.Filename},
                                     {"arguments", std::move(JArgs)},
                                     {"output", Cmd.Output}});
  }
  if (!Dropped.empty()) {
    llvm::errs() << "cuda-lint: warning: " << DbFile
                 << ": ignoring flags clang does not know:";
    for (const auto &D : Dropped)
      llvm::errs() << " " << D.getKey();
    llvm::errs() << "\n";
  }

  if (llvm::sys::fs::createUniqueDirectory("cuda-lint-db", Temp.Dir))
    fail(DbFile, "cannot create a temporary directory for the rewritten "
                 "compile database");
  Temp.File = Temp.Dir;
  llvm::sys::path::append(Temp.File, "compile_commands.json");
  llvm::sys::RemoveFileOnSignal(Temp.File);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Temp.File, EC);
  if (EC)
    fail(Temp.File, EC.message());
  OS << llvm::json::Value(std::move(Out));
  return true;
}

/// Scans the source \p Path and the headers it includes with quotes (found
/// beside the including file, followed transitively up to 64 files): legacy
/// code often keeps its `cudaThreadSynchronize()` or texture references in a
/// project header, and OpenMP code its `#include <omp.h>`.
SourceScan scanSource(StringRef Path) {
  SourceScan Scan;
  llvm::SmallVector<std::string, 8> Work{Path.str()};
  llvm::StringSet<> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    std::string File = Work.pop_back_val();
    if (!Seen.insert(File).second)
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    StringRef Text = (*Buf)->getBuffer();
    Scan.RemovedApi |= cudalint::mentionsRemovedApi(Text);
    StringRef Dir = llvm::sys::path::parent_path(File);
    for (const cudalint::IncludeDirective &D :
         cudalint::includeDirectives(Text)) {
      Scan.OpenMP |= D.Name == "omp.h";
      if (!D.Quoted || D.Name.empty())
        continue;
      llvm::SmallString<256> Inc(Dir);
      llvm::sys::path::append(Inc, D.Name);
      if (llvm::sys::fs::is_regular_file(Inc))
        Work.push_back(std::string(Inc));
    }
  }
  return Scan;
}

} // namespace tool
} // namespace cudalint
