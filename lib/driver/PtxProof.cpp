//===--- PtxProof.cpp - cuda-lint -----------------------------------------===//

#include "cudalint/driver/PtxProof.h"
#include "cudalint/driver/ImpactNote.h"
#include "cudalint/driver/NvccCommand.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualOutputBackend.h"
#include "llvm/Support/VirtualOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <mutex>

using llvm::StringRef;

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

/// An output of the compiler kept in a string, not written to disk.
class StringOutputFile final
    : public llvm::RTTIExtends<StringOutputFile, llvm::vfs::OutputFileImpl> {
public:
  static char ID;
  explicit StringOutputFile(std::string &Out) : Out(Out), OS(Buffer) {}
  llvm::Error keep() override {
    Out.assign(Buffer.begin(), Buffer.end());
    return llvm::Error::success();
  }
  llvm::Error discard() override { return llvm::Error::success(); }
  llvm::raw_pwrite_stream &getOS() override { return OS; }

private:
  std::string &Out;
  llvm::SmallString<0> Buffer;
  llvm::raw_svector_ostream OS;
};
char StringOutputFile::ID = 0;

/// Every output file of a compilation kept in one string. On disk, Clang
/// would also register the file for removal on a signal, which installs an
/// alternate signal stack in the worker thread (AddressSanitizer then fails
/// to unmap it when the thread ends).
class StringOutputBackend : public llvm::vfs::OutputBackend {
public:
  explicit StringOutputBackend(std::string &Out) : Out(Out) {}

protected:
  llvm::IntrusiveRefCntPtr<llvm::vfs::OutputBackend>
  cloneImpl() const override {
    return llvm::makeIntrusiveRefCnt<StringOutputBackend>(Out);
  }
  llvm::Expected<std::unique_ptr<llvm::vfs::OutputFileImpl>>
  createFileImpl(StringRef, std::optional<llvm::vfs::OutputConfig>) override {
    return std::make_unique<StringOutputFile>(Out);
  }

private:
  std::string &Out;
};

/// Clang's EmitAssemblyAction with its output (the PTX) in \p Out.
class EmitPtxToString : public clang::WrapperFrontendAction {
public:
  explicit EmitPtxToString(std::string &Out)
      : WrapperFrontendAction(std::make_unique<clang::EmitAssemblyAction>()),
        Out(Out) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.setOutputManager(llvm::makeIntrusiveRefCnt<StringOutputBackend>(Out));
    return WrapperFrontendAction::BeginInvocation(CI);
  }

private:
  std::string &Out;
};

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
  // The device code as nvcc compiles it: optimised whatever the host's -O,
  // without debug information (which changes with every line moved). The
  // output never reaches the disk (EmitPtxToString).
  for (const char *A :
       {"-S", "-O3", "-g0", "-Wno-everything", "-o", "cuda-lint-proof.ptx"})
    Args.push_back(A);
  std::string Out;
  std::vector<std::string> Errors =
      runClang(U, Contents, Args, std::make_unique<EmitPtxToString>(Out));
  if (!Errors.empty()) {
    Error = Errors.front();
    return std::nullopt;
  }
  if (Out.empty()) {
    Error = "the compiler wrote no PTX";
    return std::nullopt;
  }
  return Out;
}

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
  std::string Arch;                      ///< gpuArch
  std::vector<std::string> ProjectFiles; ///< nvccProjectFiles, for nvcc.

  UnitCompiler(const VerifyUnit &Unit, PtxBackend Backend)
      : U(&Unit), Nvcc(Backend == PtxBackend::Nvcc ||
                       (Backend == PtxBackend::Auto && nvccAvailable(Unit))),
        Arch(gpuArch(Unit)) {}

  /// Finds the project files nvcc reads (once, before the first ptx()).
  bool prepare(std::string &Error) {
    if (!Nvcc)
      return true;
    if (!nvccAvailable(*U)) {
      Error = "no nvcc command to run for this translation unit";
      return false;
    }
    std::optional<std::vector<std::string>> Files = nvccProjectFiles(*U, Error);
    if (Files)
      ProjectFiles = std::move(*Files);
    return Files.has_value();
  }

  std::optional<std::string> ptx(const std::map<std::string, std::string> &C,
                                 std::string &Error) const {
    return Nvcc ? nvccPtx(*U, ProjectFiles, C, Arch, Error)
                : unitPtx(*U, C, Error);
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
      std::optional<std::string> Ptx;
      if (C->prepare(Error))
        Ptx = C->ptx({}, Error);
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
