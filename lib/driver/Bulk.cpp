//===--- Bulk.cpp - cuda-lint ---------------------------------------------===//
//
// The inputs of bulk runs (Bulk.h): paths, the CUDA sources of a tree and
// their translation units, shards, the changed lines of a diff; and the
// helpers that the other parts share (BulkSupport.h). The findings are in
// BulkFindings.cpp, the fixes in BulkFixPlan.cpp, JSON and SARIF in
// BulkReports.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudalint/driver/Bulk.h"
#include "BulkSupport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <set>

namespace cudalint {

std::string makeAbsolute(StringRef Path, StringRef Base) {
  llvm::SmallString<256> Abs;
  if (!Base.empty() && !path::is_absolute(Path)) {
    Abs = Base;
    path::append(Abs, Path);
  } else {
    Abs = Path;
  }
  fs::make_absolute(Abs);
  path::remove_dots(Abs, true);
  return std::string(Abs);
}

std::string relativeTo(StringRef File, StringRef Root) {
  if (Root.empty())
    return File.str();
  llvm::SmallString<256> Prefix(Root);
  if (!Prefix.ends_with("/"))
    Prefix += "/";
  if (File.starts_with(Prefix))
    return File.drop_front(Prefix.size()).str();
  return File.str();
}

namespace bulk {

std::string readFile(StringRef File, bool &Ok) {
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  Ok = static_cast<bool>(Buf);
  return Ok ? (*Buf)->getBuffer().str() : std::string();
}

std::pair<unsigned, unsigned> offsetToPosition(StringRef Text,
                                               unsigned Offset) {
  unsigned Line = 1, Col = 1;
  Offset = std::min<size_t>(Offset, Text.size());
  for (unsigned I = 0; I < Offset; ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
  }
  return {Line, Col};
}

} // namespace bulk

std::vector<std::string> findCudaSources(StringRef Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (fs::recursive_directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC)) {
    StringRef Name = path::filename(I->path());
    if (Name.starts_with(".") && Name != "." && Name != "..") {
      if (I->type() == fs::file_type::directory_file)
        I.no_push();
      continue;
    }
    StringRef Ext = path::extension(Name);
    if ((Ext == ".cu" || Ext == ".cuh") &&
        I->type() != fs::file_type::directory_file)
      Out.push_back(makeAbsolute(I->path()));
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

std::vector<IncludeDirective> includeDirectives(StringRef Text) {
  std::vector<IncludeDirective> Out;
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.ltrim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("include"))
      continue;
    L = L.ltrim();
    if (L.empty() || (L.front() != '"' && L.front() != '<'))
      continue;
    char Close = L.front() == '"' ? '"' : '>';
    size_t End = L.find(Close, 1);
    if (End == StringRef::npos)
      continue;
    Out.push_back({L.slice(1, End), Close == '"'});
  }
  return Out;
}

bool isCudaHeaderName(StringRef File) {
  return path::extension(File) == ".cuh";
}

/// Length of the common leading directories of two absolute paths (up to
/// and not including the last '/' they share).
static size_t commonDirLength(StringRef A, StringRef B) {
  size_t N = 0, Common = 0;
  while (N < A.size() && N < B.size() && A[N] == B[N]) {
    if (A[N] == '/')
      Common = N;
    ++N;
  }
  return Common;
}

