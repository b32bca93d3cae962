//===--- Bulk.cpp - cuda-lint ---------------------------------------------===//

#include "cudalint/driver/Bulk.h"
#include "cudalint/driver/ImpactNote.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>
#include <cerrno>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

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

namespace {

/// The file a diagnostic or replacement names, made absolute against the
/// build directory clang-tidy ran in.
std::string diagFile(StringRef FilePath, StringRef BuildDir) {
  if (FilePath.empty())
    return "";
  return makeAbsolute(FilePath, BuildDir);
}

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

/// The 1-based column of \p Offset in UTF-16 code units, as SARIF's
/// `columnKind: utf16CodeUnits` wants it (clang counts bytes). A UTF-8 byte
/// order mark is not part of the first line.
/// UTF-16 code units in the UTF-8 bytes [From, To) of \p Text.
unsigned utf16Units(StringRef Text, size_t From, size_t To) {
  unsigned Units = 0;
  for (size_t I = From; I < To && I < Text.size(); ++I) {
    unsigned char C = Text[I];
    if ((C & 0xC0) == 0x80)
      continue; // A continuation byte: counted with its lead byte.
    Units += (C & 0xF8) == 0xF0 ? 2 : 1; // Outside the BMP: a surrogate pair.
  }
  return Units;
}

/// Where the text proper starts: after a UTF-8 byte order mark.
size_t textStart(StringRef Text) {
  return Text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
}

unsigned utf16Column(StringRef Text, unsigned Offset) {
  Offset = std::min<size_t>(Offset, Text.size());
  size_t Start = Offset ? Text.rfind('\n', Offset - 1) : StringRef::npos;
  Start = Start == StringRef::npos ? 0 : Start + 1;
  if (Start == 0)
    Start = std::min<size_t>(textStart(Text), Offset);
  return utf16Units(Text, Start, Offset) + 1;
}

struct Edit {
  unsigned Offset, Length;
  std::string Text;
  std::string Check;
  bool operator<(const Edit &O) const {
    return std::tie(Offset, Length, Text) <
           std::tie(O.Offset, O.Length, O.Text);
  }
  bool sameAs(const Edit &O) const {
    return Offset == O.Offset && Length == O.Length && Text == O.Text;
  }
};

std::string levelName(clang::tooling::Diagnostic::Level L) {
  switch (L) {
  case clang::tooling::Diagnostic::Error:
    return "error";
  case clang::tooling::Diagnostic::Remark:
    return "remark";
  default:
    return "warning";
  }
}

std::string sarifLevel(clang::tooling::Diagnostic::Level L) {
  switch (L) {
  case clang::tooling::Diagnostic::Error:
    return "error";
  case clang::tooling::Diagnostic::Remark:
    return "note";
  default:
    return "warning";
  }
}

/// The first paragraph of docs/checks/<check>.md, joined into one line.
std::string checkDescription(StringRef Check, StringRef DocsDir) {
  if (!DocsDir.empty()) {
    llvm::SmallString<256> Doc(DocsDir);
    path::append(Doc, Check + ".md");
    bool Ok;
    std::string Text = readFile(Doc, Ok);
    if (Ok) {
      llvm::SmallVector<StringRef> Lines;
      StringRef(Text).split(Lines, '\n');
      std::string Para;
      for (StringRef L : Lines) {
        L = L.trim();
        if (L.starts_with("#"))
          continue;
        if (L.empty()) {
          if (!Para.empty())
            break;
          continue;
        }
        if (!Para.empty())
          Para += " ";
        Para += L.str();
      }
      if (!Para.empty())
        return Para;
    }
  }
  if (Check.starts_with("clang-diagnostic-"))
    return "Compiler diagnostic " + Check.drop_front(17).str();
  return "clang-tidy check " + Check.str();
}

llvm::json::Object sarifLocation(StringRef File, unsigned Line, unsigned Col,
                                 StringRef Root) {
  std::string Rel = relativeTo(File, Root);
  llvm::json::Object Artifact;
  if (Rel != File) {
    Artifact["uri"] = Rel;
    Artifact["uriBaseId"] = "%SRCROOT%";
  } else {
    Artifact["uri"] = "file://" + File.str();
  }
  return llvm::json::Object{
      {"physicalLocation",
       llvm::json::Object{
           {"artifactLocation", std::move(Artifact)},
           {"region",
            llvm::json::Object{{"startLine", Line}, {"startColumn", Col}}}}}};
}

} // namespace

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

