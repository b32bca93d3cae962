//===--- PtxProof.cpp - cuda-lint -----------------------------------------===//

#include "cudalint/driver/PtxProof.h"
#include "cudalint/driver/ImpactNote.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include <cstring>
#include <mutex>

using llvm::StringRef;
namespace fs = llvm::sys::fs;

namespace cudalint {

namespace {

/// The opcode of an instruction line (after a `@%p` guard), or "" for a
/// directive, a label, a brace or a declaration.
StringRef opcodeOf(StringRef Line) {
  Line = Line.split("//").first.trim();
  if (Line.empty() || Line.starts_with(".") || Line.starts_with("{") ||
      Line.starts_with("}") || Line.starts_with(")") || Line.ends_with(":") ||
      Line.ends_with(","))
    return "";
  if (Line.starts_with("@"))
    Line = Line.split(' ').second.ltrim();
  StringRef Op = Line.take_until([](char C) { return C == ' ' || C == '\t'; });
  return Op.ends_with(";") ? Op.drop_back() : Op;
}

/// Calls \p Fn with each instruction line of \p Ptx (without its comment)
/// and its opcode.
template <typename Callback>
void forEachInstruction(StringRef Ptx, Callback Fn) {
  llvm::SmallVector<StringRef> Lines;
  Ptx.split(Lines, '\n');
  for (StringRef L : Lines)
    if (StringRef Op = opcodeOf(L); !Op.empty())
      Fn(L.split("//").first.trim(), Op);
}

bool isIntegerDivision(StringRef Op) {
  if (!Op.starts_with("div.") && !Op.starts_with("rem."))
    return false;
  return llvm::any_of(
      llvm::ArrayRef<StringRef>{".s32", ".u32", ".s64", ".u64", ".s16", ".u16"},
      [&](StringRef T) { return Op.ends_with(T); });
}

void initialiseNvptx() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

/// The GPU architecture \p U compiles for, as its flags say.
std::string gpuArch(const VerifyUnit &U) {
  for (StringRef A : llvm::reverse(U.ClangArgs))
    for (StringRef Flag : {"--cuda-gpu-arch=", "--offload-arch="})
      if (A.starts_with(Flag))
        return A.drop_front(Flag.size()).str();
  return "the default architecture";
}

} // namespace

PtxCounts countPtx(StringRef Ptx) {
  PtxCounts C;
  forEachInstruction(Ptx, [&](StringRef, StringRef Op) {
    ++C.Instructions;
    C.F64 += Op.contains(".f64");
    C.NonCoherent += Op.starts_with("ld.global.nc");
    C.IntDivisions += isIntegerDivision(Op);
    C.LocalAccesses += Op.starts_with("ld.local") || Op.starts_with("st.local");
  });
  return C;
}

std::string normalisePtx(StringRef Ptx) {
  std::string Out;
  llvm::SmallVector<StringRef> Lines;
  Ptx.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.split("//").first.rtrim();
    if (L.trim().empty() || L.starts_with(".version") ||
        L.starts_with(".target"))
      continue;
    Out += L;
    Out += '\n';
  }
  return Out;
}

std::string describeChange(const PtxCounts &Before, const PtxCounts &After) {
  std::string Out;
  auto Add = [&](StringRef What, unsigned B, unsigned A) {
    if (B == A)
      return;
    Out += (Out.empty() ? "" : ", ") + What.str() + " " + std::to_string(B) +
           " -> " + std::to_string(A);
  };
  Add("f64 instructions", Before.F64, After.F64);
  Add("ld.global.nc loads", Before.NonCoherent, After.NonCoherent);
  Add("integer divisions", Before.IntDivisions, After.IntDivisions);
  Add("local-memory accesses", Before.LocalAccesses, After.LocalAccesses);
  Add("instructions", Before.Instructions, After.Instructions);
  return Out;
}

