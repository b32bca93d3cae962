//===--- PtxProof.cpp - cuda-lint -----------------------------------------===//

#include "cudalint/driver/PtxProof.h"
#include "cudalint/driver/ImpactNote.h"
#include "cudalint/driver/NvccCommand.h"
#include "cudalint/driver/PtxClang.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ThreadPool.h"
#include <mutex>

using llvm::StringRef;

namespace cudalint {

namespace {

/// The GPU architecture \p U compiles for, as its flags say ("" when they
/// do not).
std::string gpuArch(const VerifyUnit &U) {
  for (StringRef A : llvm::reverse(U.ClangArgs))
    for (StringRef Flag : {"--cuda-gpu-arch=", "--offload-arch="})
      if (A.starts_with(Flag))
        return A.drop_front(Flag.size()).str();
  return "";
}

} // namespace

std::optional<PtxBackend> parseProveValue(StringRef Value) {
  if (Value == "ptx")
    return PtxBackend::Auto;
  if (Value == "ptx-clang")
    return PtxBackend::Clang;
  if (Value == "ptx-nvcc")
    return PtxBackend::Nvcc;
  return std::nullopt;
}

bool isDeviceCodeFixCheck(StringRef Check) {
  return llvm::is_contained(
      llvm::ArrayRef<StringRef>{
          "cuda-double-promotion", "cuda-integer-division",
          "cuda-missing-restrict", "cuda-shared-bank-conflict",
          "cuda-uncoalesced-access", "cuda-local-memory-array",
          "cuda-constant-divergent-access"},
      Check);
}

namespace {

struct Verdict {
  enum Kind {
    NotRun,
    NotCompiled,
    Identical,
    NonCoherentOnly,
    Changed
  } K = NotRun;
  std::string Change; ///< describeChange, for Changed.
  std::string Error;  ///< The first compile error, for NotCompiled.
};

/// How one unit is compiled to PTX: by its own nvcc command (in a scratch
/// mirror of its project files) or by Clang in process.
struct UnitCompiler {
  const VerifyUnit *U = nullptr;
  bool Nvcc = false;
  /// --prove=ptx: nvcc where it can be run and compiles the unit, else
  /// Clang.
  bool Auto = false;
  std::string Arch;                      ///< gpuArch
  std::vector<std::string> ProjectFiles; ///< nvccProjectFiles, for nvcc.

  UnitCompiler(const VerifyUnit &Unit, PtxBackend Backend)
      : U(&Unit), Nvcc(Backend == PtxBackend::Nvcc ||
                       (Backend == PtxBackend::Auto && nvccAvailable(Unit))),
        Auto(Backend == PtxBackend::Auto), Arch(gpuArch(Unit)) {}

  /// The unit's PTX without any fix; for nvcc, first the project files it
  /// reads. With Auto, a unit that nvcc does not compile as its command
  /// stands (flags in Clang's spelling after `--`, say) is compiled with
  /// Clang from then on.
  std::optional<std::string> baseline(std::string &Error) {
    if (Nvcc) {
      if (std::optional<std::string> Ptx = nvccBaseline(Error); Ptx || !Auto)
        return Ptx;
      Nvcc = false;
      Error.clear();
    }
    return ptx({}, Error);
  }

  /// baseline() with nvcc.
  std::optional<std::string> nvccBaseline(std::string &Error) {
    if (!nvccAvailable(*U)) {
      Error = "no nvcc command to run for this translation unit";
      return std::nullopt;
    }
    std::optional<std::vector<std::string>> Files = nvccProjectFiles(*U, Error);
    if (!Files)
      return std::nullopt;
    ProjectFiles = std::move(*Files);
    return ptx({}, Error);
  }

  std::optional<std::string> ptx(const std::map<std::string, std::string> &C,
                                 std::string &Error) const {
    return Nvcc ? nvccPtx(*U, ProjectFiles, C, Arch, Error)
                : clangPtx(*U, C, Error);
  }