bool readFixesYaml(StringRef Path, std::vector<clang::tooling::Diagnostic> &Out,
                   std::string &Error) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    Error = Path.str() + ": " + Buf.getError().message();
    return false;
  }
  if ((*Buf)->getBuffer().trim().empty())
    return true;
  clang::tooling::TranslationUnitDiagnostics TUD;
  llvm::yaml::Input YIn((*Buf)->getBuffer());
  YIn >> TUD;
  if (YIn.error()) {
    Error = Path.str() + ": not a clang-tidy fixes file (YAML from "
                         "--export-fixes)";
    return false;
  }
  Out.insert(Out.end(), TUD.Diagnostics.begin(), TUD.Diagnostics.end());
  return true;
}

bool isCompileError(const clang::tooling::Diagnostic &D) {
  return D.DiagLevel == clang::tooling::Diagnostic::Error ||
         StringRef(D.DiagnosticName).starts_with("clang-diagnostic-error");
}

bool dropFixesOnCompileErrors(std::vector<clang::tooling::Diagnostic> &Diags,
                              bool Anyway) {
  if (!Anyway && llvm::none_of(Diags, isCompileError))
    return false;
  for (clang::tooling::Diagnostic &D : Diags) {
    if (isCompileError(D))
      continue;
    D.Message.Fix.clear();
    for (clang::tooling::DiagnosticMessage &N : D.Notes)
      N.Fix.clear();
  }
  return true;
}

bool FindingSet::addYaml(StringRef Path, std::string &Error) {
  std::vector<clang::tooling::Diagnostic> Ds;
  if (!readFixesYaml(Path, Ds, Error))
    return false;
  for (const clang::tooling::Diagnostic &D : Ds)
    add(D, Path);
  return true;
}

/// Whether \p A, reported through translation unit \p UA, is a better
/// report of one location than \p B through \p UB: the one with a fix (the
/// other lacked context: a block shape, a launch), then the one with more
/// notes, then the one from the first translation unit by name, then the
/// first message; so that the choice does not depend on which translation
/// unit finished first.
static bool betterReport(const clang::tooling::Diagnostic &A, StringRef UA,
                         const clang::tooling::Diagnostic &B, StringRef UB) {
  bool FixA = !A.Message.Fix.empty(), FixB = !B.Message.Fix.empty();
  if (FixA != FixB)
    return FixA;
  if (A.Notes.size() != B.Notes.size())
    return A.Notes.size() > B.Notes.size();
  if (UA != UB)
    return UA < UB;
  return A.Message.Message < B.Message.Message;
}

bool FindingSet::add(const clang::tooling::Diagnostic &D, StringRef Unit) {
  clang::tooling::Diagnostic Copy = D;
  // Make every path absolute so that the same header seen from two build
  // directories is one file.
  Copy.Message.FilePath = diagFile(D.Message.FilePath, D.BuildDirectory);
  llvm::StringMap<clang::tooling::Replacements> Fix;
  for (const auto &[File, Reps] : D.Message.Fix) {
    clang::tooling::Replacements Abs;
    for (const clang::tooling::Replacement &R : Reps) {
      std::string F = diagFile(R.getFilePath(), D.BuildDirectory);
      llvm::consumeError(Abs.add(clang::tooling::Replacement(
          F, R.getOffset(), R.getLength(), R.getReplacementText())));
    }
    Fix[diagFile(File, D.BuildDirectory)] = std::move(Abs);
  }
  Copy.Message.Fix = std::move(Fix);
  for (clang::tooling::DiagnosticMessage &N : Copy.Notes)
    N.FilePath = diagFile(N.FilePath, D.BuildDirectory);

  // One location (check, file, offset) is one finding. Reported through two
  // translation units (a shared header, an included .cu file) with two
  // messages (one knew the block shape, the other did not), the better
  // report is kept. Two messages of one translation unit at one place are
  // two findings.
  std::string Key = Copy.DiagnosticName + "\n" + Copy.Message.FilePath + "\n" +
                    std::to_string(Copy.Message.FileOffset);
  std::vector<size_t> &Same = Seen[Key];
  for (size_t I : Same) {
    bool SameMessage = Diags[I].Message.Message == Copy.Message.Message;
    if (!SameMessage && Units[I] == Unit)
      continue;
    if (betterReport(Copy, Unit, Diags[I], Units[I])) {
      Diags[I] = std::move(Copy);
      Units[I] = Unit.str();
    }
    return false;
  }
  Same.push_back(Diags.size());
  Diags.push_back(std::move(Copy));
  Units.push_back(Unit.str());
  return true;
}

