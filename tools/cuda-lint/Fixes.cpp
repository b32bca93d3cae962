//===--- Fixes.cpp - cuda-lint
//----------------------------------------------===//
//
// The fixes of a run over one file, applied by the driver rather than by
// clang-tidy: read-only files refused, each file written atomically and
// verified to compile, clang-tidy's "FIX-IT applied" notes kept.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "cudalint/analysis/DeviceCode.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using llvm::StringRef;

namespace cudalint {
namespace tool {

void PermissionKeeper::snapshot(llvm::ArrayRef<std::string> Sources) {
  llvm::StringSet<> Dirs;
  for (const std::string &S : Sources)
    Dirs.insert(llvm::sys::path::parent_path(absolute(S)));
  for (const auto &D : Dirs) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(D.getKey(), EC), End;
         It != End && !EC; It.increment(EC)) {
      llvm::ErrorOr<llvm::sys::fs::basic_file_status> St = It->status();
      if (St && St->type() == llvm::sys::fs::file_type::regular_file)
        Modes.emplace_back(It->path(), St->permissions());
    }
  }
}

void PermissionKeeper::restore() const {
  for (const auto &[Path, Perms] : Modes) {
    llvm::ErrorOr<llvm::sys::fs::perms> Now =
        llvm::sys::fs::getPermissions(Path);
    if (Now && *Now != Perms)
      llvm::sys::fs::setPermissions(Path, Perms);
  }
}

/// Rewrites the --export-fixes file \p From into \p To; when the translation
/// unit has compile errors, without the fixes of the checks' findings (only
/// the compiler's own fix-its stay): no fix is offered for code that does
/// not compile. Returns false when \p To cannot be written.
bool exportFixes(StringRef From, StringRef To) {
  auto Buf = llvm::MemoryBuffer::getFile(From);
  if (!Buf)
    return !llvm::sys::fs::exists(From);
  clang::tooling::TranslationUnitDiagnostics TUD;
  {
    llvm::yaml::Input YIn((*Buf)->getBuffer());
    YIn >> TUD;
    if (YIn.error())
      return !llvm::sys::fs::copy_file(From, To);
  }
  cudalint::dropFixesOnCompileErrors(TUD.Diagnostics);
  std::error_code EC;
  llvm::raw_fd_ostream OS(To, EC);
  if (EC) {
    report(To, EC.message());
    return false;
  }
  llvm::yaml::Output YOut(OS);
  YOut << TUD;
  return true;
}