std::vector<std::string> translationUnits(llvm::ArrayRef<std::string> Files,
                                          const IncludeSearch &Search) {
  std::set<std::string> Set(Files.begin(), Files.end());
  if (Set.size() < 2)
    return std::vector<std::string>(Files.begin(), Files.end());
  std::string SuffixRoot =
      Search.SuffixRoot.empty()
          ? std::string()
          : StringRef(makeAbsolute(Search.SuffixRoot)).rtrim('/').str();

  // The files of the set that \p Includer names.
  auto IncludedBy = [&](StringRef Includer) {
    std::vector<std::string> Out;
    bool Ok;
    std::string Text = readFile(Includer, Ok);
    std::vector<std::string> Dirs;
    Dirs.push_back(path::parent_path(Includer).str());
    if (Search.IncludeDirs) {
      std::vector<std::string> More = Search.IncludeDirs(Includer);
      Dirs.insert(Dirs.end(), More.begin(), More.end());
    }
    for (const IncludeDirective &D : includeDirectives(Text)) {
      StringRef Name = D.Name;
      bool Found = false;
      for (const std::string &Dir : Dirs) {
        std::string Candidate = makeAbsolute(Name, Dir);
        if (Candidate != Includer && Set.count(Candidate)) {
          Out.push_back(Candidate);
          Found = true;
          break;
        }
      }
      if (Found || SuffixRoot.empty())
        continue;
      // An include path we were not told: a file of the set whose path ends
      // with the spelled name, nearest to the includer (the longest common
      // directory), and in the same project: below the directory walked,
      // not beside it (a sibling project's file of the same name is no
      // match).
      llvm::SmallString<128> Suffix("/");
      Suffix += Name;
      path::remove_dots(Suffix, true);
      std::vector<std::string> Best;
      size_t BestLen = 0;
      for (const std::string &F : Set) {
        if (F == Includer || !StringRef(F).ends_with(Suffix))
          continue;
        size_t Len = commonDirLength(F, Includer);
        if (Len <= SuffixRoot.size())
          continue;
        if (Len > BestLen)
          Best.clear(), BestLen = Len;
        if (Len == BestLen)
          Best.push_back(F);
      }
      Out.insert(Out.end(), Best.begin(), Best.end());
    }
    return Out;
  };

  std::map<std::string, std::vector<std::string>> Includes;
  std::set<std::string> Included;
  for (const std::string &F : Set) {
    Includes[F] = IncludedBy(F);
    Included.insert(Includes[F].begin(), Includes[F].end());
  }
  // Every file that no other file of the set includes is a translation
  // unit; what it includes, directly or not, is analysed through it.
  std::set<std::string> Covered;
  std::vector<std::string> Work;
  for (const std::string &F : Set)
    if (!Included.count(F))
      Work.push_back(F);
  while (!Work.empty()) {
    std::string F = std::move(Work.back());
    Work.pop_back();
    for (const std::string &H : Includes[F])
      if (Covered.insert(H).second)
        Work.push_back(H);
  }
  std::vector<std::string> Out;
  for (const std::string &F : Files)
    if (!Covered.count(F))
      Out.push_back(F);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

std::string firstSanitizerReport(StringRef Err) {
  llvm::SmallVector<StringRef> Lines;
  Err.split(Lines, '\n');
  for (StringRef L : Lines)
    if (L.contains("ERROR: AddressSanitizer") ||
        L.contains("ERROR: LeakSanitizer") ||
        L.contains("ERROR: MemorySanitizer") ||
        L.contains("WARNING: ThreadSanitizer") ||
        L.contains(": runtime error: ") ||
        L.contains("SUMMARY: UndefinedBehaviorSanitizer"))
      return L.trim().str();
  return "";
}

bool parseShard(StringRef Spec, unsigned &K, unsigned &N) {
  auto [L, R] = Spec.split('/');
  if (L.getAsInteger(10, K) || R.getAsInteger(10, N))
    return false;
  return N >= 1 && K >= 1 && K <= N;
}

std::vector<std::string> selectShard(llvm::ArrayRef<std::string> Files,
                                     unsigned K, unsigned N) {
  std::vector<std::string> Sorted(Files.begin(), Files.end());
  llvm::sort(Sorted);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Sorted.size(); ++I)
    if (I % N == K - 1)
      Out.push_back(Sorted[I]);
  return Out;
}

LineRanges parseUnifiedDiff(StringRef Diff, StringRef Root) {
  LineRanges Out;
  std::string Current;
  llvm::SmallVector<StringRef> Lines;
  Diff.split(Lines, '\n');
  for (StringRef L : Lines) {
    if (L.consume_front("+++ ")) {
      L = L.rtrim("\r\t ");
      if (L == "/dev/null") {
        Current.clear();
        continue;
      }
      L.consume_front("b/");
      Current = makeAbsolute(L, Root);
      continue;
    }
    if (Current.empty() || !L.starts_with("@@ "))
      continue;
    // @@ -a[,b] +c[,d] @@
    size_t Plus = L.find(" +");
    if (Plus == StringRef::npos)
      continue;
    StringRef New = L.drop_front(Plus + 2);
    New = New.take_until([](char C) { return C == ' '; });
    auto [Start, Count] = New.split(',');
    unsigned S = 0, C = 1;
    if (Start.getAsInteger(10, S) ||
        (!Count.empty() && Count.getAsInteger(10, C)))
      continue;
    if (C == 0)
      continue;
    Out[Current].push_back({S, S + C - 1});
  }
  return Out;
}

std::string lineFilterJson(const LineRanges &Ranges) {
  llvm::json::Array Arr;
  for (const auto &[File, Rs] : Ranges) {
    llvm::json::Array Lines;
    for (const auto &[A, B] : Rs)
      Lines.push_back(llvm::json::Array{A, B});
    Arr.push_back(
        llvm::json::Object{{"name", File}, {"lines", std::move(Lines)}});
  }
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::json::Value(std::move(Arr));
  return S;
}

} // namespace cudalint