  /// Which compiler, for the notes.
  std::string where() const {
    std::string A = Arch.empty() ? "the default architecture" : Arch;
    return Nvcc ? "nvcc -ptx, " + A : "Clang's NVPTX back end, " + A + ", -O3";
  }
};

/// The unit that sees \p F's file and every file its fix edits.
const VerifyUnit *unitFor(const Finding &F, llvm::ArrayRef<VerifyUnit> Units) {
  auto Sees = [](const VerifyUnit &U, StringRef File) {
    return U.File == File || U.Files.count(File.str());
  };
  for (const VerifyUnit &U : Units) {
    if (!Sees(U, F.File))
      continue;
    if (llvm::all_of(F.Diag.Message.Fix, [&](const auto &E) {
          return E.second.empty() || Sees(U, E.first());
        }))
      return &U;
  }
  return nullptr;
}

/// A unit's PTX without any fix, prepared once for comparing with each
/// fix's.
struct Baseline {
  PtxCounts Counts;
  std::string Text; ///< normalisePtx
  /// instructionMultiset(Text, false) and instructionMultiset(Text, true).
  std::map<std::string, unsigned> Instructions, PlainInstructions;

  explicit Baseline(StringRef Ptx)
      : Counts(countPtx(Ptx)), Text(normalisePtx(Ptx)),
        Instructions(instructionMultiset(Text, false)),
        PlainInstructions(instructionMultiset(Text, true)) {}