/// Applies the fixes clang-tidy exported to \p YamlFile, as clang-tidy's own
/// --fix would (fixes of compiler errors only with --fix-errors; a note's fix
/// with --fix-notes when the warning has none and exactly one note has one),
/// but refusing files that are not writable and writing each file atomically.
/// Records in \p Applied the diagnostics whose fixes were written. Returns
/// false when a fix could not be applied (reported, naming the file).
bool applyExportedFixes(StringRef YamlFile, bool FixErrors, bool FixNotes,
                        bool Quiet, const std::vector<VerifyUnit> &Units,
                        VerifyKind Verify, AppliedFixes &Applied) {
  std::vector<clang::tooling::Diagnostic> Diags;
  std::string Error;
  if (!llvm::sys::fs::exists(YamlFile))
    return true; // Nothing was found.
  if (!readFixesYaml(YamlFile, Diags, Error)) {
    report(YamlFile, Error);
    return false;
  }
  bool CompileErrors = llvm::any_of(Diags, cudalint::isCompileError);
  if (CompileErrors && !FixErrors) {
    llvm::errs() << "Found compiler errors, but -fix-errors was not "
                    "specified.\nFixes will not be applied.\n";
    return true;
  }
  FindingSet Set;
  for (clang::tooling::Diagnostic D : Diags) {
    // With --fix-errors, the compiler's own fix-its are applied, never a
    // check's: its finding rests on code that does not compile.
    if (CompileErrors && !cudalint::isCompileError(D))
      continue;
    if (D.Message.Fix.empty() && FixNotes) {
      const llvm::StringMap<clang::tooling::Replacements> *Only = nullptr;
      unsigned WithFix = 0;
      for (const clang::tooling::DiagnosticMessage &N : D.Notes)
        if (!N.Fix.empty()) {
          Only = &N.Fix;
          ++WithFix;
        }
      if (WithFix == 1)
        D.Message.Fix = *Only;
    }
    if (!D.Message.Fix.empty())
      Set.add(D);
  }
  std::vector<Finding> Findings = Set.findings();
  FixPlan Plan = planFixes(Findings);
  // Fixes that make the translation unit fail to compile are withdrawn
  // (and lose their "FIX-IT applied" notes: their fixes are cleared).
  std::vector<Withdrawal> Withdrawn =
      verifyFixPlan(Plan, Findings, Units, Verify, 1);
  reportWithdrawals(Withdrawn);
  // Where each applied fix is, computed before any file changes.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> Notes;
  for (const Finding &F : Findings) {
    std::string Key = F.File + ":" + std::to_string(F.Line) + ":" +
                      std::to_string(F.Column) + ":" + F.Diag.DiagnosticName;
    for (const auto &[File, Reps] : F.Diag.Message.Fix)
      for (const clang::tooling::Replacement &R : Reps) {
        auto [L, C] = Set.position(R.getFilePath(), R.getOffset());
        Notes[Key].emplace_back(R.getFilePath().str(),
                                R.getFilePath().str() + ":" +
                                    std::to_string(L) + ":" +
                                    std::to_string(C));
      }
  }
  bool Ok = reportPlanProblems(Plan) && Withdrawn.empty();
  PlanWrite W = writeFixPlan(Plan);
  Ok &= W.Ok;
  const llvm::StringSet<> &Written = W.Written;
  unsigned Edits = W.Edits, Files = W.Written.size();
  // A diagnostic's fix counts as applied when every file it edits was
  // written (an edit that changed nothing, already there, counts too).
  for (auto &[Key, Locs] : Notes) {
    bool All = llvm::all_of(Locs, [&](const auto &L) {
      return Written.contains(L.first) || !Plan.NewContents.count(L.first);
    });
    bool Refused = llvm::any_of(Locs, [&](const auto &L) {
      return llvm::any_of(Plan.Conflicts,
                          [&](const std::string &C) {
                            return StringRef(C).starts_with(L.first + ":");
                          }) ||
             llvm::any_of(Plan.Errors, [&](const std::string &E) {
               return StringRef(E).starts_with(L.first + ":");
             });
    });
    if (All && !Refused)
      for (const auto &L : Locs)
        Applied[Key].push_back(L.second);
  }
  if (!Quiet && Edits)
    llvm::errs() << "cuda-lint: applied " << Edits << " fix"
                 << (Edits == 1 ? "" : "es") << " to " << Files << " file"
                 << (Files == 1 ? "" : "s") << "\n";
  return Ok;
}

/// clang-tidy's output \p Text with a "FIX-IT applied suggested code
/// changes" note after each diagnostic whose fix was applied, where
/// clang-tidy's own --fix prints them (after the diagnostic's source excerpt,
/// before its other notes), so that tools that read them keep working.
std::string addFixItNotes(StringRef Text, const AppliedFixes &Applied) {
  static const llvm::Regex Ansi("\x1b\\[[0-9;]*m");
  static const llvm::Regex Head(
      "^(.+):([0-9]+):([0-9]+): (warning|error|note): .*\\[([^],]+)[],]");
  static const llvm::Regex AnyHead("^.+:[0-9]+:[0-9]+: (warning|error|note): ");
  std::string Out;
  const std::vector<std::string> *Pending = nullptr;
  auto Flush = [&] {
    if (Pending)
      for (const std::string &Loc : *Pending)
        Out += Loc + ": note: FIX-IT applied suggested code changes\n";
    Pending = nullptr;
  };
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  if (!Lines.empty() && Lines.back().empty())
    Lines.pop_back();
  for (StringRef L : Lines) {
    std::string Plain = L.str();
    while (Ansi.match(Plain))
      Plain = Ansi.sub("", Plain);
    llvm::SmallVector<StringRef> M;
    if (AnyHead.match(Plain)) {
      Flush();
      if (Head.match(Plain, &M) && M[4] != "note") {
        auto It = Applied.find(absolute(M[1]) + ":" + M[2].str() + ":" +
                               M[3].str() + ":" + M[5].str());
        if (It != Applied.end())
          Pending = &It->second;
      }
    } else if (Pending && !StringRef(Plain).starts_with(" ")) {
      Flush(); // The end of the excerpt ("N warnings generated.", ...).
    }
    Out += L.str();
    Out += "\n";
  }
  Flush();
  return Out;
}

} // namespace tool
} // namespace cudalint