std::pair<unsigned, unsigned> FindingSet::position(StringRef File,
                                                   unsigned Offset) const {
  auto It = Contents.find(File.str());
  if (It == Contents.end()) {
    bool Ok;
    It = Contents.emplace(File.str(), readFile(File, Ok)).first;
  }
  return offsetToPosition(It->second, Offset);
}

std::vector<Finding> FindingSet::findings() const {
  std::vector<Finding> Out;
  for (const clang::tooling::Diagnostic &D : Diags) {
    Finding F;
    F.Diag = D;
    F.File = D.Message.FilePath;
    if (!F.File.empty())
      std::tie(F.Line, F.Column) = position(F.File, D.Message.FileOffset);
    Out.push_back(std::move(F));
  }
  llvm::stable_sort(Out, [](const Finding &A, const Finding &B) {
    return std::tie(A.File, A.Diag.Message.FileOffset, A.Diag.DiagnosticName) <
           std::tie(B.File, B.Diag.Message.FileOffset, B.Diag.DiagnosticName);
  });
  return Out;
}

void FindingSet::writeYaml(llvm::raw_ostream &OS, StringRef MainFile) const {
  clang::tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainFile.str();
  for (const Finding &F : findings())
    TUD.Diagnostics.push_back(F.Diag);
  llvm::yaml::Output YOut(OS);
  YOut << TUD;
}

FixPlan planFixes(llvm::ArrayRef<Finding> Findings) {
  FixPlan Plan;
  std::map<std::string, std::vector<Edit>> PerFile;
  for (const Finding &F : Findings)
    for (const auto &[File, Reps] : F.Diag.Message.Fix)
      for (const clang::tooling::Replacement &R : Reps)
        PerFile[R.getFilePath().str()].push_back({R.getOffset(), R.getLength(),
                                                  R.getReplacementText().str(),
                                                  F.Diag.DiagnosticName});

  for (auto &[File, Edits] : PerFile) {
    llvm::sort(Edits);
    std::vector<Edit> Unique;
    for (Edit &E : Edits)
      if (Unique.empty() || !Unique.back().sameAs(E))
        Unique.push_back(std::move(E));
    bool Ok;
    std::string Text = readFile(File, Ok);
    if (!Ok) {
      Plan.Errors.push_back(File + ": cannot be read; its fixes were not "
                                   "applied");
      continue;
    }
    std::string Conflict;
    for (size_t I = 1; I < Unique.size() && Conflict.empty(); ++I) {
      const Edit &A = Unique[I - 1], &B = Unique[I];
      bool Overlap = B.Offset < A.Offset + A.Length ||
                     (B.Offset == A.Offset && A.Length == 0 && B.Length == 0);
      if (!Overlap)
        continue;
      auto [Line, Col] = offsetToPosition(Text, B.Offset);
      Conflict = File + ":" + std::to_string(Line) + ":" + std::to_string(Col) +
                 ": conflicting fixes: " + A.Check + " replaces " +
                 std::to_string(A.Length) + " bytes with '" + A.Text + "', " +
                 B.Check + " replaces " + std::to_string(B.Length) +
                 " bytes with '" + B.Text +
                 "'; no fix was applied to this file";
    }
    if (!Conflict.empty()) {
      Plan.Conflicts.push_back(Conflict);
      continue;
    }
    if (!Unique.empty() &&
        Unique.back().Offset + Unique.back().Length > Text.size()) {
      Plan.Errors.push_back(File + ": a fix lies past the end of the file (it "
                                   "changed since it was analysed); its fixes "
                                   "were not applied");
      continue;
    }
    std::string Out;
    unsigned Pos = 0;
    for (const Edit &E : Unique) {
      Out.append(Text, Pos, E.Offset - Pos);
      Out += E.Text;
      Pos = E.Offset + E.Length;
    }
    Out.append(Text, Pos, std::string::npos);
    if (Out == Text)
      continue;
    Plan.NewContents[File] = std::move(Out);
    Plan.EditCount[File] = Unique.size();
  }
  return Plan;
}

