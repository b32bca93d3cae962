//===--- BulkFixPlan.cpp - cuda-lint --------------------------------------===//
//
// The fixes of bulk runs (Bulk.h): the plan of the edits of all findings
// per file, conflicts dropped; writing it (atomically, each file whole) or
// showing it as a unified diff.
//
//===----------------------------------------------------------------------===//

#include "BulkSupport.h"
#include "cudalint/driver/Bulk.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <cerrno>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace cudalint {

namespace {

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

} // namespace

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

} // namespace cudalint
