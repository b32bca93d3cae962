//===--- BulkReport.cpp - cuda-lint bulk reports --------------------------===//
//
// The reports of a bulk run (see BulkReport.h).
//
//===----------------------------------------------------------------------===//

#include "BulkReport.h"
#include "cudalint/analysis/Impact.h"
#include "cudalint/driver/Baseline.h"
#include "cudalint/driver/CompileFlags.h"
#include "cudalint/driver/FixVerify.h"
#include "cudalint/driver/ImpactNote.h"
#include "cudalint/driver/PtxProof.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <thread>

using llvm::StringRef;

namespace cudalint {

namespace {

[[noreturn]] void fatal(const llvm::Twine &Msg) {
  llvm::errs() << "cuda-lint: error: " << Msg << "\n";
  std::exit(1);
}

bool isSarifFile(StringRef File) {
  if (File.ends_with(".sarif"))
    return true;
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true,
                                         /*RequiresNullTerminator=*/false);
  return Buf && (*Buf)->getBuffer().ltrim().starts_with("{");
}

} // namespace

/// clang-tidy's text output with the diagnostics already printed (a shared
/// header's finding, seen from another translation unit) left out. A
/// diagnostic is its `file:line:col: warning|error: ...` line and what
/// follows it up to the next such line (source excerpt, notes).
std::string dedupeText(StringRef Text, llvm::StringSet<> &Printed,
                       const llvm::StringMap<std::string> &Chosen,
                       const llvm::StringSet<> *Suppressed, StringRef BaseDir) {
  static const llvm::Regex Head(
      "^(.+):([0-9]+):([0-9]+): (warning|error): (.*)$");
  static const llvm::Regex Check(" \\[([^],]+)(,[^]]*)?\\]$");
  std::string Out;
  bool Keep = true;
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  if (!Lines.empty() && Lines.back().empty())
    Lines.pop_back();
  for (StringRef L : Lines) {
    llvm::SmallVector<StringRef> M, C;
    if (Head.match(L, &M)) {
      std::string Where =
          makeAbsolute(M[1]) + ":" + M[2].str() + ":" + M[3].str() + ":";
      Keep = Printed.insert(Where + M[5].str()).second;
      // A location reported with several messages (through several
      // translation units): only the report the merge kept.
      if (Keep && Check.match(M[5], &C)) {
        StringRef Message = M[5].drop_back(C[0].size());
        auto It = Chosen.find(Where + C[1].str());
        if (It != Chosen.end() && It->second != Message)
          Keep = false;
        // A finding the baseline records.
        // The child names files as its compile command does: relative to
        // the command's directory, \p BaseDir.
        std::string InBase = Where;
        if (!BaseDir.empty() && !llvm::sys::path::is_absolute(M[1])) {
          llvm::SmallString<256> P(BaseDir);
          llvm::sys::path::append(P, M[1]);
          InBase = makeAbsolute(P) + ":" + M[2].str() + ":" + M[3].str() + ":";
        }
        if (Suppressed && (Suppressed->contains(Where + C[1].str()) ||
                           Suppressed->contains(InBase + C[1].str())))
          Keep = false;
      }
    }
    if (Keep) {
      Out += L.str();
      Out += "\n";
    }
  }
  return Out;
}

bool writeOutput(StringRef Output, StringRef Text) {
  if (Output.empty() || Output == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC);
  if (EC) {
    llvm::errs() << "cuda-lint: error: " << Output << ": " << EC.message()
                 << "\n";
    return false;
  }
  OS << Text;
  return true;
}

/// Reports, fixes and diffs from merged findings. Returns false on an error
/// (a conflict, an unwritable file).
bool emit(const BulkOptions &Opts, const FindingSet &Set,
          std::vector<Finding> Findings, const std::vector<Failure> &Failures,
          const std::vector<Failure> &WithErrors,
          const std::vector<Failure> &Sanitizer, StringRef Root,
          llvm::ArrayRef<VerifyUnit> Units) {
  bool Ok = true;
  if (Opts.Format == "sarif")
    Ok &= writeOutput(Opts.Output, toSarif(Findings, Failures, Root,
                                           findDocsDir(nullptr), WithErrors));
  else if (Opts.Format == "json")
    Ok &= writeOutput(Opts.Output,
                      toJson(Findings, Failures, WithErrors, Sanitizer));

  if (!Opts.ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Opts.ExportFixes, EC);
    if (EC) {
      llvm::errs() << "cuda-lint: error: " << Opts.ExportFixes << ": "
                   << EC.message() << "\n";
      Ok = false;
    } else {
      Set.writeYaml(OS);
    }
  }

  if (!Opts.Fix && !Opts.Diff)
    return Ok;
  FixPlan Plan = planFixes(Findings);
  if (Opts.Fix && Opts.Verify != VerifyKind::None) {
    if (Units.empty() && !Plan.NewContents.empty())
      llvm::errs() << "cuda-lint: warning: the fixes are not verified: no "
                      "compile commands for them (--verify=none to say so)\n";
    std::vector<Withdrawal> Withdrawn = verifyFixPlan(
        Plan, Findings, Units, Opts.Verify,
        Opts.Jobs ? Opts.Jobs : std::thread::hardware_concurrency());
    reportWithdrawals(Withdrawn);
    Ok &= Withdrawn.empty();
  }
  Ok &= reportPlanProblems(Plan);
  if (Opts.Diff) {
    llvm::outs() << unifiedDiff(Plan, Root);
    llvm::outs().flush();
  }
  if (Opts.Fix) {
    PlanWrite W = writeFixPlan(Plan);
    Ok &= W.Ok;
    unsigned Edits = W.Edits, Files = W.Written.size();
    llvm::errs() << "cuda-lint: applied " << Edits << " fix"
                 << (Edits == 1 ? "" : "es") << " to " << Files << " file"
                 << (Files == 1 ? "" : "s") << "\n";
  }
  return Ok;
}