std::optional<std::string>
unitPtx(const VerifyUnit &U, const std::map<std::string, std::string> &Contents,
        std::string &Error) {
  initialiseNvptx();
  std::vector<std::string> Args = clangSideArgs(U, /*Host=*/false);
  if (Args.empty()) {
    Error = "no compile command";
    return std::nullopt;
  }
  llvm::erase(Args, "-fsyntax-only");
  // The analysis' precompiled prelude was built without -O3: the headers
  // are parsed again.
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-include-pch")
      Args.erase(Args.begin() + I, Args.begin() + I + 2);
  llvm::SmallString<128> Out;
  if (fs::createTemporaryFile("cuda-lint-proof", "ptx", Out)) {
    Error = "no temporary file for the PTX";
    return std::nullopt;
  }
  // The device code as nvcc compiles it: optimised whatever the host's -O,
  // without debug information (which changes with every line moved).
  for (const char *A : {"-S", "-O3", "-g0", "-Wno-everything", "-o"})
    Args.push_back(A);
  Args.push_back(std::string(Out));
  std::vector<std::string> Errors = runClang(
      U, Contents, Args, std::make_unique<clang::EmitAssemblyAction>());
  std::optional<std::string> Ptx;
  auto Buf = llvm::MemoryBuffer::getFile(Out);
  if (!Errors.empty())
    Error = Errors.front();
  else if (!Buf)
    Error = "the compiler could not be run";
  else
    Ptx = (*Buf)->getBuffer().str();
  fs::remove(Out);
  return Ptx;
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

/// \p Line with register numbers, branch labels and mangled names left out
/// (`%rd12` is `%rd`, `$L__BB0_3` is `$L`, `_Z4stepPfPKf` is `_Z`): a fix
/// renumbers the registers after it, and adding `const` to a pointer
/// parameter renames the kernel.
std::string withoutNames(StringRef Line) {
  auto Ident = [](char C) { return llvm::isAlnum(C) || C == '_' || C == '$'; };
  std::string Out;
  for (size_t I = 0; I < Line.size();) {
    char C = Line[I];
    bool Start = I == 0 || !Ident(Line[I - 1]);
    if (C == '%') {
      size_t J = I + 1;
      while (J < Line.size() && llvm::isAlpha(Line[J]))
        ++J;
      Out += Line.slice(I, J);
      while (J < Line.size() && llvm::isDigit(Line[J]))
        ++J;
      I = J;
    } else if (Start && (Line.substr(I).starts_with("_Z") ||
                         Line.substr(I).starts_with("$L__"))) {
      Out += C == '_' ? "_Z" : "$L";
      while (I < Line.size() && Ident(Line[I]))
        ++I;
    } else {
      Out += C;
      ++I;
    }
  }
  return Out;
}

/// How many times each instruction occurs in \p Ptx, names left out
/// (withoutNames); with \p PlainLoads, ld.global.nc loads counted as plain
/// global loads. Two compilations with the same instructions in another
/// order or other registers have the same.
std::map<std::string, unsigned> instructions(StringRef Ptx, bool PlainLoads) {
  std::map<std::string, unsigned> Out;
  forEachInstruction(Ptx, [&](StringRef Line, StringRef Op) {
    std::string Key = withoutNames(Line);
    if (PlainLoads && Op.starts_with("ld.global.nc."))
      Key.erase(Key.find("ld.global.nc.") + strlen("ld.global."), 3);
    ++Out[Key];
  });
  return Out;
}

/// A unit's PTX without any fix, prepared once for comparing with each
/// fix's.
struct Baseline {
  PtxCounts Counts;
  std::string Text; ///< normalisePtx
  /// instructions(Text, false) and instructions(Text, true).
  std::map<std::string, unsigned> Instructions, PlainInstructions;

  explicit Baseline(StringRef Ptx)
      : Counts(countPtx(Ptx)), Text(normalisePtx(Ptx)),
        Instructions(instructions(Text, false)),
        PlainInstructions(instructions(Text, true)) {}

  /// What a fix whose PTX is \p Ptx changes.
  Verdict verdict(StringRef Ptx) const {
    std::string After = normalisePtx(Ptx);
    if (After == Text || instructions(After, false) == Instructions)
      return {Verdict::Identical};
    PtxCounts C = countPtx(Ptx);
    if (C.NonCoherent != Counts.NonCoherent &&
        instructions(After, true) == PlainInstructions)
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

/// Rewrites \p F's impact and notes after its verdict.
void record(Finding &F, const Verdict &V, StringRef Arch) {
  std::string Where = "Clang's NVPTX back end, " + Arch.str() + ", -O3";
  clang::tooling::DiagnosticMessage Note;
  Note.FilePath = F.Diag.Message.FilePath;
  Note.FileOffset = F.Diag.Message.FileOffset;
  bool Restrict = F.Diag.DiagnosticName == "cuda-missing-restrict";
  switch (V.K) {
  case Verdict::Identical:
    if (Restrict) {
      // Clang's back end makes fewer loads ld.global.nc than nvcc (it
      // needs the pointer's loads to be provably invariant): where the PTX
      // is identical, nvcc may still add .nc, and nothing more.
      capImpact(F, 30, NonCoherentReason + (" (" + Where + ")"));
      Note.Message = "ptx: identical with and without the fix (" + Where +
                     "); nvcc, which infers ld.global.nc more often, may "
                     "make some of its loads non-coherent, no more";
      break;
    }
    if (F.Diag.DiagnosticName == "cuda-integer-division") {
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
                       llvm::ArrayRef<VerifyUnit> Units, unsigned Jobs) {
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
  std::map<const VerifyUnit *, std::optional<Baseline>> Bases;
  std::map<const VerifyUnit *, std::string> BaseErrors;
  std::mutex M;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, Jobs)));
  for (auto &[U, Is] : ByUnit)
    Pool.async([&, U = U] {
      std::string Error;
      std::optional<std::string> Ptx = unitPtx(*U, {}, Error);
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
      Pool.async([&, U = U, I, B = &*Base] {
        std::string Error;
        std::optional<std::string> Ptx =
            unitPtx(*U, unitContents(*U, {Findings[I]}), Error);
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
    std::string Arch = gpuArch(*U);
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
      record(Findings[I], V, Arch);
    }
  }
  return Stats;
}

} // namespace cudalint