std::optional<std::string> notWritableReason(StringRef File) {
  fs::file_status St;
  if (fs::status(File, St))
    return std::string("no such file");
  if (::access(File.str().c_str(), W_OK) != 0 ||
      (St.permissions() & fs::owner_write) == 0)
    return std::string("is not writable");
  return std::nullopt;
}

bool reportPlanProblems(const FixPlan &Plan) {
  for (const std::string &C : Plan.Conflicts)
    llvm::errs() << "cuda-lint: error: " << C << "\n";
  for (const std::string &E : Plan.Errors)
    llvm::errs() << "cuda-lint: error: " << E << "\n";
  return Plan.Conflicts.empty() && Plan.Errors.empty();
}

PlanWrite writeFixPlan(const FixPlan &Plan) {
  PlanWrite Out;
  for (const auto &[File, Text] : Plan.NewContents) {
    if (std::optional<std::string> Why = notWritableReason(File)) {
      llvm::errs() << "cuda-lint: error: " << File << ": " << *Why
                   << ", so its fixes were not applied; it was left "
                      "unchanged\n";
      Out.Ok = false;
      continue;
    }
    if (std::optional<std::string> Err = writeFileAtomically(File, Text)) {
      llvm::errs() << "cuda-lint: error: " << File
                   << ": cannot write the fixed file (" << *Err
                   << "); it was left unchanged\n";
      Out.Ok = false;
      continue;
    }
    Out.Written.insert(File);
    Out.Edits += Plan.EditCount.at(File);
  }
  return Out;
}

std::optional<std::string> writeFileAtomically(StringRef File, StringRef Text) {
  llvm::SmallString<256> Real;
  if (std::error_code EC = fs::real_path(File, Real))
    return EC.message();
  fs::file_status St;
  if (std::error_code EC = fs::status(Real, St))
    return EC.message();
  llvm::SmallString<256> Model(Real), Temp;
  Model += ".cuda-lint-%%%%%%%%.tmp";
  int FD;
  if (std::error_code EC = fs::createUniqueFile(Model, FD, Temp))
    return "cannot create a temporary file beside it: " + EC.message();
  // The temporary file takes the original's mode (not the umask's) and,
  // when we may, its owner and group.
  (void)::fchmod(FD, static_cast<mode_t>(St.permissions()));
  (void)::fchown(FD, St.getUser(), St.getGroup());
  std::string Error;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.flush();
    if (OS.has_error()) {
      Error = OS.error().message();
      OS.clear_error();
    } else if (::fsync(FD) != 0) {
      Error = std::error_code(errno, std::generic_category()).message();
    }
  }
  if (Error.empty())
    if (std::error_code EC = fs::rename(Temp, Real))
      Error = EC.message();
  if (!Error.empty()) {
    fs::remove(Temp);
    return Error;
  }
  return std::nullopt;
}

std::string unifiedDiff(const FixPlan &Plan, StringRef Root) {
  std::string Result;
  auto Diff = llvm::sys::findProgramByName("diff");
  if (!Diff)
    return "cuda-lint: error: no 'diff' program on PATH\n";
  for (const auto &[File, New] : Plan.NewContents) {
    llvm::SmallString<128> NewFile, OutFile;
    int FD;
    if (fs::createTemporaryFile("cuda-lint-new", "", FD, NewFile))
      continue;
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << New;
    }
    fs::createTemporaryFile("cuda-lint-diff", "", OutFile);
    std::string Rel = relativeTo(File, Root);
    std::string LA = "a/" + Rel, LB = "b/" + Rel;
    llvm::SmallVector<StringRef> Args{*Diff,     "-u", "--label", LA,
                                      "--label", LB,   File,      NewFile};
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(OutFile),
                                            std::nullopt};
    llvm::sys::ExecuteAndWait(*Diff, Args, std::nullopt, Redirects);
    bool Ok;
    Result += readFile(OutFile, Ok);
    fs::remove(NewFile);
    fs::remove(OutFile);
  }
  return Result;
}

