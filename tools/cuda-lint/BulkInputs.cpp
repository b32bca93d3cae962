//===--- BulkInputs.cpp - cuda-lint bulk runs -----------------------------===//
//
// The translation units of a bulk run from a compile database (see
// BulkInputs.h).
//
//===----------------------------------------------------------------------===//

#include "BulkInputs.h"
#include "cudalint/driver/Bulk.h"
#include "cudalint/driver/CompileFlags.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using llvm::StringRef;
namespace path = llvm::sys::path;

namespace cudalint {

namespace {

[[noreturn]] void fatal(const llvm::Twine &Msg) {
  llvm::errs() << "cuda-lint: error: " << Msg << "\n";
  std::exit(1);
}

} // namespace

/// The include directories a compile command names (`-I`, `-isystem`,
/// `-iquote`, `-idirafter`, nvcc's `--include-path`), absolute against
/// \p Directory.
std::vector<std::string> includeDirsOf(llvm::ArrayRef<std::string> Args,
                                       StringRef Directory) {
  std::vector<std::string> Out;
  auto Add = [&](StringRef Dir) {
    if (Dir.empty())
      return;
    llvm::SmallString<256> Abs;
    if (path::is_absolute(Dir)) {
      Abs = Dir;
    } else {
      Abs = Directory.empty() ? StringRef(makeAbsolute(".")) : Directory;
      path::append(Abs, Dir);
    }
    Out.push_back(makeAbsolute(Abs));
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    for (StringRef Flag :
         {"--include-path", "-isystem", "-iquote", "-idirafter", "-I"}) {
      if (!A.starts_with(Flag))
        continue;
      StringRef Rest = A.drop_front(Flag.size());
      if (Rest.empty()) {
        if (I + 1 < Args.size())
          Add(Args[++I]);
      } else {
        Rest.consume_front("=");
        Add(Rest);
      }
      break;
    }
  }
  return Out;
}

/// The translation units of the compile database in \p BuildPath: its CUDA
/// sources, less those another one includes (counted in \p Included); the
/// other entries are counted in \p NonCuda.
std::vector<std::string> databaseFiles(StringRef BuildPath, unsigned &NonCuda,
                                       unsigned &Included) {
  llvm::SmallString<256> Dir(BuildPath);
  if (path::filename(Dir) == "compile_commands.json")
    Dir = path::parent_path(BuildPath);
  std::string Error;
  llvm::SmallString<256> File(Dir);
  path::append(File, "compile_commands.json");
  if (auto Buf = llvm::MemoryBuffer::getFile(File)) {
    if (llvm::Expected<llvm::json::Value> V =
            llvm::json::parse((*Buf)->getBuffer());
        !V)
      fatal(File + ": invalid JSON: " + llvm::toString(V.takeError()));
  }
  auto Db = clang::tooling::JSONCompilationDatabase::autoDetectFromDirectory(
      Dir, Error);
  if (!Db)
    fatal(Dir + ": no usable compile database: " +
          StringRef(Error).split('\n').first);
  std::vector<std::string> Files;
  llvm::StringSet<> Seen;
  std::map<std::string, std::vector<std::string>> IncludeDirs;
  for (const clang::tooling::CompileCommand &C : Db->getAllCompileCommands()) {
    llvm::SmallString<256> F(C.Filename);
    if (!path::is_absolute(F)) {
      F = C.Directory;
      path::append(F, C.Filename);
    }
    path::remove_dots(F, true);
    if (!Seen.insert(F).second)
      continue;
    if (!isCudaCommand(C.CommandLine, F)) {
      ++NonCuda;
      continue;
    }
    Files.push_back(std::string(F));
    IncludeDirs[Files.back()] = includeDirsOf(C.CommandLine, C.Directory);
  }
  llvm::sort(Files);
  // A source that another entry's source includes (a `.cu` file that
  // `#include "kernel.cu"` pulls in, which the database may also list as
  // its own entry) is analysed through its includer, not alone.
  IncludeSearch Search;
  Search.IncludeDirs = [&](StringRef File) {
    auto It = IncludeDirs.find(File.str());
    return It == IncludeDirs.end() ? std::vector<std::string>() : It->second;
  };
  std::vector<std::string> Units = translationUnits(Files, Search);
  Included = Files.size() - Units.size();
  return Units;
}

} // namespace cudalint