  /// What a fix whose PTX is \p Ptx changes.
  Verdict verdict(StringRef Ptx) const {
    std::string After = normalisePtx(Ptx);
    if (After == Text || instructionMultiset(After, false) == Instructions)
      return {Verdict::Identical};
    PtxCounts C = countPtx(Ptx);
    if (C.NonCoherent != Counts.NonCoherent &&
        instructionMultiset(After, true) == PlainInstructions)
      return {Verdict::NonCoherentOnly, describeChange(Counts, C)};
    return {Verdict::Changed, describeChange(Counts, C)};
  }
};

bool hasFix(const Finding &F) {
  return llvm::any_of(F.Diag.Message.Fix,
                      [](const auto &E) { return !E.second.empty(); });
}

const char *const NonCoherentReason =
    "the fix moves or removes no instruction: at most it makes loads "
    "ld.global.nc, which gains nothing measurable on sm_70 and later (the "
    "read-only data cache is the L1 cache)";

/// Caps \p F's impact rank at \p Cap with \p Reason, where it is higher.
void capImpact(Finding &F, unsigned Cap, const std::string &Reason) {
  for (clang::tooling::DiagnosticMessage &N : F.Diag.Notes) {
    std::optional<ImpactNote> I = parseImpactNote(N.Message);
    if (!I || I->Rank <= Cap)
      continue;
    I->Rank = Cap;
    I->Level = impactLevel(Cap).str();
    I->Reason = Reason;
    N.Message = I->toMessage();
  }
}

/// Rewrites \p F's impact and notes after its verdict, made with \p C.
void record(Finding &F, const Verdict &V, const UnitCompiler &C) {
  std::string Where = C.where();
  clang::tooling::DiagnosticMessage Note;
  Note.FilePath = F.Diag.Message.FilePath;
  Note.FileOffset = F.Diag.Message.FileOffset;
  bool Restrict = F.Diag.DiagnosticName == "cuda-missing-restrict";
  switch (V.K) {
  case Verdict::Identical:
    if (Restrict && !C.Nvcc) {
      // Clang's back end makes fewer loads ld.global.nc than nvcc (it
      // needs the pointer's loads to be provably invariant): where the PTX
      // is identical, nvcc may still add .nc, and nothing more.
      capImpact(F, 30, NonCoherentReason + (" (" + Where + ")"));
      Note.Message = "ptx: identical with and without the fix (" + Where +
                     "); nvcc, which infers ld.global.nc more often, may "
                     "make some of its loads non-coherent, no more";
      break;
    }
    if (F.Diag.DiagnosticName == "cuda-integer-division" && !C.Nvcc) {
      // Clang's back end knows the ranges of the thread and block indices
      // and drops a signed division's sign fix-up where the dividend cannot
      // be negative; nvcc keeps those few instructions (measured on
      // HeCBench: bench/results/2026-11-29-prove-ptx.md).
      capImpact(F, 30,
                "with Clang's NVPTX back end the fix changes no instruction "
                "(the PTX is identical: it knows the dividend is not "
                "negative); nvcc may keep a sign fix-up of a few "
                "instructions (" +
                    Where + ")");
      Note.Message = "ptx: identical with and without the fix (" + Where +
                     "); nvcc may keep a sign fix-up of a few instructions";
      break;
    }
    capImpact(F, 5,
              "the fix changes no instruction: the PTX is identical with and "
              "without it (" +
                  Where + ")");
    Note.Message = "ptx: identical with and without the fix (" + Where + ")";
    break;
  case Verdict::NonCoherentOnly:
    // The same cap as cuda-missing-restrict's own (docs/impact.md).
    capImpact(F, 30, NonCoherentReason + (" (" + Where + ")"));
    Note.Message = "ptx: the fix only makes loads non-coherent: " + V.Change +
                   "; no other instruction changes (" + Where + ")";
    break;
  default:
    Note.Message =
        "ptx: the fix changes the translation unit's PTX: " +
        (V.Change.empty() ? std::string("other instructions, the same counts")
                          : V.Change) +
        " (" + Where + ")";
  }
  F.Diag.Notes.push_back(std::move(Note));
}

} // namespace

PtxProofStats provePtx(std::vector<Finding> &Findings,
                       llvm::ArrayRef<VerifyUnit> Units, unsigned Jobs,
                       PtxBackend Backend) {
  // The findings to prove, by unit.
  std::map<const VerifyUnit *, std::vector<size_t>> ByUnit;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    if (!hasFix(F) || !isDeviceCodeFixCheck(F.Diag.DiagnosticName))
      continue;
    std::optional<ImpactNote> Impact = findingImpact(F.Diag);
    if (!Impact || Impact->Rank <= 5)
      continue;
    if (const VerifyUnit *U = unitFor(F, Units))
      ByUnit[U].push_back(I);
  }
  std::vector<Verdict> Verdicts(Findings.size());
  std::map<const VerifyUnit *, UnitCompiler> Compilers;
  for (auto &[U, Is] : ByUnit)
    Compilers.try_emplace(U, *U, Backend);
  std::map<const VerifyUnit *, std::optional<Baseline>> Bases;
  std::map<const VerifyUnit *, std::string> BaseErrors;
  std::mutex M;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, Jobs)));
  for (auto &[U, Is] : ByUnit)
    Pool.async([&, U = U, C = &Compilers.at(U)] {
      std::string Error;
      std::optional<std::string> Ptx = C->baseline(Error);
      std::optional<Baseline> B;
      if (Ptx)
        B = Baseline(*Ptx);
      std::lock_guard<std::mutex> Lock(M);
      Bases[U] = std::move(B);
      if (!Ptx)
        BaseErrors[U] = U->File + ": " + Error;
    });
  Pool.wait();
  for (auto &[U, Is] : ByUnit) {
    const std::optional<Baseline> &Base = Bases[U];
    if (!Base) {
      for (size_t I : Is)
        Verdicts[I] = {Verdict::NotCompiled, "", BaseErrors[U]};
      continue;
    }
    for (size_t I : Is)
      Pool.async([&, U = U, I, B = &*Base, C = &Compilers.at(U)] {
        std::string Error;
        std::optional<std::string> Ptx =
            C->ptx(unitContents(*U, {Findings[I]}), Error);
        Verdict V =
            Ptx ? B->verdict(*Ptx)
                : Verdict{Verdict::NotCompiled, "",
                          Findings[I].File + ": with the fix: " + Error};
        std::lock_guard<std::mutex> Lock(M);
        Verdicts[I] = std::move(V);
      });
  }
  Pool.wait();
  PtxProofStats Stats;
  for (auto &[U, Is] : ByUnit) {
    const UnitCompiler &C = Compilers.at(U);
    for (size_t I : Is) {
      const Verdict &V = Verdicts[I];
      if (V.K == Verdict::NotCompiled || V.K == Verdict::NotRun) {
        ++Stats.NotCompiled;
        if (Stats.FirstError.empty())
          Stats.FirstError = V.Error;
        continue;
      }
      ++(V.K == Verdict::Identical         ? Stats.Identical
         : V.K == Verdict::NonCoherentOnly ? Stats.NonCoherentOnly
                                           : Stats.Changed);
      record(Findings[I], V, C);
    }
  }
  return Stats;
}

} // namespace cudalint