std::string checkDocsUrl(StringRef Check) {
  if (Check.starts_with("cuda-"))
    return (llvm::Twine(CUDA_LINT_DOCS_URL) + Check + ".md").str();
  if (Check.starts_with("clang-diagnostic-"))
    return "https://clang.llvm.org/docs/DiagnosticsReference.html";
  auto [Module, Name] = Check.split('-');
  return ("https://clang.llvm.org/extra/clang-tidy/checks/" + Module + "/" +
          Name + ".html")
      .str();
}

std::string toSarif(llvm::ArrayRef<Finding> Findings,
                    llvm::ArrayRef<Failure> Failures, StringRef Root,
                    StringRef DocsDir, llvm::ArrayRef<Failure> WithErrors) {
  std::map<std::string, unsigned> RuleIndex;
  llvm::json::Array Rules, Results;
  for (const Finding &F : Findings) {
    const std::string &Check = F.Diag.DiagnosticName;
    auto [It, New] = RuleIndex.emplace(Check, Rules.size());
    if (New) {
      std::string Desc = checkDescription(Check, DocsDir);
      Rules.push_back(llvm::json::Object{
          {"id", Check},
          {"name", Check},
          {"shortDescription", llvm::json::Object{{"text", Desc}}},
          {"fullDescription", llvm::json::Object{{"text", Desc}}},
          {"helpUri", checkDocsUrl(Check)},
          {"help",
           llvm::json::Object{{"text", Desc + " See " + checkDocsUrl(Check)}}},
          {"defaultConfiguration",
           llvm::json::Object{{"level", sarifLevel(F.Diag.DiagLevel)}}}});
    }
    llvm::json::Object R{
        {"ruleId", Check},
        {"ruleIndex", It->second},
        {"level", sarifLevel(F.Diag.DiagLevel)},
        {"message", llvm::json::Object{{"text", F.Diag.Message.Message}}}};
    if (!F.File.empty()) {
      bool Ok;
      std::string Text = readFile(F.File, Ok);
      R["locations"] = llvm::json::Array{sarifLocation(
          F.File, F.Line, utf16Column(Text, F.Diag.Message.FileOffset), Root)};
    }
    // The impact estimate: SARIF's rank (0-100) and a property.
    if (std::optional<ImpactNote> I = findingImpact(F.Diag)) {
      R["rank"] = I->Rank;
      R["properties"] = llvm::json::Object{{"impact", I->toJson()}};
    }
    llvm::json::Array Related;
    for (const clang::tooling::DiagnosticMessage &N : F.Diag.Notes) {
      if (N.FilePath.empty() || isImpactNote(N))
        continue;
      // Positions of notes come from the same file contents.
      bool Ok;
      std::string Text = readFile(N.FilePath, Ok);
      unsigned L = offsetToPosition(Text, N.FileOffset).first;
      llvm::json::Object Loc =
          sarifLocation(N.FilePath, L, utf16Column(Text, N.FileOffset), Root);
      Loc["message"] = llvm::json::Object{{"text", N.Message}};
      Related.push_back(std::move(Loc));
    }
    if (!Related.empty())
      R["relatedLocations"] = std::move(Related);
    llvm::json::Array Changes;
    for (const auto &[File, Reps] : F.Diag.Message.Fix) {
      bool Ok;
      std::string Text = readFile(File, Ok);
      llvm::json::Array Replacements;
      for (const clang::tooling::Replacement &Rep : Reps) {
        unsigned SL = offsetToPosition(Text, Rep.getOffset()).first;
        unsigned EL =
            offsetToPosition(Text, Rep.getOffset() + Rep.getLength()).first;
        unsigned SC = utf16Column(Text, Rep.getOffset());
        unsigned EC = utf16Column(Text, Rep.getOffset() + Rep.getLength());
        Replacements.push_back(llvm::json::Object{
            {"deletedRegion",
             llvm::json::Object{
                 {"startLine", SL},
                 {"startColumn", SC},
                 {"endLine", EL},
                 {"endColumn", EC},
                 {"charOffset",
                  utf16Units(Text, textStart(Text), Rep.getOffset())},
                 {"charLength",
                  utf16Units(Text, Rep.getOffset(),
                             Rep.getOffset() + Rep.getLength())}}},
            {"insertedContent",
             llvm::json::Object{{"text", Rep.getReplacementText()}}}});
      }
      if (Replacements.empty())
        continue;
      std::string Rel = relativeTo(File, Root);
      llvm::json::Object Artifact;
      if (Rel != File) {
        Artifact["uri"] = Rel;
        Artifact["uriBaseId"] = "%SRCROOT%";
      } else {
        Artifact["uri"] = ("file://" + File).str();
      }
      Changes.push_back(
          llvm::json::Object{{"artifactLocation", std::move(Artifact)},
                             {"replacements", std::move(Replacements)}});
    }
    if (!Changes.empty())
      R["fixes"] = llvm::json::Array{llvm::json::Object{
          {"description",
           llvm::json::Object{{"text", "Apply the fix of " + Check}}},
          {"artifactChanges", std::move(Changes)}}};
    Results.push_back(std::move(R));
  }

  llvm::json::Array Notifications;
  for (const Failure &F : Failures)
    Notifications.push_back(llvm::json::Object{
        {"level", "error"},
        {"message", llvm::json::Object{{"text", F.File + ": " + F.Reason}}}});
  for (const Failure &F : WithErrors)
    Notifications.push_back(llvm::json::Object{
        {"level", "warning"},
        {"message",
         llvm::json::Object{
             {"text", F.File + ": analysed with errors: " + F.Reason}}}});

  llvm::SmallString<256> RootUri("file://");
  RootUri += Root;
  if (!RootUri.ends_with("/"))
    RootUri += "/";
  llvm::json::Object Run{
      {"tool",
       llvm::json::Object{
           {"driver", llvm::json::Object{{"name", "cuda-lint"},
                                         {"informationUri", CUDA_LINT_INFO_URL},
                                         {"version", CUDA_LINT_VERSION},
                                         {"rules", std::move(Rules)}}}}},
      {"originalUriBaseIds",
       llvm::json::Object{
           {"%SRCROOT%", llvm::json::Object{{"uri", std::string(RootUri)}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"results", std::move(Results)},
      {"invocations",
       llvm::json::Array{llvm::json::Object{
           {"executionSuccessful", Failures.empty()},
           {"toolExecutionNotifications", std::move(Notifications)}}}}};
  llvm::json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", llvm::json::Array{std::move(Run)}}};
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
  return S;
}

std::optional<std::string> mergeSarif(llvm::ArrayRef<std::string> Logs,
                                      std::string &Error) {
  llvm::json::Array Rules, Results, Notifications;
  std::map<std::string, unsigned> RuleIndex;
  std::set<std::string> SeenResults;
  std::optional<llvm::json::Object> Base;
  bool Successful = true;
  for (const std::string &File : Logs) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Error = File + ": " + Buf.getError().message();
      return std::nullopt;
    }
    llvm::Expected<llvm::json::Value> V =
        llvm::json::parse((*Buf)->getBuffer());
    if (!V) {
      Error = File + ": not JSON: " + llvm::toString(V.takeError());
      return std::nullopt;
    }
    llvm::json::Object *Log = V->getAsObject();
    llvm::json::Array *Runs = Log ? Log->getArray("runs") : nullptr;
    if (!Runs) {
      Error = File + ": not a SARIF log (no runs)";
      return std::nullopt;
    }
    for (llvm::json::Value &RunV : *Runs) {
      llvm::json::Object *Run = RunV.getAsObject();
      if (!Run)
        continue;
      if (!Base)
        Base = *Run;
      std::vector<std::string> LocalIds;
      if (auto *Tool = Run->getObject("tool"))
        if (auto *Driver = Tool->getObject("driver"))
          if (auto *Rs = Driver->getArray("rules"))
            for (llvm::json::Value &R : *Rs) {
              auto *RO = R.getAsObject();
              std::string Id = RO && RO->getString("id")
                                   ? RO->getString("id")->str()
                                   : std::string();
              LocalIds.push_back(Id);
              if (RuleIndex.emplace(Id, Rules.size()).second)
                Rules.push_back(R);
            }
      if (auto *Rs = Run->getArray("results"))
        for (llvm::json::Value &R : *Rs) {
          auto *RO = R.getAsObject();
          if (!RO)
            continue;
          if (auto Id = RO->getString("ruleId");
              Id && RuleIndex.count(Id->str()))
            (*RO)["ruleIndex"] = RuleIndex[Id->str()];
          std::string Key;
          llvm::raw_string_ostream KS(Key);
          KS << R;
          if (SeenResults.insert(Key).second)
            Results.push_back(R);
        }
      if (auto *Inv = Run->getArray("invocations"))
        for (llvm::json::Value &I : *Inv)
          if (auto *IO = I.getAsObject()) {
            if (auto S = IO->getBoolean("executionSuccessful"); S && !*S)
              Successful = false;
            if (auto *Ns = IO->getArray("toolExecutionNotifications"))
              for (llvm::json::Value &N : *Ns)
                Notifications.push_back(N);
          }
    }
  }
  if (!Base) {
    Error = "no SARIF run to merge";
    return std::nullopt;
  }
  llvm::json::Object Run = std::move(*Base);
  if (auto *Tool = Run.getObject("tool"))
    if (auto *Driver = Tool->getObject("driver"))
      (*Driver)["rules"] = std::move(Rules);
  Run["results"] = std::move(Results);
  Run["invocations"] = llvm::json::Array{llvm::json::Object{
      {"executionSuccessful", Successful},
      {"toolExecutionNotifications", std::move(Notifications)}}};
  llvm::json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", llvm::json::Array{std::move(Run)}}};
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
  return S;
}

std::string toJson(llvm::ArrayRef<Finding> Findings,
                   llvm::ArrayRef<Failure> Failures,
                   llvm::ArrayRef<Failure> WithErrors,
                   llvm::ArrayRef<Failure> Sanitizer) {
  llvm::json::Array Fs;
  std::map<std::string, unsigned> PerCheck;
  for (const Finding &F : Findings) {
    ++PerCheck[F.Diag.DiagnosticName];
    llvm::json::Array Fixes;
    for (const auto &[File, Reps] : F.Diag.Message.Fix) {
      bool Ok;
      std::string Text = readFile(File, Ok);
      for (const clang::tooling::Replacement &R : Reps) {
        auto [L, C] = offsetToPosition(Text, R.getOffset());
        Fixes.push_back(
            llvm::json::Object{{"file", File},
                               {"offset", R.getOffset()},
                               {"length", R.getLength()},
                               {"line", L},
                               {"column", C},
                               {"replacement", R.getReplacementText()}});
      }
    }
    llvm::json::Array Notes;
    for (const clang::tooling::DiagnosticMessage &N : F.Diag.Notes) {
      if (isImpactNote(N))
        continue; // Its own field.
      bool Ok;
      std::string Text = readFile(N.FilePath, Ok);
      auto [L, C] = offsetToPosition(Text, N.FileOffset);
      Notes.push_back(llvm::json::Object{{"file", N.FilePath},
                                         {"line", L},
                                         {"column", C},
                                         {"message", N.Message}});
    }
    Fs.push_back(llvm::json::Object{{"check", F.Diag.DiagnosticName},
                                    {"level", levelName(F.Diag.DiagLevel)},
                                    {"message", F.Diag.Message.Message},
                                    {"file", F.File},
                                    {"line", F.Line},
                                    {"column", F.Column},
                                    {"offset", F.Diag.Message.FileOffset},
                                    {"fixes", std::move(Fixes)},
                                    {"notes", std::move(Notes)}});
    if (std::optional<ImpactNote> I = findingImpact(F.Diag))
      (*Fs.back().getAsObject())["impact"] = I->toJson();
  }
  llvm::json::Array Fails;
  for (const Failure &F : Failures)
    Fails.push_back(llvm::json::Object{{"file", F.File}, {"reason", F.Reason}});
  llvm::json::Array Errs, Sans;
  for (const Failure &F : WithErrors)
    Errs.push_back(llvm::json::Object{{"file", F.File}, {"error", F.Reason}});
  for (const Failure &F : Sanitizer)
    Sans.push_back(llvm::json::Object{{"file", F.File}, {"report", F.Reason}});
  llvm::json::Object Counts;
  for (const auto &[C, N] : PerCheck)
    Counts[C] = N;
  llvm::json::Object Doc{{"version", 1},
                         {"tool", "cuda-lint"},
                         {"findings", std::move(Fs)},
                         {"failures", std::move(Fails)},
                         {"analysedWithErrors", std::move(Errs)},
                         {"sanitizerReports", std::move(Sans)},
                         {"findingsPerCheck", std::move(Counts)}};
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  return S;
}

} // namespace cudalint
