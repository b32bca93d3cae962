//===--- BulkFindings.cpp - cuda-lint -------------------------------------===//
//
// The findings of bulk runs (Bulk.h): clang-tidy's exported fixes read
// back, fixes dropped on compile errors, and FindingSet, which keeps one
// report of each location across translation units.
//
//===----------------------------------------------------------------------===//

#include "BulkSupport.h"
#include "cudalint/driver/Bulk.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>

namespace cudalint {

namespace {

/// The file a diagnostic or replacement names, made absolute against the
/// build directory clang-tidy ran in.
std::string diagFile(StringRef FilePath, StringRef BuildDir) {
  if (FilePath.empty())
    return "";
  return makeAbsolute(FilePath, BuildDir);
}

} // namespace

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

} // namespace cudalint