int runMerge(const BulkOptions &Opts, StringRef Root) {
  if (Opts.Inputs.empty())
    fatal("--merge needs the fixes (.yaml) or SARIF (.sarif) files to merge");
  bool AllSarif = llvm::all_of(Opts.Inputs, isSarifFile);
  bool AnySarif = llvm::any_of(Opts.Inputs, isSarifFile);
  if (AnySarif && !AllSarif)
    fatal("--merge takes either fixes files or SARIF logs, not both");
  if (AllSarif) {
    if (Opts.Fix || Opts.Diff)
      fatal("--fix and --diff need fixes files (--export-fixes), not SARIF");
    std::string Error;
    std::optional<std::string> Merged = mergeSarif(Opts.Inputs, Error);
    if (!Merged)
      fatal(Error);
    return writeOutput(Opts.Output, *Merged) ? 0 : 1;
  }
  FindingSet Set;
  for (const std::string &In : Opts.Inputs) {
    std::string Error;
    if (!Set.addYaml(In, Error))
      fatal(Error);
  }
  std::vector<Finding> Findings = Set.findings();
  if (Opts.Format == "text")
    for (const Finding &F : Findings)
      llvm::outs() << F.File << ":" << F.Line << ":" << F.Column << ": "
                   << (F.Diag.DiagLevel == clang::tooling::Diagnostic::Error
                           ? "error"
                           : "warning")
                   << ": " << F.Diag.Message.Message << " ["
                   << F.Diag.DiagnosticName << "]\n";
  return emit(Opts, Set, Findings, {}, {}, {}, Root, {}) ? 0 : 1;
}

bool applyBaseline(const BulkOptions &Opts, std::vector<Finding> &Findings,
                   llvm::StringSet<> &Suppressed) {
  Baseline B(Opts.Baseline);
  std::string Error;
  if (Opts.WriteBaseline ? !B.write(Findings, Error) : !B.load(Error)) {
    llvm::errs() << "cuda-lint: error: " << Error << "\n";
    return false;
  }
  std::vector<Finding> Removed;
  unsigned N = B.filter(Findings, &Removed);
  for (const Finding &F : Removed)
    Suppressed.insert(makeAbsolute(F.File) + ":" + std::to_string(F.Line) +
                      ":" + std::to_string(F.Column) + ":" +
                      F.Diag.DiagnosticName);
  if (!Opts.Quiet) {
    if (Opts.WriteBaseline)
      llvm::errs() << "cuda-lint: baseline: recorded " << B.size() << " finding"
                   << (B.size() == 1 ? "" : "s") << " in " << Opts.Baseline
                   << "\n";
    llvm::errs() << "cuda-lint: baseline: " << N << " finding"
                 << (N == 1 ? "" : "s") << " in " << Opts.Baseline
                 << " not reported\n";
  }
  return true;
}

namespace {

/// The `ptx:` note --prove=ptx gave \p F, if any.
const clang::tooling::DiagnosticMessage *proofNote(const Finding &F) {
  for (const clang::tooling::DiagnosticMessage &N : F.Diag.Notes)
    if (StringRef(N.Message).starts_with("ptx: "))
      return &N;
  return nullptr;
}

} // namespace

std::vector<Finding> proveFixes(const BulkOptions &Opts,
                                std::vector<Finding> &Findings,
                                llvm::ArrayRef<VerifyUnit> Units,
                                unsigned Jobs) {
  PtxProofStats Stats = provePtx(Findings, Units, Jobs, Opts.ProveBackend);
  using clang::tidy::cuda::Impact;
  Impact::Level Threshold =
      Impact::parseLevel(Opts.MinImpact).value_or(Impact::Medium);
  std::vector<Finding> Proven;
  unsigned Hidden = 0;
  llvm::erase_if(Findings, [&](const Finding &F) {
    if (!proofNote(F))
      return false;
    Proven.push_back(F);
    std::optional<ImpactNote> I = findingImpact(F.Diag);
    bool Hide =
        I && Impact::parseLevel(I->Level).value_or(Impact::Low) < Threshold;
    Hidden += Hide;
    return Hide;
  });
  if (!Opts.Quiet)
    llvm::errs() << "cuda-lint: ptx proof: "
                 << Stats.Identical + Stats.NonCoherentOnly + Stats.Changed +
                        Stats.NotCompiled
                 << " fixes compiled; " << Stats.Identical
                 << " change no instruction, " << Stats.NonCoherentOnly
                 << " only make loads ld.global.nc, " << Stats.Changed
                 << " change the PTX, " << Stats.NotCompiled
                 << " did not compile"
                 << (Stats.FirstError.empty() ? "" : " (first: ")
                 << Stats.FirstError << (Stats.FirstError.empty() ? "" : ")")
                 << "; " << Hidden << " finding" << (Hidden == 1 ? "" : "s")
                 << " now ranked below --min-impact hidden\n";
  return Proven;
}

void printProofNotes(llvm::ArrayRef<Finding> Proven) {
  for (const Finding &F : Proven) {
    const clang::tooling::DiagnosticMessage *N = proofNote(F);
    if (!N)
      continue;
    std::string Where = F.File + ":" + std::to_string(F.Line) + ":" +
                        std::to_string(F.Column) + ": note: ";
    llvm::outs() << Where << N->Message << " [" << F.Diag.DiagnosticName
                 << "]\n";
    if (std::optional<ImpactNote> I = findingImpact(F.Diag))
      llvm::outs() << Where << I->toMessage() << "\n";
  }
}

} // namespace cudalint
